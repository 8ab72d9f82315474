package rules_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rewind-game/rewind/engine"
	cf "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// at is a cell of a hand-made frame: owner, building and level at (x, y).
type at struct {
	x, y  int
	owner int64
	b     cf.Building
	level int64
}

// mkFrame returns a w×h frame of unowned empty cells (level 1) but for
// cells, listing users.
func mkFrame(w, h int, users []cf.FrameUser, cells ...at) *cf.Frame {
	f := &cf.Frame{Width: w, Height: h, Cells: make([]cf.FrameCell, w*h), Users: users}
	for i := range f.Cells {
		f.Cells[i].Level, f.Cells[i].X, f.Cells[i].Y = 1, int64(i%w), int64(i/w)
	}
	for _, c := range cells {
		fc := f.Cell(c.x, c.y)
		fc.Owner, fc.Building, fc.Level = c.owner, c.b, max(c.level, 1)
	}
	return f
}

// user is a frame's user uid with gold, energy and cells.
func user(uid, gold, energy, cells int64) cf.FrameUser {
	return cf.FrameUser{UID: uid, Gold: gold, Energy: energy, CellNumber: cells, TechLevel: 1}
}

// withBuildings returns u counting n buildings of type b.
func withBuildings(u cf.FrameUser, b cf.Building, n int64) cf.FrameUser {
	u.Buildings[b] = n
	return u
}

// account accounts for one round and returns it.
func account(t *testing.T, a *cf.Accounts, prev, cur *cf.Frame, cmds [][]cf.Command, errs []cf.CommandError) {
	t.Helper()
	if err := a.Round(prev, cur, cmds, errs); err != nil {
		t.Fatal(err)
	}
}

// check compares uid's account with want, every field.
func check(t *testing.T, a *cf.Accounts, uid int, want cf.Account) {
	t.Helper()
	got := a.Account(uid)
	if got == nil {
		t.Fatalf("uid %d has no account", uid)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("uid %d:\n got %+v\nwant %+v", uid, *got, want)
	}
}

// unknown sets the figures that need commands to -1.
func unknown(a cf.Account) cf.Account {
	a.CaptureEnergy, a.WastedEnergy, a.Commands, a.Errors, a.Faults = -1, -1, -1, -1, -1
	return a
}

func levels(b cf.Building, counts ...int64) (l [cf.NumBuildings][3]int64) {
	copy(l[b][:], counts)
	return l
}

