package colorfight2

import (
	"encoding/json"
	"strconv"
)

// AppendBotTurn appends the turn message a ColorfightII bot outside the
// process is sent for frame f, as player uid (docs/bot-protocol.md,
// "turn"): one line, ending in a newline. maxTurn is the turn limit the
// bot is told and deadlineMS its answer deadline. Cells are written in
// full, users in the frame's order with their building_number keys in
// BuildingOrder's (types out of range skipped).
func AppendBotTurn(b []byte, f *Frame, uid, maxTurn int, deadlineMS int64) []byte {
	b = append(b, `{"type":"turn","turn":`...)
	b = strconv.AppendInt(b, int64(f.Turn), 10)
	b = append(b, `,"uid":`...)
	b = strconv.AppendInt(b, int64(uid), 10)
	b = append(b, `,"info":{"max_turn":`...)
	b = strconv.AppendInt(b, int64(maxTurn), 10)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(f.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(f.Height), 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, deadlineMS, 10)
	b = append(b, `},"users":{`...)
	for i := range f.Users {
		u := &f.Users[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, u.UID, 10)
		b = append(b, `":{"uid":`...)
		b = strconv.AppendInt(b, u.UID, 10)
		b = append(b, `,"username":`...)
		name, _ := json.Marshal(u.Username) // cannot fail for a string
		b = append(b, name...)
		b = append(b, `,"energy":`...)
		b = strconv.AppendInt(b, u.Energy, 10)
		b = append(b, `,"gold":`...)
		b = strconv.AppendInt(b, u.Gold, 10)
		b = append(b, `,"dead":`...)
		b = strconv.AppendBool(b, u.Dead)
		b = append(b, `,"energy_source":`...)
		b = strconv.AppendInt(b, u.EnergySource, 10)
		b = append(b, `,"gold_source":`...)
		b = strconv.AppendInt(b, u.GoldSource, 10)
		b = append(b, `,"tech_level":`...)
		b = strconv.AppendInt(b, u.TechLevel, 10)
		b = append(b, `,"tax_level":`...)
		b = strconv.AppendInt(b, u.TaxLevel, 10)
		b = append(b, `,"tax_amount":`...)
		b = strconv.AppendInt(b, u.TaxAmount, 10)
		b = append(b, `,"building_number":{`...)
		first := true
		for _, bt := range u.BuildingOrder {
			if bt == BuildingNone || bt >= NumBuildings {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, bt.Key()...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, u.Buildings[bt], 10)
		}
		b = append(b, `},"cell_number":`...)
		b = strconv.AppendInt(b, u.CellNumber, 10)
		b = append(b, '}')
	}
	b = append(b, `},"game_map":{"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"],"data":[`...)
	for y := 0; y < f.Height; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < f.Width; x++ {
			if x > 0 {
				b = append(b, ',')
			}
			c := &f.Cells[y*f.Width+x]
			b = append(b, '[')
			b = strconv.AppendInt(b, c.AttackCost, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.ForceField, 10)
			b = append(b, `,["`...)
			b = append(b, c.Building.Letter())
			b = append(b, `",`...)
			b = strconv.AppendInt(b, c.Level, 10)
			b = append(b, "],"...)
			b = strconv.AppendInt(b, c.Gold, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Energy, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Owner, 10)
			b = append(b, ",["...)
			b = strconv.AppendInt(b, c.X, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Y, 10)
			b = append(b, "],"...)
			b = strconv.AppendInt(b, c.NaturalGold, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.NaturalEnergy, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.NaturalCost, 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, "]}}\n"...)
}
