package rules

import (
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
)

// Ruleset is Monad through the game-agnostic seam (package engine).
var Ruleset engine.Ruleset = ruleset{}

// RulesetID and RulesetVersion identify Monad in a .rwd header.
const (
	RulesetID      = "monad"
	RulesetVersion = 1
)

type ruleset struct{}

// The per-player values Game.Values reports, in this order.
var metrics = []engine.Metric{
	{Name: "resources", Unit: "resources", Kind: engine.Gauge},
	{Name: "units", Unit: "units", Kind: engine.Gauge},
	{Name: "hives", Unit: "hives", Kind: engine.Gauge},
	{Name: "cells", Unit: "cells", Kind: engine.Gauge},
	{Name: "units_produced", Unit: "units", Kind: engine.Counter},
	{Name: "units_lost", Unit: "units", Kind: engine.Counter},
}

var badges = []string{"hive"}

func (ruleset) ID() string               { return RulesetID }
func (ruleset) Version() int             { return RulesetVersion }
func (ruleset) Metrics() []engine.Metric { return metrics }

// New returns New(Config{Players, MaxTurns, Seed: int64(seed)}): the seed's
// bits taken as a signed integer are what Python's random.seed is given.
// Names are not kept.
func (ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	return newGame(Setup{Seed: int64(seed)}, s)
}

func newGame(su Setup, s engine.Settings) (*Game, error) {
	st, err := New(Config{Players: s.Players, MaxTurns: s.MaxTurns, Seed: su.Seed, Uniform: su.Uniform})
	if err != nil {
		return nil, err
	}
	return &Game{State: st, setup: su}, nil
}

// Game adapts a State to engine.Game. Round parses each text with
// ParseCommand (one JSON command object per text) and plays them with
// the faults given since the last round as State.Play does. Create one
// with Ruleset's New or NewFromSetup, and change its State only through
// it (it keeps the players' Stats of the current turn).
type Game struct {
	State   *State
	setup   Setup
	cmds    [][]Command
	garbage [MaxPlayers]bool
	// pending are the timeout and crash marks (statusTimedOut,
	// statusCrashed) given since the last round, last those of the
	// round last played; played is set once a round has been.
	pending, last [MaxPlayers]uint8
	played        bool
	errs          []engine.CommandError
	// statsBuf holds every player's Stats when statsValid (stats); a
	// round played clears statsValid.
	statsBuf   []PlayerStats
	statsValid bool
	// texter turns PlayRecord's records into text.
	texter roundTexter
}

var (
	_ engine.Game       = (*Game)(nil)
	_ engine.Attendance = (*Game)(nil)
	_ engine.Codec      = ruleset{}
)

// Players returns the number of players.
func (g *Game) Players() int { return g.State.Players() }

// Active is -1: every player acts in every turn.
func (g *Game) Active() int { return -1 }

// Turn returns the number of turns played.
func (g *Game) Turn() int { return g.State.Turn() }

// MaxTurns returns the turn limit.
func (g *Game) MaxTurns() int { return g.State.MaxTurns() }

// Over reports State.Over.
func (g *Game) Over() bool { return g.State.Over() }

// Fault gives player p a fault for the next round: a timeout marks it
// SetTimedOut and a crash SetCrashed after that round's Step, as
// State.Play does (for good, as the reference does), and the player's
// commands of that round are not read; a garbled reply is a reply that is
// not a list: the player sends the one command ErrNotList.
func (g *Game) Fault(p int, f engine.Fault, _ string) {
	if p < 0 || p >= g.Players() {
		return
	}
	switch f {
	case engine.FaultTimeout:
		g.pending[p] |= statusTimedOut
	case engine.FaultCrash:
		g.pending[p] |= statusCrashed
	default:
		g.garbage[p] = true
	}
}

// Round parses and plays one turn.
func (g *Game) Round(cmds [][]string) []engine.CommandError {
	n := g.Players()
	g.grow(n)
	for p := 0; p < n; p++ {
		list := g.cmds[p][:0]
		switch {
		case g.pending[p] != 0:
			// A player that timed out or crashed sent nothing.
		case g.garbage[p]:
			list = append(list, Command{Err: ErrNotList})
			g.garbage[p] = false
		case p < len(cmds):
			for _, c := range cmds[p] {
				cmd := ParseCommand([]byte(c))
				if cmd.Err != ErrNone {
					cmd.Raw = c // what the page shows of it (AppendCommandText)
				}
				list = append(list, cmd)
			}
		}
		g.cmds[p] = list
	}
	return g.play(n)
}

func (g *Game) grow(n int) {
	if len(g.cmds) < n {
		g.cmds = make([][]Command, n)
	}
}

// play plays g.cmds with the pending marks and reports the errors.
func (g *Game) play(n int) []engine.CommandError {
	r := Round{Commands: g.cmds[:n]}
	for p := 0; p < n; p++ {
		r.TimedOut[p] = g.pending[p]&statusTimedOut != 0
		r.Crashed[p] = g.pending[p]&statusCrashed != 0
	}
	g.State.Play(&r)
	g.statsValid = false
	g.last, g.pending, g.played = g.pending, [MaxPlayers]uint8{}, true
	g.errs = g.errs[:0]
	for _, e := range g.State.Errors() {
		g.errs = append(g.errs, engine.CommandError{Player: e.Player, Index: e.Index, Code: int(e.Code), Text: e.Code.String()})
	}
	return g.errs
}

