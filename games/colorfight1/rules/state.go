package rules

import (
	"errors"
	"fmt"
	"math"

	"github.com/rewind-game/rewind/engine/rng"
)

// Map size and prices (RULES §0).
const (
	Width, Height = 30, 30
	NumCells      = Width * Height
	// RefreshInterval is GAME_REFRESH_INTERVAL: a poll updates the world
	// only when more time than this has passed since the last update.
	RefreshInterval = 0.1
	// GoldCells and EnergyCells are how many cells of each type a map
	// has (int(0.02·900)).
	GoldCells, EnergyCells = 18, 18

	boostEnergy     = 15
	blastEnergy     = 30
	baseGold        = 60
	multiattackGold = 40
	maxBases        = 3
	buildSeconds    = 30
)

// CellType is a cell's cell_type.
type CellType uint8

// Cell types.
const (
	Normal CellType = iota
	Gold
	Energy
)

var cellTypeNames = [...]string{"normal", "gold", "energy"}

// String is the type as the reference writes it.
func (t CellType) String() string { return cellTypeNames[t] }

// Cell is one row of the reference's cells table (every column but the
// database's timestamp); its id is its index, x + 30·y.
type Cell struct {
	OccupyTime, AttackTime, FinishTime, LastUpdate, BuildTime float64
	Owner, Attacker                                           int32
	IsTaking                                                  bool
	// Blast is attack_type "blast" (else "normal").
	Blast bool
	Type  CellType
	// Base is build_type "base" (else "empty"); BuildFinish is
	// build_finish.
	Base, BuildFinish bool
}

// User is one row of the users table.
type User struct {
	ID                                   int
	Name                                 string
	Token                                string
	CDTime, BuildCDTime                  float64
	Cells, Bases, EnergyCells, GoldCells int
	Dirty                                bool
	Energy, Gold                         float64
	DeadTime                             float64
	mark                                 uint8 // this update's dirty flags
}

// Info is row 0 of the info table.
type Info struct {
	Width, Height, MaxID int
	EndTime, JoinEndTime float64
	AIOnly               bool
	LastUpdate           float64
	GameID               int
	PlanStartTime        float64
}

// Config is what fixes a game (RULES §12.2): the clock, the seed of
// Python's generator, the body of its /startgame and the map.
type Config struct {
	T0, Tick float64
	Seed     uint64
	// LastTime and JoinTime are /startgame's last_time and ai_join_time
	// (seconds; 0: unlimited, no join window).
	LastTime, JoinTime float64
	// GoldCells and EnergyCells are the ids of the gold and energy cells.
	GoldCells, EnergyCells []int
	// AdminPassword is what /startgame's admin_password must equal to
	// restart the game; nil refuses every /startgame (answered "Fail").
	AdminPassword *string
}

// State is a game: the three tables, the clock and the generator.
type State struct {
	Cells [NumCells]Cell
	// Users are the rows of the users table in ascending id.
	Users []User
	Info  Info

	tick     int
	t0, step float64
	random   *randomState
	admin    *string

	// taking has bit id set for every cell with IsTaking.
	taking [(NumCells + 63) / 64]uint64
	// building counts the unfinished bases.
	building int
	// own[uid] counts the cells uid owns now (the truth the lazy user
	// counts are recounted from).
	own []ownCount

	queue []relocation
	dead  []int
	pow   *Pow2

	// Events of the last Advance or Do.
	events []Event
}

type ownCount struct{ cells, bases, allBases, gold, energy int32 }

type relocation struct {
	owner int32
	x, y  int
}

// randomState is Python's module-level generator.
type randomState = rng.MT19937

// ErrTick is the error of a Config whose ticks would not each refresh the
// world (RULES §12.1: now(k) − now(k−1) must exceed the refresh interval).
var ErrTick = errors.New("colorfight1: the tick must be more than 0.1 s")

// New starts a game as tick 0's /startgame does (RULES §12.2): now(0),
// the game id drawn from Python's generator seeded with c.Seed, fresh
// cells typed from c's lists. pow is the game's 2 ** x (nil: the
// correctly rounded one).
func New(c Config, pow *Pow2) (*State, error) {
	if !(c.Tick > RefreshInterval) || math.IsInf(c.Tick, 0) || math.IsInf(c.T0, 0) || c.T0 != c.T0 {
		return nil, fmt.Errorf("%w: tick %v, t0 %v", ErrTick, c.Tick, c.T0)
	}
	if t := c.T0 + c.Tick; !(t-c.T0 > RefreshInterval) {
		return nil, fmt.Errorf("%w: at t0 %v a tick of %v is %v", ErrTick, c.T0, c.Tick, t-c.T0)
	}
	s := &State{t0: c.T0, step: c.Tick, pow: pow, admin: c.AdminPassword}
	s.random = newPythonRandom(c.Seed)
	s.start(c.LastTime, c.JoinTime, false)
	if err := s.SetCellTypes(c.GoldCells, c.EnergyCells); err != nil {
		return nil, err
	}
	return s, nil
}

// SetCellTypes sets every cell's type: the ids in gold are gold cells,
// those in energy energy cells, the rest normal.
func (s *State) SetCellTypes(gold, energy []int) error {
	for i := range s.Cells {
		s.Cells[i].Type = Normal
	}
	for _, l := range []struct {
		ids []int
		t   CellType
	}{{gold, Gold}, {energy, Energy}} {
		for _, id := range l.ids {
			if id < 0 || id >= NumCells {
				return fmt.Errorf("colorfight1: %s cell %d is not on the map", l.t, id)
			}
			if s.Cells[id].Type != Normal {
				return fmt.Errorf("colorfight1: cell %d is both gold and energy", id)
			}
			s.Cells[id].Type = l.t
		}
	}
	s.recount()
	return nil
}

