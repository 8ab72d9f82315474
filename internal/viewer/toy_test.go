package viewer

import (
	"fmt"
	"io"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// toyRuleset is a tiny duel for the replay page's tests: two tanks on a
// W×H board (HexAxial or Square), one player acting per turn (Sequential).
// The active player's commands: "move D" (a direction index), "laser" (a
// Line to the other tank, 3 damage), "mortar" (an Area of radius 1 on it,
// 5 damage), "droid" (a Path of up to three steps toward it, 2 damage);
// anything else, or a move into rock or off the board, is rejected. Every
// hit is a "hit" event and a damage Mark. Cells: terrain 1 is rock, owner
// the last tank on it, value its visits, badge 0 a spawn.
type toyRuleset struct {
	topo engine.Topology
	w, h int
}

func (r toyRuleset) ID() string   { return "toyduel" }
func (r toyRuleset) Version() int { return 1 }
func (r toyRuleset) Metrics() []engine.Metric {
	return []engine.Metric{{Name: "health", Unit: "hp", Kind: engine.Gauge}, {Name: "shots", Unit: "shots", Kind: engine.Counter}}
}
func (r toyRuleset) EventKinds() []engine.EventKind {
	return []engine.EventKind{{Name: "hit", Text: "{player} hit {other} for {value} at ({x}, {y})"}}
}
func (r toyRuleset) ScoreMetric() int { return 0 }
func (r toyRuleset) NewFromSetup([]byte, engine.Settings) (engine.Game, error) {
	return nil, engine.ErrSeedOnly
}
func (r toyRuleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	g := &toyGame{r: r, max: s.MaxTurns, hp: [2]int64{100, 100}, pos: [2]engine.Point{{X: 0, Y: 0}, {X: r.w - 1, Y: r.h - 1}}}
	g.cells = make([]engine.Cell, r.w*r.h)
	for i := range g.cells {
		x, y := i%r.w, i/r.w
		g.cells[i].Owner = -1
		if (x*3+y*5+int(seed))%7 == 3 {
			g.cells[i].Terrain = 1
		}
	}
	for p, q := range g.pos {
		c := &g.cells[q.Y*r.w+q.X]
		c.Terrain, c.Owner, c.Value, c.Badges = 0, p, 1, 1
	}
	return g, nil
}

type toyGame struct {
	r       toyRuleset
	turn    int
	max     int
	hp      [2]int64
	shots   [2]int64
	pos     [2]engine.Point
	cells   []engine.Cell
	events  []engine.Event
	effects []engine.Effect
	errs    []engine.CommandError
}

func (g *toyGame) dirs() []engine.Point {
	if g.r.topo == engine.HexAxial {
		return []engine.Point{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: 1, Y: 1}, {X: -1, Y: 0}, {X: 0, Y: -1}, {X: -1, Y: -1}}
	}
	return []engine.Point{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: -1, Y: 0}, {X: 0, Y: -1}}
}
func (g *toyGame) Players() int                          { return 2 }
func (g *toyGame) Turn() int                             { return g.turn }
func (g *toyGame) MaxTurns() int                         { return g.max }
func (g *toyGame) Over() bool                            { return g.turn >= g.max || g.hp[0] <= 0 || g.hp[1] <= 0 }
func (g *toyGame) Fault(p int, f engine.Fault, s string) {}
func (g *toyGame) Hash() uint64                          { return uint64(g.turn) }
func (g *toyGame) Active() int {
	if g.Over() {
		return -1
	}
	return g.turn % 2
}
func (g *toyGame) Values(p int, dst []int64) []int64 { return append(dst, g.hp[p], g.shots[p]) }
func (g *toyGame) Ranking() []int {
	if g.hp[1] > g.hp[0] {
		return []int{1, 0}
	}
	return []int{0, 1}
}
func (g *toyGame) Events(dst []engine.Event) []engine.Event { return append(dst, g.events...) }
func (g *toyGame) Setting() [][2]string                     { return nil }
func (g *toyGame) Setup() []byte                            { return nil }
func (g *toyGame) Board(b *engine.Board) {
	b.Topology, b.TerrainName, b.ValueName, b.Badges = g.r.topo, "rock", "visits", []string{"spawn"}
	b.Resize(g.r.w, g.r.h)
	copy(b.Cells, g.cells)
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	for p, q := range g.pos {
		b.Entities = append(b.Entities, engine.Entity{Kind: "tank", Player: p, X: q.X, Y: q.Y, Health: g.hp[p], Value: g.shots[p], Label: fmt.Sprintf("T%d", p+1)})
	}
	b.Effects = append(b.Effects, g.effects...)
}

func (g *toyGame) hit(p int, dmg int64) {
	o := 1 - p
	g.hp[o] -= dmg
	g.shots[p]++
	q := g.pos[o]
	g.events = append(g.events, engine.Event{Kind: "hit", Player: p, Other: o, X: q.X, Y: q.Y, Value: dmg})
	g.effects = append(g.effects, engine.Effect{Kind: engine.Mark, Name: "damage", Player: p, X: q.X, Y: q.Y, Value: -dmg})
}

