package rules

import (
	"errors"
	"fmt"
)

// FromFrame rebuilds the complete state of a game from one of its frames
// (turn 1 or later), so a round can be played from any moment of a replay.
//
// Everything a round reads is visible in a frame except two things, and
// both are recovered exactly: a Home's stored energy (the energy of its
// owner at the last cell scan) is read back from its attack_cost,
// (1000 + stored + force_field) · level; and building_home is false at the
// start of every round. The users' aggregates (cells, sources, building
// counts, tax) are taken from the frame as the last scan reported them.
//
// The players are the frame's users, which must have uids 1..n (in any
// order); cfg's size must match the frame's. FromFrame checks that the
// frame is one the rules could have produced as far as a single frame
// shows: every cell's derived fields (gold, energy, attack_cost, level)
// agree with its building and terrain, force fields are in 0..1000, owners
// are players, and each user's cell and building counts agree with the
// map. The first disagreement is returned as a *Divergence (Want is what
// the rules derive, Got what the frame says).
func FromFrame(cfg Config, f *Frame) (*State, error) {
	s := &State{}
	if err := s.loadFrame(cfg, f, true); err != nil {
		return nil, err
	}
	return s, nil
}

// LoadFrame is FromFrame into s, reusing its storage; on error s is left
// unusable until the next successful load.
func (s *State) LoadFrame(cfg Config, f *Frame) error { return s.loadFrame(cfg, f, true) }

// LoadFrameUnchecked is FromFrameUnchecked into s, reusing its storage.
func (s *State) LoadFrameUnchecked(cfg Config, f *Frame) error { return s.loadFrame(cfg, f, false) }

// FromFrameUnchecked is FromFrame without the checks of what a single
// frame must satisfy (derived cell fields, users' counts): a state for
// playing on from a frame that breaks them (an audit reports them). The
// structure is still checked: sizes, players, owners, buildings, levels
// and force fields within their ranges.
func FromFrameUnchecked(cfg Config, f *Frame) (*State, error) {
	s := &State{}
	if err := s.loadFrame(cfg, f, false); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *State) loadFrame(cfg Config, f *Frame, check bool) error {
	if err := cfg.ValidateLoose(); err != nil {
		return err
	}
	if f.Width != cfg.Width || f.Height != cfg.Height || len(f.Cells) != f.Width*f.Height {
		return fmt.Errorf("colorfight2: frame is %dx%d with %d cells, config %dx%d", f.Width, f.Height, len(f.Cells), cfg.Width, cfg.Height)
	}
	n := len(f.Users)
	if n == 0 {
		return errors.New("colorfight2: frame has no players")
	}
	if n > cfg.MaxPlayer || n > MaxPlayers {
		return fmt.Errorf("colorfight2: frame has %d players, max_player is %d", n, cfg.MaxPlayer)
	}
	var byUID [MaxPlayers + 1]*FrameUser
	for i := range f.Users {
		u := &f.Users[i]
		if u.UID < 1 || u.UID > int64(n) || byUID[u.UID] != nil {
			return fmt.Errorf("colorfight2: frame users must have distinct uids 1..%d, found %d", n, u.UID)
		}
		byUID[u.UID] = u
	}
	var players [MaxPlayers]Player
	for uid := 1; uid <= n; uid++ {
		players[uid-1] = Player{UID: uid, Name: byUID[uid].Username}
	}
	if err := s.prepare(cfg, players[:n]); err != nil {
		return err
	}
	s.turn = f.Turn
	// Cells, then stored energies from the Homes' attack costs. Every
	// cell's terrain is checked before the rest of any cell, as reset
	// checks it: a bad terrain anywhere is the error.
	ld := frameLoader{s: s, f: f, n: int64(n), check: check}
	for i := range f.Cells {
		fc := &f.Cells[i]
		newLand, err := s.setLand(i, fc.NaturalGold, fc.NaturalEnergy, fc.NaturalCost)
		if err != nil {
			return err
		}
		if err := ld.cell(i, fc, newLand); err != nil {
			for j := i + 1; j < len(f.Cells); j++ {
				c := &f.Cells[j]
				if _, err := s.setLand(j, c.NaturalGold, c.NaturalEnergy, c.NaturalCost); err != nil {
					return err
				}
			}
			return err
		}
	}
	stored := &ld.stored
	bad := func(i int, field string, want, got int64) error { return badCell(f, i, field, want, got) }
	for uid := 1; uid <= n; uid++ {
		fu, u := byUID[uid], &s.users[uid-1]
		u.energy, u.gold, u.techLevel, u.dead = fu.Energy, fu.Gold, fu.TechLevel, fu.Dead
		u.cells, u.goldSource, u.energySource = fu.CellNumber, fu.GoldSource, fu.EnergySource
		u.buildings = fu.Buildings
		u.buildings[BuildingNone] = 0
		u.tax, u.taxLevel = fu.TaxAmount, fu.TaxLevel
		u.scanEnergy = stored[uid]
		u.buildingHome = false
		if len(fu.BuildingOrder) <= len(u.order) {
			copy(u.order[:], fu.BuildingOrder)
			u.norder = int8(len(fu.BuildingOrder))
			u.orderPinned = true
		}
	}
	if !check {
		return nil
	}
	// Derived cell fields must be what the rules give.
	for i := range f.Cells {
		fc := &f.Cells[i]
		c := &s.cells[i]
		if int64(c.gold) != fc.Gold {
			return bad(i, "gold", int64(c.gold), fc.Gold)
		}
		if int64(c.energy) != fc.Energy {
			return bad(i, "energy", int64(c.energy), fc.Energy)
		}
		if c.building != Home {
			if cost := s.attackCost(i); cost != fc.AttackCost {
				return bad(i, "attack_cost", cost, fc.AttackCost)
			}
		}
		if fc.X != int64(i%f.Width) || fc.Y != int64(i/f.Width) {
			return bad(i, "position", int64(i), fc.Y*int64(f.Width)+fc.X)
		}
	}
	// Each user's counts must agree with the map.
	var cells [MaxPlayers + 1]int64
	var blds [MaxPlayers + 1][NumBuildings]int64
	var tech [MaxPlayers + 1]int64
	for i := range s.cells {
		c := &s.cells[i]
		cells[c.owner]++
		blds[c.owner][c.building]++
		if c.building == Home {
			tech[c.owner] = max(tech[c.owner], int64(c.level))
		}
	}
	for uid := 1; uid <= n; uid++ {
		fu := byUID[uid]
		where := "user " + itoa(int64(uid))
		if fu.CellNumber != cells[uid] {
			return &Divergence{Turn: f.Turn, Where: where, Field: "cell_number", Want: itoa(cells[uid]), Got: itoa(fu.CellNumber)}
		}
		if fu.Dead != (cells[uid] == 0) {
			return &Divergence{Turn: f.Turn, Where: where, Field: "dead", Want: btoa(cells[uid] == 0), Got: btoa(fu.Dead)}
		}
		// After the lost-homes step the reported counts include buildings
		// just removed, so only a player with a Home must match exactly.
		if tech[uid] > 0 {
			for b := Home; b < NumBuildings; b++ {
				if fu.Buildings[b] != blds[uid][b] {
					return &Divergence{Turn: f.Turn, Where: where, Field: "building_number." + b.Key(), Want: itoa(blds[uid][b]), Got: itoa(fu.Buildings[b])}
				}
			}
			if fu.TechLevel != tech[uid] {
				return &Divergence{Turn: f.Turn, Where: where, Field: "tech_level", Want: itoa(tech[uid]), Got: itoa(fu.TechLevel)}
			}
		}
	}
	return nil
}