// TestAccountsCapture: player 1 takes an unowned cell and one of player
// 2's; with commands its attacks split into capture and wasted energy,
// the rejected one uncounted, and player 2's bot fault is an error and a
// fault; without, the attack energy is what the energy accounting leaves.
func TestAccountsCapture(t *testing.T) {
	prev := mkFrame(4, 1, []cf.FrameUser{
		withBuildings(user(1, 500, 1000, 1), cf.Home, 1),
		withBuildings(user(2, 300, 800, 2), cf.Home, 1),
	}, at{0, 0, 1, cf.Home, 1}, at{2, 0, 2, 0, 1}, at{3, 0, 2, cf.Home, 1})
	u1 := withBuildings(user(1, 600, 650, 3), cf.Home, 1)
	u1.GoldSource, u1.EnergySource = 100, 50
	cur := mkFrame(4, 1, []cf.FrameUser{u1, withBuildings(user(2, 300, 800, 1), cf.Home, 1)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1}, at{2, 0, 1, 0, 1}, at{3, 0, 2, cf.Home, 1})
	cmds := [][]cf.Command{
		{
			{Kind: cf.CmdAttack, X: 1, Y: 0, Energy: 100},
			{Kind: cf.CmdAttack, X: 2, Y: 0, Energy: 200},
			{Kind: cf.CmdAttack, X: 0, Y: 0, Energy: 50}, // its own cell: wasted
			{Kind: cf.CmdAttack, X: 3, Y: 0, Energy: 999},
		},
		{{Kind: cf.CmdInvalid, Err: cf.ErrBotFault, Raw: "timeout"}},
	}
	errs := []cf.CommandError{{UID: 1, Index: 3, Code: cf.ErrNotEnoughEnergy}, {UID: 2, Index: 0, Code: cf.ErrBotFault}}

	one := cf.Account{
		Gold: 600, Energy: 650, GoldSource: 100, EnergySource: 50, Cells: 3, TechLevel: 1,
		Buildings: [cf.NumBuildings]int64{cf.Home: 1}, Levels: levels(cf.Home, 1),
		Captured: 2, Exchanges: []cf.Exchange{{UID: 0, From: 1}, {UID: 2, From: 1}},
		AttackEnergy: 350, CaptureEnergy: 300, WastedEnergy: 50, Commands: 4, Errors: 1,
	}
	two := cf.Account{
		Gold: 300, Energy: 800, Cells: 1, TechLevel: 1,
		Buildings: [cf.NumBuildings]int64{cf.Home: 1}, Levels: levels(cf.Home, 1),
		Lost: 1, Exchanges: []cf.Exchange{{UID: 1, To: 1}},
		Commands: 1, Errors: 1, Faults: 1,
	}
	a := cf.NewAccounts(8, true)
	account(t, a, prev, cur, cmds, errs)
	check(t, a, 1, one)
	check(t, a, 2, two)
	if got := a.Account(1).CapturedFrom(2); got != 1 {
		t.Errorf("CapturedFrom(2) = %d, want 1", got)
	}
	if got := a.Account(2).LostTo(1); got != 1 {
		t.Errorf("LostTo(1) = %d, want 1", got)
	}
	if a.Account(3) != nil || a.Account(-1) != nil {
		t.Error("an account for a uid no frame lists")
	}

	a = cf.NewAccounts(8, false)
	account(t, a, prev, cur, cmds, errs) // commands ignored
	one.AttackEnergy = 1000 + 50 - 650
	check(t, a, 1, unknown(one))
	two.AttackEnergy = 0
	check(t, a, 2, unknown(two))
}

// TestAccountsSteal: two homes are taken in one round; the cell scan is
// column-major, so player 2 first steals a third of player 3's gold, then
// player 1 a third of player 2's gold after that (not before).
func TestAccountsSteal(t *testing.T) {
	prev := mkFrame(2, 2, []cf.FrameUser{user(1, 300, 1000, 1), user(2, 900, 1000, 1), user(3, 600, 1000, 2)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 2, cf.Home, 1}, at{0, 1, 3, cf.Home, 1}, at{1, 1, 3, 0, 1})
	cur := mkFrame(2, 2, []cf.FrameUser{user(1, 666, 900, 2), user(2, 734, 1000, 1), user(3, 400, 1000, 1)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1}, at{0, 1, 2, 0, 1}, at{1, 1, 3, 0, 1})
	a := cf.NewAccounts(3, false)
	account(t, a, prev, cur, nil, nil)
	if got, want := a.Steals(), []cf.Steal{{From: 3, By: 2, Gold: 200}, {From: 2, By: 1, Gold: 366}}; !reflect.DeepEqual(got, want) {
		t.Errorf("steals %+v, want %+v", got, want)
	}
	check(t, a, 1, unknown(cf.Account{Gold: 666, Energy: 900, Cells: 2, TechLevel: 1, Levels: levels(cf.Home, 1),
		Captured: 1, Exchanges: []cf.Exchange{{UID: 2, From: 1}}, StolenIn: 366, AttackEnergy: 100}))
	check(t, a, 2, unknown(cf.Account{Gold: 734, Energy: 1000, Cells: 1, TechLevel: 1,
		Captured: 1, Lost: 1, Exchanges: []cf.Exchange{{UID: 1, To: 1}, {UID: 3, From: 1}}, StolenIn: 200, StolenOut: 366}))
	check(t, a, 3, unknown(cf.Account{Gold: 400, Energy: 1000, Cells: 1, TechLevel: 1,
		Lost: 1, Exchanges: []cf.Exchange{{UID: 2, To: 1}}, StolenOut: 200}))
}

