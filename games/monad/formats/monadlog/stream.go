package monadlog

import (
	"fmt"
	"io"
	"strings"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/replay"
)

// A log as an engine.Stream (Open): the generic path's reading of a
// reference log, as games/skyport/formats/jsn is Skyport's. Frame t is log entry t (the
// state before turn t; the last entry the final state), shown as
// recorded, never re-simulated: the log has no seed, and the rules are
// not replayed on it.
//
//   - Board: the entry's cells as games/monad describes a game's map
//     (monad.DescribeMap: hex, terrain the resource, value the units,
//     owner, badge "hive").
//   - Values: every metric of the monad ruleset, in its order
//     (monad.StatsValues of Turn.Stats): resources, units, hives and
//     cells are the entry's; units_produced and units_lost are not in
//     a log and are 0, as the Meta's "unknown" setting says (Unknown).
//   - Ranking: the rules' ranking of the entry (monad.RankStats of
//     Turn.Stats: hives, then units, then player), no one counted as
//     crashed; the last frame's is rankedBots' order when the final
//     board tells which player each of its entries is
//     (Log.RankedPlayers), which places crashed players last.
//   - Commands (frames after the first, CommandsKnown): the commands the
//     log wrote for the turn before, each player's in execution order,
//     as the text a bot sends (monad.Command.AppendText) with the kind
//     the log does not write inferred (Log.Kinds). The reference logs
//     only the commands it executed: rejected ones are not known
//     (Errors is empty), and implicit mines (logged with no direction)
//     are no command a bot sent and are left out.
//   - Events: those monad.BoardEvents sees between the entry and the one
//     before (hives built and destroyed, players eliminated; not a hive
//     built and destroyed within one turn).
//   - Faults: none known (the log records none).
//
// Bounds: Decode's (the whole log is decoded when opened), and a frame
// shows at most MaxFrameCommands commands.

// MaxFrameCommands caps the commands one frame shows as text (at most
// 46 bytes each): an entry with more, which Decode accepts (MaxCommands
// caps the log's), ends the stream with an error at its frame. A real
// game's entries hold tens (77 at most in the six conformance games).
const MaxFrameCommands = 1 << 16

// Name is the format's name (StreamMeta.Format).
const Name = "monad-log"

// Label is the StreamMeta.Label of every reference log's stream.
const Label = "Monad reference log, shown as recorded and not re-simulated (the log holds each turn's board, resources and executed commands, but no seed)"

// Unknown names the metrics of the monad ruleset no log tells, each
// reported as 0.
var Unknown = []string{"units_produced", "units_lost"}

// Sniff reports whether prefix (a file's first bytes) starts a reference
// log in any of its forms (SniffForm). A .rwd, a .cfr and a Skyport
// .jsn (whose first key is "message") are not.
func Sniff(prefix []byte) bool {
	_, _, ok := SniffForm(prefix)
	return ok
}

// Open decodes the whole log from r (Decode, within its caps) and
// returns the Stream of its frames. A damaged or cut log is refused with
// Decode's error, which names the entry and field where it breaks.
func Open(r io.Reader) (engine.Stream, error) {
	l, err := Decode(r)
	if err != nil {
		return nil, err
	}
	return NewStream(l), nil
}

