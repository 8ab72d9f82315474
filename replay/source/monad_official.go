package source

import (
	"bufio"
	"io"

	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/monadlog"
)

// Formats of the Monad reference engine's own logs (package monadlog):
// replay.json and the gzip'd msgpack .mp.gz, each gzip'd or not.
const (
	MonadJSON    Format = "monad-json"
	MonadMsgpack Format = "monad-msgpack"
)

// IsMonadLog reports whether the first bytes of a file (up to 64 KiB are
// peeked; r needs a buffer that large) are a Monad reference log
// (monadlog.Sniff): a JSON object or msgpack map, gzip'd or not, whose
// first key is one of the log's. A .cfr, a JSON list, is not.
func IsMonadLog(r *bufio.Reader) bool {
	prefix, _ := r.Peek(64 << 10)
	return monadlog.Sniff(prefix)
}

// newMonadLog reads a reference log from r (the whole log is decoded up
// front, within monadlog's caps).
func newMonadLog(r io.Reader, closer io.Closer) (MonadSource, error) {
	l, err := monadlog.Decode(r)
	if err != nil {
		return nil, err
	}
	return NewMonadLog(l, closer), nil
}

// NewMonadLog is the MonadSource of a decoded reference log: frame t is
// log entry t (the last one the final state), its Moves the commands the
// log wrote for turn t-1 with their kinds inferred (monadlog.Log.Kinds),
// every one applied (Code ErrNone) and with Index -1 (the log does not say
// which of the player's commands it was). Players' Resources, Units,
// Hives and Cells are the entry's; their counters are unknown
// (Meta.Counters is false). Names are monadlog.Log.Names (rankedBots'
// when the final board tells which player each entry is, else "player
// N"), and so are Bots when known. closer (may be nil) is closed by
// Close.
func NewMonadLog(l *monadlog.Log, closer io.Closer) MonadSource {
	m := &MonadMeta{
		Format: MonadJSON,
		Config: monad.Config{Players: l.Players, MaxTurns: len(l.Turns) - 1},
		Bots:   make([]string, l.Players),
	}
	if l.Encoding == monadlog.Msgpack {
		m.Format = MonadMsgpack
	}
	names, known := l.Names()
	m.Names = names
	if known {
		copy(m.Bots, names)
	}
	return &monadLog{l: l, meta: m, closer: closer}
}

type monadLog struct {
	l      *monadlog.Log
	meta   *MonadMeta
	closer io.Closer
	next   int
}

func (s *monadLog) Meta() *MonadMeta { return s.meta }

// MonadLogOf returns the decoded log behind a source made by NewMonadLog or
// NewMonad from a reference log, nil for any other source.
func MonadLogOf(s MonadSource) *monadlog.Log {
	if ml, ok := s.(*monadLog); ok {
		return ml.l
	}
	return nil
}

func (s *monadLog) Next(f *MonadFrame) error {
	l := s.l
	if s.next >= len(l.Turns) {
		return io.EOF
	}
	t := s.next
	s.next++
	tr := &l.Turns[t]
	f.Turn = t
	for i, c := range tr.Cells {
		f.Cells[i] = MonadCell{Owner: c.Owner, Hive: c.Hive, Units: c.Units, Resource: c.Resource}
	}
	if cap(f.Players) < l.Players {
		f.Players = make([]MonadPlayer, l.Players)
	}
	f.Players = f.Players[:l.Players]
	for p := range f.Players {
		f.Players[p].PlayerStats = tr.Stats(p)
	}
	f.Moves, f.Fights = f.Moves[:0], f.Fights[:0]
	if t == 0 {
		return nil
	}
	cmds := l.Turns[t-1].Cmds
	kinds := l.Kinds(t - 1)
	for i, c := range cmds {
		x, y := c.XY(l.W)
		f.Moves = append(f.Moves, MonadMove{Player: int(c.Player), Index: -1, X: x, Y: y, Kind: kinds[i], Dir: c.Dir, Count: int64(c.N), Code: monad.ErrNone})
	}
	return nil
}

func (s *monadLog) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