// TestAccountsRefund: a gold mine taken pays both its captor (the mine
// bonus) and its owner (a refund); a fortress taken refunds its owner.
func TestAccountsRefund(t *testing.T) {
	prev := mkFrame(4, 1, []cf.FrameUser{user(1, 100, 1000, 1), user(2, 50, 1000, 3)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 2, cf.GoldMine, 2}, at{2, 0, 2, cf.Fortress, 1}, at{3, 0, 2, cf.Home, 1})
	cur := mkFrame(4, 1, []cf.FrameUser{user(1, 400, 1000, 3), user(2, 450, 1000, 1)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1}, at{2, 0, 1, 0, 1}, at{3, 0, 2, cf.Home, 1})
	a := cf.NewAccounts(2, false)
	account(t, a, prev, cur, nil, nil)
	if len(a.Steals()) != 0 {
		t.Errorf("steals %+v, want none", a.Steals())
	}
	check(t, a, 1, unknown(cf.Account{Gold: 400, Energy: 1000, Cells: 3, TechLevel: 1, Levels: levels(cf.Home, 1),
		Captured: 2, Exchanges: []cf.Exchange{{UID: 2, From: 2}}, MineBonus: 300}))
	check(t, a, 2, unknown(cf.Account{Gold: 450, Energy: 1000, Cells: 1, TechLevel: 1, Levels: levels(cf.Home, 1),
		Lost: 2, Exchanges: []cf.Exchange{{UID: 1, To: 2}}, Refund: 400}))
}

// TestAccountsBuiltAndLost: a mine built and taken in the same round
// leaves no trace in the frames: without commands the accounting cannot
// see the build, its refund or the captor's bonus (GoldUnexplained -100
// and +100); with them it counts all three.
func TestAccountsBuiltAndLost(t *testing.T) {
	prev := mkFrame(3, 1, []cf.FrameUser{user(1, 1000, 1000, 2), user(2, 1000, 1000, 1)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1}, at{2, 0, 2, cf.Home, 1})
	cur := mkFrame(3, 1, []cf.FrameUser{user(1, 900, 1000, 1), user(2, 1100, 1000, 2)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 2, 0, 1}, at{2, 0, 2, cf.Home, 1})
	cmds := [][]cf.Command{{{Kind: cf.CmdBuild, X: 1, Y: 0, Building: cf.GoldMine}}, nil}
	one := cf.Account{Gold: 900, Energy: 1000, Cells: 1, TechLevel: 1, Levels: levels(cf.Home, 1),
		Lost: 1, Exchanges: []cf.Exchange{{UID: 2, To: 1}}}
	two := cf.Account{Gold: 1100, Energy: 1000, Cells: 2, TechLevel: 1, Levels: levels(cf.Home, 1),
		Captured: 1, Exchanges: []cf.Exchange{{UID: 1, From: 1}}}

	a := cf.NewAccounts(2, false)
	account(t, a, prev, cur, nil, nil)
	u1, u2 := unknown(one), unknown(two)
	u1.GoldUnexplained, u2.GoldUnexplained = -100, 100
	check(t, a, 1, u1)
	check(t, a, 2, u2)

	a = cf.NewAccounts(2, true)
	account(t, a, prev, cur, cmds, nil)
	one.Commands, one.GoldSpent, one.Refund = 1, 200, 100
	two.MineBonus = 100
	check(t, a, 1, one)
	check(t, a, 2, two)
}

