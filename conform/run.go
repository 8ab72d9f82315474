package conform

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay/cfr"
)

// Result is the outcome of one vector.
type Result struct {
	Vector Vector
	Rounds int // rounds compared
	// Divergence is the first difference found, nil when the vector passes.
	Divergence *Divergence
	// Notes are documented differences the game accepts (a probe the
	// reference crashes on, rejected clearly instead).
	Notes []string
}

// Pass reports whether the vector reproduced exactly.
func (r *Result) Pass() bool { return r.Divergence == nil }

// Divergence is the first way our engine differed from the reference.
type Divergence struct {
	Round int // the turn of the frame that differs
	// Frame is set for a state difference; nil for an error-count one.
	Frame *colorfight2.Divergence
	// For an error-count difference: the player and the counts.
	UID              int
	WantErrs, GotErr int
	// Text is set for a vector of a game played through the seam: the
	// game's own description of the first difference (engine.Conformer).
	Text string
}

func (d *Divergence) String() string {
	if d.Text != "" {
		return d.Text
	}
	if d.Frame != nil {
		return "round " + strconv.Itoa(d.Round) + ": " + d.Frame.Where + ": " + d.Frame.Field + ": want " + d.Frame.Want + ", got " + d.Frame.Got
	}
	return fmt.Sprintf("round %d: user %d: error count: want %d, got %d", d.Round, d.UID, d.WantErrs, d.GotErr)
}

// Game is a vector loaded for replay: the initial state built from the
// .cfr's frame 0 (map) and frame 1 (players and homes), and the command log.
type Game struct {
	Header cfr.Header
	Map    *colorfight2.Map
	Config colorfight2.Config
	// Players as registered: uid, username from frame 1, home = the cell
	// each owns in frame 1.
	Players []colorfight2.Player
	Log     *CommandLog
}

// NewState returns the game's state at turn 0, before the first round.
func (g *Game) NewState() (*colorfight2.State, error) {
	return colorfight2.New(g.Config, g.Map, g.Players)
}

// Commands parses the commands sent at turn t into dst (reused), indexed by
// uid-1.
func (g *Game) Commands(t int, dst [][]colorfight2.Command) [][]colorfight2.Command {
	dst = dst[:0]
	if t < 0 || t >= len(g.Log.Commands) || g.Log.Commands[t] == nil {
		return dst
	}
	for _, list := range g.Log.Commands[t] {
		var cs []colorfight2.Command
		for _, s := range list {
			cs = append(cs, colorfight2.ParseCommand(s))
		}
		dst = append(dst, cs)
	}
	return dst
}

// Run replays vector v on the engine and compares frame by frame. visit, if
// not nil, is called with every frame the engine produces, starting with
// frame 0 (the map before registration); it must not keep the frame. An
// error is returned only when the vector cannot be read.
//
// Another game's vector is compared by its own Conform
// (rulesets.Info.Vectors; Rounds is then what it counts); visit must be
// nil for it.
func Run(v Vector, visit func(*colorfight2.Frame) error) (*Result, error) {
	if v.Game != "" && v.Game != GameColorfight2 {
		if visit != nil {
			return nil, fmt.Errorf("vector %s: a %s vector has no ColorfightII frames to visit", v.Name, v.Game)
		}
		return runSeam(v)
	}
	log, dec, closeFn, err := open(v)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	res, err := run(v, log, dec, visit)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %s: %w", v.Name, v.CFR, err)
	}
	return res, nil
}

// Load reads the initial state of a vector from its .cfr (frames 0 and 1)
// together with its command log.
func Load(v Vector) (*Game, error) {
	if v.Game != "" && v.Game != GameColorfight2 {
		return nil, fmt.Errorf("vector %s: a %s vector, not a ColorfightII game", v.Name, v.Game)
	}
	log, dec, closeFn, err := open(v)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	var f0, f1 colorfight2.Frame
	g, err := start(dec, log, &f0, &f1)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %s: %w", v.Name, v.CFR, err)
	}
	return g, nil
}

// open reads v's command log and opens a decoder on its replay; the caller
// must call closeFn.
func open(v Vector) (log *CommandLog, dec *cfr.Decoder, closeFn func(), err error) {
	lf, err := os.Open(v.Commands)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	log, err = ReadCommandLog(lf)
	lf.Close()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("vector %s: %s: %w", v.Name, v.Commands, err)
	}
	rf, err := os.Open(v.CFR)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	dec, err = cfr.NewDecoder(rf)
	if err != nil {
		rf.Close()
		return nil, nil, nil, fmt.Errorf("vector %s: %s: %w", v.Name, v.CFR, err)
	}
	return log, dec, func() { rf.Close() }, nil
}

// start reads frames 0 and 1 and builds the game.
func start(dec *cfr.Decoder, log *CommandLog, f0, f1 *colorfight2.Frame) (*Game, error) {
	if err := dec.Next(f0); err != nil {
		return nil, fmt.Errorf("frame 0: %w", err)
	}
	if err := dec.Next(f1); err != nil {
		return nil, fmt.Errorf("frame 1: %w", err)
	}
	g := &Game{Header: dec.Header(), Map: colorfight2.MapFromFrame(f0), Log: log}
	g.Config = colorfight2.Config{Width: f0.Width, Height: f0.Height, MaxTurn: log.MaxTurn, MaxPlayer: log.MaxPlayer}
	if len(f1.Users) != log.Players {
		return nil, fmt.Errorf("frame 1 has %d users, command log says %d players", len(f1.Users), log.Players)
	}
	players, err := colorfight2.PlayersFromFrame(f1)
	if err != nil {
		return nil, err
	}
	g.Players = players
	return g, nil
}

func run(v Vector, log *CommandLog, dec *cfr.Decoder, visit func(*colorfight2.Frame) error) (*Result, error) {
	var want, got, f1 colorfight2.Frame
	g, err := start(dec, log, &got, &f1)
	if err != nil {
		return nil, err
	}
	if visit != nil {
		if err := visit(&got); err != nil {
			return nil, err
		}
	}
	s, err := g.NewState()
	if err != nil {
		return nil, err
	}
	res := &Result{Vector: v}
	want.CopyFrom(&f1)
	var cmds [][]colorfight2.Command
	for t := 0; ; t++ {
		if t > 0 {
			err := dec.Next(&want)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		if t >= log.MaxTurn {
			return nil, fmt.Errorf("replay has more than max_turn %d rounds", log.MaxTurn)
		}
		cmds = g.Commands(t, cmds)
		s.Step(cmds)
		s.Frame(&got)
		if visit != nil {
			if err := visit(&got); err != nil {
				return nil, err
			}
		}
		res.Rounds++
		if d := colorfight2.Diff(&want, &got); d != nil {
			res.Divergence = &Divergence{Round: t + 1, Frame: d}
			return res, nil
		}
		var gotErrs [colorfight2.MaxPlayers]int
		for _, e := range s.Errors() {
			gotErrs[e.UID-1]++
		}
		for uid := 1; uid <= log.Players; uid++ {
			if w := log.ErrorCount(t+1, uid); w != gotErrs[uid-1] {
				res.Divergence = &Divergence{Round: t + 1, UID: uid, WantErrs: w, GotErr: gotErrs[uid-1]}
				return res, nil
			}
		}
	}
	if res.Rounds != log.MaxTurn {
		return nil, fmt.Errorf("replay ends after %d rounds, command log has max_turn %d", res.Rounds, log.MaxTurn)
	}
	return res, nil
}
