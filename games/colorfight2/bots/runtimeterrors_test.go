package bots_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
)

const rtName = "runtimeterrors"

// audited wraps a built-in played through the seam, keeps what it
// answered each round and checks every answer against the frame it was
// given: each command must be legal and must follow the rules of
// RUNTIMETERRORS.md. match.RunGame asks a built-in on its own goroutine,
// so an audited is only read once RunGame has returned.
type audited struct {
	match.GamePlayer
	uid      int
	rounds   []string // the commands of each round, joined by ";"
	commands int
	kinds    map[byte]int // 'a', 'u', and 'b'+letter counted under the letter
	problems []string
}

func audit(tb testing.TB, name string) *audited {
	tb.Helper()
	return &audited{GamePlayer: builtin(tb, name), kinds: map[byte]int{}}
}

// builtin is ColorfightII's built-in called name as a seam player.
func builtin(tb testing.TB, name string) match.GamePlayer {
	tb.Helper()
	for _, b := range bot.Builtins {
		if b.Name == name {
			return match.BuiltinPlayer(b)
		}
	}
	tb.Fatalf("no built-in %q", name)
	return nil
}

func (a *audited) Start(p int, seed uint64) error {
	a.uid = p + 1
	return a.GamePlayer.Start(p, seed)
}

func (a *audited) Commands(g engine.Game, p int) ([]string, error) {
	out, err := a.GamePlayer.Commands(g, p)
	a.rounds = append(a.rounds, strings.Join(out, ";"))
	a.commands += len(out)
	a.check(g.(*colorfight2.Game).Frame(), out)
	return out, err
}

func (a *audited) fail(f *colorfight2.Frame, format string, args ...any) {
	if len(a.problems) < 10 {
		a.problems = append(a.problems, fmt.Sprintf("turn %d: ", f.Turn)+fmt.Sprintf(format, args...))
	}
}

// rtBuild is the building RUNTIMETERRORS.md step 4 puts on an empty own
// cell i, or BuildingNone, for a player with cells cells at turn turn.
func rtBuild(f *colorfight2.Frame, uid int64, cells int64, i int) colorfight2.Building {
	cl := &f.Cells[i]
	ng, ne := cl.NaturalGold, cl.NaturalEnergy
	if cells <= 20 {
		if ne >= 4 {
			return colorfight2.EnergyWell
		}
	} else {
		for _, j := range nbrs(f, i) {
			if o := f.Cells[j].Owner; o != 0 && o != uid {
				return colorfight2.Fortress
			}
		}
		if ne > ng && ne >= 3 {
			return colorfight2.EnergyWell
		}
		if ng > ne && ng >= 3 {
			return colorfight2.GoldMine
		}
	}
	if f.Turn > 100 {
		return colorfight2.GoldMine
	}
	return colorfight2.BuildingNone
}

func nbrs(f *colorfight2.Frame, i int) []int {
	x, y := i%f.Width, i/f.Width
	var r []int
	if y > 0 {
		r = append(r, i-f.Width)
	}
	if y < f.Height-1 {
		r = append(r, i+f.Width)
	}
	if x > 0 {
		r = append(r, i-1)
	}
	if x < f.Width-1 {
		r = append(r, i+1)
	}
	return r
}

