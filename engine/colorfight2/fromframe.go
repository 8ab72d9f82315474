package colorfight2

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
	byUID := make([]*FrameUser, n+1)
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
	err := s.reset(cfg, players[:n], func(i int) (int64, int64, int64) {
		c := &f.Cells[i]
		return c.NaturalGold, c.NaturalEnergy, c.NaturalCost
	})
	if err != nil {
		return err
	}
	s.turn = f.Turn
	bad := func(i int, field string, want, got int64) error {
		return &Divergence{Turn: f.Turn, Where: "cell (" + itoa(int64(i%f.Width)) + "," + itoa(int64(i/f.Width)) + ")", Field: field, Want: itoa(want), Got: itoa(got)}
	}
	// Cells, then stored energies from the Homes' attack costs.
	stored := make([]int64, n+1)
	hasStored := make([]bool, n+1)
	for i := range f.Cells {
		fc := &f.Cells[i]
		if fc.Owner < 0 || fc.Owner > int64(n) {
			return bad(i, "owner", 0, fc.Owner)
		}
		if fc.Building >= NumBuildings {
			return bad(i, "building", 0, int64(fc.Building))
		}
		if fc.ForceField < 0 || fc.ForceField > 1000 {
			return bad(i, "force_field", min(1000, max(0, fc.ForceField)), fc.ForceField)
		}
		if fc.Building == BuildingNone {
			if fc.Level != 1 {
				return bad(i, "building level", 1, fc.Level)
			}
		} else if fc.Level < 1 || fc.Level > 3 {
			return bad(i, "building level", min(3, max(1, fc.Level)), fc.Level)
		}
		if fc.Building != BuildingNone && fc.Owner == 0 {
			return bad(i, "owner", -1, 0)
		}
		c := &s.cells[i]
		c.owner = int32(fc.Owner)
		c.ff = int32(fc.ForceField)
		level := int8(0)
		if fc.Building != BuildingNone {
			level = int8(fc.Level)
		}
		s.setBuilding(i, fc.Building, level)
		if fc.Building == Home {
			L := fc.Level
			if !check {
				if e := fc.AttackCost/L - 1000 - fc.ForceField; !hasStored[fc.Owner] {
					stored[fc.Owner], hasStored[fc.Owner] = e, true
				}
				continue
			}
			if fc.AttackCost%L != 0 {
				return bad(i, "attack_cost", (fc.AttackCost/L)*L, fc.AttackCost)
			}
			e := fc.AttackCost/L - 1000 - fc.ForceField
			if hasStored[fc.Owner] && stored[fc.Owner] != e {
				return bad(i, "attack_cost", (1000+stored[fc.Owner]+fc.ForceField)*L, fc.AttackCost)
			}
			stored[fc.Owner], hasStored[fc.Owner] = e, true
		}
	}
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
