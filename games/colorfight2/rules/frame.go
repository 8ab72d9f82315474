package rules

import "strconv"

// Frame is the observable game at one turn, exactly the fields of an
// official .cfr frame. It is the one frame model shared by the engine, the
// .cfr codec, analysis and the viewer. Cells are row-major: Cells[y*Width+x].
//
// A Frame is plain data: copying it with CopyFrom gives an independent frame.
type Frame struct {
	Turn   int
	Width  int
	Height int
	Cells  []FrameCell
	// Users in the order the replay lists them, each uid at most once.
	// Empty before anyone registered. The official server lists players in
	// registration order, which is not always ascending uid (a uid freed
	// during turn 0 is reused by a later registrant, listed last); the
	// engine lists its players in ascending uid. Look a user up by UID,
	// never by position.
	Users []FrameUser
}

// FrameCell is one cell of a frame, in .cfr header order.
type FrameCell struct {
	AttackCost    int64
	ForceField    int64
	Building      Building
	Level         int64 // 1 for an empty cell, as the official format writes it
	Gold          int64 // the cell's gold output this turn
	Energy        int64 // the cell's energy output this turn
	Owner         int64 // 0 = unowned
	X, Y          int64 // position
	NaturalGold   int64
	NaturalEnergy int64
	NaturalCost   int64
}

// FrameUser is one player's public state, in .cfr field order.
type FrameUser struct {
	UID      int64
	Username string
	Verified bool
	// Ranking is the exact text of the JSON number the official server
	// wrote ("17.223456789", "1.000000082740371e-8"), so that a replay
	// round-trips byte for byte; "" stands for 0, the ranking of every
	// unverified player and of every engine frame.
	Ranking      string
	Energy       int64
	Gold         int64
	Dead         bool
	EnergySource int64
	GoldSource   int64
	TechLevel    int64
	TaxLevel     int64
	TaxAmount    int64
	// Buildings counts buildings by type, indexed by Building (Home..Fortress;
	// index 0, BuildingNone, is unused).
	Buildings [NumBuildings]int64
	// BuildingOrder lists the building types present in the order the
	// official server writes the building_number keys (the order in which
	// the cell scan first met each type). Types with a zero count are absent.
	BuildingOrder []Building
	CellNumber    int64
}

// Building is a building type.
type Building uint8

// Building types. The zero value is an empty cell.
const (
	BuildingNone Building = iota
	Home
	GoldMine
	EnergyWell
	Fortress
	NumBuildings
)

// Letter returns the one-letter code used by commands and the .cfr format:
// ' ', 'h', 'g', 'e' or 'f'.
func (b Building) Letter() byte {
	switch b {
	case Home:
		return 'h'
	case GoldMine:
		return 'g'
	case EnergyWell:
		return 'e'
	case Fortress:
		return 'f'
	}
	return ' '
}

// BuildingFromLetter maps a letter to a building type; ok is false for any
// letter other than ' ', 'h', 'g', 'e', 'f'.
func BuildingFromLetter(c byte) (b Building, ok bool) {
	switch c {
	case ' ':
		return BuildingNone, true
	case 'h':
		return Home, true
	case 'g':
		return GoldMine, true
	case 'e':
		return EnergyWell, true
	case 'f':
		return Fortress, true
	}
	return BuildingNone, false
}

// Key returns the building_number key of the official format ("home",
// "gold_mine", "energy_well", "fortress"), or "" for BuildingNone.
func (b Building) Key() string {
	switch b {
	case Home:
		return "home"
	case GoldMine:
		return "gold_mine"
	case EnergyWell:
		return "energy_well"
	case Fortress:
		return "fortress"
	}
	return ""
}

// String returns a readable name.
func (b Building) String() string {
	if b == BuildingNone {
		return "none"
	}
	if b >= NumBuildings {
		return "invalid"
	}
	return b.Key()
}

// Cell returns the cell at (x, y). It panics if (x, y) is off the frame.
func (f *Frame) Cell(x, y int) *FrameCell { return &f.Cells[y*f.Width+x] }

// CopyFrom makes f a deep copy of src, reusing f's storage.
func (f *Frame) CopyFrom(src *Frame) {
	f.Turn, f.Width, f.Height = src.Turn, src.Width, src.Height
	f.Cells = append(f.Cells[:0], src.Cells...)
	if cap(f.Users) < len(src.Users) {
		f.Users = make([]FrameUser, len(src.Users))
	}
	f.Users = f.Users[:len(src.Users)]
	for i := range src.Users {
		order := f.Users[i].BuildingOrder[:0]
		f.Users[i] = src.Users[i]
		f.Users[i].BuildingOrder = append(order, src.Users[i].BuildingOrder...)
	}
}