// badCell is the *Divergence of field of frame f's cell i: the rules
// give want, the frame got.
func badCell(f *Frame, i int, field string, want, got int64) error {
	return &Divergence{Turn: f.Turn, Where: "cell (" + itoa(int64(i%f.Width)) + "," + itoa(int64(i/f.Width)) + ")", Field: field, Want: itoa(want), Got: itoa(got)}
}

// frameLoader sets a state's cells from a frame's (State.loadFrame).
type frameLoader struct {
	s     *State
	f     *Frame
	n     int64 // players
	check bool
	// stored[uid] is the energy player uid's Homes store, read from the
	// first Home's attack cost; hasStored[uid] once it is read.
	stored    [MaxPlayers + 1]int64
	hasStored [MaxPlayers + 1]bool
}

// cell sets cell i from fc, its terrain already set (newLand when that
// changed it), or returns why fc cannot be a cell of the frame. A cell
// that already holds fc's owner, force field, building and level on the
// same terrain (the cell of the frame loaded before, most often) is left
// as it is: its derived fields are place's of the same values.
func (ld *frameLoader) cell(i int, fc *FrameCell, newLand bool) error {
	bad := func(field string, want, got int64) error { return badCell(ld.f, i, field, want, got) }
	if fc.Owner < 0 || fc.Owner > ld.n {
		return bad("owner", 0, fc.Owner)
	}
	if fc.Building >= NumBuildings {
		return bad("building", 0, int64(fc.Building))
	}
	if fc.ForceField < 0 || fc.ForceField > 1000 {
		return bad("force_field", min(1000, max(0, fc.ForceField)), fc.ForceField)
	}
	if fc.Building == BuildingNone {
		if fc.Level != 1 {
			return bad("building level", 1, fc.Level)
		}
	} else if fc.Level < 1 || fc.Level > 3 {
		return bad("building level", min(3, max(1, fc.Level)), fc.Level)
	}
	if fc.Building != BuildingNone && fc.Owner == 0 {
		return bad("owner", -1, 0)
	}
	s := ld.s
	level := int8(0)
	if fc.Building != BuildingNone {
		level = int8(fc.Level)
	}
	owner, ff := int32(fc.Owner), int32(fc.ForceField)
	if c := &s.cells[i]; newLand || c.owner != owner || c.ff != ff || c.building != fc.Building || c.level != level {
		c.owner, c.ff = owner, ff
		s.place(i, fc.Building, level) // prepare marked every cell dirty
	}
	if fc.Building != Home {
		return nil
	}
	L := fc.Level
	if !ld.check {
		if e := fc.AttackCost/L - 1000 - fc.ForceField; !ld.hasStored[fc.Owner] {
			ld.stored[fc.Owner], ld.hasStored[fc.Owner] = e, true
		}
		return nil
	}
	if fc.AttackCost%L != 0 {
		return bad("attack_cost", (fc.AttackCost/L)*L, fc.AttackCost)
	}
	e := fc.AttackCost/L - 1000 - fc.ForceField
	if ld.hasStored[fc.Owner] && ld.stored[fc.Owner] != e {
		return bad("attack_cost", (1000+ld.stored[fc.Owner]+fc.ForceField)*L, fc.AttackCost)
	}
	ld.stored[fc.Owner], ld.hasStored[fc.Owner] = e, true
	return nil
}

