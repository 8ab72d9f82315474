package colorfight2

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
	// Users in ascending uid order. Empty before anyone registered.
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
	UID          int64
	Username     string
	Verified     bool
	Ranking      int64
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
