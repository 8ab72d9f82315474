package rules

import (
	"strconv"

	"github.com/rewind-game/rewind/engine"
)

// Ruleset is ColorfightII through the game-agnostic seam (package engine).
// The match runner, the recorder and re-simulation keep using State and
// Command directly (the hot path); the seam serves code written for every
// game.
var Ruleset engine.Ruleset = ruleset{}

type ruleset struct{}

// The per-player values Game.Values reports, in this order: figures of
// AccountMetrics (valueFigures), declared there once.
var metrics = figureMetrics(valueFigures)

// Badge bits of the Board a Game describes.
var badges = []string{"home", "gold_mine", "energy_well", "fortress", "level_2", "level_3"}

// layers are the board's layers (engine.Board.Layers): each cell's
// natural gold and natural energy.
var layers = []string{"natural_gold", "natural_energy"}

func (ruleset) ID() string               { return "colorfight2" }
func (ruleset) Version() int             { return 2 }
func (ruleset) Metrics() []engine.Metric { return metrics }

// ScoreMetric is gold, the first metric.
func (ruleset) ScoreMetric() int { return 0 }

// EventKinds is nil: the game's events are its accountant's
// (AccountEventKinds).
func (ruleset) EventKinds() []engine.EventKind { return nil }

// New seeds the map with GenerateMap: width and height are the defaults
// (30×30), max_player the smallest of 2, 4, 8 that seats everyone, MaxTurns
// 0 the default 500; the players are named s.Names (default "player<uid>").
func (ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	cfg := DefaultConfig()
	if s.MaxTurns != 0 {
		cfg.MaxTurn = s.MaxTurns
	}
	cfg.MaxPlayer = 8
	for _, m := range []int{2, 4} {
		if s.Players <= m {
			cfg.MaxPlayer = m
			break
		}
	}
	names := make([]string, s.Players)
	for i := range names {
		if i < len(s.Names) && s.Names[i] != "" {
			names[i] = s.Names[i]
		} else {
			names[i] = "player" + strconv.Itoa(i+1)
		}
	}
	st, err := NewFromSeed(cfg, seed, names)
	if err != nil {
		return nil, err
	}
	return &Game{State: st}, nil
}

// Game adapts a State to engine.Game. Players are uid-1 across the seam.
// Round parses each text with ParseCommand and calls State.Step, so a game
// played through the seam is exactly the game played directly.
type Game struct {
	State  *State
	cmds   [][]Command
	faults [][]Command
	errs   []engine.CommandError
	frame  Frame
	// framed: frame holds the state of turn frameTurn.
	framed    bool
	frameTurn int
	// played: cmds hold the commands of the last round (not round 0 -> 1).
	played bool
	// setup is what the game started from (NewFromSetup), nil when its
	// seed gives it.
	setup []byte
	// pending is the setup of a game NewSetupGame started, until Setup
	// encodes it.
	pending *Setup
	// rec writes the game's own records (AppendRecord) and recIn reads
	// them (PlayRecord): one codec either writes or reads. Both nil
	// until the first.
	rec, recIn *RecordCodec
	// text is PlayRecord's storage for the rounds' texts.
	text textScratch
}

var _ engine.Game = (*Game)(nil)

// Players returns the number of registered players.
func (g *Game) Players() int { return g.State.NumPlayers() }

// Turn returns the current turn.
func (g *Game) Turn() int { return g.State.Turn() }

// MaxTurns returns max_turn.
func (g *Game) MaxTurns() int { return g.State.Config().MaxTurn }

// Over reports whether max_turn is reached.
func (g *Game) Over() bool { return g.State.Over() }

// Active is -1: every player acts in every round.
func (g *Game) Active() int { return -1 }

// Events appends none: the game's events are its accountant's.
func (g *Game) Events(dst []engine.Event) []engine.Event { return dst }

// Fault records, whatever its kind, one malformed command with code
// ErrBotFault and the text (cut to 200 bytes) at the head of player p's
// next round, as internal/match does.
func (g *Game) Fault(p int, _ engine.Fault, text string) {
	if p < 0 || p >= g.Players() {
		return
	}
	if len(text) > 200 {
		text = text[:200]
	}
	g.faults = resize(g.faults, g.Players())
	g.faults[p] = append(g.faults[p], Command{Kind: CmdInvalid, Err: ErrBotFault, Raw: text})
}

// Round parses and plays one round. A fault's command comes first in its
// player's list (Index 0), shifting the player's own commands by one, as
// in a recording. Once the game is over it does nothing (engine.Game).
func (g *Game) Round(cmds [][]string) []engine.CommandError {
	if g.Over() {
		return nil
	}
	n := g.Players()
	g.cmds = resize(g.cmds, n)
	g.faults = resize(g.faults, n)
	for p := 0; p < n; p++ {
		list := append(g.cmds[p][:0], g.faults[p]...)
		g.faults[p] = g.faults[p][:0]
		if p < len(cmds) {
			list = AppendParsed(list, cmds[p])
		}
		g.cmds[p] = list
	}
	if g.State.Turn() == 0 {
		g.recordCodec()   // its records start from the homes of turn 0
		g.State.Step(nil) // round 0 -> 1 takes no commands
		g.played = false
	} else {
		g.State.Step(g.cmds)
		g.played = true
	}
	return g.roundDone()
}