// Frame fills f with the observable state at the current turn, reusing f's
// storage. Ranking and Verified are always zero/false, as in the frames the
// official server records during a game.
func (s *State) Frame(f *Frame) {
	w, h := s.cfg.Width, s.cfg.Height
	f.Turn, f.Width, f.Height = s.turn, w, h
	if cap(f.Cells) < len(s.cells) {
		f.Cells = make([]FrameCell, len(s.cells))
	}
	f.Cells = f.Cells[:len(s.cells)]
	cells, lands, out := s.cells[:w*h], s.land[:w*h], f.Cells[:w*h]
	for y, i := 0, 0; y < h; y++ {
		for x := 0; x < w; x, i = x+1, i+1 {
			c, l, fc := &cells[i], &lands[i], &out[i]
			level := int64(c.level)
			if c.building == BuildingNone {
				level = 1
			}
			// Field by field: a composite literal is built aside, then copied.
			fc.AttackCost, fc.ForceField = s.attackCost(i), int64(c.ff)
			fc.Building, fc.Level = c.building, level
			fc.Gold, fc.Energy = int64(c.gold), int64(c.energy)
			fc.Owner, fc.X, fc.Y = int64(c.owner), int64(x), int64(y)
			fc.NaturalGold, fc.NaturalEnergy, fc.NaturalCost = int64(l.ng), int64(l.ne), int64(l.nc)
		}
	}
	if cap(f.Users) < len(s.users) {
		f.Users = make([]FrameUser, len(s.users))
	}
	f.Users = f.Users[:len(s.users)]
	s.buildingOrders()
	for i := range s.users {
		u := &s.users[i]
		fu := &f.Users[i]
		order := append(fu.BuildingOrder[:0], u.order[:u.norder]...)
		*fu = FrameUser{
			UID: int64(u.uid), Username: u.name,
			Energy: u.energy, Gold: u.gold, Dead: u.dead,
			EnergySource: u.energySource, GoldSource: u.goldSource,
			TechLevel: u.techLevel, TaxLevel: u.taxLevel, TaxAmount: u.tax,
			Buildings: u.buildings, BuildingOrder: order, CellNumber: u.cells,
		}
	}
}

// Frame fills f with the map before anyone registered (turn 0, no users,
// every cell unowned), as element 0 of an official replay shows it.
func (m *Map) Frame(f *Frame) {
	f.Turn, f.Width, f.Height = 0, m.Width, m.Height
	n := m.Width * m.Height
	if cap(f.Cells) < n {
		f.Cells = make([]FrameCell, n)
	}
	f.Cells = f.Cells[:n]
	for i := range f.Cells {
		f.Cells[i] = FrameCell{
			AttackCost: m.NaturalCost[i], Level: 1,
			Gold: m.NaturalGold[i], Energy: m.NaturalEnergy[i],
			X: int64(i % m.Width), Y: int64(i / m.Width),
			NaturalGold: m.NaturalGold[i], NaturalEnergy: m.NaturalEnergy[i], NaturalCost: m.NaturalCost[i],
		}
	}
	f.Users = f.Users[:0]
}

// MapFrame fills f with the map before anyone registered (turn 0, no
// users, every cell unowned: Map.Frame of the state's terrain), the frame
// 0 of an official replay of the game, whatever turn s is at.
func (s *State) MapFrame(f *Frame) {
	m := NewMap(s.cfg.Width, s.cfg.Height)
	for i := range s.land {
		l := &s.land[i]
		m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = int64(l.ng), int64(l.ne), int64(l.nc)
	}
	m.Frame(f)
}

// OfficialFrame fills f with the frame an official replay holds for the
// state's turn: MapFrame at turn 0, Frame after it (ratings zero).
func (s *State) OfficialFrame(f *Frame) {
	if s.turn == 0 {
		s.MapFrame(f)
		return
	}
	s.Frame(f)
}

// MapFromFrame extracts the terrain (natural gold, energy, cost) of f.
func MapFromFrame(f *Frame) *Map {
	m := NewMap(f.Width, f.Height)
	for i := range f.Cells {
		m.NaturalGold[i] = f.Cells[i].NaturalGold
		m.NaturalEnergy[i] = f.Cells[i].NaturalEnergy
		m.NaturalCost[i] = f.Cells[i].NaturalCost
	}
	return m
}

// Divergence describes the first difference between two frames.
type Divergence struct {
	Turn  int
	Where string // "cell (x,y)", "user 3", or "frame"
	Field string // the official field name
	Want  string
	Got   string
}

