package rules

import "strconv"

// GameVersion is the reference's GAME_VERSION.
const GameVersion = "full"

// AppendPoll appends the answer of a full /getgameinfo at the current
// tick (RULES §12.6), built from the state after the update, in the
// vectors' canonical JSON: keys sorted at every level, no spaces,
// integers as integers, floats as Python writes them (AppendFloat),
// strings ASCII. The cells' t is the take time now with the game's
// 2 ** x.
func (s *State) AppendPoll(dst []byte) []byte {
	now := s.Now()
	dst = append(dst, `{"cells":[`...)
	for id := range s.Cells {
		if id > 0 {
			dst = append(dst, ',')
		}
		dst = s.appendCell(dst, id, now)
	}
	dst = append(dst, `],"info":{"end_time":`...)
	dst = AppendFloat(dst, s.Info.EndTime)
	dst = append(dst, `,"game_id":`...)
	dst = strconv.AppendInt(dst, int64(s.Info.GameID), 10)
	dst = append(dst, `,"game_version":"`+GameVersion+`","height":`...)
	dst = strconv.AppendInt(dst, int64(s.Info.Height), 10)
	dst = append(dst, `,"join_end_time":`...)
	dst = AppendFloat(dst, s.Info.JoinEndTime)
	dst = append(dst, `,"plan_start_time":`...)
	dst = AppendFloat(dst, s.Info.PlanStartTime)
	dst = append(dst, `,"time":`...)
	dst = AppendFloat(dst, now)
	dst = append(dst, `,"width":`...)
	dst = strconv.AppendInt(dst, int64(s.Info.Width), 10)
	dst = append(dst, `},"users":[`...)
	for i := range s.Users {
		u := &s.Users[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"base_num":`...)
		dst = strconv.AppendInt(dst, int64(u.Bases), 10)
		dst = append(dst, `,"build_cd_time":`...)
		dst = AppendFloat(dst, u.BuildCDTime)
		dst = append(dst, `,"cd_time":`...)
		dst = AppendFloat(dst, u.CDTime)
		dst = append(dst, `,"cell_num":`...)
		dst = strconv.AppendInt(dst, int64(u.Cells), 10)
		dst = append(dst, `,"dead_time":`...)
		dst = AppendFloat(dst, u.DeadTime)
		dst = append(dst, `,"energy":`...)
		dst = AppendFloat(dst, u.Energy)
		dst = append(dst, `,"energy_cell_num":`...)
		dst = strconv.AppendInt(dst, int64(u.EnergyCells), 10)
		dst = append(dst, `,"gold":`...)
		dst = AppendFloat(dst, u.Gold)
		dst = append(dst, `,"gold_cell_num":`...)
		dst = strconv.AppendInt(dst, int64(u.GoldCells), 10)
		dst = append(dst, `,"id":`...)
		dst = strconv.AppendInt(dst, int64(u.ID), 10)
		dst = append(dst, `,"name":`...)
		dst = AppendString(dst, u.Name)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// appendCell appends cell id's object of a poll answer at now.
func (s *State) appendCell(dst []byte, id int, now float64) []byte {
	c := &s.Cells[id]
	dst = append(dst, `{"a":`...)
	dst = strconv.AppendInt(dst, int64(c.Attacker), 10)
	dst = append(dst, `,"at":`...)
	dst = AppendFloat(dst, c.AttackTime)
	if c.Blast {
		dst = append(dst, `,"aty":"blast","b":`...)
	} else {
		dst = append(dst, `,"aty":"normal","b":`...)
	}
	if c.Base {
		dst = append(dst, `"base","bf":`...)
	} else {
		dst = append(dst, `"empty","bf":`...)
	}
	dst = strconv.AppendBool(dst, c.BuildFinish)
	dst = append(dst, `,"bt":`...)
	dst = AppendFloat(dst, c.BuildTime)
	if c.IsTaking {
		dst = append(dst, `,"c":1,"ct":"`...)
	} else {
		dst = append(dst, `,"c":0,"ct":"`...)
	}
	dst = append(dst, c.Type.String()...)
	dst = append(dst, `","f":`...)
	dst = AppendFloat(dst, c.FinishTime)
	dst = append(dst, `,"o":`...)
	dst = strconv.AppendInt(dst, int64(c.Owner), 10)
	dst = append(dst, `,"ot":`...)
	dst = AppendFloat(dst, c.OccupyTime)
	dst = append(dst, `,"t":`...)
	switch {
	case c.IsTaking:
		dst = append(dst, "-1"...)
	case c.Owner == 0:
		dst = append(dst, '2')
	case now-c.OccupyTime <= 0:
		dst = append(dst, "33"...)
	default:
		dst = AppendFloat(dst, s.TakeTime(c, now))
	}
	dst = append(dst, `,"x":`...)
	dst = strconv.AppendInt(dst, int64(id%Width), 10)
	dst = append(dst, `,"y":`...)
	dst = strconv.AppendInt(dst, int64(id/Width), 10)
	return append(dst, '}')
}