// recount rebuilds the live counts and the taking and building sets
// from the cells.
func (s *State) recount() {
	s.own = s.own[:0]
	s.taking = [len(s.taking)]uint64{}
	s.building = 0
	for id := range s.Cells {
		c := &s.Cells[id]
		s.count(id, 1)
		if c.IsTaking {
			s.taking[id>>6] |= 1 << (id & 63)
		}
		if c.Base && !c.BuildFinish {
			s.building++
		}
	}
}

// start is /startgame's body (RULES §2) at now: ClearGame's hard reset
// and the info row. Cell types are kept.
func (s *State) start(lastTime, joinTime float64, aiOnly bool) {
	now := s.Now()
	for i := range s.Cells {
		c := &s.Cells[i]
		*c = Cell{FinishTime: c.FinishTime, BuildTime: c.BuildTime, LastUpdate: now, Type: c.Type, BuildFinish: true}
	}
	s.taking = [len(s.taking)]uint64{}
	s.building = 0
	s.Users = s.Users[:0]
	s.own = s.own[:0]
	end, join := 0.0, 0.0
	if lastTime != 0 {
		end = now + lastTime
	}
	if joinTime != 0 {
		join = now + joinTime
	}
	s.Info = Info{Width: Width, Height: Height, MaxID: NumCells, EndTime: end, JoinEndTime: join,
		AIOnly: aiOnly, LastUpdate: now, GameID: int(s.random.Getrandbits(30))}
}

// Now is the time of the current tick, now(k) = t0 + k·tick (the product
// rounded, then the sum).
func (s *State) Now() float64 { return s.t0 + float64(float64(s.tick)*s.step) }

// Tick is the current tick k.
func (s *State) Tick() int { return s.tick }

// Timed reports whether the game has an end time.
func (s *State) Timed() bool { return s.Info.EndTime != 0 }

// Ended reports whether the game is past its end time now.
func (s *State) Ended() bool { return s.Info.EndTime != 0 && s.Now() > s.Info.EndTime }

// Pow is the game's 2 ** x.
func (s *State) Pow() *Pow2 { return s.pow }

// User returns the row of uid, nil when there is none.
func (s *State) User(uid int) *User {
	for i := range s.Users {
		if s.Users[i].ID == uid {
			return &s.Users[i]
		}
	}
	return nil
}

// byToken is the lowest-id row whose token is tok (RULES §12.4).
func (s *State) byToken(tok string) *User {
	for i := range s.Users {
		if s.Users[i].Token == tok {
			return &s.Users[i]
		}
	}
	return nil
}

// TakeTime is GetTakeTime's base time T0 of cell c at now (RULES §5):
// 2 unowned, 33 when now ≤ its occupy time, else 30·2^(−d/30) + 3.
func (s *State) TakeTime(c *Cell, now float64) float64 {
	if c.Owner == 0 {
		return 2
	}
	d := now - c.OccupyTime
	if d <= 0 {
		return 33
	}
	return float64(30*s.pow.Of((-d)/30.0)) + 3
}

// counts returns the live counts of uid, growing the table as needed.
func (s *State) counts(uid int32) *ownCount {
	for int(uid) >= len(s.own) {
		s.own = append(s.own, ownCount{})
	}
	return &s.own[uid]
}

// setOwner makes uid the owner of cell id, keeping the live counts.
func (s *State) setOwner(id int, uid int32) {
	c := &s.Cells[id]
	if c.Owner == uid {
		return
	}
	s.count(id, -1)
	c.Owner = uid
	s.count(id, 1)
}

// setBase sets cell id's build_type and build_finish, keeping the counts.
func (s *State) setBase(id int, base, finish bool) {
	c := &s.Cells[id]
	s.count(id, -1)
	if c.Base && !c.BuildFinish {
		s.building--
	}
	c.Base, c.BuildFinish = base, finish
	if c.Base && !c.BuildFinish {
		s.building++
	}
	s.count(id, 1)
}

// count adds d to the live counts of cell id's owner for that cell.
func (s *State) count(id int, d int32) {
	c := &s.Cells[id]
	if c.Owner == 0 {
		return
	}
	o := s.counts(c.Owner)
	o.cells += d
	if c.Base {
		o.allBases += d
		if c.BuildFinish {
			o.bases += d
		}
	}
	switch c.Type {
	case Gold:
		o.gold += d
	case Energy:
		o.energy += d
	}
}

// setTaking sets cell id's is_taking.
func (s *State) setTaking(id int, on bool) {
	s.Cells[id].IsTaking = on
	if on {
		s.taking[id>>6] |= 1 << (id & 63)
	} else {
		s.taking[id>>6] &^= 1 << (id & 63)
	}
}

// inMap reports whether (x, y) is a cell.
func inMap(x, y int) bool { return x >= 0 && x < Width && y >= 0 && y < Height }

// adjacency is the number of (x, y)'s in-map neighbours owned by uid.
func (s *State) adjacency(x, y int, uid int32) int {
	n := 0
	for _, d := range relocationDirections {
		if nx, ny := x+d.dx, y+d.dy; inMap(nx, ny) && s.Cells[nx+Width*ny].Owner == uid {
			n++
		}
	}
	return n
}
