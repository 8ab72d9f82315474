// Package vectors replays ColorfightII's conformance vectors — games
// played on the official server, given as a command log plus the server's
// own .cfr replay — on the engine and compares every field of every frame
// and the number of failed commands per player per round.
//
// The vector format is described in testdata/conformance/README.md: a
// pair of files NAME.commands.json and NAME.cfr. The game registry lists
// Conform as ColorfightII's vectors (engine.Registration.Vectors), so that
// rewind conform runs them; this package therefore imports neither the
// registry nor replay (writing a vector as a .rwd is
// games/colorfight2/formats/cfr/cfrimport.RecordVector).
package vectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Input and Expected are the endings of a vector's two files: the
// command log and the reference server's replay.
const (
	Input    = ".commands.json"
	Expected = ".cfr"
)

// Result is the outcome of one vector.
type Result struct {
	Rounds int // rounds compared
	// Divergence is the first difference found, nil when the vector passes.
	Divergence *Divergence
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
}

func (d *Divergence) String() string {
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
		dst = append(dst, colorfight2.AppendParsed(nil, list))
	}
	return dst
}

// Conform is engine.Vectors.Conform for ColorfightII: it replays the
// command log input on the map and players of the .cfr expected and
// compares frame by frame (Run). An error about one of the files is a
// *engine.VectorFileError.
func Conform(input, expected []byte, _ func(rel string) ([]byte, error)) (rounds int, divergence string, err error) {
	res, err := Run(bytes.NewReader(input), bytes.NewReader(expected), nil)
	if err != nil {
		return 0, "", err
	}
	if res.Divergence != nil {
		divergence = res.Divergence.String()
	}
	return res.Rounds, divergence, nil
}

// Run replays the command log read from commands on the engine and
// compares it frame by frame with the .cfr read from ref. visit, if not
// nil, is called with every frame the engine produces, starting with
// frame 0 (the map before registration); it must not keep the frame. An
// error is returned only when the vector cannot be read (a
// *engine.VectorFileError naming the file) or visit fails.
func Run(commands, ref io.Reader, visit func(*colorfight2.Frame) error) (*Result, error) {
	log, dec, err := open(commands, ref)
	if err != nil {
		return nil, err
	}
	return run(log, dec, visit)
}

// Load reads the initial state of a vector from its .cfr (frames 0 and
// 1) together with its command log, from the files at the two paths.
func Load(commands, ref string) (*Game, error) {
	lf, err := os.Open(commands)
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	rf, err := os.Open(ref)
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	g, err := Read(lf, rf)
	if err == nil {
		return g, nil
	}
	var fe *engine.VectorFileError
	if errors.As(err, &fe) && !fe.Expected {
		return nil, fmt.Errorf("%s: %w", commands, err)
	}
	return nil, fmt.Errorf("%s: %w", ref, err)
}

// Read is Load of the command log and the .cfr read from commands and
// ref; its errors are *engine.VectorFileError, saying which file.
func Read(commands, ref io.Reader) (*Game, error) {
	log, dec, err := open(commands, ref)
	if err != nil {
		return nil, err
	}
	var f0, f1 colorfight2.Frame
	return start(dec, log, &f0, &f1)
}

// open reads the command log and opens a decoder on the replay.
func open(commands, ref io.Reader) (*CommandLog, *cfr.Decoder, error) {
	log, err := ReadCommandLog(commands)
	if err != nil {
		return nil, nil, &engine.VectorFileError{Err: err}
	}
	dec, err := cfr.NewDecoder(ref)
	if err != nil {
		return nil, nil, &engine.VectorFileError{Expected: true, Err: err}
	}
	return log, dec, nil
}

// start reads frames 0 and 1 and builds the game; its errors are about
// the replay (*engine.VectorFileError).
func start(dec *cfr.Decoder, log *CommandLog, f0, f1 *colorfight2.Frame) (*Game, error) {
	if err := dec.Next(f0); err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("frame 0: %w", err)}
	}
	if err := dec.Next(f1); err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("frame 1: %w", err)}
	}
	g := &Game{Header: dec.Header(), Map: colorfight2.MapFromFrame(f0), Log: log}
	g.Config = colorfight2.Config{Width: f0.Width, Height: f0.Height, MaxTurn: log.MaxTurn, MaxPlayer: log.MaxPlayer}
	if len(f1.Users) != log.Players {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("frame 1 has %d users, command log says %d players", len(f1.Users), log.Players)}
	}
	players, err := colorfight2.PlayersFromFrame(f1)
	if err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: err}
	}
	g.Players = players
	return g, nil
}

func run(log *CommandLog, dec *cfr.Decoder, visit func(*colorfight2.Frame) error) (*Result, error) {
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
		return nil, &engine.VectorFileError{Expected: true, Err: err}
	}
	res := &Result{}
	want.CopyFrom(&f1)
	var cmds [][]colorfight2.Command
	for t := 0; ; t++ {
		if t > 0 {
			err := dec.Next(&want)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, &engine.VectorFileError{Expected: true, Err: err}
			}
		}
		if t >= log.MaxTurn {
			return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("replay has more than max_turn %d rounds", log.MaxTurn)}
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
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("replay ends after %d rounds, command log has max_turn %d", res.Rounds, log.MaxTurn)}
	}
	return res, nil
}
