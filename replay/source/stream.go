package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/replay"
)

// Frame is one moment of any game as the generic shell sees it, read
// through the seam: the values of every declared metric, the board, the
// events and the commands of the round that led to it. Frame 0 is the
// game before its first round.
type Frame struct {
	// Turn is the number of rounds played (player-turns in a Sequential
	// game).
	Turn int
	// Active is the player who acted in the round that led here, -1 when
	// all players act at once (or for frame 0).
	Active int
	// Commands[p] are player p's commands of the round that led here, as
	// sent; CommandsKnown is false when the source has no command log (a
	// state stream) and Commands is then empty.
	Commands      [][]string
	CommandsKnown bool
	// Faults[p] is the fault recorded for player p before the round, 0
	// for none; FaultText its description.
	Faults    []engine.Fault
	FaultText []string
	// Errors are the commands of the round that drew an error.
	Errors []engine.CommandError
	// Values[p] are player p's values, one per StreamMeta.Metrics.
	Values [][]int64
	// Events happened in the round that led here.
	Events []engine.Event
	// Board is the board after the round.
	Board engine.Board
	// Logs[p] is what player p's bot logged while choosing the round's
	// commands (nil when nothing).
	Logs [][]byte
	// Ranking is the players best first after the round.
	Ranking []int
}

// StreamPlayer is a player as a generic stream names it.
type StreamPlayer struct {
	Name string
	// Bot is the built-in strategy or command that played, "" when
	// unknown.
	Bot string
}

// StreamMeta is what a generic stream says about its game before its
// frames.
type StreamMeta struct {
	// Ruleset and RulesetVersion identify the game (engine.Ruleset).
	Ruleset        string
	RulesetVersion int
	// Format names the file format ("rwd", or an official format's name).
	Format string
	// Label, when set, qualifies the source for the user ("recorded by
	// a pre-Rev 1 server: shown as recorded, not re-simulated").
	Label string
	// Metrics and EventKinds are the ruleset's declarations.
	Metrics    []engine.Metric
	EventKinds []engine.EventKind
	// Score is the index in Metrics of the score (engine.Scorer).
	Score int
	// Sequential is true when one player acts per round.
	Sequential bool
	Players    []StreamPlayer
	MaxTurns   int
	// Seed is the seed the game was drawn from (when Seeded).
	Seed   uint64
	Seeded bool
	// Settings are key/value pairs describing the game (engine.Describer).
	Settings [][2]string
	// Resimulated is true when frames come from re-simulating recorded
	// commands (exact), false when they are read from a state stream.
	Resimulated bool
}

// Stream is any game as a stream of generic frames.
type Stream interface {
	Meta() *StreamMeta
	// Next fills f with the next frame, reusing its storage; io.EOF after
	// the last.
	Next(f *Frame) error
	Close() error
}

// MetaOf fills the ruleset-wide fields of a StreamMeta from r.
func MetaOf(r engine.Ruleset) StreamMeta {
	m := StreamMeta{Ruleset: r.ID(), RulesetVersion: r.Version(), Metrics: r.Metrics()}
	if k, ok := r.(engine.EventKinds); ok {
		m.EventKinds = k.EventKinds()
	}
	if s, ok := r.(engine.Scorer); ok {
		m.Score = s.ScoreMetric()
	}
	return m
}

// Observe fills f's turn, values, events, board and ranking from g as it
// is now, reusing f's storage. The commands, faults, errors and logs are
// the caller's.
func Observe(g engine.Game, f *Frame) {
	n := g.Players()
	f.Turn = g.Turn()
	if cap(f.Values) < n {
		f.Values = make([][]int64, n)
	}
	f.Values = f.Values[:n]
	for p := 0; p < n; p++ {
		f.Values[p] = g.Values(p, f.Values[p][:0])
	}
	f.Events = f.Events[:0]
	if e, ok := g.(engine.Evented); ok {
		f.Events = e.Events(f.Events)
	}
	engine.Describe(g, &f.Board)
	f.Ranking = append(f.Ranking[:0], g.Ranking()...)
}