// roundDone ends a round State.Step has played: the frame is stale, and
// the state's command errors become the round's.
func (g *Game) roundDone() []engine.CommandError {
	g.framed = false
	g.errs = g.errs[:0]
	for _, e := range g.State.Errors() {
		g.errs = append(g.errs, e.EngineError())
	}
	return g.errs
}

// EngineError returns e as engine.Game.Round reports it: player uid-1, the
// same index, the code and its text.
func (e CommandError) EngineError() engine.CommandError {
	return engine.CommandError{Player: e.UID - 1, Index: e.Index, Code: int(e.Code), Text: e.Code.String()}
}

// Hash returns State.Hash.
func (g *Game) Hash() uint64 { return g.State.Hash() }

// Values reports gold, energy, cells, gold_source, energy_source and
// tech_level of player p (0-based): those of the Frame's user p+1, read
// from the state without making the frame.
func (g *Game) Values(p int, dst []int64) []int64 {
	if p < 0 || p >= len(g.State.users) {
		return append(dst, 0, 0, 0, 0, 0, 0)
	}
	u := &g.State.users[p] // uid p+1
	return append(dst, u.gold, u.energy, u.cells, u.goldSource, u.energySource, u.techLevel)
}

// Board describes the map: square cells, terrain natural_cost, value
// attack_cost, owner uid-1, a badge per building type and level, and the
// layers natural_gold and natural_energy. It
// reads the state as the Frame shows it, without making the frame.
func (g *Game) Board(b *engine.Board) {
	s := g.State
	w, h := s.cfg.Width, s.cfg.Height
	b.Topology = engine.Square
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	b.TerrainName, b.ValueName, b.Badges = "natural_cost", "attack_cost", badges
	b.Resize(w, h)
	b.ResizeLayers(layers)
	out, cells, lands := b.Cells[:w*h], s.cells[:w*h], s.land[:w*h]
	gold, energy := b.Layers[0].Values[:w*h], b.Layers[1].Values[:w*h]
	for i := range cells {
		gold[i], energy[i] = int64(lands[i].ng), int64(lands[i].ne)
		c, bc := &cells[i], &out[i]
		var bits uint32
		if c.building >= Home && c.building <= Fortress {
			bits |= 1 << (c.building - Home)
			if c.level >= 2 && c.level <= 3 {
				bits |= 1 << (4 + c.level - 2)
			}
		}
		bc.Terrain, bc.Owner, bc.Value, bc.Badges = int64(lands[i].nc), int(c.owner)-1, s.attackCost(i), bits
	}
}

// Ranking returns State.Ranking as 0-based players.
func (g *Game) Ranking() []int {
	return g.State.appendRanking(make([]int, 0, len(g.State.users)), -1)
}

// Frame returns the state now as a Frame, filled once per turn and shared
// by every caller until the next Round: it must not be modified, nor kept
// past that Round.
func (g *Game) Frame() *Frame {
	if !g.framed || g.frameTurn != g.State.Turn() {
		g.State.Frame(&g.frame)
		g.framed, g.frameTurn = true, g.State.Turn()
	}
	return &g.frame
}

// LoadFrameUnchecked makes g show frame f (State.LoadFrameUnchecked
// with cfg), reusing its storage: a game read from a stream of states,
// such as an official replay, rather than played. The round that led to
// f is unknown: Applied returns nil and no fault is pending. On error g
// is left unusable until the next successful load.
func (g *Game) LoadFrameUnchecked(cfg Config, f *Frame) error {
	g.framed, g.played = false, false
	g.errs = g.errs[:0]
	for p := range g.faults {
		g.faults[p] = g.faults[p][:0]
	}
	return g.State.LoadFrameUnchecked(cfg, f)
}

// Idle reports that the next Round is round 0 -> 1, which takes no
// commands (engine.Attendance): a runner plays it without asking the
// bots.
func (g *Game) Idle() bool { return g.State.Turn() == 0 }

// Out is false: a player never leaves the game (engine.Attendance).
func (g *Game) Out(int) bool { return false }

// PlayerName is "": a player keeps the name it registered with
// (engine.Attendance).
func (g *Game) PlayerName(int) string { return "" }

// Applied returns the commands the last Round gave State.Step, by uid-1
// (faults first in a player's list, as Round puts them), or nil after
// round 0 -> 1 or before any round: what a recording of the round
// holds. It is valid until the next Round.
func (g *Game) Applied() [][]Command {
	if !g.played {
		return nil
	}
	return g.cmds
}

// AppendTurnMessage appends player p's turn message for the next Round
// (engine.Messenger): AppendBotTurn of the state now, as uid p+1, with
// the game's turn limit.
func (g *Game) AppendTurnMessage(dst []byte, p int, deadlineMS int64) []byte {
	return AppendBotTurn(dst, g.Frame(), p+1, g.MaxTurns(), deadlineMS)
}

var (
	_ engine.Attendance = (*Game)(nil)
	_ engine.Messenger  = (*Game)(nil)
)
