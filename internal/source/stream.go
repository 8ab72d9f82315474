package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/replay"
)

// MetaOf fills the ruleset-wide fields of an engine.StreamMeta from r, for a
// game of players players (replay.MetaOf).
func MetaOf(r engine.Ruleset, players int) engine.StreamMeta { return replay.MetaOf(r, players) }

// Observe fills f from g as it is now (replay.Observe).
func Observe(g engine.Game, f *engine.Frame) { replay.Observe(g, f) }

// Figures appends an engine.Accounting ruleset's figures to a stream's
// frames after Observe (replay.Figures).
type Figures = replay.Figures

// NewFigures returns the Figures of one stream of a game of r
// (replay.NewFigures): nil, appending nothing, for a ruleset without
// engine.Accounting.
func NewFigures(r engine.Ruleset, players int, commandsKnown bool) *Figures {
	return replay.NewFigures(r, players, commandsKnown)
}

// OpenStream opens the replay at path, of any game, as a generic engine.Stream.
// It reads a .rwd, whatever its codec (the text codec, or a ruleset's
// own: ColorfightII's, Monad's Header.Compact), by re-simulating it
// (NewSimStream), and the files of the registered StreamFormats (their
// Open: the commands a format does not hold stay unknown). It is the
// reader of the analysis of every game. The players of a .rwd whose game
// names them during play go by their played names (PlayedNames).
func OpenStream(path string) (engine.Stream, error) {
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

// SniffBytes is how much of a file engine.Format.Sniff is shown.
const SniffBytes = engine.SniffBytes

// SummarizedByStream reports whether a file of format f is summarized
// from its frames (SummarizeStream) rather than by the format's own pass
// (engine.Format.Summarize).
func SummarizedByStream(f engine.Format) bool { return f.Summarize == nil }

// StreamExts returns the file name endings of every registered stream
// format whose endings are its own (not SharedExts): a file with one is
// taken as a replay by its name.
func StreamExts() []string {
	var out []string
	for _, f := range engine.Formats() {
		if !f.SharedExts {
			out = append(out, f.Exts...)
		}
	}
	return out
}

// StreamEndings returns the file name endings of every registered stream
// format, shared ones (StreamFormat.SharedExts) too.
func StreamEndings() []string {
	var out []string
	for _, f := range engine.Formats() {
		out = append(out, f.Exts...)
	}
	return out
}

// StreamEnding returns the ending of a registered stream format that
// name has (matched without regard to case; the longest: ".mp.gz"
// rather than ".gz"), as name spells it, and whether it is a shared
// ending (StreamFormat.SharedExts), whose file is a replay only when its
// content is sniffed as one. ext is "" when name has none.
func StreamEnding(name string) (ext string, shared bool) {
	lower := strings.ToLower(name)
	for _, f := range engine.Formats() {
		for _, e := range f.Exts {
			if len(e) > len(ext) && strings.HasSuffix(lower, e) {
				ext, shared = name[len(name)-len(e):], f.SharedExts
			}
		}
	}
	return ext, shared
}

// LookupStreamFormat returns the registered StreamFormat whose Sniff
// claims prefix (a file's first SniffBytes bytes); ok is false for a
// .rwd and for anything no format claims.
func LookupStreamFormat(prefix []byte) (f engine.Format, ok bool) {
	if len(prefix) >= 4 && string(prefix[:4]) == replay.Magic {
		return engine.Format{}, false
	}
	for _, f := range engine.Formats() {
		if f.Sniff(prefix) {
			return f, true
		}
	}
	return engine.Format{}, false
}

// NewStream reads a replay from r as OpenStream does; closer (may be nil)
// is closed by Close. A .rwd's players are named by PlayedNames when r
// is an io.ReadSeeker (a file, bytes), by its header otherwise.
func NewStream(r io.Reader, closer io.Closer) (engine.Stream, error) {
	return newStream(r, closer, false)
}

// NewInferredStream is NewStream with the commands of a format that holds
// none inferred where the format can (StreamFormat.OpenInferred: an
// official ColorfightII .cfr): the viewer's reader, which shows them.
// The analysis reads NewStream's stream, which does not infer.
func NewInferredStream(r io.Reader, closer io.Closer) (engine.Stream, error) {
	return newStream(r, closer, true)
}

// newStream is NewStream, and with infer NewInferredStream.
func newStream(r io.Reader, closer io.Closer, infer bool) (engine.Stream, error) {
	// A reader that can seek (a file, bytes) gives a .rwd's players the
	// names they go by once played (PlayedNames) in a pass of its own.
	seeker, start := seekerAt(r)
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(SniffBytes)
	if len(prefix) < 4 || string(prefix[:4]) != replay.Magic {
		f, ok := LookupStreamFormat(prefix)
		if !ok {
			_, err := Sniff(prefix) // what no format claims, Sniff refuses
			return nil, err
		}
		open := f.Open
		if infer && f.OpenInferred != nil {
			open = f.OpenInferred
		}
		s, err := open(br)
		if err != nil {
			if f.Quiet {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return closing{s, closer}, nil
	}
	sim, err := replay.OpenSim(br)
	if err != nil {
		return nil, err
	}
	if !namedInPlay(sim.Header().Ruleset) || seeker == nil {
		return newSimStream(sim, closer), nil
	}
	sim.Close()
	names, err := playedNamesAt(seeker, start)
	if err != nil {
		return nil, err
	}
	if sim, err = replay.OpenSim(bufio.NewReaderSize(seeker, 64<<10)); err != nil {
		return nil, err
	}
	s := newSimStream(sim, closer)
	for i := range s.meta.Players {
		if i < len(names) {
			s.meta.Players[i].Name = names[i]
		}
	}
	return s, nil
}

// playedNamesAt is PlayedNames of the recording at offset start of r,
// which it leaves at start.
// seekerAt returns r as an io.ReadSeeker and its offset now, nil when r
// cannot seek.
func seekerAt(r io.Reader) (io.ReadSeeker, int64) {
	seeker, ok := r.(io.ReadSeeker)
	if !ok {
		return nil, 0
	}
	start, err := seeker.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0
	}
	return seeker, start
}

// playedNamesAt is PlayedNames of the .rwd at start in r, r left at
// start.
func playedNamesAt(r io.ReadSeeker, start int64) ([]string, error) {
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	names, err := PlayedNames(r)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	return names, nil
}

// Hasher is a stream that knows its game's state hash (engine.Game.Hash)
// after each frame: a re-simulated .rwd (NewSimStream). Two such streams
// of games of the same setup are in the same state after a frame exactly
// when their hashes are equal; a stream read from states (an official
// file) has none, and a reader compares its frames instead.
type Hasher interface {
	// StateHash is the hash of the game after the frame Next last
	// filled.
	StateHash() uint64
}

// closing closes a file after the engine.Stream reading it.
type closing struct {
	engine.Stream
	c io.Closer
}

func (c closing) Close() error {
	err := c.Stream.Close()
	if c.c != nil {
		if e := c.c.Close(); err == nil {
			err = e
		}
	}
	return err
}

// simStream is an engine.Stream over a re-simulated recording.
type simStream struct {
	sim    *replay.Sim
	meta   engine.StreamMeta
	closer io.Closer
	next   int
	fig    *replay.Figures
	// err is the figures' error, which ends the stream: they cannot
	// follow a frame left out.
	err error
}

// NewSimStream returns the engine.Stream of the recording sim re-simulates (a
// Sim that has played no round), whatever its codec: OpenStream's
// stream of a .rwd, and a stream for a caller that opened the recording
// with replay.NewSim. Close closes sim, then closer (may be nil).
func NewSimStream(sim *replay.Sim, closer io.Closer) engine.Stream { return newSimStream(sim, closer) }

// newSimStream is NewSimStream, its players named as sim's header names
// them.
func newSimStream(sim *replay.Sim, closer io.Closer) *simStream {
	h := sim.Header()
	m := MetaOf(sim.Ruleset(), sim.Game().Players())
	m.Format, m.MaxTurns, m.Seed, m.Seeded, m.Resimulated = "rwd", h.Config.MaxTurn, h.GameSeed, len(h.Setup) == 0, true
	m.Sequential, m.EndKnown = sim.Game().Active() >= 0, true
	m.Provenance, m.Created = h.Provenance(), h.Created
	for _, p := range h.Players {
		m.Players = append(m.Players, engine.StreamPlayer{Name: p.Name, Bot: p.Bot})
	}
	m.Settings = sim.Game().Setting()
	fig := replay.NewFigures(sim.Ruleset(), sim.Game().Players(), m.Resimulated)
	return &simStream{sim: sim, meta: m, closer: closer, fig: fig}
}

func (s *simStream) Meta() *engine.StreamMeta { return &s.meta }

// SkipCommandText leaves the commands' text out (engine.Stream;
// replay.Sim.SkipText).
func (s *simStream) SkipCommandText() { s.sim.SkipText() }

// Next re-simulates the next round and describes the game after it.
// engine.Frame 0 is the game before its first round. An error of the figures
// (replay.Figures) ends the stream: Next returns it from then on.
func (s *simStream) Next(f *engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	if s.next > 0 {
		if err := s.sim.Next(); err != nil {
			return err
		}
	}
	s.next++
	s.sim.Frame(f)
	if err := s.fig.Append(s.sim.Game(), f); err != nil {
		s.err = err
		return err
	}
	return nil
}

// StateHash is the hash of the game after the frame Next last filled
// (Hasher).
func (s *simStream) StateHash() uint64 { return s.sim.Game().Hash() }

func (s *simStream) Close() error {
	s.sim.Close()
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// StreamFormatOf returns the name of the registered StreamFormat whose
// Sniff claims prefix (a file's first SniffBytes bytes); ok is false for
// a .rwd and for anything no format claims.
func StreamFormatOf(prefix []byte) (name string, ok bool) {
	f, ok := LookupStreamFormat(prefix)
	return f.Name, ok
}

// SummarizeStream reads a whole replay of a registered StreamFormat from
// r (its frames, within the format's own limits) and summarizes it, with
// the stream's meta: Format is the format's name, Ruleset the game's,
// Rounds the last frame's Turn, each player's Rank and Score (the score
// metric) those of the last frame. A stream that breaks off after its
// first frame is summarized up to there with Damage set; one that fails
// before gives an error.
func SummarizeStream(r io.Reader) (*Summary, *engine.StreamMeta, error) {
	s, err := NewStream(r, nil)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	m := s.Meta()
	sum := &Summary{Format: Format(m.Format), Ruleset: m.Ruleset}
	if m.Score >= 0 && m.Score < len(m.Metrics) {
		sum.Unit = m.Metrics[m.Score].Name
	}
	sum.MaxTurn = m.MaxTurns
	for i, p := range m.Players {
		sum.Players = append(sum.Players, Player{UID: i + 1, Name: p.Name, Bot: p.Bot})
	}
	var f engine.Frame
	frames := 0
	for {
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			sum.Complete = true
			break
		}
		if err != nil {
			if frames == 0 {
				return nil, nil, fmt.Errorf("frame 0: %w", err)
			}
			sum.Damage = err
			break
		}
		frames++
	}
	if frames == 0 {
		return nil, nil, errors.New("the replay has no frames")
	}
	sum.Rounds = f.Turn
	score := make([]int64, len(m.Players))
	for p := range score {
		if p < len(f.Values) && m.Score >= 0 && m.Score < len(f.Values[p]) {
			score[p] = f.Values[p][m.Score]
		}
	}
	uids := make([]int, len(f.Ranking))
	for i, p := range f.Ranking {
		uids[i] = p + 1
	}
	sum.setRanking(uids, score)
	if len(uids) > 0 && uids[0] >= 1 && uids[0] <= len(score) {
		sum.Winner, sum.WinnerScore = uids[0], score[uids[0]-1]
	}
	meta := *m
	return sum, &meta, nil
}
