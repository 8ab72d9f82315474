package bots

import (
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/rng"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// playerStats is one player's outcome of a match.
type playerStats struct {
	name                     string
	gold, cells              int64
	mines, wells, fortresses int64
	commands, errors         int
}

type matchResult struct {
	hash    uint64
	players []playerStats
}

// botSeed derives a bot's seed from the match seed and its uid.
func botSeed(seed uint64, uid int) uint64 {
	r := rng.New(seed ^ uint64(uid)*0x9E3779B97F4A7C15)
	return r.Uint64()
}

// playMatch plays a full game of the named built-ins on the map of seed.
func playMatch(tb testing.TB, seed uint64, names []string) matchResult {
	tb.Helper()
	cfg := colorfight2.DefaultConfig()
	cfg.MaxPlayer = len(names)
	if cfg.MaxPlayer == 3 || cfg.MaxPlayer > 4 {
		cfg.MaxPlayer = 8
	}
	s, err := colorfight2.NewFromSeed(cfg, seed, names)
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]Bot, len(names))
	for i, n := range names {
		b, err := Builtin(n)
		if err != nil {
			tb.Fatal(err)
		}
		if err := b.Start(i+1, botSeed(seed, i+1)); err != nil {
			tb.Fatal(err)
		}
		bots[i] = b
	}
	res := matchResult{players: make([]playerStats, len(names))}
	cmds := make([][]colorfight2.Command, len(names))
	var f colorfight2.Frame
	s.Step(nil)
	for !s.Over() {
		s.Frame(&f)
		for i, b := range bots {
			out, err := b.Commands(&f)
			if err != nil {
				tb.Fatalf("%s (uid %d) turn %d: %v", names[i], i+1, f.Turn, err)
			}
			cmds[i] = cmds[i][:0]
			for _, c := range out {
				cmds[i] = append(cmds[i], colorfight2.ParseCommand(c))
			}
			res.players[i].commands += len(out)
		}
		s.Step(cmds)
		for _, e := range s.Errors() {
			res.players[e.UID-1].errors++
		}
	}
	s.Frame(&f)
	for i := range bots {
		u := &f.Users[i]
		res.players[i] = playerStats{
			name: names[i], gold: u.Gold, cells: u.CellNumber,
			mines: u.Buildings[colorfight2.GoldMine], wells: u.Buildings[colorfight2.EnergyWell],
			fortresses: u.Buildings[colorfight2.Fortress],
			commands:   res.players[i].commands, errors: res.players[i].errors,
		}
		if err := bots[i].Close(); err != nil {
			tb.Fatal(err)
		}
	}
	res.hash = s.Hash()
	return res
}

// lineups returns, for each built-in, a 2-, 4- and 8-player line-up in
// which it plays uid 1 against the others.
func lineups(name string) [][]string {
	all := BuiltinNames()
	var others []string
	for _, n := range all {
		if n != name {
			others = append(others, n)
		}
	}
	var ls [][]string
	for _, k := range []int{2, 4, 8} {
		l := []string{name}
		for i := 0; len(l) < k; i++ {
			l = append(l, others[i%len(others)])
		}
		ls = append(ls, l)
	}
	return ls
}

func TestRegistry(t *testing.T) {
	names := BuiltinNames()
	if len(names) < 5 {
		t.Fatalf("only %d built-ins", len(names))
	}
	for i, n := range names {
		if i > 0 && names[i-1] >= n {
			t.Errorf("names not sorted: %v", names)
		}
		b, err := Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name() != n {
			t.Errorf("Builtin(%q).Name() = %q", n, b.Name())
		}
		b2, _ := Builtin(n)
		if b == b2 {
			t.Errorf("Builtin(%q) returned the same instance twice", n)
		}
	}
	_, err := Builtin("nope")
	if err == nil || !strings.Contains(err.Error(), "greedy") || !strings.Contains(err.Error(), "turtle") {
		t.Errorf("unknown name error = %v, want it to list the valid names", err)
	}
}

