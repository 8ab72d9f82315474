package rules

import "github.com/rewind-game/rewind/engine"

// Monad's events (engine.Event) as Game.Events and BoardEvents report
// them. Fields a kind does not use are -1 (Other, X, Y) or 0 (Value).
// Lead changes and bot faults are not the game's: the analysis
// derives them for every game from the score metric and the faults
// recorded with each round.
const (
	// EventHiveBuilt: Player built a hive at (X, Y); Value is the hives
	// Player owns after the turn.
	EventHiveBuilt = "hive_built"
	// EventHiveDestroyed: Player's hive at (X, Y) was destroyed; Other is
	// the side left holding the cell (-1: nobody, every side's units
	// there were wiped out); Value is the hives Player owns after the
	// turn.
	EventHiveDestroyed = "hive_destroyed"
	// EventDied: Player holds no cell any more (no unit and no hive, which
	// no rule lets it come back from); Value is the cells it held before
	// the turn. It is ColorfightII's kind and sentence for an
	// elimination.
	EventDied = "died"
)

// eventKinds are the kinds in the order a turn reports them.
var eventKinds = []engine.EventKind{
	{Name: EventHiveBuilt, Text: "{player} builds a hive at ({x}, {y}) ({value} hives)"},
	{Name: EventHiveDestroyed, Text: "{player} loses its hive at ({x}, {y}) to {other} ({value} hives left)"},
	{Name: EventDied, Text: "{player} is eliminated"},
}

// EventKinds declares hive_built, hive_destroyed and died.
func (ruleset) EventKinds() []engine.EventKind { return eventKinds }

// Events appends the events of the State's last Step (the last Round) to
// dst, in the order they happened, and returns it: the hives built, in
// execution order (State.Executed: every BUILD applied); the hives
// destroyed in the end-of-turn update, in row order (State.Fights with
// FightDestroyed, a hive built in the same turn included); then the
// players left with no cell, in player order. They are read from what Step
// kept of the turn, so Step pays nothing for them; a Step on a game that
// was over reports none. Events reads only g.State, so a Game{State: s}
// around a State played directly (State.Step, State.Play) reports its
// last turn too.
func (g *Game) Events(dst []engine.Event) []engine.Event {
	s := g.State
	if len(s.exec) == 0 && len(s.fights) == 0 && len(s.collisions) == 0 {
		return dst // nothing moved, fought or was built
	}
	var hives, cells [MaxPlayers]int
	if g.statsValid {
		// The Stats of this turn, read already (Values): the same counts.
		for p, st := range g.statsBuf {
			hives[p], cells[p] = st.Hives, st.Cells
		}
	} else {
		var units [MaxPlayers]int64
		s.census(&units, &hives, &cells)
	}
	for i := range s.exec {
		e := &s.exec[i]
		if e.Kind == KindBuild && e.Code == ErrNone {
			dst = append(dst, engine.Event{Kind: EventHiveBuilt, Player: e.Player, Other: -1, X: e.X, Y: e.Y, Value: int64(hives[e.Player])})
		}
	}
	for i := range s.fights {
		f := &s.fights[i]
		if f.Outcome != FightDestroyed {
			continue
		}
		by := -1
		for q := 0; q < s.players; q++ {
			if f.Post[q] > 0 {
				by = q
				break
			}
		}
		dst = append(dst, engine.Event{Kind: EventHiveDestroyed, Player: f.Hive, Other: by, X: f.X, Y: f.Y, Value: int64(hives[f.Hive])})
	}
	for p := 0; p < s.players; p++ {
		if cells[p] > 0 {
			continue
		}
		if n := s.heldBefore(p); n > 0 {
			dst = append(dst, engine.Event{Kind: EventDied, Player: p, Other: -1, X: -1, Y: -1, Value: int64(n)})
		}
	}
	return dst
}

