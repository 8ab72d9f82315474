package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/games/monad/formats/monadlog"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/replay"
)

// Frame, StreamPlayer, StreamMeta and Stream are the generic frame
// stream's types; they live in package replay, below the official
// formats' packages that produce streams (replay/<format>), and are
// named here too for the code that reads any replay through this
// package.
type (
	Frame        = replay.Frame
	StreamPlayer = replay.StreamPlayer
	StreamMeta   = replay.StreamMeta
	Stream       = replay.Stream
)

// MetaOf fills the ruleset-wide fields of a StreamMeta from r, for a
// game of players players (replay.MetaOf).
func MetaOf(r engine.Ruleset, players int) StreamMeta { return replay.MetaOf(r, players) }

// Observe fills f from g as it is now (replay.Observe).
func Observe(g engine.Game, f *Frame) { replay.Observe(g, f) }

// Figures appends an engine.Accounting ruleset's figures to a stream's
// frames after Observe (replay.Figures).
type Figures = replay.Figures

// NewFigures returns the Figures of one stream of a game of r
// (replay.NewFigures): nil, appending nothing, for a ruleset without
// engine.Accounting.
func NewFigures(r engine.Ruleset, players int, commandsKnown bool) *Figures {
	return replay.NewFigures(r, players, commandsKnown)
}

// OpenStream opens the replay at path, of any game, as a generic Stream.
// It reads a .rwd, whatever its codec (the text codec, or a ruleset's
// own: ColorfightII's, Monad's Header.Compact), by re-simulating it
// (NewSimStream), and the files of the registered StreamFormats (their
// Open: the commands a format does not hold stay unknown). It is the
// reader of the analysis of every game.
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

// StreamFormat is an official file format of a game played through the
// seam, read as a Stream (replay/<format>): one line of streamFormats
// registers it.
type StreamFormat struct {
	// Name names the format ("skyport-jsn").
	Name string
	// Exts are the file name endings of the format (".jsn"), for the
	// library to list such files, in the order of preference (an upload
	// of the format named otherwise is kept with the first).
	Exts []string
	// SharedExts: Exts are endings other files have too (".json"), so a
	// file with one is the format's only when Sniff claims its content;
	// StreamExts leaves them out, and a lister sniffs such a file before
	// listing it (StreamEnding).
	SharedExts bool
	// DecodeBytes is the most memory Open holds for one file when it
	// decodes the file whole before the first frame (a server reserves
	// it before opening or summarizing such a file); 0 when the format is
	// read as it goes.
	DecodeBytes int64
	// Sniff reports whether a file starting with prefix (its first
	// SniffBytes bytes, or the whole file when shorter) is of this
	// format. It must not claim a .rwd.
	Sniff func(prefix []byte) bool
	// Open reads the file from r; the Stream reads r until Close.
	Open func(r io.Reader) (Stream, error)
	// OpenInferred, when set, is Open with the commands of the rounds
	// inferred from the file's frames where the format holds none
	// (StreamMeta.CommandsInferred), for a reader that shows them
	// (NewInferredStream: the viewer's); nil: Open.
	OpenInferred func(r io.Reader) (Stream, error)
	// Summarize, when set, summarizes the file in a pass of its own
	// (Summarize reads such a file with it), without the stream
	// SummarizeStream reads; nil: SummarizeStream.
	Summarize func(r io.Reader) (*Summary, error)
}

// SniffBytes is how much of a file StreamFormat.Sniff is shown.
const SniffBytes = 512

// streamFormats is every official format read as a Stream, in the order
// they are tried.
var streamFormats = []StreamFormat{
	{Name: jsn.Name, Exts: []string{".jsn"}, Sniff: jsn.Sniff, Open: jsn.Open},
	// A Monad reference log is named replay.json or NAME.mp.gz: endings
	// other files have (a notes.json is no replay), so its listers sniff
	// the content.
	{Name: monadlog.Name, Exts: []string{".json", ".mp.gz"}, SharedExts: true, DecodeBytes: monadlog.DecodeBytes,
		Sniff: monadlog.Sniff, Open: monadlog.Open},
	// ColorfightII's official replay is gzip'd JSON, or JSON: the
	// catch-all of such content, so it comes last, after the formats
	// that claim gzip or JSON of their own (a Monad log, a Skyport .jsn).
	{Name: cfrstream.Name, Exts: []string{".cfr"}, Sniff: sniffCFR, Open: cfrstream.Open,
		OpenInferred: cfrstream.OpenInferred, Summarize: summarizeCFR},
}