// NewStream is the Stream of a decoded log (see Open).
func NewStream(l *Log) engine.Stream {
	s := &stream{l: l, meta: replay.MetaOf(monad.Ruleset, l.Players), stats: make([]monad.PlayerStats, l.Players)}
	m := &s.meta
	m.Format, m.Label, m.MaxTurns = Name, Label, len(l.Turns)-1
	names, known := l.Names()
	for _, nm := range names {
		p := engine.StreamPlayer{Name: nm}
		if known {
			p.Bot = nm
		}
		m.Players = append(m.Players, p)
	}
	if known {
		s.final, _ = l.RankedPlayers()
	}
	form := "JSON (replay.json)"
	if l.Encoding == Msgpack {
		form = "msgpack"
	}
	if l.Gzip {
		form += ", gzip'd"
	}
	who := "rankedBots' _id (the final board tells which player each is)"
	if !known {
		who = "not known: rankedBots does not tell which player each entry is"
	}
	m.Settings = [][2]string{
		{"form", form},
		{"map", fmt.Sprintf("%d×%d", l.W, l.H)},
		{"max turns", fmt.Sprintf("not recorded: the log holds %d turns", len(l.Turns)-1)},
		{"names", who},
		{"commands", "the executed commands the log wrote, kinds inferred (the log does not write them); rejected commands and implicit mines are not shown"},
		{"unknown", strings.Join(Unknown, ", ") + " (shown as 0), rejected commands, faults"},
	}
	return s
}

type stream struct {
	l     *Log
	meta  engine.StreamMeta
	next  int
	err   error // what ended the stream early, returned from then on
	stats []monad.PlayerStats
	// final is the last entry's ranking from rankedBots, nil when the
	// log does not tell it.
	final []int
	buf   []byte
	// prev is the board of the frame before, for the events between
	// the two (monad.BoardEvents).
	prev engine.Board
}

func (s *stream) Meta() *engine.StreamMeta { return &s.meta }

// SkipCommandText is ignored (engine.Stream): the log holds states, not command text.
func (*stream) SkipCommandText() {}

// Next fills f with log entry s.next.
func (s *stream) Next(f *engine.Frame) error {
	l := s.l
	if s.err != nil {
		return s.err
	}
	if s.next >= len(l.Turns) {
		return io.EOF
	}
	t := s.next
	if t > 0 && len(l.Turns[t-1].Cmds) > MaxFrameCommands {
		s.err = fmt.Errorf("turns[%d].cmd: %d commands, more than the %d a frame shows (docs/limits.md)", t-1, len(l.Turns[t-1].Cmds), MaxFrameCommands)
		return s.err
	}
	s.next++
	tr := &l.Turns[t]
	n := l.Players
	f.Reset(n)
	f.Turn = t
	f.CommandsKnown = t > 0
	if t > 0 {
		prev := &l.Turns[t-1]
		kinds := l.Kinds(t - 1)
		for i, c := range prev.Cmds {
			if c.Dir == monad.DirImplicit {
				continue
			}
			x, y := c.XY(l.W)
			s.buf = monad.Command{X: x, Y: y, Kind: kinds[i], Dir: c.Dir, Count: int64(c.N)}.AppendText(s.buf[:0])
			f.Commands[c.Player] = append(f.Commands[c.Player], string(s.buf))
		}
	}
	for p := 0; p < n; p++ {
		s.stats[p] = tr.Stats(p)
		f.Values[p] = monad.StatsValues(s.stats[p], f.Values[p][:0])
	}
	f.Board.Entities, f.Board.Effects = f.Board.Entities[:0], f.Board.Effects[:0]
	monad.DescribeMap(&f.Board, tr)
	if t > 0 {
		f.Events = monad.BoardEvents(&s.prev, &f.Board, f.Events[:0])
	}
	s.prev.Resize(f.Board.Width, f.Board.Height)
	copy(s.prev.Cells, f.Board.Cells)
	f.Ranking = f.Ranking[:0]
	if t == len(l.Turns)-1 && s.final != nil {
		f.Ranking = append(f.Ranking, s.final...)
	} else {
		for _, r := range monad.RankStats(s.stats) {
			f.Ranking = append(f.Ranking, r.Player)
		}
	}
	return nil
}

func (s *stream) Close() error { return nil }

// MapCell is cell (x, y) of the entry as monad.MapView shows it.
func (t *Turn) MapCell(x, y int) (resource, occupant, units, hive int) {
	c := &t.Cells[y*Size+x]
	return int(c.Resource), int(c.Owner), int(c.Units), int(c.Hive)
}

var _ monad.MapView = (*Turn)(nil)