// heldBefore returns how many cells player p held before the last Step,
// for a player that holds none now. It undoes the Step for p alone from
// what Step kept: a cell p holds no unit or hive in now, outside the
// turn's fights, is one the update left alone for p (it changes only a
// fight's cell and the production of a hive p would still own), so p's
// units and hives before the update are the fights' Pre and Hive; the
// applied MOVEs (in reverse order) and BUILDs of Executed are then undone,
// and the units the collisions removed given back. A player that held
// nothing before the turn shows in none of these, and gets 0.
func (s *State) heldBefore(p int) int {
	seen := false
	for i := range s.fights {
		f := &s.fights[i]
		seen = seen || f.Pre[p] > 0 || f.Hive == p
	}
	for i := range s.collisions {
		c := &s.collisions[i]
		seen = seen || (c.A.Player == p && c.A.Removed > 0) || (c.B.Player == p && c.B.Removed > 0)
	}
	if !seen {
		return 0 // it had no unit and no hive before the turn either
	}
	var units [NumCells]int64
	var hive [NumCells]bool
	for i := range s.fights {
		f := &s.fights[i]
		k := f.Y*Width + f.X
		units[k], hive[k] = int64(f.Pre[p]), f.Hive == p
	}
	for i := len(s.exec) - 1; i >= 0; i-- {
		e := &s.exec[i]
		if e.Player != p || e.Code != ErrNone {
			continue
		}
		k := e.Y*Width + e.X
		switch e.Kind {
		case KindMove:
			if t := target(int16(k), e.Dir); t >= 0 && e.Count > 0 {
				units[k] += e.Count
				units[t] -= e.Count
			}
		case KindBuild:
			hive[k] = false
		}
	}
	for i := range s.collisions {
		for _, side := range [2]*CollisionSide{&s.collisions[i].A, &s.collisions[i].B} {
			if side.Player == p {
				units[side.Y*Width+side.X] += side.Removed
			}
		}
	}
	n := 0
	for k := range units {
		if units[k] > 0 || hive[k] {
			n++
		}
	}
	return n
}

// BoardEvents appends to dst the events of the turn between two
// consecutive boards of a Monad game, prev the board before the turn and
// cur the one after (as Game.Board describes them: a cell's Owner is the
// player with units there, or the hive's owner in an empty hive cell;
// badge bit 0 is a hive), and returns it. It is for a stream that has
// only the states, as an official reference log: the hives that appeared
// (hive_built, in row order), the hives that went (hive_destroyed, Other
// the cell's Owner after the turn, -1 for none), then the players that
// held cells in prev and hold none in cur (died, player order); Values as
// Game.Events gives them. Boards of another size than Width × Height
// give no event; owners outside 0..MaxPlayers-1 are ignored.
//
// What it cannot see: a hive built and destroyed in the same turn is on
// neither board, so neither its hive_built nor its hive_destroyed is
// reported (Game.Events reports both); and the hives built in a turn come
// in row order, not in the order they were built (player by player).
// Everything else it reports is what Game.Events reports for the turn.
func BoardEvents(prev, cur *engine.Board, dst []engine.Event) []engine.Event {
	if len(prev.Cells) != NumCells || len(cur.Cells) != NumCells {
		return dst
	}
	var hives, before, after [MaxPlayers]int
	for k := range cur.Cells {
		a, b := &prev.Cells[k], &cur.Cells[k]
		if b.Badges&1 != 0 && validPlayer(b.Owner) {
			hives[b.Owner]++
		}
		if validPlayer(a.Owner) {
			before[a.Owner]++
		}
		if validPlayer(b.Owner) {
			after[b.Owner]++
		}
	}
	hiveOf := func(c *engine.Cell) int {
		if c.Badges&1 != 0 && validPlayer(c.Owner) {
			return c.Owner
		}
		return -1
	}
	for k := range cur.Cells {
		if was, now := hiveOf(&prev.Cells[k]), hiveOf(&cur.Cells[k]); now >= 0 && now != was {
			dst = append(dst, engine.Event{Kind: EventHiveBuilt, Player: now, Other: -1, X: k % Width, Y: k / Width, Value: int64(hives[now])})
		}
	}
	for k := range cur.Cells {
		was, now := hiveOf(&prev.Cells[k]), hiveOf(&cur.Cells[k])
		if was < 0 || was == now {
			continue
		}
		by := cur.Cells[k].Owner
		if by == was || !validPlayer(by) {
			by = -1
		}
		dst = append(dst, engine.Event{Kind: EventHiveDestroyed, Player: was, Other: by, X: k % Width, Y: k / Width, Value: int64(hives[was])})
	}
	for p := 0; p < MaxPlayers; p++ {
		if before[p] > 0 && after[p] == 0 {
			dst = append(dst, engine.Event{Kind: EventDied, Player: p, Other: -1, X: -1, Y: -1, Value: int64(before[p])})
		}
	}
	return dst
}

func validPlayer(p int) bool { return p >= 0 && p < MaxPlayers }
