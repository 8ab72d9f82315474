package rules

// CommandError is one command of a turn that drew an error code.
type CommandError struct {
	Player int
	// Index is the command's position in the list the player sent (a
	// reply that was not a list is the one command ParseReply made of it);
	// -1 for an implicit mine.
	Index int
	Code  ErrCode
}

// Executed is one command in the turn's execution sequence (§6.5): every
// player's surviving MOVE, BUILD and MINE commands after the combat phase,
// sorting and the implicit mines, in execution order, whether or not they
// passed verification.
type Executed struct {
	Player int
	Index  int // position in the player's list; -1 for an implicit mine
	X, Y   int
	Kind   Kind
	Dir    Dir   // DirImplicit for an implicit mine
	Count  int64 // after the combat phase
	// Code is ErrNone for a command that passed verification and was
	// applied (a count of 0 or a MINE of an empty cell applies to no
	// effect); Code.Logged() tells whether the reference logged it (BUILDs
	// that built nothing are logged; verification failures are not).
	Code ErrCode
}

// CollisionSide is one of the two commands of a collision: its player, its
// origin, and how many units that cell actually lost (less than the amount
// only when the cell held fewer, §6.2).
type CollisionSide struct {
	Player  int
	X, Y    int
	Removed int64
}

// Collision is one fight of the combat phase between two commands pointing
// at each other. A is the command being checked (the higher player id), B
// the enemy command; Amount is the smaller of their claimed counts.
type Collision struct {
	Amount int64
	A, B   CollisionSide
}

// Fight outcomes for a hive's cell.
const (
	FightNoHive    = iota // no hive in the cell
	FightDestroyed        // the hive was destroyed
	FightDefended         // the owner kept all its units
	FightPartial          // the hive stands, the owner lost units
)

// Fight is a cell where two or more sides met in the end-of-turn update (a
// hive counts for its owner even with 0 units).
type Fight struct {
	X, Y int
	Pre  [MaxPlayers]int32 // units per player before the update
	Post [MaxPlayers]int32 // after it, the hive's production included
	Hive int               // owner before the update, -1 for none
	// Outcome is one of FightNoHive, FightDestroyed, FightDefended,
	// FightPartial.
	Outcome int
}

// work is a command during Step.
type work struct {
	player int8
	kind   Kind
	dir    Dir
	dead   bool
	cell   int16 // origin, y*Width+x
	index  int32
	count  int64
}

// Errors returns the commands of the last Step that drew an error code:
// first the ones rejected or flagged before the turn (malformed, unknown
// type; player by player, in list order), then the failures of the
// execution sequence in execution order. The slice is reused by the next
// Step.
func (s *State) Errors() []CommandError { return s.errs }

// Executed returns the last Step's execution sequence (see Executed). The
// slice is reused by the next Step.
func (s *State) Executed() []Executed { return s.exec }

// Collisions returns the last Step's collisions in the order the combat
// phase found them. The slice is reused by the next Step.
func (s *State) Collisions() []Collision { return s.collisions }

// Fights returns the last Step's cell fights in row order. The slice is
// reused by the next Step.
func (s *State) Fights() []Fight { return s.fights }

func (s *State) reject(p, index int, code ErrCode) {
	s.errs = append(s.errs, CommandError{Player: p, Index: index, Code: code})
	s.pl[p].rejected++
}

// Step plays one turn (RULES-MONAD.md §6): cmds[p] is what player p sent,
// in its order (missing or nil lists send nothing; lists of timed-out and
// crashed players are ignored). Malformed commands (Err set, or an origin
// off the map, a direction outside 1..7, a count above MaxCount) are
// rejected and take no part; every other command goes through the combat
// phase, sorting, implicit mines, execution and the cell update exactly as
// in the reference. Errors and Executed describe the turn afterwards. Step
// on a game that is Over does nothing.
func (s *State) Step(cmds [][]Command) {
	s.errs = s.errs[:0]
	s.exec = s.exec[:0]
	s.collisions = s.collisions[:0]
	s.fights = s.fights[:0]
	if s.Over() {
		return
	}
	s.pool = s.pool[:0]
	n := s.players
	for p := 0; p < n; p++ {
		s.lists[p] = s.lists[p][:0]
		if p >= len(cmds) || s.pl[p].timedOut || s.pl[p].crashed {
			continue
		}
		for k, c := range cmds[p] {
			code := c.Err
			if code == ErrNone {
				switch {
				case !OnMap(c.X, c.Y):
					code = ErrOffMap
				case c.Dir < East || c.Dir > None:
					code = ErrBadDirection
				case c.Count > MaxCount:
					code = ErrBadCount
				}
			}
			if code != ErrNone {
				s.reject(p, k, code)
				continue
			}
			cnt := c.Count
			if cnt < 1 {
				cnt = 0
			}
			if c.Kind != KindMove && c.Kind != KindBuild && c.Kind != KindMine {
				s.reject(p, k, ErrUnknownType)
			}
			s.lists[p] = append(s.lists[p], int32(len(s.pool)))
			s.pool = append(s.pool, work{player: int8(p), kind: c.Kind, dir: c.Dir, cell: int16(c.Y*Width + c.X), index: int32(k), count: cnt})
		}
	}
	s.combat()
	s.sortAndImply()
	for p := 0; p < n; p++ {
		for _, w := range s.sorted[p] {
			s.execute(&s.pool[w])
		}
	}
	for i := range s.cells {
		s.updateCell(i)
	}
	s.turn++
}

