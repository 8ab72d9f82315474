// Package diff compares two replays of one game, of any format rewind
// reads, as two streams of frames read side by side (`rewind diff`).
// For two games of the same setup it finds the first turn whose commands
// differ and the first turn whose state differs; for any two games it
// compares their outcomes and their metric series. It holds one frame of
// each stream and a fixed amount per player and metric, never a game
// (docs/limits.md, "diff").
package diff

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// MaxListed is the most cells, entities, values and lead changes a
// Result lists of each kind; it counts the rest.
const MaxListed = 20

// Verdicts of a Result.
const (
	// Same: the games are of the same setup and every frame both hold
	// is the same state, reached by the same commands where both record
	// them, and they hold as many frames.
	Same = "same"
	// Diverged: the games are of the same setup and differ.
	Diverged = "diverged"
	// DifferentSetups: the games do not start from the same setup (a
	// different game, ruleset version, seed, map or number of seats);
	// only their outcomes and metric series are compared.
	DifferentSetups = "different setups"
)

// Result is what Compare found. Turns are frame turns: turn t is the
// game after t rounds (player-turns in a game whose players act in turn),
// and the commands "at turn t" are those of the round that led to it.
type Result struct {
	A Side `json:"a"`
	B Side `json:"b"`
	// Verdict is Same, Diverged or DifferentSetups.
	Verdict string `json:"verdict"`
	// SetupDifferences say how the setups differ (empty when they are
	// the same), each a phrase for people.
	SetupDifferences []string `json:"setup_differences"`
	// Frames is the number of frames both streams hold and Compare
	// compared (frame 0 included).
	Frames int `json:"frames_compared"`
	// CommandsCompared is the number of frames whose commands both
	// streams know (a state stream, an official file of states, knows
	// none).
	CommandsCompared int `json:"commands_compared"`
	// Commands is the first turn whose commands differ, nil when none
	// does (or the setups differ).
	Commands *CommandDivergence `json:"commands"`
	// StateBy says how states were compared: "hash" (both streams
	// re-simulate and know their game's hash) or "frames" (the boards,
	// values, rankings and ends of the frames).
	StateBy string `json:"state_compared_by"`
	// State is the first turn whose state differs, nil when none does
	// (or the setups differ).
	State *StateDivergence `json:"state"`
	// Outcome compares the players' results at each game's last frame.
	Outcome []SeatOutcome `json:"outcome"`
	// Series compares each metric both games declare, per seat, over
	// the frames both hold.
	Series []SeriesDifference `json:"series"`
}

// Side describes one of the two replays.
type Side struct {
	File           string   `json:"file"`
	Format         string   `json:"format"`
	Ruleset        string   `json:"ruleset"`
	RulesetVersion int      `json:"ruleset_version"`
	Players        []Player `json:"players"`
	// Commands says the stream records the commands of its rounds (a
	// state stream, an official file of states, does not).
	Commands bool `json:"commands_recorded"`
	// Turns is the turn of the last frame read.
	Turns int `json:"turns"`
	// Over says the game ended by its rules at its last frame (false
	// when the stream does not say).
	Over bool `json:"over"`
	// Stop is why reading stopped before the end of the file (damage,
	// or the file cut short), nil when it was read to its end; Cut says
	// it only ends early (source.CutShort).
	Stop    error  `json:"-"`
	Stopped string `json:"stopped,omitempty"`
	Cut     bool   `json:"cut_short"`
}

// Player is a seat of a Side.
type Player struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Bot  string `json:"bot"`
}

// CommandDivergence is the first turn whose commands differ: Turn is
// the turn the round led to, Round that round's number (Turn − 1, as
// fork counts: `fork --turn N` with another bot diverges at round N).
type CommandDivergence struct {
	Round int `json:"round"`
	Turn  int `json:"turn"`
	// Seats are every seat, what it sent in A and in B.
	Seats []SeatCommands `json:"seats"`
}