func (d *Divergence) String() string {
	return "turn " + itoa(int64(d.Turn)) + ": " + d.Where + ": " + d.Field + ": want " + d.Want + ", got " + d.Got
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func btoa(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// Diff compares every field of every cell and user of want and got, in
// row-major cell order then ascending uid order, and returns the first
// difference, or nil when they are equal. Users are matched by uid: the
// order of the users list is not compared, nor is building key order (both
// are presentation, not state). Ranking is compared as text, "" and "0"
// being the same.
func Diff(want, got *Frame) *Divergence {
	d := func(where, field, w, g string) *Divergence {
		return &Divergence{Turn: want.Turn, Where: where, Field: field, Want: w, Got: g}
	}
	if want.Turn != got.Turn {
		return d("frame", "turn", itoa(int64(want.Turn)), itoa(int64(got.Turn)))
	}
	if want.Width != got.Width || want.Height != got.Height {
		return d("frame", "size", itoa(int64(want.Width))+"x"+itoa(int64(want.Height)), itoa(int64(got.Width))+"x"+itoa(int64(got.Height)))
	}
	if len(want.Cells) != len(got.Cells) {
		return d("frame", "cells", itoa(int64(len(want.Cells))), itoa(int64(len(got.Cells))))
	}
	for i := range want.Cells {
		a, b := &want.Cells[i], &got.Cells[i]
		if *a == *b {
			continue
		}
		where := "cell (" + itoa(int64(i%want.Width)) + "," + itoa(int64(i/want.Width)) + ")"
		ints := [...]struct {
			name string
			w, g int64
		}{
			// What a round decides first; attack_cost, gold and energy
			// derive from it.
			{"owner", a.Owner, b.Owner},
			{"building", int64(a.Building), int64(b.Building)},
			{"building level", a.Level, b.Level},
			{"force_field", a.ForceField, b.ForceField},
			{"gold", a.Gold, b.Gold},
			{"energy", a.Energy, b.Energy},
			{"attack_cost", a.AttackCost, b.AttackCost},
			{"position x", a.X, b.X},
			{"position y", a.Y, b.Y},
			{"natural_gold", a.NaturalGold, b.NaturalGold},
			{"natural_energy", a.NaturalEnergy, b.NaturalEnergy},
			{"natural_cost", a.NaturalCost, b.NaturalCost},
		}
		for _, f := range ints {
			if f.w != f.g {
				if f.name == "building" {
					return d(where, f.name, a.Building.String(), b.Building.String())
				}
				return d(where, f.name, itoa(f.w), itoa(f.g))
			}
		}
	}
	if len(want.Users) != len(got.Users) {
		return d("frame", "number of users", itoa(int64(len(want.Users))), itoa(int64(len(got.Users))))
	}
	var small [MaxPlayers]int
	order := small[:0]
	if len(want.Users) > len(small) {
		order = make([]int, 0, len(want.Users))
	}
	for i := range want.Users {
		// Insertion sort by uid: lists are short and usually sorted.
		j := len(order)
		order = append(order, i)
		for ; j > 0 && want.Users[order[j-1]].UID > want.Users[i].UID; j-- {
			order[j] = order[j-1]
		}
		order[j] = i
	}
	for _, i := range order {
		a := &want.Users[i]
		where := "user " + itoa(a.UID)
		b := findUser(got.Users, a.UID, i)
		if b == nil {
			return d(where, "uid", itoa(a.UID), "no such user")
		}
		if a.Username != b.Username {
			return d(where, "username", a.Username, b.Username)
		}
		if a.Verified != b.Verified {
			return d(where, "verified", btoa(a.Verified), btoa(b.Verified))
		}
		if ra, rb := rankingText(a.Ranking), rankingText(b.Ranking); ra != rb {
			return d(where, "ranking", ra, rb)
		}
		if a.Dead != b.Dead {
			return d(where, "dead", btoa(a.Dead), btoa(b.Dead))
		}
		ints := [...]struct {
			name string
			w, g int64
		}{
			{"energy", a.Energy, b.Energy},
			{"gold", a.Gold, b.Gold},
			{"energy_source", a.EnergySource, b.EnergySource},
			{"gold_source", a.GoldSource, b.GoldSource},
			{"tech_level", a.TechLevel, b.TechLevel},
			{"tax_level", a.TaxLevel, b.TaxLevel},
			{"tax_amount", a.TaxAmount, b.TaxAmount},
			{"building_number.home", a.Buildings[Home], b.Buildings[Home]},
			{"building_number.gold_mine", a.Buildings[GoldMine], b.Buildings[GoldMine]},
			{"building_number.energy_well", a.Buildings[EnergyWell], b.Buildings[EnergyWell]},
			{"building_number.fortress", a.Buildings[Fortress], b.Buildings[Fortress]},
			{"cell_number", a.CellNumber, b.CellNumber},
		}
		for _, f := range ints {
			if f.w != f.g {
				return d(where, f.name, itoa(f.w), itoa(f.g))
			}
		}
	}
	return nil
}

// findUser returns the first user of users with the given uid, trying
// position hint first, or nil.
func findUser(users []FrameUser, uid int64, hint int) *FrameUser {
	if hint < len(users) && users[hint].UID == uid {
		return &users[hint]
	}
	for i := range users {
		if users[i].UID == uid {
			return &users[i]
		}
	}
	return nil
}

// rankingText is the ranking as written in a replay: "0" for "".
func rankingText(r string) string {
	if r == "" {
		return "0"
	}
	return r
}