// Hash returns State.Hash.
func (g *Game) Hash() uint64 { return g.State.Hash() }

// Values reports resources, units, hives, cells, units_produced,
// and units_lost of player p (StatsValues).
func (g *Game) Values(p int, dst []int64) []int64 {
	if p < 0 || p >= g.Players() {
		return StatsValues(PlayerStats{}, dst)
	}
	return StatsValues(g.stats()[p], dst)
}

// stats is every player's Stats at the current turn, read once per turn
// (Values, Ranking and Out ask for them again and again).
func (g *Game) stats() []PlayerStats {
	if !g.statsValid {
		g.statsBuf, g.statsValid = g.State.AllStats(g.statsBuf[:0]), true
	}
	return g.statsBuf
}

// StatsValues appends a player's facts to dst as the values of Monad's
// metrics, in their order (Ruleset.Metrics): resources, units, hives,
// cells, units_produced, units_lost. Rejected commands are no metric:
// the shell counts every game's from Round's errors. Game.Values reports
// a game's with it; a reader of the reference's logs reports a log
// entry's.
func StatsValues(s PlayerStats, dst []int64) []int64 {
	return append(dst, s.Resources, s.Units, int64(s.Hives), int64(s.Cells), s.UnitsProduced, s.UnitsLost)
}

// Board describes the game's map as DescribeMap does, reading the
// State's cells directly.
func (g *Game) Board(b *engine.Board) {
	describeGrid(b)
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	s := g.State
	for i := range s.cells {
		c := &s.cells[i]
		p, u := -1, 0
		for q := 0; q < s.players; q++ {
			if c.units[q] > 0 {
				p, u = q, int(c.units[q])
				break
			}
		}
		b.Cells[i] = boardCell(int(c.resource), p, u, int(c.hive))
	}
}

// MapView is a Monad map as the board shows it, cell by cell: (x, y)'s
// resource left, its occupant and the occupant's units (-1 and 0 when
// the cell is empty), and its hive's owner (-1 when it has none).
type MapView interface {
	MapCell(x, y int) (resource, occupant, units, hive int)
}

// DescribeMap sets b to the hex map m: terrain is the resource left,
// value the units of the cell's occupant, owner the occupant (or the
// hive's owner in an empty hive cell), badge "hive". It leaves b's
// entities and effects alone. Game.Board describes a game alike; a
// reader of the reference's logs describes a log entry with it.
func DescribeMap(b *engine.Board, m MapView) {
	describeGrid(b)
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			b.Cells[y*Width+x] = boardCell(m.MapCell(x, y))
		}
	}
}

// describeGrid sets b's topology, names and size to Monad's map's.
func describeGrid(b *engine.Board) {
	b.Topology = engine.Hex
	b.TerrainName, b.ValueName, b.Badges = "resource", "units", badges
	b.Resize(Width, Height)
}

// boardCell is a cell of DescribeMap's board: resource r, occupant p
// with u units (-1 and 0 for none), hive owner h (-1 for none).
func boardCell(r, p, u, h int) engine.Cell {
	c := engine.Cell{Terrain: int64(r), Owner: p, Value: int64(u)}
	if h >= 0 {
		c.Badges = 1
		if p < 0 {
			c.Owner = h
		}
	}
	return c
}

// Setting describes the game as `rewind info` describes a Monad
// recording: "map" (`drawn from seed S` or `uniform, drawn from seed S`,
// S the Setup's seed, the integer given to Python's random.seed), "size"
// (`20×20 hex`), "players" (how many), "homes" (the start cells (x,y) in
// player order) and "max_turns".
func (g *Game) Setting() [][2]string {
	s := g.State
	mp := "drawn from seed " + strconv.FormatInt(g.setup.Seed, 10)
	if g.setup.Uniform {
		mp = "uniform, " + mp
	}
	var homes []string
	if n := s.Players(); n >= 1 && n <= MaxPlayers {
		for _, h := range StartPositions[n-1] {
			homes = append(homes, "("+strconv.Itoa(h[0])+","+strconv.Itoa(h[1])+")")
		}
	}
	return [][2]string{
		{"map", mp},
		{"size", strconv.Itoa(Width) + "×" + strconv.Itoa(Height) + " hex"},
		{"players", strconv.Itoa(s.Players())},
		{"homes", strings.Join(homes, " ")},
		{"max_turns", strconv.Itoa(s.MaxTurns())},
	}
}

// Ranking returns State.Ranking's players in order.
func (g *Game) Ranking() []int {
	var buf [MaxPlayers]Rank
	r := appendRanks(buf[:0], g.stats())
	out := make([]int, len(r))
	for i, k := range r {
		out[i] = k.Player
	}
	return out
}

// Idle is false: every turn takes commands (engine.Attendance).
func (g *Game) Idle() bool { return false }

// Out reports that player p has timed out or crashed: it is asked for no
// more commands (engine.Attendance), as the reference stops asking it.
func (g *Game) Out(p int) bool {
	if p < 0 || p >= g.Players() {
		return false
	}
	s := g.stats()[p]
	return s.TimedOut || s.Crashed
}

// PlayerName is "": a player keeps the name it was seated with
// (engine.Attendance).
func (g *Game) PlayerName(int) string { return "" }