// take is Cell.decrement_units: remove a units of p from cell ci if it
// holds that many, else nothing. It returns how many were removed.
func (s *State) take(ci int16, p int, a int64) int64 {
	c := &s.cells[ci]
	if int64(c.units[p]) >= a {
		c.units[p] -= int32(a)
		s.pl[p].lost += a
		return a
	}
	return 0
}

// collide applies a collision of amount a between command cw of player i
// and command f of player j, and records it.
func (s *State) collide(cw *work, i int, f *work, j int, a int64) {
	ra := s.take(cw.cell, i, a)
	rb := s.take(f.cell, j, a)
	s.collisions = append(s.collisions, Collision{
		Amount: a,
		A:      CollisionSide{Player: i, X: int(cw.cell) % Width, Y: int(cw.cell) / Width, Removed: ra},
		B:      CollisionSide{Player: j, X: int(f.cell) % Width, Y: int(f.cell) / Width, Removed: rb},
	})
}

// target returns the cell index one step from ci in direction d, or -1 off
// the map.
func target(ci int16, d Dir) int16 {
	x, y := int(ci)%Width, int(ci)/Width
	tx, ty := Neighbor(x, y, d)
	if !OnMap(tx, ty) {
		return -1
	}
	return int16(ty*Width + tx)
}

// combat is Rules.update_combat_phase (§6.2).
func (s *State) combat() {
	n := s.players
	for i := n - 1; i >= 1; i-- {
		for j := i - 1; j >= 0; j-- {
			s.combatPair(i, j)
		}
	}
}

func (s *State) combatPair(i, j int) {
	// Group j's commands by origin, origins in order of first appearance.
	s.keys = s.keys[:0]
	for _, w := range s.lists[j] {
		c := s.pool[w].cell
		if s.cnt[c] == 0 {
			s.keys = append(s.keys, c)
		}
		s.cnt[c]++
	}
	off := int32(0)
	for _, c := range s.keys {
		s.start[c] = off
		off += s.cnt[c]
	}
	s.g = s.g[:0]
	for range s.lists[j] {
		s.g = append(s.g, 0)
	}
	for _, c := range s.keys {
		s.cnt[c] = 0 // reused as a fill counter
	}
	for _, w := range s.lists[j] {
		c := s.pool[w].cell
		s.g[s.start[c]+s.cnt[c]] = w
		s.cnt[c]++
	}
	for _, w := range s.lists[i] {
		cw := &s.pool[w]
		if cw.dead {
			continue
		}
		t := target(cw.cell, cw.dir)
		if t < 0 || s.cnt[t] == 0 {
			continue
		}
		opp := cw.dir.Opposite()
		for _, e := range s.g[s.start[t] : s.start[t]+s.cnt[t]] {
			f := &s.pool[e]
			if f.dead || f.dir != opp {
				continue
			}
			switch {
			case cw.count > f.count:
				a := f.count
				cw.count -= a
				s.collide(cw, i, f, j, a)
				f.dead = true
			case cw.count < f.count:
				a := cw.count
				f.count -= a
				s.collide(cw, i, f, j, a)
				cw.dead = true
			default:
				s.collide(cw, i, f, j, cw.count)
				cw.dead = true
				f.dead = true
			}
			if cw.dead {
				break
			}
		}
	}
	for _, c := range s.keys {
		s.cnt[c] = 0
	}
	li := s.lists[i][:0]
	for _, w := range s.lists[i] {
		if !s.pool[w].dead {
			li = append(li, w)
		}
	}
	s.lists[i] = li
	lj := s.lists[j][:0]
	for _, w := range s.g {
		if !s.pool[w].dead {
			lj = append(lj, w)
		}
	}
	s.lists[j] = lj
}

// sortAndImply is Game.sort_moves and Game.add_implicit_commands (§6.3,
// §6.4).
func (s *State) sortAndImply() {
	for p := 0; p < s.players; p++ {
		out := s.sorted[p][:0]
		for _, k := range [...]Kind{KindMove, KindBuild, KindMine} {
			for _, w := range s.lists[p] {
				if s.pool[w].kind == k {
					out = append(out, w)
				}
			}
		}
		s.keys = s.keys[:0]
		for _, w := range out {
			c := s.pool[w].cell
			if s.cnt[c] == 0 {
				s.keys = append(s.keys, c)
			}
			s.cnt[c] = 1
			s.sums[c] += s.pool[w].count
		}
		for _, c := range s.keys {
			if u := int64(s.cells[c].units[p]); s.sums[c] < u {
				out = append(out, int32(len(s.pool)))
				s.pool = append(s.pool, work{player: int8(p), kind: KindMine, dir: DirImplicit, cell: c, index: -1, count: u - s.sums[c]})
			}
			s.cnt[c] = 0
			s.sums[c] = 0
		}
		s.sorted[p] = out
	}
}