// SeatCommands is what one seat sent in the round that led to a turn.
type SeatCommands struct {
	Seat    int  `json:"seat"`
	Differs bool `json:"differs"`
	// A and B are the commands as sent; FaultA and FaultB the fault
	// recorded for the seat before the round ("" for none).
	A      []string `json:"a"`
	B      []string `json:"b"`
	FaultA string   `json:"fault_a,omitempty"`
	FaultB string   `json:"fault_b,omitempty"`
	// ActiveA and ActiveB say the seat was the one to act, in a game
	// whose players act in turn.
	ActiveA bool `json:"active_a,omitempty"`
	ActiveB bool `json:"active_b,omitempty"`
}

// StateDivergence is the first turn whose state differs and what differs
// in it.
type StateDivergence struct {
	Turn int `json:"turn"`
	// HashA and HashB are the games' hashes (hex), when compared by hash.
	HashA string `json:"hash_a,omitempty"`
	HashB string `json:"hash_b,omitempty"`
	// Values are the seats' differing values of the metrics that are
	// state (not counted from commands), at most MaxListed;
	// ValuesDiffer counts them all.
	Values       []ValueDifference `json:"values"`
	ValuesDiffer int               `json:"values_differ"`
	// Cells are the differing cells, at most MaxListed; CellsDiffer
	// counts them all (a board of another size counts every cell).
	Cells       []CellDifference `json:"cells"`
	CellsDiffer int              `json:"cells_differ"`
	// LayersDiffer counts the per-cell layer values that differ.
	LayersDiffer int `json:"layer_values_differ"`
	// Entities are the entities that differ, by their place in the
	// board's list, at most MaxListed; EntitiesDiffer counts them all,
	// EntitiesA and EntitiesB are how many each board has.
	Entities       []EntityDifference `json:"entities"`
	EntitiesDiffer int                `json:"entities_differ"`
	EntitiesA      int                `json:"entities_a"`
	EntitiesB      int                `json:"entities_b"`
	// RankingA and RankingB are the seats best first, when they differ.
	RankingA []int `json:"ranking_a,omitempty"`
	RankingB []int `json:"ranking_b,omitempty"`
	// OverA and OverB say whether each game is over there, when they
	// differ.
	OverA *bool `json:"over_a,omitempty"`
	OverB *bool `json:"over_b,omitempty"`
}

// ValueDifference is one seat's value of one metric in A and in B.
type ValueDifference struct {
	Seat   int    `json:"seat"`
	Metric string `json:"metric"`
	A      int64  `json:"a"`
	B      int64  `json:"b"`
}

// CellDifference is one cell in A and in B.
type CellDifference struct {
	X int         `json:"x"`
	Y int         `json:"y"`
	A engine.Cell `json:"a"`
	B engine.Cell `json:"b"`
}

// EntityDifference is the entity at one place of the boards' lists in A
// and in B (nil where a list is shorter).
type EntityDifference struct {
	Index int            `json:"index"`
	A     *engine.Entity `json:"a"`
	B     *engine.Entity `json:"b"`
}

// SeatOutcome is one seat's result in each game at its last frame: its
// rank (1 best; 0 when the seat is not in that game) and its score (the
// score metric of A's game).
type SeatOutcome struct {
	Seat   int   `json:"seat"`
	RankA  int   `json:"rank_a"`
	RankB  int   `json:"rank_b"`
	ScoreA int64 `json:"score_a"`
	ScoreB int64 `json:"score_b"`
}

// SeriesDifference compares one seat's series of one metric in the two
// games, frame by frame over the frames both hold; the gap is B − A.
type SeriesDifference struct {
	Metric string `json:"metric"`
	Seat   int    `json:"seat"`
	// FinalA and FinalB are the values at each game's last frame (-1
	// when the stream cannot know it: engine.Metric.FromCommands).
	FinalA int64 `json:"final_a"`
	FinalB int64 `json:"final_b"`
	// FirstDifference is the first turn the values differ, -1 for none.
	FirstDifference int `json:"first_difference"`
	// LargestGap is the gap of largest size (the first such), at turn
	// LargestGapTurn (-1 when the values never differ).
	LargestGap     int64 `json:"largest_gap"`
	LargestGapTurn int   `json:"largest_gap_turn"`
	// LeadChanges are the turns at which the game ahead changed (the
	// gap's sign turned over), at most MaxListed; LeadChangeCount
	// counts them all.
	LeadChanges     []int `json:"lead_changes"`
	LeadChangeCount int   `json:"lead_change_count"`
}