// check audits one round's answer out to frame f.
func (a *audited) check(f *colorfight2.Frame, out []string) {
	uid := int64(a.uid)
	var me *colorfight2.FrameUser
	for i := range f.Users {
		if f.Users[i].UID == uid {
			me = &f.Users[i]
		}
	}
	if me == nil || me.Dead || me.CellNumber == 0 {
		if len(out) > 0 {
			a.fail(f, "dead or absent but sent %q", out)
		}
		return
	}
	energy, gold, tech, cells := me.Energy, me.Gold, me.TechLevel, me.CellNumber
	owns := func(i int) bool { return f.Cells[i].Owner == uid }
	touched := map[int]bool{} // attacked, built on or upgraded this round
	afterAttacks := int64(-1) // energy left once the attacks are over
	homes := 0
	for _, s := range out {
		c := colorfight2.ParseCommand(s)
		if c.Kind == colorfight2.CmdInvalid || c.X < 0 || c.X >= f.Width || c.Y < 0 || c.Y >= f.Height {
			a.fail(f, "bad command %q", s)
			continue
		}
		i := c.Y*f.Width + c.X
		cl := &f.Cells[i]
		switch c.Kind {
		case colorfight2.CmdAttack:
			a.kinds['a']++
			if afterAttacks >= 0 {
				a.fail(f, "%q after an upgrade or a build", s)
			}
			adjacent := false
			for _, j := range nbrs(f, i) {
				adjacent = adjacent || owns(j)
			}
			switch {
			case owns(i) || !adjacent:
				a.fail(f, "%q: own cell or not adjacent", s)
			case touched[i]:
				a.fail(f, "%q: attacked twice", s)
			case c.Energy != cl.AttackCost:
				a.fail(f, "%q: attack cost is %d", s, cl.AttackCost)
			case c.Energy >= energy:
				a.fail(f, "%q with %d energy left (must be strictly more)", s, energy)
			}
			touched[i] = true
			energy -= c.Energy
		case colorfight2.CmdUpgrade:
			a.kinds['u']++
			if afterAttacks < 0 {
				afterAttacks = energy
			}
			if f.Turn >= 300 && cells >= 450 {
				a.fail(f, "%q at turn %d with %d cells", s, f.Turn, cells)
			}
			if !owns(i) || cl.Building == colorfight2.BuildingNone || cl.Level >= 3 || touched[i] {
				a.fail(f, "%q: not an upgradable own building", s)
				continue
			}
			touched[i] = true
			g, e := [3]int64{0, 400, 600}[cl.Level], int64(0)
			if cl.Building == colorfight2.Home {
				g = [3]int64{0, 1000, 2000}[cl.Level]
				e = g
			} else if cl.Level >= tech {
				a.fail(f, "%q: level %d, tech %d", s, cl.Level, tech)
			}
			if gold <= g || energy <= e {
				a.fail(f, "%q with gold %d, energy %d", s, gold, energy)
			}
			gold, energy = gold-g, energy-e
		case colorfight2.CmdBuild:
			a.kinds[c.Building.Letter()]++
			if !owns(i) || cl.Building != colorfight2.BuildingNone || touched[i] {
				a.fail(f, "%q: not an empty own cell", s)
				continue
			}
			touched[i] = true
			if c.Building == colorfight2.Home {
				homes++
				if tech != 0 || gold < 1000 || homes > 1 {
					a.fail(f, "%q with tech %d, gold %d", s, tech, gold)
				}
				gold -= 1000
				continue
			}
			if afterAttacks < 0 {
				afterAttacks = energy
			}
			if want := rtBuild(f, uid, cells, i); tech == 0 || gold < 200 || c.Building != want {
				a.fail(f, "%q with tech %d, gold %d; the rules build %v", s, tech, gold, want)
			}
			gold -= 200
		}
	}
	if afterAttacks < 0 {
		afterAttacks = energy
	}
	for i := range f.Cells {
		// The attacks are greedy: nothing it could still pay for is left.
		if !owns(i) && !touched[i] && f.Cells[i].AttackCost < afterAttacks {
			for _, j := range nbrs(f, i) {
				if owns(j) {
					a.fail(f, "left (%d,%d) unattacked: cost %d, energy %d", i%f.Width, i/f.Width, f.Cells[i].AttackCost, afterAttacks)
					break
				}
			}
		}
		// The builds go on while gold lasts.
		if tech > 0 && gold >= 200 && owns(i) && !touched[i] && f.Cells[i].Building == colorfight2.BuildingNone &&
			rtBuild(f, uid, cells, i) != colorfight2.BuildingNone {
			a.fail(f, "left (%d,%d) empty with %d gold", i%f.Width, i/f.Width, gold)
		}
	}
	if tech == 0 && me.Gold >= 1000 && homes == 0 {
		for i := range f.Cells {
			if owns(i) && f.Cells[i].Building == colorfight2.BuildingNone {
				a.fail(f, "homeless with %d gold and no Home built", me.Gold)
				break
			}
		}
	}
}

// result is what the tests read of a match: its final hash, the uids
// best first, and each player's (uid-1) final standing.
type result struct {
	Hash    uint64
	Ranking []int
	Players []standing
}

type standing struct {
	Gold, Cells    int64
	Faults, Errors int
}

