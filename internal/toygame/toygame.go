// Package toygame is a tiny game written only against the seam (package
// engine), for tests: it proves that the shell plays, records, verifies,
// analyses and shows a game it has never heard of. It is registered by the
// tests that use it (rulesets.Register), never by the program.
//
// The game: N players on a Size×Size square board, each with a token
// starting in its own corner. A command is "N", "S", "E" or "W" (move the
// token one cell, staying on the board) or "paint" (own the cell under
// the token, worth its terrain 1..3). Anything else is rejected with code
// 1. Score is the sum of owned cells' terrain. Sequential games let one
// player act per round, in turn.
package toygame

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/rewind-game/rewind/engine"
)

// Size is the board's side.
const Size = 5

// Ruleset is the simultaneous toy game; Sequential the one-player-a-turn
// variant.
var (
	Ruleset    engine.Ruleset = ruleset{id: "toy"}
	Sequential engine.Ruleset = ruleset{id: "toyseq", seq: true}
)

type ruleset struct {
	id  string
	seq bool
}

var metrics = []engine.Metric{
	{Name: "score", Unit: "points", Kind: engine.Gauge},
	{Name: "moves", Unit: "moves", Kind: engine.Counter},
}

func (r ruleset) ID() string             { return r.id }
func (ruleset) Version() int             { return 1 }
func (ruleset) Metrics() []engine.Metric { return metrics }
func (ruleset) ScoreMetric() int         { return 0 }
func (ruleset) EventKinds() []engine.EventKind {
	return []engine.EventKind{{Name: "painted", Text: "{player} painted ({x}, {y}) worth {value}"}}
}

// NewFromSetup is ErrSeedOnly: a toy game is drawn from its seed.
func (ruleset) NewFromSetup([]byte, engine.Settings) (engine.Game, error) {
	return nil, engine.ErrSeedOnly
}

// New draws each cell's terrain 1..3 from seed.
func (r ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	if s.Players < 1 || s.Players > 4 {
		return nil, errPlayers
	}
	g := &Game{seq: r.seq, max: s.MaxTurns, n: s.Players}
	if g.max == 0 {
		g.max = 40
	}
	x := seed | 1
	for i := range g.terrain {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		g.terrain[i] = int64(x%3) + 1
		g.owner[i] = -1
	}
	corners := [4]engine.Point{{X: 0, Y: 0}, {X: Size - 1, Y: Size - 1}, {X: Size - 1, Y: 0}, {X: 0, Y: Size - 1}}
	copy(g.pos[:], corners[:])
	return g, nil
}

type playersError struct{}

func (playersError) Error() string { return "toy: 1..4 players" }

var errPlayers error = playersError{}

// Game is one toy game.
type Game struct {
	seq              bool
	n, turn, max     int
	terrain          [Size * Size]int64
	owner            [Size * Size]int
	pos              [4]engine.Point
	moves, score     [4]int64
	errs             []engine.CommandError
	events           []engine.Event
	lastFrom, lastTo [4]engine.Point
}

func (g *Game) Players() int  { return g.n }
func (g *Game) Turn() int     { return g.turn }
func (g *Game) MaxTurns() int { return g.max }
func (g *Game) Over() bool    { return g.turn >= g.max }

// Active is the player whose turn it is in the sequential variant.
func (g *Game) Active() int {
	if !g.seq {
		return -1
	}
	if g.Over() {
		return -1
	}
	return g.turn % g.n
}

// Fault costs the player a point.
func (g *Game) Fault(p int, _ engine.Fault, _ string) {
	if p >= 0 && p < g.n {
		g.score[p]--
	}
}

func (g *Game) Round(cmds [][]string) []engine.CommandError {
	g.errs, g.events = g.errs[:0], g.events[:0]
	if g.Over() {
		return nil
	}
	for p := 0; p < g.n && p < len(cmds); p++ {
		if g.seq && p != g.turn%g.n {
			continue
		}
		g.lastFrom[p] = g.pos[p]
		for i, c := range cmds[p] {
			at := &g.pos[p]
			switch c {
			case "N", "S", "E", "W":
				d := map1(c)
				nx, ny := at.X+d.X, at.Y+d.Y
				if nx >= 0 && nx < Size && ny >= 0 && ny < Size {
					at.X, at.Y = nx, ny
					g.moves[p]++
				}
			case "paint":
				k := at.Y*Size + at.X
				if o := g.owner[k]; o != p {
					if o >= 0 {
						g.score[o] -= g.terrain[k]
					}
					g.owner[k] = p
					g.score[p] += g.terrain[k]
					g.events = append(g.events, engine.Event{Kind: "painted", Player: p, Other: o, X: at.X, Y: at.Y, Value: g.terrain[k]})
				}
			default:
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: 1, Text: "unknown command " + strconv.Quote(c)})
			}
		}
		g.lastTo[p] = g.pos[p]
	}
	g.turn++
	return g.errs
}

func map1(c string) engine.Point {
	switch c {
	case "N":
		return engine.Point{Y: -1}
	case "S":
		return engine.Point{Y: 1}
	case "E":
		return engine.Point{X: 1}
	}
	return engine.Point{X: -1}
}