// side is the reading of one stream.
type side struct {
	s      engine.Stream
	meta   *engine.StreamMeta
	hasher source.Hasher
	f      engine.Frame
	done   bool // read to its end or stopped
	frames int
	// final holds the last frame's values and ranking.
	values  [][]int64
	ranking []int
	info    *Side
}

// next reads the next frame; false when the stream is done.
func (sd *side) next() bool {
	if sd.done {
		return false
	}
	err := sd.s.Next(&sd.f)
	if err != nil {
		sd.done = true
		if !errors.Is(err, io.EOF) {
			sd.info.Stop, sd.info.Stopped, sd.info.Cut = err, err.Error(), source.CutShort(err)
		}
		return false
	}
	sd.frames++
	sd.info.Turns, sd.info.Over = sd.f.Turn, sd.f.Over
	sd.info.Commands = sd.info.Commands || sd.f.CommandsKnown
	for len(sd.values) < len(sd.f.Values) {
		sd.values = append(sd.values, nil)
	}
	sd.values = sd.values[:len(sd.f.Values)]
	for p, v := range sd.f.Values {
		sd.values[p] = append(sd.values[p][:0], v...)
	}
	sd.ranking = append(sd.ranking[:0], sd.f.Ranking...)
	return true
}

func newSide(s engine.Stream, info *Side) *side {
	m := s.Meta()
	info.Format, info.Ruleset, info.RulesetVersion = m.Format, m.Ruleset, m.RulesetVersion
	for i, p := range m.Players {
		info.Players = append(info.Players, Player{Seat: i + 1, Name: p.Name, Bot: p.Bot})
	}
	h, _ := s.(source.Hasher)
	return &side{s: s, meta: m, hasher: h, info: info}
}

// Compare reads the streams a and b side by side to their ends and
// compares them; aFile and bFile name them in the Result. It does not
// close them. It fails only when a stream's first frame cannot be read
// (the error names the file); a stream that stops later is compared up
// to there, with its Side's Stop set.
func Compare(a, b engine.Stream, aFile, bFile string) (*Result, error) {
	return CompareRows(a, b, aFile, bFile, nil)
}

// SeriesRow is one seat's value of one metric at one turn in both games
// (Seat from 1; a metric counted from commands that a stream of states
// cannot know is left out).
type SeriesRow struct {
	Turn   int
	Seat   int
	Metric string
	A, B   int64
}

// CompareRows is Compare that also hands each row of the compared series
// to each (when not nil) as it is read: turn by turn, in each turn
// metric by metric in A's order, then seat by seat.
func CompareRows(a, b engine.Stream, aFile, bFile string, each func(SeriesRow)) (*Result, error) {
	res := &Result{A: Side{File: aFile}, B: Side{File: bFile}}
	sa, sb := newSide(a, &res.A), newSide(b, &res.B)
	okA, okB := sa.next(), sb.next()
	for _, s := range []*side{sa, sb} {
		if s.frames == 0 {
			err := s.info.Stop
			if err == nil {
				err = errors.New("the replay has no frames")
			}
			return nil, fmt.Errorf("%s: frame 0: %w", s.info.File, err)
		}
	}
	res.SetupDifferences = setupDifferences(sa, sb)
	sameSetup := len(res.SetupDifferences) == 0
	res.StateBy = "frames"
	if byHash(sa, sb) {
		res.StateBy = "hash"
	}
	series := newSeries(sa.meta, sb.meta)
	series.each = each
	for okA && okB {
		res.Frames++
		series.add(&sa.f, &sb.f)
		if sameSetup {
			if res.Commands == nil && sa.f.CommandsKnown && sb.f.CommandsKnown {
				res.CommandsCompared++
				res.Commands = commandDivergence(&sa.f, &sb.f)
			}
			if res.State == nil {
				res.State = stateDivergence(sa, sb, res.StateBy == "hash")
			}
		}
		okA, okB = sa.next(), sb.next()
	}
	for sa.next() {
	}
	for sb.next() {
	}
	res.Series = series.result(sa, sb)
	res.Outcome = outcome(sa, sb)
	switch {
	case !sameSetup:
		res.Verdict = DifferentSetups
	case res.Commands != nil || res.State != nil || sa.frames != sb.frames:
		res.Verdict = Diverged
	default:
		res.Verdict = Same
	}
	return res, nil
}