// play runs a full default ColorfightII game of the seats through
// match.RunGame without recording it.
func play(tb testing.TB, seed uint64, seats ...match.GamePlayer) *result {
	tb.Helper()
	ss := make([]match.GameSeat, len(seats))
	for i, b := range seats {
		ss[i] = match.GameSeat{Bot: b}
	}
	res, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: seed, Seats: ss})
	if err != nil {
		tb.Fatal(err)
	}
	gold, cells := slices.IndexFunc(res.Metrics, func(m engine.Metric) bool { return m.Name == "gold" }),
		slices.IndexFunc(res.Metrics, func(m engine.Metric) bool { return m.Name == "cells" })
	r := &result{Hash: res.Hash}
	for _, p := range res.Ranking {
		r.Ranking = append(r.Ranking, p+1)
	}
	for _, p := range res.Players {
		r.Players = append(r.Players, standing{Gold: p.Values[gold], Cells: p.Values[cells], Faults: p.Faults, Errors: p.Errors})
	}
	return r
}

// lineup returns fresh built-ins for names; the one called rtName is audited
// and returned with its uid.
func lineup(tb testing.TB, names []string) ([]match.GamePlayer, *audited, int) {
	tb.Helper()
	var rt *audited
	uid := 0
	bs := make([]match.GamePlayer, len(names))
	for i, n := range names {
		if n == rtName && rt == nil {
			rt, uid = audit(tb, n), i+1
			bs[i] = rt
			continue
		}
		bs[i] = builtin(tb, n)
	}
	return bs, rt, uid
}

// rank returns uid's place in res (1 = most gold).
func rank(res *result, uid int) int {
	return slices.Index(res.Ranking, uid) + 1
}

// rotate returns names rotated left by k.
func rotate(names []string, k int) []string {
	k %= len(names)
	return append(append([]string{}, names[k:]...), names[:k]...)
}

func TestRuntimeTerrorsRegistered(t *testing.T) {
	if !slices.Contains(bot.BuiltinNames(), rtName) {
		t.Fatalf("BuiltinNames() = %v, no %s", bot.BuiltinNames(), rtName)
	}
	b, err := bot.Builtin(rtName)
	if err != nil || b.Name() != rtName {
		t.Fatalf("Builtin(%q) = %v, %v", rtName, b, err)
	}
}

