package rules

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
		b = AppendUserKey(b, u.UID)
		b = append(b, `,"username":`...)
		name, _ := json.Marshal(u.Username) // cannot fail for a string
		b = append(b, name...)
		b = AppendUserEconomy(b, u)
		b = append(b, `,"building_number":{`...)
		first := true
		for _, bt := range u.BuildingOrder {
			if bt == BuildingNone || bt >= NumBuildings {
				continue
			}
			b = AppendBuildingEntry(b, u, bt, first)
			first = false
		}
		b = append(b, `},"cell_number":`...)
		b = strconv.AppendInt(b, u.CellNumber, 10)
		b = append(b, '}')
	}
	b = append(b, `},"game_map":{"headers":`...)
	b = append(b, cellHeadersJSON...)
	b = append(b, `,"data":`...)
	b = AppendMapData(b, f, nil)
	return append(b, "}}\n"...)
}

// AppendMapData appends f's cells as the reference writes a game_map's
// "data": a JSON list of rows, each a list of cells (AppendFrameCell) with
// fields(i) leading fields for the cell of index i, or all of them when
// fields is nil.
func AppendMapData(b []byte, f *Frame, fields func(i int) int) []byte {
	b = append(b, '[')
	for y := 0; y < f.Height; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < f.Width; x++ {
			if x > 0 {
				b = append(b, ',')
			}
			i, n := y*f.Width+x, NumCellFields
			if fields != nil {
				n = fields(i)
			}
			b = AppendFrameCell(b, &f.Cells[i], n)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// NumCellFields is the number of fields of a cell in the reference's
// game_map rows.
const NumCellFields = 10

// CellHeaders names the fields of a game_map cell, in order: the
// reference's game_map "headers" list.
var CellHeaders = [NumCellFields]string{
	"attack_cost", "force_field", "building", "gold", "energy", "owner",
	"position", "natural_gold", "natural_energy", "natural_cost",
}

// cellHeadersJSON is CellHeaders as a JSON list.
var cellHeadersJSON, _ = json.Marshal(CellHeaders) // cannot fail for strings

// AppendFrameCell appends the first n (0..NumCellFields) fields of c as
// the reference writes a game_map cell: a JSON array, the building as
// [letter, level] and the position as [x, y]. Bot messages and .cfr
// replays (package cfr, which writes a cell's changed prefix) share it.
func AppendFrameCell(b []byte, c *FrameCell, n int) []byte {
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		switch i {
		case 0:
			b = strconv.AppendInt(b, c.AttackCost, 10)
		case 1:
			b = strconv.AppendInt(b, c.ForceField, 10)
		case 2:
			b = append(b, `["`...)
			b = append(b, c.Building.Letter())
			b = append(b, `",`...)
			b = strconv.AppendInt(b, c.Level, 10)
			b = append(b, ']')
		case 3:
			b = strconv.AppendInt(b, c.Gold, 10)
		case 4:
			b = strconv.AppendInt(b, c.Energy, 10)
		case 5:
			b = strconv.AppendInt(b, c.Owner, 10)
		case 6:
			b = append(b, '[')
			b = strconv.AppendInt(b, c.X, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Y, 10)
			b = append(b, ']')
		case 7:
			b = strconv.AppendInt(b, c.NaturalGold, 10)
		case 8:
			b = strconv.AppendInt(b, c.NaturalEnergy, 10)
		case 9:
			b = strconv.AppendInt(b, c.NaturalCost, 10)
		}
	}
	return append(b, ']')
}

// AppendUserEconomy appends the run of a user object's keys the reference
// writes after its identity, each with a leading comma: energy, gold,
// dead, energy_source, gold_source, tech_level, tax_level, tax_amount.
// Bot messages and .cfr replays share it.
func AppendUserEconomy(b []byte, u *FrameUser) []byte {
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
	return strconv.AppendInt(b, u.TaxAmount, 10)
}

// AppendBuildingEntry appends the entry of building type bt in u's
// building_number object, `"KEY":COUNT`, after a comma unless it is the
// first. Bot messages and .cfr replays share it.
func AppendBuildingEntry(b []byte, u *FrameUser, bt Building, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, bt.Key()...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, u.Buildings[bt], 10)
}

// AppendUserKey appends the opening of a user's entry in a users object
// as the reference writes it, keyed by its uid: `"UID":{"uid":UID` (the
// object left open). Bot messages and .cfr replays share it.
func AppendUserKey(b []byte, uid int64) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, uid, 10)
	b = append(b, `":{"uid":`...)
	return strconv.AppendInt(b, uid, 10)
}