// execute is Game.execute_move (§6.5).
func (s *State) execute(w *work) {
	p := int(w.player)
	c := &s.cells[w.cell]
	code := ErrNone
	var t int16
	if w.kind == KindMove {
		t = target(w.cell, w.dir)
		if t < 0 {
			code = ErrTargetOffMap
		}
	}
	if code == ErrNone && int64(c.units[p]) < w.count {
		code = ErrTooManyUnits
		if c.units[p] == 0 {
			code = ErrNoUnits
		}
	}
	if code == ErrNone {
		switch w.kind {
		case KindMove:
			if w.count > 0 {
				c.units[p] -= int32(w.count)
				s.cells[t].units[p] += int32(w.count)
			}
		case KindMine:
			if w.count > 0 && c.resource > 0 {
				if int64(c.resource) >= w.count {
					c.resource -= int32(w.count)
					s.pl[p].resources += w.count
				} else {
					s.pl[p].resources += int64(c.resource)
					c.resource = 0
				}
			}
		case KindBuild:
			switch {
			case c.hive == int8(p):
				code = ErrOwnHive
			case c.hive >= 0:
				code = ErrEnemyHive
			case s.pl[p].resources < HiveCost:
				code = ErrNotEnoughResources
			case c.units[p] <= 0:
				code = ErrNoUnitHere
			default:
				c.hive = int8(p)
				c.counter = 0
				s.pl[p].resources -= HiveCost
			}
		}
	}
	x, y := int(w.cell)%Width, int(w.cell)/Width
	s.exec = append(s.exec, Executed{Player: p, Index: int(w.index), X: x, Y: y, Kind: w.kind, Dir: w.dir, Count: w.count, Code: code})
	if code != ErrNone {
		s.reject(p, int(w.index), code)
	}
}

// updateCell is Cell.update_units_and_hive (§6.6) for cell index i.
func (s *State) updateCell(i int) {
	c := &s.cells[i]
	n := s.players
	o := int(c.hive)
	sides := 0
	for p := 0; p < n; p++ {
		if c.units[p] > 0 || p == o {
			sides++
		}
	}
	if sides <= 1 && o < 0 {
		return // nothing changes
	}
	pre := c.units
	var buffed int32
	if o >= 0 {
		buffed = c.units[o] + DefenseRating
		c.units[o] = buffed
	}
	for {
		m := int32(-1)
		k := 0
		for p := 0; p < n; p++ {
			if u := c.units[p]; u > 0 {
				k++
				if m < 0 || u < m {
					m = u
				}
			}
		}
		if k <= 1 {
			break
		}
		for p := 0; p < n; p++ {
			if c.units[p] > 0 {
				c.units[p] -= m
			}
		}
	}
	outcome := FightNoHive
	if o >= 0 {
		diff := buffed - c.units[o]
		switch {
		case c.units[o] == 0:
			c.hive = -1
			c.counter = 0
			outcome = FightDestroyed
		case diff >= 0 && diff < DefenseRating:
			c.units[o] = c.units[o] + diff - DefenseRating
		default:
			c.units[o] = c.units[o] + DefenseRating - 1 - DefenseRating
		}
		if outcome != FightDestroyed {
			outcome = FightDefended
			if c.units[o] < pre[o] {
				outcome = FightPartial
			}
		}
	}
	for p := 0; p < n; p++ {
		if d := pre[p] - c.units[p]; d > 0 {
			s.pl[p].lost += int64(d)
		}
	}
	if c.hive >= 0 {
		for c.counter >= UnitCost {
			c.units[o]++
			c.counter -= UnitCost
			s.pl[o].produced++
		}
		c.counter++
	}
	if sides > 1 {
		s.fights = append(s.fights, Fight{X: i % Width, Y: i / Width, Pre: pre, Post: c.units, Hive: o, Outcome: outcome})
	}
}

// Round is one recorded turn: the commands the engine applied (Commands[p]
// is player p's list, as Step takes them) and the players whose bot timed
// out or crashed while the turn was played (a fault of their bot, part of
// the state, so a recording keeps when it happened).
type Round struct {
	Commands          [][]Command
	TimedOut, Crashed [MaxPlayers]bool
}

// Play plays r: Step(r.Commands), then the marks (SetTimedOut,
// SetCrashed). A faulty player sent nothing that turn, so marking it after
// the Step is what marking it during the turn would do; the end of the
// game (every player out) is then seen before the next turn, as in the
// reference. A game re-simulated with the rounds a match played reaches
// the same states. On a game that is Over, Play does nothing but forget
// the last turn's Errors, Executed, Collisions and Fights, as Step does.
func (s *State) Play(r *Round) {
	if s.Over() {
		s.Step(nil) // over: it only empties the last turn's results
		return
	}
	s.Step(r.Commands)
	for p := 0; p < s.players; p++ {
		if r.TimedOut[p] {
			s.SetTimedOut(p)
		}
		if r.Crashed[p] {
			s.SetCrashed(p)
		}
	}
}