// TestRuntimeTerrorsDeterministic: the same seeds give the same commands,
// round by round, and the same game; another bot seed gives other commands.
func TestRuntimeTerrorsDeterministic(t *testing.T) {
	names := []string{rtName, "greedy", "economist", "raider"}
	var runs [2]*audited
	var res [2]*result
	for k := range runs {
		bs, rt, _ := lineup(t, names)
		res[k], runs[k] = play(t, 21, bs...), rt
	}
	if res[0].Hash != res[1].Hash || !slices.Equal(res[0].Ranking, res[1].Ranking) {
		t.Errorf("same seed, different games: %x %v vs %x %v", res[0].Hash, res[0].Ranking, res[1].Hash, res[1].Ranking)
	}
	if len(runs[0].rounds) < 100 || !slices.Equal(runs[0].rounds, runs[1].rounds) {
		t.Errorf("same seed, different commands (%d and %d rounds)", len(runs[0].rounds), len(runs[1].rounds))
	}

	// The bot seed alone changes its play (the shuffles draw from it).
	cfg := colorfight2.DefaultConfig()
	s, err := colorfight2.NewFromSeed(cfg, 21, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := bot.Builtin("greedy")
	_ = g.Start(1, 1)
	var f colorfight2.Frame
	s.Step(nil)
	for s.Turn() < 30 { // grow a territory with several border cells
		s.Frame(&f)
		out, _ := g.Commands(&f)
		cmds := colorfight2.AppendParsed(nil, out)
		s.Step([][]colorfight2.Command{cmds, nil})
	}
	s.Frame(&f)
	answers := map[string]bool{}
	for seed := uint64(1); seed <= 8; seed++ {
		b, _ := bot.Builtin(rtName)
		_ = b.Start(1, seed)
		out, _ := b.Commands(&f)
		if len(out) == 0 {
			t.Fatal("no commands at turn 30")
		}
		answers[strings.Join(out, ";")] = true
	}
	if len(answers) < 2 {
		t.Error("the same commands whatever the bot seed")
	}
}

// TestRuntimeTerrorsPlaysByItsRules plays 2- to 8-player games against the
// other built-ins and audits every answer: legal, and by the rules of
// RUNTIMETERRORS.md. No command may fail in the engine.
func TestRuntimeTerrorsPlaysByItsRules(t *testing.T) {
	games := [][]string{
		{rtName, "random"},
		{"economist", rtName},
		{"greedy", "turtle", rtName, "raider"},
		{rtName, "economist", "greedy", "raider", "random", "turtle"},
		{"raider", "greedy", "economist", "turtle", rtName, "random", "greedy", "economist"},
	}
	total := map[byte]int{}
	for gi, names := range games {
		for seed := uint64(1); seed <= 2; seed++ {
			bs, rt, uid := lineup(t, names)
			res := play(t, 300+10*uint64(gi)+seed, bs...)
			p := res.Players[uid-1]
			if p.Errors != 0 {
				t.Errorf("%v seed %d: %d of %d commands failed", names, seed, p.Errors, rt.commands)
			}
			if rt.commands == 0 {
				t.Errorf("%v seed %d: no commands", names, seed)
			}
			for _, pr := range rt.problems {
				t.Errorf("%v seed %d: %s", names, seed, pr)
			}
			for k, v := range rt.kinds {
				total[k] += v
			}
		}
	}
	t.Logf("commands over %d games: %d attacks, %d upgrades, builds: %d wells, %d mines, %d fortresses, %d homes",
		2*len(games), total['a'], total['u'], total['e'], total['g'], total['f'], total['h'])
	// Its signature: a greedy expander that builds all three kinds.
	if total['a'] < 1000 || total['e'] == 0 || total['g'] == 0 || total['f'] == 0 {
		t.Errorf("commands %v", total)
	}
}

// rtFrame is a 5x4 map: uid 1 owns a level-1 Home at (0,0) and the empty
// cells (1,0) (ne 4, ng 1) and (0,1) (ne 3, ng 1); uid 2 owns (4,3).
// Attack costs next to uid 1: (2,0) 50, (1,1) 70, (0,2) 200.
func rtFrame() *colorfight2.Frame {
	const w, h = 5, 4
	f := &colorfight2.Frame{Turn: 10, Width: w, Height: h, Cells: make([]colorfight2.FrameCell, w*h)}
	for i := range f.Cells {
		f.Cells[i] = colorfight2.FrameCell{AttackCost: 50, Level: 1, X: int64(i % w), Y: int64(i / w),
			NaturalGold: 5, NaturalEnergy: 5, NaturalCost: 50, Gold: 5, Energy: 5}
	}
	f.Users = []colorfight2.FrameUser{
		{UID: 1, Energy: 121, Gold: 450, TechLevel: 1, CellNumber: 3},
		{UID: 2, Energy: 500, TechLevel: 1, CellNumber: 1},
	}
	f.Cells[0].Owner, f.Cells[0].Building = 1, colorfight2.Home
	f.Cells[1].Owner, f.Cells[1].NaturalEnergy, f.Cells[1].NaturalGold = 1, 4, 1
	f.Cells[w].Owner, f.Cells[w].NaturalEnergy, f.Cells[w].NaturalGold = 1, 3, 1
	f.Cells[w+1].AttackCost = 70
	f.Cells[2*w].AttackCost = 200
	f.Cells[w*h-1].Owner, f.Cells[w*h-1].Building = 2, colorfight2.Home
	return f
}

// TestRuntimeTerrorsHandMade checks each rule on small frames, over
// several bot seeds (the order of the attacks is random, their set not).
func TestRuntimeTerrorsHandMade(t *testing.T) {
	sorted := func(out []string) []string { return slices.Sorted(slices.Values(out)) }
	// outOfReach makes every cell cost 5000 to attack: no case gives the
	// bot strictly more energy, so it attacks nothing.
	outOfReach := func(f *colorfight2.Frame) {
		for i := range f.Cells {
			f.Cells[i].AttackCost = 5000
		}
	}
	cases := []struct {
		name string
		edit func(f *colorfight2.Frame)
		want []string
	}{
		{"small: attack at exact cost while it has strictly more; wells on ne>=4",
			func(f *colorfight2.Frame) {}, []string{"a 1 1 70", "a 2 0 50", "b 1 0 e"}},
		{"strictly more energy than the cost",
			func(f *colorfight2.Frame) { f.Users[0].Energy = 120 }, nil}, // one attack, checked below
		{"after turn 100 any empty cell gets a gold mine",
			func(f *colorfight2.Frame) { f.Turn = 150 }, []string{"a 1 1 70", "a 2 0 50", "b 0 1 g", "b 1 0 e"}},
		{"gold for one build only",
			func(f *colorfight2.Frame) { f.Turn, f.Users[0].Gold = 150, 399 }, nil}, // checked below
		{"more than 20 cells: fortress facing an enemy, well where ne > ng",
			func(f *colorfight2.Frame) {
				f.Users[0].CellNumber = 25
				f.Cells[2].Owner = 2
			}, []string{"a 1 1 70", "a 2 0 50", "b 0 1 e", "b 1 0 f"}},
		{"more than 20 cells: gold mine where ng > ne, nothing on a poor cell",
			func(f *colorfight2.Frame) {
				f.Users[0].CellNumber = 25
				f.Cells[1].NaturalGold, f.Cells[1].NaturalEnergy = 6, 2
				f.Cells[5].NaturalGold, f.Cells[5].NaturalEnergy = 2, 2
			}, []string{"a 1 1 70", "a 2 0 50", "b 1 0 g"}},
		{"Home upgrade with strictly more than 1000 gold and energy left",
			func(f *colorfight2.Frame) {
				f.Users[0].Energy, f.Users[0].Gold = 1001, 1001
				outOfReach(f)
			}, []string{"u 0 0"}},
		{"no Home upgrade with exactly 1000 gold; builds instead",
			func(f *colorfight2.Frame) {
				f.Users[0].Energy, f.Users[0].Gold = 5000, 1000
				outOfReach(f)
			}, []string{"b 1 0 e"}},
		{"the Home, then a level-1 well below tech 2, each with strictly more than its cost",
			func(f *colorfight2.Frame) {
				f.Users[0].TechLevel, f.Users[0].Energy, f.Users[0].Gold = 2, 2001, 2401
				f.Cells[0].Level = 2
				f.Cells[1].Building = colorfight2.EnergyWell
				outOfReach(f)
			}, []string{"u 0 0", "u 1 0"}},
		{"no upgrades after turn 300 with 450 cells or more",
			func(f *colorfight2.Frame) {
				f.Turn, f.Users[0].CellNumber = 300, 450
				f.Users[0].Energy, f.Users[0].Gold = 5000, 1001
				outOfReach(f)
			}, []string{"b 0 1 e", "b 1 0 e"}},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 6; seed++ {
			f := rtFrame()
			c.edit(f)
			b, _ := bot.Builtin(rtName)
			_ = b.Start(1, seed)
			out, err := b.Commands(f)
			if err != nil {
				t.Fatal(err)
			}
			got := sorted(out)
			switch {
			case c.want != nil:
				if !slices.Equal(got, c.want) {
					t.Errorf("%s (seed %d): %q, want %q", c.name, seed, out, c.want)
				}
			case f.Users[0].Energy == 120:
				// 50 then 70 leaves 70, not strictly more; 70 then 50 likewise.
				if len(got) != 2 || got[1] != "b 1 0 e" || got[0] != "a 1 1 70" && got[0] != "a 2 0 50" {
					t.Errorf("%s (seed %d): %q", c.name, seed, out)
				}
			default: // 399 gold: one build, whichever empty cell comes first
				if len(got) != 3 || got[2] != "b 0 1 g" && got[2] != "b 1 0 e" {
					t.Errorf("%s (seed %d): %q", c.name, seed, out)
				}
			}
			// Attacks come first.
			for k := 1; k < len(out); k++ {
				if out[k][0] == 'a' && out[k-1][0] != 'a' {
					t.Errorf("%s (seed %d): attack after another command: %q", c.name, seed, out)
				}
			}
		}
	}

	// Homeless with 1000 gold: one Home, on a random empty own cell, and
	// nothing else to build; the attacks go on.
	cellsSeen := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		f := rtFrame()
		f.Cells[0].Building = colorfight2.BuildingNone
		f.Users[0].TechLevel, f.Users[0].Gold = 0, 1000
		b, _ := bot.Builtin(rtName)
		_ = b.Start(1, seed)
		out, _ := b.Commands(f)
		got := sorted(out)
		if len(got) != 3 || got[0] != "a 1 1 70" || got[1] != "a 2 0 50" || !strings.HasSuffix(got[2], " h") {
			t.Fatalf("homeless (seed %d): %q", seed, out)
		}
		cellsSeen[got[2]] = true
	}
	if len(cellsSeen) < 2 {
		t.Errorf("the Home is always rebuilt on the same cell: %v", cellsSeen)
	}
}