// TestAccountsUpgrade: a home upgraded, a mine built and upgraded, and a
// mine upgraded twice in one round cost the same whether derived from
// the frames or counted from the commands (an upgrade after a build or an
// upgrade on the same cell starts from the level the command step left).
func TestAccountsUpgrade(t *testing.T) {
	prev := mkFrame(3, 1, []cf.FrameUser{withBuildings(withBuildings(user(1, 5000, 3000, 3), cf.Home, 1), cf.GoldMine, 1)},
		at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1}, at{2, 0, 1, cf.GoldMine, 1})
	u := withBuildings(withBuildings(user(1, 2400, 2000, 3), cf.Home, 1), cf.GoldMine, 2)
	u.Buildings[cf.BuildingNone] = 7 // never reported
	cur := mkFrame(3, 1, []cf.FrameUser{u},
		at{0, 0, 1, cf.Home, 2}, at{1, 0, 1, cf.GoldMine, 2}, at{2, 0, 1, cf.GoldMine, 3})
	lv := levels(cf.GoldMine, 0, 1, 1)
	lv[cf.Home][1] = 1
	want := cf.Account{Gold: 2400, Energy: 2000, Cells: 3, TechLevel: 1,
		Buildings: [cf.NumBuildings]int64{cf.Home: 1, cf.GoldMine: 2}, Levels: lv,
		GoldSpent: 1000 + (200 + 400) + (400 + 600), UpgradeEnergy: 1000}

	a := cf.NewAccounts(1, false)
	account(t, a, prev, cur, nil, nil)
	check(t, a, 1, unknown(want))

	a = cf.NewAccounts(1, true)
	account(t, a, prev, cur, [][]cf.Command{{
		{Kind: cf.CmdUpgrade, X: 0, Y: 0},
		{Kind: cf.CmdBuild, X: 1, Y: 0, Building: cf.GoldMine},
		{Kind: cf.CmdUpgrade, X: 1, Y: 0},
		{Kind: cf.CmdUpgrade, X: 2, Y: 0},
		{Kind: cf.CmdUpgrade, X: 2, Y: 0},
	}}, nil)
	want.Commands = 5
	check(t, a, 1, want)
}

// TestAccountsLifetime: a player's registration round is neither a
// capture nor a build; a player that vanishes from the users list keeps
// its gold and energy and is dead; Total sums the counters over the
// rounds and keeps the last gauges.
func TestAccountsLifetime(t *testing.T) {
	f0 := mkFrame(2, 1, nil)
	f1 := mkFrame(2, 1, []cf.FrameUser{withBuildings(user(1, 0, 1000, 1), cf.Home, 1)}, at{0, 0, 1, cf.Home, 1})
	f2 := mkFrame(2, 1, []cf.FrameUser{user(1, 10, 900, 2), user(2, 0, 1000, 0)}, at{0, 0, 1, cf.Home, 1}, at{1, 0, 1, 0, 1})
	f3 := mkFrame(2, 1, []cf.FrameUser{user(2, 5, 1000, 2)}, at{0, 0, 2, 0, 1}, at{1, 0, 2, 0, 1})

	a := cf.NewAccounts(2, false)
	account(t, a, f0, f1, nil, nil)
	check(t, a, 1, unknown(cf.Account{Energy: 1000, Cells: 1, TechLevel: 1,
		Buildings: [cf.NumBuildings]int64{cf.Home: 1}, Levels: levels(cf.Home, 1)}))
	if a.Account(2) != nil {
		t.Error("player 2 has an account before any frame lists it")
	}
	account(t, a, f1, f2, nil, nil)
	check(t, a, 1, unknown(cf.Account{Gold: 10, Energy: 900, Cells: 2, TechLevel: 1, Levels: levels(cf.Home, 1),
		Captured: 1, Exchanges: []cf.Exchange{{UID: 0, From: 1}}, AttackEnergy: 100, GoldUnexplained: 10}))
	account(t, a, f2, f3, nil, nil)
	// Player 1's home goes with its cells: a third of its gold is stolen.
	check(t, a, 1, unknown(cf.Account{Gold: 10, Energy: 900, Dead: true,
		Lost: 2, Exchanges: []cf.Exchange{{UID: 2, To: 2}}, StolenOut: 3}))
	check(t, a, 2, unknown(cf.Account{Gold: 5, Energy: 1000, Cells: 2, TechLevel: 1,
		Captured: 2, Exchanges: []cf.Exchange{{UID: 1, From: 2}}, StolenIn: 3, GoldUnexplained: 2}))

	tot, ok := a.Total(1)
	if want := unknown(cf.Account{Gold: 10, Energy: 900, Dead: true, Captured: 1, Lost: 2, StolenOut: 3, AttackEnergy: 100}); !ok || !reflect.DeepEqual(tot, want) {
		t.Errorf("Total(1) = %+v, %v, want %+v", tot, ok, want)
	}
	if _, ok := a.Total(3); ok {
		t.Error("Total(3) of no player")
	}
	a = cf.NewAccounts(2, true)
	account(t, a, f0, f1, nil, nil)
	account(t, a, f1, f2, [][]cf.Command{{{Kind: cf.CmdAttack, X: 1, Y: 0, Energy: 100}, {Kind: cf.CmdAttack, X: 1, Y: 0, Energy: 7}}}, []cf.CommandError{{UID: 1, Index: 1, Code: cf.ErrNotEnoughEnergy}})
	tot, _ = a.Total(1)
	if tot.Commands != 2 || tot.Errors != 1 || tot.Faults != 0 || tot.AttackEnergy != 100 || tot.CaptureEnergy != 100 || tot.WastedEnergy != 0 {
		t.Errorf("Total(1) with commands = %+v", tot)
	}
}