// setupDifferences says how the setups of the games differ, from their
// metas and their first frames: the state before the first round holds
// the map and the homes. The games' settings are not compared: they name
// the players, whose names are no part of the setup.
func setupDifferences(a, b *side) []string {
	var out []string
	ma, mb := a.meta, b.meta
	if ma.Ruleset != mb.Ruleset {
		return []string{fmt.Sprintf("the games differ: %s, %s", ma.Ruleset, mb.Ruleset)}
	}
	if ma.RulesetVersion != mb.RulesetVersion {
		out = append(out, fmt.Sprintf("ruleset version %d, %d", ma.RulesetVersion, mb.RulesetVersion))
	}
	if ma.Seeded && mb.Seeded && ma.Seed != mb.Seed {
		out = append(out, fmt.Sprintf("seed %d, %d", ma.Seed, mb.Seed))
	}
	if len(a.f.Values) != len(b.f.Values) {
		return append(out, fmt.Sprintf("%d seats, %d", len(a.f.Values), len(b.f.Values)))
	}
	if ma.MaxTurns > 0 && mb.MaxTurns > 0 && ma.MaxTurns != mb.MaxTurns {
		out = append(out, fmt.Sprintf("turn limit %d, %d", ma.MaxTurns, mb.MaxTurns))
	}
	if len(out) == 0 && stateDivergence(a, b, byHash(a, b)) != nil {
		out = append(out, "the state before the first round (the map, the homes)")
	}
	return out
}

// byHash reports whether the states of a and b are compared by their
// games' hashes: both streams know them, and the players have the same
// names (a game's hash may cover its players' names, which are no part
// of its setup); else by their frames.
func byHash(a, b *side) bool {
	if a.hasher == nil || b.hasher == nil || len(a.meta.Players) != len(b.meta.Players) {
		return false
	}
	for i, p := range a.meta.Players {
		if p.Name != b.meta.Players[i].Name {
			return false
		}
	}
	return true
}

// commandDivergence compares the commands of two frames, nil when every
// seat sent the same (and the same seat acted).
func commandDivergence(a, b *engine.Frame) *CommandDivergence {
	n := max(len(a.Commands), len(b.Commands))
	differs := a.Active != b.Active
	for p := 0; p < n && !differs; p++ {
		differs = !slices.Equal(at(a.Commands, p), at(b.Commands, p)) || at(a.Faults, p) != at(b.Faults, p)
	}
	if !differs {
		return nil
	}
	d := &CommandDivergence{Round: a.Turn - 1, Turn: a.Turn}
	for p := range n {
		d.Seats = append(d.Seats, CompareSeat(p+1, at(a.Commands, p), at(b.Commands, p),
			FaultText(at(a.Faults, p), at(a.FaultText, p)), FaultText(at(b.Faults, p), at(b.FaultText, p)), a.Active == p, b.Active == p))
	}
	return d
}

// CompareSeat compares what seat (from 1) sent in A and in B in one
// round: its commands as sent (copied), the fault recorded for it before
// the round (FaultText; "" for none) and whether it was the one to act
// in a game whose players act in turn. The seat differs when any of them
// does. It is the one comparison of a seat's commands (rewind diff,
// rewind rerun).
func CompareSeat(seat int, a, b []string, faultA, faultB string, activeA, activeB bool) SeatCommands {
	c := SeatCommands{Seat: seat, A: slices.Clone(a), B: slices.Clone(b), FaultA: faultA, FaultB: faultB, ActiveA: activeA, ActiveB: activeB}
	c.Differs = !slices.Equal(c.A, c.B) || c.FaultA != c.FaultB || c.ActiveA != c.ActiveB
	if c.A == nil {
		c.A = []string{}
	}
	if c.B == nil {
		c.B = []string{}
	}
	return c
}