// TestRuntimeTerrorsBeatsRandom: in 4-player games with random and two
// other built-ins, on every seed and seat, it ends with more gold than
// random. In 2-player duels it always ends with more cells than random
// (most of the map), but that is not always a win: with every cell taken and its Home never
// upgraded (its attacks spend the energy first), the tax on 900 cells
// and hundreds of mines and wells can drive its gold far below zero while
// random, wiped out, keeps a few hundred. So duels are only required to
// be won half the time (7 of 10 when this was written).
func TestRuntimeTerrorsBeatsRandom(t *testing.T) {
	base := []string{rtName, "random", "greedy", "turtle"}
	for seed := uint64(1); seed <= 8; seed++ {
		names := rotate(base, int(seed))
		bs, _, uid := lineup(t, names)
		res := play(t, 40+seed, bs...)
		rnd := slices.Index(names, "random") + 1
		me, them := res.Players[uid-1], res.Players[rnd-1]
		t.Logf("%v seed %d: %s %d gold (rank %d), random %d gold (rank %d)", names, 40+seed, rtName, me.Gold, rank(res, uid), them.Gold, rank(res, rnd))
		if rank(res, uid) > rank(res, rnd) {
			t.Errorf("%v seed %d: random (%d gold) beats %s (%d gold)", names, 40+seed, them.Gold, rtName, me.Gold)
		}
	}

	wins := 0
	for seed := uint64(1); seed <= 10; seed++ {
		names := []string{rtName, "random"}
		if seed%2 == 0 {
			names = []string{"random", rtName}
		}
		bs, _, uid := lineup(t, names)
		res := play(t, seed, bs...)
		me, them := res.Players[uid-1], res.Players[2-uid]
		if res.Ranking[0] == uid {
			wins++
		}
		if me.Cells <= them.Cells {
			t.Errorf("duel seed %d: %d cells, random %d", seed, me.Cells, them.Cells)
		}
		t.Logf("duel seed %d: %d gold, %d cells; random %d gold, %d cells", seed, me.Gold, me.Cells, them.Gold, them.Cells)
	}
	t.Logf("wins %d of 10 duels against random", wins)
	if wins < 5 {
		t.Errorf("wins only %d of 10 duels against random", wins)
	}
}