// Hash is FNV-1a over the turn, owners, positions, moves and scores.
func (g *Game) Hash() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v int64) {
		for i := 0; i < 8; i++ {
			h ^= uint64(v>>(8*i)) & 0xff
			h *= 1099511628211
		}
	}
	mix(int64(g.turn))
	for i := range g.owner {
		mix(int64(g.owner[i]))
	}
	for p := 0; p < g.n; p++ {
		mix(int64(g.pos[p].X))
		mix(int64(g.pos[p].Y))
		mix(g.moves[p])
		mix(g.score[p])
	}
	return h
}

func (g *Game) Values(p int, dst []int64) []int64 {
	if p < 0 || p >= g.n {
		return append(dst, 0, 0)
	}
	return append(dst, g.score[p], g.moves[p])
}

func (g *Game) Board(b *engine.Board) {
	b.Topology, b.TerrainName, b.ValueName, b.Badges = engine.Square, "worth", "worth", nil
	b.Resize(Size, Size)
	for i := range b.Cells {
		b.Cells[i] = engine.Cell{Terrain: g.terrain[i], Owner: g.owner[i], Value: g.terrain[i]}
	}
	// Each token, and the last move of each player as a line.
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	for p := 0; p < g.n; p++ {
		b.Entities = append(b.Entities, engine.Entity{Kind: "token", Player: p, X: g.pos[p].X, Y: g.pos[p].Y, Health: g.score[p]})
		if g.turn > 0 && g.lastFrom[p] != g.lastTo[p] {
			b.Effects = append(b.Effects, engine.Effect{Kind: engine.Line, Name: "move", Player: p, X: g.lastFrom[p].X, Y: g.lastFrom[p].Y, X2: g.lastTo[p].X, Y2: g.lastTo[p].Y})
		}
	}
}

func (g *Game) Events(dst []engine.Event) []engine.Event { return append(dst, g.events...) }

// Setting is nil: a toy game has nothing to describe but its seed.
func (g *Game) Setting() [][2]string { return nil }

// Setup is nil: a toy game is drawn from its seed.
func (g *Game) Setup() []byte { return nil }

// Ranking is by score, then by player.
func (g *Game) Ranking() []int {
	r := make([]int, g.n)
	for i := range r {
		r[i] = i
	}
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && g.score[r[j]] > g.score[r[j-1]]; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	return r
}

// AppendObservation is the state a bot outside the process is sent: its
// position and the board's owners.
func (g *Game) AppendObservation(dst []byte, p int) []byte {
	dst = append(dst, `{"turn":`...)
	dst = strconv.AppendInt(dst, int64(g.turn), 10)
	dst = append(dst, `,"you":`...)
	dst = strconv.AppendInt(dst, int64(p), 10)
	dst = append(dst, `,"x":`...)
	dst = strconv.AppendInt(dst, int64(g.pos[p].X), 10)
	dst = append(dst, `,"y":`...)
	dst = strconv.AppendInt(dst, int64(g.pos[p].Y), 10)
	dst = append(dst, `,"owner":[`...)
	for i, o := range g.owner {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(o), 10)
	}
	return append(dst, "]}"...)
}

// Painter is the toy's one strategy: paint where it stands unless it
// owns it, else walk.
type Painter struct{ seed uint64 }

// NewPainter returns a painter whose walk is drawn from seed.
func NewPainter(seed uint64) engine.Strategy {
	return engine.Strategy{Name: "painter", Commands: (&Painter{seed: seed | 1}).Commands}
}

func (s *Painter) Commands(eg engine.Game, p int, dst []string) []string {
	g := eg.(*Game)
	at := g.pos[p]
	if g.owner[at.Y*Size+at.X] != p {
		return append(dst, "paint")
	}
	s.seed ^= s.seed << 13
	s.seed ^= s.seed >> 7
	s.seed ^= s.seed << 17
	return append(dst, [4]string{"N", "S", "E", "W"}[s.seed%4])
}

// Vectors are the toy's conformance vectors: NAME.toy.json (the input:
// {"seed", "players", "turns", "commands": [[player's commands]...]},
// one list per round) and NAME.toyhash.json.gz (the expected hash after
// each round, as JSON numbers).
var Vectors = &engine.Vectors{Input: ".toy.json", Expected: ".toyhash.json.gz", Conform: conform}

// conform plays a toy vector and compares the hash after every round.
func conform(input, expected []byte, _ func(string) ([]byte, error)) (int, string, error) {
	r := Ruleset
	var in struct {
		Seed     uint64       `json:"seed"`
		Players  int          `json:"players"`
		Turns    int          `json:"turns"`
		Commands [][][]string `json:"commands"`
	}
	var want []uint64
	if err := json.Unmarshal(input, &in); err != nil {
		return 0, "", fmt.Errorf("input: %w", err)
	}
	if err := json.Unmarshal(expected, &want); err != nil {
		return 0, "", fmt.Errorf("expected: %w", err)
	}
	g, err := r.New(in.Seed, engine.Settings{Players: in.Players, MaxTurns: in.Turns})
	if err != nil {
		return 0, "", err
	}
	for t, cmds := range in.Commands {
		g.Round(cmds)
		if t >= len(want) {
			return t, fmt.Sprintf("round %d: no expected hash", t), nil
		}
		if h := g.Hash(); h != want[t] {
			return t, fmt.Sprintf("round %d: hash %d, want %d", t, h, want[t]), nil
		}
	}
	return len(in.Commands), "", nil
}