// sniffCFR claims a file that Sniff takes for a .cfr: gzip, or JSON
// starting with an array.
func sniffCFR(prefix []byte) bool {
	f, err := Sniff(prefix)
	return err == nil && f == CFR
}

// StreamExts returns the file name endings of every registered stream
// format whose endings are its own (not SharedExts): a file with one is
// taken as a replay by its name.
func StreamExts() []string {
	var out []string
	for _, f := range streamFormats {
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
	for _, f := range streamFormats {
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
	for _, f := range streamFormats {
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
func LookupStreamFormat(prefix []byte) (f StreamFormat, ok bool) {
	if len(prefix) >= 4 && string(prefix[:4]) == replay.Magic {
		return StreamFormat{}, false
	}
	for _, f := range streamFormats {
		if f.Sniff(prefix) {
			return f, true
		}
	}
	return StreamFormat{}, false
}

// RegisterStreamFormat adds a format after those of the table, for a
// format outside it (a test's).
func RegisterStreamFormat(f StreamFormat) { streamFormats = append(streamFormats, f) }

// NewStream reads a replay from r as OpenStream does; closer (may be nil)
// is closed by Close.
func NewStream(r io.Reader, closer io.Closer) (Stream, error) { return newStream(r, closer, false) }

// NewInferredStream is NewStream with the commands of a format that holds
// none inferred where the format can (StreamFormat.OpenInferred: an
// official ColorfightII .cfr): the viewer's reader, which shows them.
// The analysis reads NewStream's stream, which does not infer.
func NewInferredStream(r io.Reader, closer io.Closer) (Stream, error) {
	return newStream(r, closer, true)
}

// newStream is NewStream, and with infer NewInferredStream.
func newStream(r io.Reader, closer io.Closer, infer bool) (Stream, error) {
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
			if f.Name == cfrstream.Name {
				return nil, err // as ColorfightII's analysis worded it
			}
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return closing{s, closer}, nil
	}
	rd, err := replay.NewReader(br)
	if err != nil {
		return nil, err
	}
	sim, err := replay.NewSim(rd)
	if err != nil {
		rd.Close()
		return nil, err
	}
	return NewSimStream(sim, closer), nil
}

// closing closes a file after the Stream reading it.
type closing struct {
	Stream
	c io.Closer
}

// SkipCommandText forwards replay.TextSkipper to the stream c wraps,
// when it has it.
func (c closing) SkipCommandText() {
	if t, ok := c.Stream.(replay.TextSkipper); ok {
		t.SkipCommandText()
	}
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

// simStream is a Stream over a re-simulated recording.
type simStream struct {
	sim    *replay.Sim
	meta   StreamMeta
	closer io.Closer
	next   int
	fig    *replay.Figures
	// err is the figures' error, which ends the stream: they cannot
	// follow a frame left out.
	err error
}

// NewSimStream returns the Stream of the recording sim re-simulates (a
// Sim that has played no round), whatever its codec: OpenStream's
// stream of a .rwd, and a stream for a caller that opened the recording
// with replay.NewSim. Close closes sim, then closer (may be nil).
func NewSimStream(sim *replay.Sim, closer io.Closer) Stream {
	h := sim.Header()
	m := MetaOf(sim.Ruleset(), sim.Game().Players())
	m.Format, m.MaxTurns, m.Seed, m.Seeded, m.Resimulated = "rwd", h.Config.MaxTurn, h.GameSeed, len(h.Setup) == 0, true
	m.Sequential, m.EndKnown = engine.Active(sim.Game()) >= 0, true
	m.Provenance = h.Provenance()
	for _, p := range h.Players {
		m.Players = append(m.Players, StreamPlayer{Name: p.Name, Bot: p.Bot})
	}
	if d, ok := sim.Game().(engine.Describer); ok {
		m.Settings = d.Setting()
	}
	fig := replay.NewFigures(sim.Ruleset(), sim.Game().Players(), m.Resimulated)
	return &simStream{sim: sim, meta: m, closer: closer, fig: fig}
}

func (s *simStream) Meta() *StreamMeta { return &s.meta }

// SkipCommandText leaves the commands' text out (replay.TextSkipper;
// replay.Sim.SkipText).
func (s *simStream) SkipCommandText() { s.sim.SkipText() }

// Next re-simulates the next round and describes the game after it.
// Frame 0 is the game before its first round. An error of the figures
// (replay.Figures) ends the stream: Next returns it from then on.
func (s *simStream) Next(f *Frame) error {
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
func SummarizeStream(r io.Reader) (*Summary, *StreamMeta, error) {
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
	var f Frame
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
		sum.Winner, sum.WinnerGold = uids[0], score[uids[0]-1]
	}
	meta := *m
	return sum, &meta, nil
}