// Error makes a Divergence usable as an error: a frame that disagrees with
// the rules.
func (d *Divergence) Error() string { return d.String() }

// PlayersFromFrame reads the players of a game from its first frame with
// players (frame 1 of an official replay: everyone has just registered and
// owns exactly one cell, its Home). Users may be listed in any order; the
// players come back in uid order, which must be 1..n.
func PlayersFromFrame(f *Frame) ([]Player, error) {
	n := len(f.Users)
	if n == 0 {
		return nil, errors.New("colorfight2: frame has no players")
	}
	byUID := make([]*FrameUser, n)
	for i := range f.Users {
		u := &f.Users[i]
		if u.UID < 1 || u.UID > int64(n) || byUID[u.UID-1] != nil {
			return nil, fmt.Errorf("colorfight2: frame %d: user uid %d is out of range: the %d users must be uids 1..%d, each once", f.Turn, u.UID, n, n)
		}
		byUID[u.UID-1] = u
	}
	homes := make([]Point, n)
	found := make([]bool, n)
	for i := range f.Cells {
		c := &f.Cells[i]
		if c.Owner == 0 {
			continue
		}
		k := int(c.Owner) - 1
		if k < 0 || k >= n || found[k] {
			return nil, fmt.Errorf("colorfight2: frame %d: cell (%d,%d): owner %d is not a new player's only cell", f.Turn, c.X, c.Y, c.Owner)
		}
		homes[k], found[k] = Point{X: int(c.X), Y: int(c.Y)}, true
	}
	players := make([]Player, n)
	for i, u := range byUID {
		if !found[i] {
			return nil, fmt.Errorf("colorfight2: frame %d: user %d owns no cell", f.Turn, u.UID)
		}
		players[i] = Player{UID: i + 1, Name: u.Username, Home: homes[i]}
	}
	return players, nil
}

// ByUID returns f with its users in uid order (the engine's), sharing f's
// cells: f itself when they already are, else a copy of f whose users are
// laid out in *buf (grown as needed, so a caller can reuse it). Users whose
// uid is not in 1..len(f.Users) are left out.
func (f *Frame) ByUID(buf *[]FrameUser) *Frame {
	sorted := true
	for k := 1; k < len(f.Users); k++ {
		if f.Users[k].UID < f.Users[k-1].UID {
			sorted = false
			break
		}
	}
	if sorted {
		return f
	}
	g := *f
	*buf = append((*buf)[:0], make([]FrameUser, len(f.Users))...)
	for _, u := range f.Users {
		if u.UID >= 1 && int(u.UID) <= len(*buf) {
			(*buf)[u.UID-1] = u
		}
	}
	g.Users = *buf
	return &g
}

// CopyRatings copies the users' verified flag and ranking from src into
// f, matching users by uid: they are the server's account ratings, not
// part of the game, so a played frame takes them from the replay's.
func (f *Frame) CopyRatings(src *Frame) {
	for k := range f.Users {
		for j := range src.Users {
			if src.Users[j].UID == f.Users[k].UID {
				f.Users[k].Verified, f.Users[k].Ranking = src.Users[j].Verified, src.Users[j].Ranking
				break
			}
		}
	}
}