// TestAccountsRefuses: a uid beyond the bound and frames whose cells do
// not match their sizes are errors, not panics.
func TestAccountsRefuses(t *testing.T) {
	ok := mkFrame(2, 2, nil)
	for name, cur := range map[string]*cf.Frame{
		"uid":     mkFrame(2, 2, []cf.FrameUser{user(9, 0, 0, 0)}),
		"uid 0":   mkFrame(2, 2, []cf.FrameUser{user(0, 0, 0, 0)}),
		"resized": mkFrame(4, 1, nil),
		"cells":   {Width: 2, Height: 2, Cells: make([]cf.FrameCell, 3)},
	} {
		if err := cf.NewAccounts(8, true).Round(ok, cur, nil, nil); !errors.Is(err, cf.ErrAccountFrame) {
			t.Errorf("%s: %v, want ErrAccountFrame", name, err)
		}
	}
}

// TestAccountMetrics: the metrics name the figures in Figure's order,
// once each, with the documented kinds.
func TestAccountMetrics(t *testing.T) {
	var a cf.Account
	var want []int64
	v := int64(0)
	next := func() int64 { v++; want = append(want, v); return v }
	a.Gold, a.Energy, a.GoldSource, a.EnergySource = next(), next(), next(), next()
	a.Tax, a.Cells, a.TechLevel = next(), next(), next()
	a.Dead = true
	want = append(want, 1)
	v = 100
	for b := cf.Home; b < cf.NumBuildings; b++ {
		a.Buildings[b] = next()
	}
	for b := cf.Home; b < cf.NumBuildings; b++ {
		for l := range 3 {
			a.Levels[b][l] = next()
		}
	}
	a.Captured, a.Lost, a.GoldSpent, a.UpgradeEnergy = next(), next(), next(), next()
	a.StolenIn, a.StolenOut, a.Refund, a.MineBonus, a.GoldUnexplained = next(), next(), next(), next(), next()
	a.AttackEnergy, a.CaptureEnergy, a.WastedEnergy, a.Commands, a.Errors = next(), next(), next(), next(), next()
	a.Faults = int32(next())

	ms := cf.AccountMetrics
	if len(ms) != len(want) {
		t.Fatalf("%d metrics, want %d", len(ms), len(want))
	}
	seen := map[string]bool{}
	for i, m := range ms {
		if got := a.Figure(i); got != want[i] {
			t.Errorf("Figure(%d) (%s) = %d, want %d", i, m.Name, got, want[i])
		}
		if seen[m.Name] {
			t.Errorf("metric %q twice", m.Name)
		}
		seen[m.Name] = true
	}
	if a.Figure(-1) != 0 || a.Figure(len(ms)) != 0 {
		t.Error("a figure out of range is not 0")
	}
	for i, name := range map[int]string{0: "gold", 7: "dead", 8: "home", 12: "home_l1", 23: "fortress_l3", 24: "captured", 32: "gold_unexplained", 38: "faults"} {
		if ms[i].Name != name {
			t.Errorf("metric %d is %q, want %q", i, ms[i].Name, name)
		}
	}
	for _, m := range ms {
		amount := m.Name == "captured" || m.Name == "lost" || m.Name == "gold_spent" || m.Name == "upgrade_energy" ||
			m.Name == "stolen_in" || m.Name == "stolen_out" || m.Name == "refund" || m.Name == "mine_bonus" ||
			m.Name == "attack_energy" || m.Name == "capture_energy" || m.Name == "wasted_energy" ||
			m.Name == "commands" || m.Name == "errors" || m.Name == "faults"
		if want := map[bool]engine.MetricKind{true: engine.Amount, false: engine.Gauge}[amount]; m.Kind != want || m.Unit == "" {
			t.Errorf("metric %+v: want kind %v", m, want)
		}
		fromCommands := m.Name == "capture_energy" || m.Name == "wasted_energy" || m.Name == "commands" || m.Name == "errors" || m.Name == "faults"
		if m.FromCommands != fromCommands {
			t.Errorf("metric %s: FromCommands %v, want %v", m.Name, m.FromCommands, fromCommands)
		}
	}
	// Without commands exactly the FromCommands figures are -1.
	prev := mkFrame(2, 1, []cf.FrameUser{user(1, 0, 1000, 1)}, at{0, 0, 1, cf.Home, 1})
	cur := mkFrame(2, 1, []cf.FrameUser{user(1, 10, 1000, 1)}, at{0, 0, 1, cf.Home, 1})
	acc := cf.NewAccounts(1, false)
	account(t, acc, prev, cur, nil, nil)
	account(t, acc, cur, cur, nil, nil)
	for i, m := range ms {
		if got := acc.Account(1).Figure(i); (got == -1) != m.FromCommands {
			t.Errorf("without commands %s is %d (FromCommands %v)", m.Name, got, m.FromCommands)
		}
	}
}