// FaultText names a seat's fault and what happened ("timeout: …"), ""
// for none.
func FaultText(fault engine.Fault, text string) string {
	if fault == 0 {
		return ""
	}
	if text != "" {
		return fault.String() + ": " + text
	}
	return fault.String()
}

// at is s[i], the zero value when i is out of range.
func at[T any](s []T, i int) T {
	var zero T
	if i < 0 || i >= len(s) {
		return zero
	}
	return s[i]
}

// stateDivergence compares the states of a's and b's current frames (by
// their games' hashes when byHash, else by the frames) and describes
// what differs; nil when they are the same.
func stateDivergence(a, b *side, byHash bool) *StateDivergence {
	fa, fb := &a.f, &b.f
	d := &StateDivergence{Turn: fa.Turn}
	differs := fa.Turn != fb.Turn
	if byHash {
		ha, hb := a.hasher.StateHash(), b.hasher.StateHash()
		if ha == hb && !differs {
			return nil
		}
		differs = true
		d.HashA, d.HashB = fmt.Sprintf("%016x", ha), fmt.Sprintf("%016x", hb)
	}
	// Values of the metrics that are state.
	for p := 0; p < max(len(fa.Values), len(fb.Values)); p++ {
		for m, metric := range a.meta.Metrics {
			if metric.FromCommands {
				continue
			}
			va, vb := at(at(fa.Values, p), m), at(at(fb.Values, p), m)
			if va != vb {
				d.ValuesDiffer++
				if len(d.Values) < MaxListed {
					d.Values = append(d.Values, ValueDifference{Seat: p + 1, Metric: metric.Name, A: va, B: vb})
				}
			}
		}
	}
	ba, bb := &fa.Board, &fb.Board
	if ba.Width != bb.Width || ba.Height != bb.Height || len(ba.Cells) != len(bb.Cells) {
		d.CellsDiffer = max(len(ba.Cells), len(bb.Cells))
	} else {
		for i := range ba.Cells {
			if ba.Cells[i] != bb.Cells[i] {
				d.CellsDiffer++
				if len(d.Cells) < MaxListed {
					x, y := i, 0
					if ba.Width > 0 {
						x, y = i%ba.Width, i/ba.Width
					}
					d.Cells = append(d.Cells, CellDifference{X: x, Y: y, A: ba.Cells[i], B: bb.Cells[i]})
				}
			}
		}
		for l := 0; l < max(len(ba.Layers), len(bb.Layers)); l++ {
			la, lb := at(ba.Layers, l), at(bb.Layers, l)
			for i := 0; i < max(len(la.Values), len(lb.Values)); i++ {
				if la.Name != lb.Name || at(la.Values, i) != at(lb.Values, i) {
					d.LayersDiffer++
				}
			}
		}
	}
	d.EntitiesA, d.EntitiesB = len(ba.Entities), len(bb.Entities)
	for i := 0; i < max(len(ba.Entities), len(bb.Entities)); i++ {
		var ea, eb *engine.Entity
		if i < len(ba.Entities) {
			e := ba.Entities[i]
			ea = &e
		}
		if i < len(bb.Entities) {
			e := bb.Entities[i]
			eb = &e
		}
		if ea == nil || eb == nil || *ea != *eb {
			d.EntitiesDiffer++
			if len(d.Entities) < MaxListed {
				d.Entities = append(d.Entities, EntityDifference{Index: i, A: ea, B: eb})
			}
		}
	}
	if !slices.Equal(fa.Ranking, fb.Ranking) {
		d.RankingA, d.RankingB = seats(fa.Ranking), seats(fb.Ranking)
	}
	if a.meta.EndKnown && b.meta.EndKnown && fa.Over != fb.Over {
		oa, ob := fa.Over, fb.Over
		d.OverA, d.OverB = &oa, &ob
	}
	if !byHash {
		differs = differs || d.ValuesDiffer > 0 || d.CellsDiffer > 0 || d.LayersDiffer > 0 || d.EntitiesDiffer > 0 ||
			d.RankingA != nil || d.OverA != nil
	}
	if !differs {
		return nil
	}
	return d
}