// TestBuiltinsPlayFullGames plays every built-in in 2-, 4- and 8-player
// games, twice each, and checks determinism and error rates.
func TestBuiltinsPlayFullGames(t *testing.T) {
	for _, name := range BuiltinNames() {
		for li, l := range lineups(name) {
			seed := uint64(100 + li)
			a := playMatch(t, seed, l)
			b := playMatch(t, seed, l)
			if a.hash != b.hash {
				t.Errorf("%v seed %d: not deterministic: %x vs %x", l, seed, a.hash, b.hash)
			}
			for uid, p := range a.players {
				if p.commands == 0 {
					t.Errorf("%v: %s (uid %d) sent no commands", l, p.name, uid+1)
				}
				limit := p.commands / 10
				if p.name == "random" {
					limit = p.commands / 2
				}
				if p.errors > limit {
					t.Errorf("%v: %s (uid %d): %d of %d commands failed", l, p.name, uid+1, p.errors, p.commands)
				}
			}
			t.Logf("%v: %+v", l, a.players)
		}
	}
}

// TestSeedMatters checks that a bot's seed changes its play.
func TestSeedMatters(t *testing.T) {
	cfg := colorfight2.DefaultConfig()
	s, err := colorfight2.NewFromSeed(cfg, 7, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	s.Step(nil)
	var f colorfight2.Frame
	s.Frame(&f)
	differ := false
	for seed := uint64(1); seed < 20 && !differ; seed++ {
		a, _ := Builtin("random")
		b, _ := Builtin("random")
		_ = a.Start(1, 0)
		_ = b.Start(1, seed)
		ca, _ := a.Commands(&f)
		sa := strings.Join(ca, ";")
		cb, _ := b.Commands(&f)
		differ = sa != strings.Join(cb, ";")
	}
	if !differ {
		t.Error("random plays the same whatever its seed")
	}
}

// TestFrameNotModified checks that bots leave the frame alone.
func TestFrameNotModified(t *testing.T) {
	cfg := colorfight2.DefaultConfig()
	names := BuiltinNames()
	s, err := colorfight2.NewFromSeed(cfg, 11, names)
	if err != nil {
		t.Fatal(err)
	}
	s.Step(nil)
	var f, g colorfight2.Frame
	bots := make([]Bot, len(names))
	for i, n := range names {
		bots[i], _ = Builtin(n)
		_ = bots[i].Start(i+1, uint64(i))
	}
	cmds := make([][]colorfight2.Command, len(names))
	for s.Turn() < 60 {
		s.Frame(&f)
		g.CopyFrom(&f)
		for i, b := range bots {
			out, _ := b.Commands(&f)
			cmds[i] = colorfight2.AppendParsed(cmds[i][:0], out)
		}
		if d := colorfight2.Diff(&g, &f); d != nil {
			t.Fatalf("frame modified: %s", d)
		}
		s.Step(cmds)
	}
}

// TestEdgeStates feeds hand-made frames: dead, homeless, broke, and a
// player missing from the frame.
func TestEdgeStates(t *testing.T) {
	const w, h = 5, 4
	mk := func() *colorfight2.Frame {
		f := &colorfight2.Frame{Turn: 10, Width: w, Height: h, Cells: make([]colorfight2.FrameCell, w*h)}
		for i := range f.Cells {
			f.Cells[i] = colorfight2.FrameCell{AttackCost: 50, Level: 1, X: int64(i % w), Y: int64(i / w),
				NaturalGold: 5, NaturalEnergy: 5, NaturalCost: 50, Gold: 5, Energy: 5}
		}
		f.Users = []colorfight2.FrameUser{{UID: 1, Energy: 500, Gold: 0, TechLevel: 1, CellNumber: 2}, {UID: 2, Energy: 500, TechLevel: 1, CellNumber: 1}}
		f.Cells[0].Owner, f.Cells[0].Building = 1, colorfight2.Home
		f.Cells[1].Owner = 1
		f.Cells[w*h-1].Owner, f.Cells[w*h-1].Building = 2, colorfight2.Home
		return f
	}
	for _, name := range BuiltinNames() {
		b, _ := Builtin(name)
		_ = b.Start(1, 3)

		// Dead: no commands.
		f := mk()
		f.Users[0].CellNumber, f.Users[0].Dead = 0, true
		f.Cells[0].Owner, f.Cells[1].Owner = 0, 0
		if out, err := b.Commands(f); err != nil || len(out) != 0 {
			t.Errorf("%s dead: %v, %v", name, out, err)
		}

		// Homeless with 1000 gold: rebuilds a Home on its empty cell.
		f = mk()
		f.Cells[0].Building = colorfight2.BuildingNone
		f.Users[0].TechLevel, f.Users[0].Gold = 0, 1000
		out, err := b.Commands(f)
		if err != nil || !contains(out, "b 0 0 h") && !contains(out, "b 1 0 h") {
			t.Errorf("%s homeless: %v, %v; want a Home build", name, out, err)
		}
		// Homeless and poor: no Home build, no other build.
		f.Users[0].Gold = 999
		out, _ = b.Commands(f)
		for _, c := range out {
			if strings.HasPrefix(c, "b") {
				t.Errorf("%s homeless and poor: %q", name, c)
			}
		}

		// Negative energy and gold: nothing that must fail.
		f = mk()
		f.Users[0].Energy, f.Users[0].Gold = -300, -50
		out, _ = b.Commands(f)
		checkValid(t, name, f, 1, out)

		// Not in the frame: no commands.
		f = mk()
		_ = b.Start(9, 3)
		if out, err := b.Commands(f); err != nil || len(out) != 0 {
			t.Errorf("%s absent: %v, %v", name, out, err)
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}
}

// TestMaxMap runs every built-in for a few rounds on the largest map.
func TestMaxMap(t *testing.T) {
	if testing.Short() {
		t.Skip("large map")
	}
	cfg := colorfight2.Config{Width: colorfight2.MaxSide, Height: colorfight2.MaxSide, MaxTurn: 200, MaxPlayer: 8}
	names := BuiltinNames()
	s, err := colorfight2.NewFromSeed(cfg, 5, names)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]Bot, len(names))
	for i, n := range names {
		bots[i], _ = Builtin(n)
		_ = bots[i].Start(i+1, uint64(i))
	}
	s.Step(nil)
	var f colorfight2.Frame
	cmds := make([][]colorfight2.Command, len(names))
	for s.Turn() < 5 {
		s.Frame(&f)
		for i, b := range bots {
			out, _ := b.Commands(&f)
			checkValid(t, names[i], &f, i+1, out)
			cmds[i] = cmds[i][:0]
			for _, c := range out {
				cmds[i] = append(cmds[i], colorfight2.ParseCommand(c))
			}
		}
		s.Step(cmds)
		if n := len(s.Errors()); n > 0 {
			t.Errorf("turn %d: %d errors: %v", s.Turn(), n, s.Errors())
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkValid checks the commands would pass the engine's checks given f
// (for uid), tracking energy and gold spent.
func checkValid(t *testing.T, name string, f *colorfight2.Frame, uid int, out []string) {
	t.Helper()
	var u *colorfight2.FrameUser
	for i := range f.Users {
		if f.Users[i].UID == int64(uid) {
			u = &f.Users[i]
		}
	}
	energy, gold := u.Energy, u.Gold
	for _, s := range out {
		c := colorfight2.ParseCommand(s)
		if c.Kind == colorfight2.CmdInvalid || c.X < 0 || c.X >= f.Width || c.Y < 0 || c.Y >= f.Height {
			t.Errorf("%s: bad command %q", name, s)
			continue
		}
		cell := f.Cell(c.X, c.Y)
		switch c.Kind {
		case colorfight2.CmdAttack:
			if c.Energy < 0 || c.Energy > energy {
				t.Errorf("%s: %q with energy %d", name, s, energy)
			}
			energy -= c.Energy
		case colorfight2.CmdBuild:
			if cell.Owner != int64(uid) || cell.Building != colorfight2.BuildingNone {
				t.Errorf("%s: %q on a cell it cannot build on", name, s)
			}
			cost := int64(200)
			if c.Building == colorfight2.Home {
				cost = 1000
			}
			if gold < cost {
				t.Errorf("%s: %q with gold %d", name, s, gold)
			}
			gold -= cost
		case colorfight2.CmdUpgrade:
			if cell.Owner != int64(uid) || cell.Building == colorfight2.BuildingNone {
				t.Errorf("%s: %q on a cell it cannot upgrade", name, s)
			}
		}
	}
}