// TestExchangeMetrics: the exchanges of a game of n uids are named
// captured_from_0..n then lost_to_1..n, amounts in cells, and
// AppendExchanges gives CapturedFrom and LostTo in that order, leaving
// out parties above n.
func TestExchangeMetrics(t *testing.T) {
	ms := cf.ExchangeMetrics(3)
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
		if m.Kind != engine.Amount || m.Unit != "cells" || m.FromCommands {
			t.Errorf("metric %+v: want an amount of cells", m)
		}
	}
	want := []string{"captured_from_0", "captured_from_1", "captured_from_2", "captured_from_3", "lost_to_1", "lost_to_2", "lost_to_3"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if n := len(cf.ExchangeMetrics(0)); n != 1 {
		t.Errorf("ExchangeMetrics(0) has %d metrics, want 1 (captured_from_0)", n)
	}
	a := cf.Account{Exchanges: []cf.Exchange{{UID: 0, From: 4}, {UID: 2, From: 1, To: 3}, {UID: 3, To: 2}, {UID: 5, From: 9, To: 9}}}
	got := a.AppendExchanges([]int64{-7}, 3)
	if w := []int64{-7, 4, 0, 1, 0, 0, 3, 2}; !reflect.DeepEqual(got, w) {
		t.Errorf("AppendExchanges = %v, want %v", got, w)
	}
	for k := 0; k <= 3; k++ {
		if got[1+k] != a.CapturedFrom(k) {
			t.Errorf("captured_from_%d = %d, CapturedFrom %d", k, got[1+k], a.CapturedFrom(k))
		}
		if k > 0 && got[4+k] != a.LostTo(k) {
			t.Errorf("lost_to_%d = %d, LostTo %d", k, got[4+k], a.LostTo(k))
		}
	}
}