// TestRuntimeTerrorsTopHalf: in 6-player free-for-alls against one of each
// other built-in, seats rotated, it finishes in the top half on most seeds
// (7 of these 8 when this was written; on the eighth its gold ends below
// zero, the cost of the tax on a map it has all but conquered).
func TestRuntimeTerrorsTopHalf(t *testing.T) {
	others := slices.DeleteFunc(bot.BuiltinNames(), func(n string) bool { return n == rtName })
	base := append([]string{rtName}, others...)
	const seeds = 8
	top, aboveRandom := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		names := rotate(base, int(seed))
		bs, _, uid := lineup(t, names)
		res := play(t, seed, bs...)
		r := rank(res, uid)
		if r <= len(names)/2 {
			top++
		}
		if rank(res, slices.Index(names, "random")+1) > r {
			aboveRandom++
		}
		t.Logf("%v seed %d: rank %d with %d gold, %d cells", names, seed, r, res.Players[uid-1].Gold, res.Players[uid-1].Cells)
	}
	t.Logf("top half in %d of %d free-for-alls, above random in %d", top, seeds, aboveRandom)
	if top < seeds-3 || aboveRandom < seeds-2 {
		t.Errorf("top half in %d of %d free-for-alls, above random in %d", top, seeds, aboveRandom)
	}
}
