package rules

import (
	"fmt"
	"slices"

	"github.com/rewind-game/rewind/engine"
)

// valueFigures are the indexes in AccountMetrics of the figures
// Game.Values reports (the ruleset's Metrics), in that order.
var valueFigures = []int{figGold, figEnergy, figCells, figGoldSource, figEnergySource, figTechLevel}

// extraFigures are the indexes in AccountMetrics of the other figures,
// in AccountMetrics' order: those the ruleset's engine.Accounting adds.
var extraFigures = func() []int {
	var out []int
	for i := range numFigures {
		if !slices.Contains(valueFigures, i) {
			out = append(out, i)
		}
	}
	return out
}()

// extraMetrics describes extraFigures.
var extraMetrics = figureMetrics(extraFigures)

// figureMetrics returns the metrics of AccountMetrics at indexes idx.
func figureMetrics(idx []int) []engine.Metric {
	out := make([]engine.Metric, len(idx))
	for k, i := range idx {
		out[k] = AccountMetrics[i]
	}
	return out
}

// AccountMetrics describes the figures of an Account that are not among
// the ruleset's Metrics (engine.Accounting), for a game of players
// players: AccountMetrics' entries but gold, energy, cells, gold_source,
// energy_source and tech_level, in AccountMetrics' order, then
// ExchangeMetrics(players). They are each round's Account figures, as the
// analysis's series hold them: an amount's value is the round's
// (engine.Amount), not a running total.
func (ruleset) AccountMetrics(players int) []engine.Metric {
	return append(slices.Clip(extraMetrics), ExchangeMetrics(players)...)
}

// AccountEventKinds declares the events the accountant reports
// (engine.Accounting): AccountEventKinds.
func (ruleset) AccountEventKinds() []engine.EventKind { return AccountEventKinds }

// NewAccountant returns the accountant of one game of players players
// (engine.Accounting), uids 1..players: Accounts over the frames of the *Game it is
// shown, with the commands its last Round applied (Applied) and the
// errors they drew (State.Errors) when commandsKnown. Frame 0 is
// accounted as the map before anyone registered, as element 0 of an
// official replay shows it (every cell unowned, no users), so round
// 0 -> 1 is every player's registration round.
func (ruleset) NewAccountant(players int, commandsKnown bool) *engine.Accountant {
	players = max(players, 0)
	a := &accountant{players: players, commands: commandsKnown, acc: NewAccounts(players, commandsKnown)}
	return &engine.Accountant{Observe: a.Observe, Values: a.Values, Events: a.Events}
}

// accountant computes ColorfightII's engine.Accountant.
type accountant struct {
	players  int
	commands bool
	acc      *Accounts
	// prev is the frame last observed, cur the one being accounted:
	// the accountant's own (State.Frame), since a Game's Frame changes
	// with its next Round; started once frame 0 is.
	prev    Frame
	cur     Frame
	started bool
}

// Observe accounts for the round that led to g's frame from the frame
// observed before (none for frame 0). g must be a *Game.
func (a *accountant) Observe(g engine.Game) error {
	cg, ok := g.(*Game)
	if !ok {
		return fmt.Errorf("colorfight2: accounting a %T, not a ColorfightII game", g)
	}
	if !a.started {
		cg.State.Frame(&a.prev)
		a.prev.Users = a.prev.Users[:0]
		for i := range a.prev.Cells {
			c := &a.prev.Cells[i]
			c.Owner, c.Building, c.Level = 0, BuildingNone, 1
		}
		a.started = true
		return nil
	}
	var cmds [][]Command
	var errs []CommandError
	if a.commands {
		cmds, errs = cg.Applied(), cg.State.Errors()
	}
	cg.State.Frame(&a.cur)
	if err := a.acc.Round(&a.prev, &a.cur, cmds, errs); err != nil {
		return err
	}
	a.prev, a.cur = a.cur, a.prev
	return nil
}

// Values appends player p's figures of the last round accounted, in
// AccountMetrics(players) order (zeros before it, or while p has no
// account).
func (a *accountant) Values(p int, dst []int64) []int64 {
	r := a.acc.Account(p + 1)
	if r == nil {
		for range len(extraFigures) + 2*a.players + 1 {
			dst = append(dst, 0)
		}
		return dst
	}
	for _, i := range extraFigures {
		dst = append(dst, r.Figure(i))
	}
	return r.AppendExchanges(dst, a.players)
}

// Events appends the events of the last round accounted (Accounts.Events,
// as the seam numbers players: AccountEvent.Event), none before it.
func (a *accountant) Events(dst []engine.Event) []engine.Event {
	for _, e := range a.acc.Events() {
		dst = append(dst, e.Event())
	}
	return dst
}

var _ engine.Accounting = ruleset{}