func (g *toyGame) free(q engine.Point) bool {
	return q.X >= 0 && q.Y >= 0 && q.X < g.r.w && q.Y < g.r.h && g.cells[q.Y*g.r.w+q.X].Terrain == 0
}

func (g *toyGame) Round(cmds [][]string) []engine.CommandError {
	g.events, g.effects, g.errs = g.events[:0], g.effects[:0], g.errs[:0]
	if g.Over() {
		return nil
	}
	p := g.Active()
	o := 1 - p
	for i, c := range cmds[p] {
		var d int
		switch {
		case c == "laser":
			g.effects = append(g.effects, engine.Effect{Kind: engine.Line, Name: "laser", Player: p, X: g.pos[p].X, Y: g.pos[p].Y, X2: g.pos[o].X, Y2: g.pos[o].Y})
			g.hit(p, 3)
		case c == "mortar":
			g.effects = append(g.effects, engine.Effect{Kind: engine.Area, Name: "mortar", Player: p, X: g.pos[o].X, Y: g.pos[o].Y, Radius: 1})
			g.hit(p, 5)
		case c == "droid":
			e := engine.Effect{Kind: engine.Path, Name: "droid", Player: p, X: g.pos[p].X, Y: g.pos[p].Y}
			at := g.pos[p]
			for s := 0; s < 3 && at != g.pos[o]; s++ {
				at.X += sign(g.pos[o].X - at.X)
				at.Y += sign(g.pos[o].Y - at.Y)
				e.Points = append(e.Points, at)
			}
			g.effects = append(g.effects, e)
			if at == g.pos[o] {
				g.hit(p, 2)
			}
		case strings.HasPrefix(c, "move ") && len(c) == 6 && c[5] >= '0' && int(c[5]-'0') < len(g.dirs()):
			d = int(c[5] - '0')
			q := engine.Point{X: g.pos[p].X + g.dirs()[d].X, Y: g.pos[p].Y + g.dirs()[d].Y}
			if !g.free(q) || q == g.pos[o] {
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: 2, Text: "blocked"})
				continue
			}
			g.pos[p] = q
			c := &g.cells[q.Y*g.r.w+q.X]
			c.Owner, c.Value = p, c.Value+1
		default:
			g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: 1, Text: "unknown command"})
		}
	}
	g.turn++
	return g.errs
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// toyCommands is what player p sends at turn t: a move, then a laser,
// a mortar or a droid in turn, and now and then a command that fails.
func toyCommands(t, p int) []string {
	cmds := []string{fmt.Sprintf("move %d", (t/2+p)%4), [3]string{"laser", "mortar", "droid"}[(t/2)%3]}
	if t%7 == 5 {
		cmds = append(cmds, "dance")
	}
	return cmds
}

// toyStream plays a toy duel through the seam as a generic stream, as a
// replay reader would give it: frame 0, then one frame per player-turn
// with its commands, errors and a bot log.
type toyStream struct {
	meta engine.StreamMeta
	g    *toyGame
	n    int
}

func newToyStream(topo engine.Topology, w, h, turns int, names ...string) *toyStream {
	r := toyRuleset{topo: topo, w: w, h: h}
	g, _ := r.New(1, engine.Settings{Players: 2, MaxTurns: turns})
	m := source.MetaOf(r, g.Players())
	m.Format, m.Sequential, m.MaxTurns, m.Resimulated = "rwd", true, turns, true
	m.Settings = [][2]string{{"board", fmt.Sprintf("%s %d×%d", topo, w, h)}}
	for _, n := range names {
		m.Players = append(m.Players, engine.StreamPlayer{Name: n, Bot: "toy"})
	}
	return &toyStream{meta: m, g: g.(*toyGame)}
}

func (*toyStream) SkipCommandText() {}

func (s *toyStream) Meta() *engine.StreamMeta { return &s.meta }
func (s *toyStream) Close() error             { return nil }
func (s *toyStream) Next(f *engine.Frame) error {
	f.Commands, f.Errors, f.Logs, f.CommandsKnown, f.Active = f.Commands[:0], f.Errors[:0], f.Logs[:0], true, -1
	if s.n > 0 {
		if s.g.Over() {
			return io.EOF
		}
		p := s.g.Active()
		cmds := make([][]string, 2)
		cmds[p] = toyCommands(s.g.Turn(), p)
		f.Errors = append(f.Errors, s.g.Round(cmds)...)
		f.Commands, f.Active = cmds, p
		f.Logs = make([][]byte, 2)
		f.Logs[p] = fmt.Appendf(nil, "turn %d: aiming at %v", s.g.Turn(), s.g.pos[1-p])
	}
	s.n++
	source.Observe(s.g, f)
	return nil
}