// seats turns a ranking of players (from 0) into seats (from 1).
func seats(ranking []int) []int {
	out := make([]int, len(ranking))
	for i, p := range ranking {
		out[i] = p + 1
	}
	return out
}

// outcome compares the seats' ranks and scores at each game's last
// frame.
func outcome(a, b *side) []SeatOutcome {
	n := max(len(a.values), len(b.values))
	out := make([]SeatOutcome, n)
	score := func(s *side, p int) int64 {
		return at(at(s.values, p), s.meta.Score)
	}
	for p := range out {
		out[p] = SeatOutcome{Seat: p + 1, RankA: rank(a.ranking, p), RankB: rank(b.ranking, p), ScoreA: score(a, p), ScoreB: score(b, p)}
	}
	return out
}

// rank is player p's place (1 best) in ranking, 0 when it is not there.
func rank(ranking []int, p int) int {
	if i := slices.Index(ranking, p); i >= 0 {
		return i + 1
	}
	return 0
}

// series keeps, per metric both games declare and know (a metric
// counted from commands is unknown to a stream of states) and per seat
// both have,
// what SeriesDifference reports, frame by frame: O(metrics × seats)
// whatever the games' length.
type series struct {
	// metrics are pairs of indexes of one metric name in A's and B's
	// declarations, in A's order.
	metrics [][2]int
	names   []string
	fromCmd []bool
	rows    []SeriesDifference // metric-major, then seat
	lead    []int              // the sign of the last non-zero gap
	seats   int
	each    func(SeriesRow) // Compare's caller's, or nil
}

func newSeries(a, b *engine.StreamMeta) *series {
	s := &series{seats: min(len(a.Players), len(b.Players))}
	for i, m := range a.Metrics {
		j := slices.IndexFunc(b.Metrics, func(n engine.Metric) bool { return n.Name == m.Name })
		if j < 0 || (m.FromCommands || b.Metrics[j].FromCommands) && !(a.Resimulated && b.Resimulated) {
			continue // not in both, or unknown to a stream of states
		}
		s.metrics = append(s.metrics, [2]int{i, j})
		s.names = append(s.names, m.Name)
		s.fromCmd = append(s.fromCmd, m.FromCommands || b.Metrics[j].FromCommands)
		for p := range s.seats {
			s.rows = append(s.rows, SeriesDifference{Metric: m.Name, Seat: p + 1, FirstDifference: -1, LargestGapTurn: -1, LeadChanges: []int{}})
		}
	}
	s.lead = make([]int, len(s.rows))
	return s
}

// add compares one frame of each game.
func (s *series) add(a, b *engine.Frame) {
	for k, mi := range s.metrics {
		for p := range s.seats {
			va, vb := at(at(a.Values, p), mi[0]), at(at(b.Values, p), mi[1])
			if s.fromCmd[k] && (va < 0 || vb < 0) {
				continue // unknown in a stream of states
			}
			if s.each != nil {
				s.each(SeriesRow{Turn: a.Turn, Seat: p + 1, Metric: s.names[k], A: va, B: vb})
			}
			r := &s.rows[k*s.seats+p]
			gap := vb - va
			if gap == 0 {
				continue
			}
			if r.FirstDifference < 0 {
				r.FirstDifference = a.Turn
			}
			if abs(gap) > abs(r.LargestGap) {
				r.LargestGap, r.LargestGapTurn = gap, a.Turn
			}
			sign := 1
			if gap < 0 {
				sign = -1
			}
			if l := &s.lead[k*s.seats+p]; *l != 0 && *l != sign {
				r.LeadChangeCount++
				if len(r.LeadChanges) < MaxListed {
					r.LeadChanges = append(r.LeadChanges, a.Turn)
				}
			}
			s.lead[k*s.seats+p] = sign
		}
	}
}

// result fills in the final values, from each game's last frame.
func (s *series) result(a, b *side) []SeriesDifference {
	for k, mi := range s.metrics {
		for p := range s.seats {
			r := &s.rows[k*s.seats+p]
			r.FinalA, r.FinalB = at(at(a.values, p), mi[0]), at(at(b.values, p), mi[1])
		}
	}
	return s.rows
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