// OpenStream opens the replay at path as a generic Stream. It reads .rwd
// files of the text codec (any game played through the seam) by
// re-simulating them; other files are refused with an error naming
// their format, for the caller to open on their game's own path.
func OpenStream(path string) (Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := NewStream(f, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// NewStream reads a replay from r as OpenStream does; closer (may be nil)
// is closed by Close.
func NewStream(r io.Reader, closer io.Closer) (Stream, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(8)
	if len(prefix) < 4 || string(prefix[:4]) != replay.Magic {
		return nil, ErrNotStream
	}
	sim, err := replay.OpenSim(br)
	if err != nil {
		if errors.Is(err, replay.ErrRuleset) {
			return nil, fmt.Errorf("%w: %v", ErrNotStream, err)
		}
		return nil, err
	}
	return newSimStream(sim, closer), nil
}

// ErrNotStream: the file is a replay, but not one OpenStream reads (a
// ColorfightII or Monad file in its own codec, an official format).
var ErrNotStream = errors.New("source: not a replay of the generic path")

// IsStream reports whether the replay starting with prefix (its first
// bytes, at least the .rwd prefix up to the header) is read by
// OpenStream.
func IsStream(r io.Reader) bool {
	h, err := replay.ReadHeader(r)
	return err == nil && h.Codec == replay.CodecText
}

// simStream is a Stream over a re-simulated generic recording.
type simStream struct {
	sim    *replay.Sim
	meta   StreamMeta
	closer io.Closer
	next   int
}

func newSimStream(sim *replay.Sim, closer io.Closer) *simStream {
	h := sim.Header()
	m := MetaOf(sim.Ruleset())
	m.Format, m.MaxTurns, m.Seed, m.Seeded, m.Resimulated = "rwd", h.Config.MaxTurn, h.GameSeed, len(h.Setup) == 0, true
	m.Sequential = engine.Active(sim.Game()) >= 0
	for _, p := range h.Players {
		m.Players = append(m.Players, StreamPlayer{Name: p.Name, Bot: p.Bot})
	}
	if d, ok := sim.Game().(engine.Describer); ok {
		m.Settings = d.Setting()
	}
	return &simStream{sim: sim, meta: m, closer: closer}
}

func (s *simStream) Meta() *StreamMeta { return &s.meta }

// Next re-simulates the next round and describes the game after it.
// Frame 0 is the game before its first round.
func (s *simStream) Next(f *Frame) error {
	n := len(s.meta.Players)
	if s.next > 0 {
		if err := s.sim.Next(); err != nil {
			return err
		}
	}
	s.next++
	f.Commands = resizeLists(f.Commands, n)
	f.Faults = resizeN(f.Faults, n)
	f.FaultText = resizeN(f.FaultText, n)
	f.Logs = resizeN(f.Logs, n)
	f.Errors, f.Active, f.CommandsKnown = f.Errors[:0], -1, false
	if r := s.sim.Round(); r != nil {
		f.Active, f.CommandsKnown = r.Active, true
		for p := 0; p < n; p++ {
			f.Commands[p] = append(f.Commands[p], r.Commands[p]...)
			f.Faults[p], f.FaultText[p] = r.Faults[p], r.FaultText[p]
			if p < len(r.Logs) && len(r.Logs[p]) > 0 {
				f.Logs[p] = bytes.Clone(r.Logs[p])
			}
		}
		f.Errors = append(f.Errors, s.sim.Errors()...)
	}
	Observe(s.sim.Game(), f)
	return nil
}

func (s *simStream) Close() error {
	s.sim.Close()
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

func resizeLists(l [][]string, n int) [][]string {
	if cap(l) < n {
		l = append(l[:cap(l)], make([][]string, n-cap(l))...)
	}
	l = l[:n]
	for i := range l {
		l[i] = l[i][:0]
	}
	return l
}

func resizeN[T any](l []T, n int) []T {
	if cap(l) < n {
		l = make([]T, n)
	}
	l = l[:n]
	clear(l)
	return l
}
