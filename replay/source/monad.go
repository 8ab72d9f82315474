package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
)

// Monad's frame model: one MonadFrame per turn serves analysis and the
// viewer, whichever file it came from (a Monad .rwd, re-simulated, or an
// official reference log, read). Frame 0 is the state before the first
// turn; frame t the state after t turns.

// Formats of Monad replays.
const (
	// MonadRWD is a rewind recording with ruleset monad.
	MonadRWD Format = "rwd-monad"
)

// MonadCell is one cell of a Monad frame.
type MonadCell struct {
	// Owner is the player with units in the cell (after a turn at most
	// one side holds units), -1 for none.
	Owner int8
	// Hive is the owner of the cell's hive, -1 for none.
	Hive int8
	// Units is how many units Owner has there.
	Units int32
	// Resource is the resource left in the cell.
	Resource int32
}

// MonadPlayer is one player's facts in a frame. Counters are totals since
// turn 0; they are known only when the frame's source says so
// (MonadMeta.Counters).
type MonadPlayer struct {
	monad.PlayerStats
}

// MonadMove is one command of the turn that led to a frame, as the
// engine executed or rejected it.
type MonadMove struct {
	Player int
	// Index is the command's position in the list the player sent; -1
	// for an implicit mine (Dir monad.DirImplicit) and for every move of
	// an official log, which does not say.
	Index int
	X, Y  int
	Kind  monad.Kind
	Dir   monad.Dir
	Count int64
	// Code is monad.ErrNone for a command that was applied.
	Code monad.ErrCode
}

// MonadFrame is one turn of a Monad game. Its slices are reused by the
// next call of MonadSource.Next.
type MonadFrame struct {
	Turn    int
	Cells   [monad.NumCells]MonadCell // indexed y*monad.Width + x
	Players []MonadPlayer
	// Moves are the commands of the turn that led to this frame (none for
	// frame 0): for a .rwd every executed command in execution order
	// (monad.State.Executed) followed by the commands rejected before
	// execution (malformed, or dropped by the sort); for an official log
	// the moves it logged.
	Moves []MonadMove
	// Fights are the cells where sides met in the turn's end-of-turn
	// update (known for a .rwd only).
	Fights []monad.Fight
	// Logs[p] is what player p's bot logged while it was asked for the
	// turn's commands (replay.MonadRound.Logs: a .rwd whose bots kept
	// logs); nil when it logged nothing or the replay keeps no logs. Valid
	// until the next frame.
	Logs [][]byte
}

// Cell returns the cell at (x, y).
func (f *MonadFrame) Cell(x, y int) *MonadCell { return &f.Cells[y*monad.Width+x] }

// MonadMeta is what a Monad replay says about its game before its frames.
type MonadMeta struct {
	Format Format
	// Names are the players' names in player order ("" when unknown).
	Names []string
	// Bots are the players' bot identities in player order ("" when
	// unknown).
	Bots []string
	// Config is the game's configuration as far as the replay knows it
	// (an official log has no seed: Seed is 0 and SeedKnown false).
	Config    monad.Config
	SeedKnown bool
	// Counters is true when MonadPlayer's counters (UnitsProduced,
	// UnitsLost, Rejected) and TimedOut/Crashed are known for every
	// frame; an official log has only the board and the resources.
	Counters bool
	// Header is the .rwd header (nil for an official log).
	Header *replay.Header
}

// MonadSource is a stream of Monad frames: frame 0, then one per turn.
type MonadSource interface {
	Meta() *MonadMeta
	// Next fills f with the next frame, reusing its storage; io.EOF
	// after the last.
	Next(f *MonadFrame) error
	// Close releases the source and its file.
	Close() error
}

// IsMonadRWD reports whether the first bytes of a file (at least the
// whole .rwd prefix and header, up to 64 KiB, are peeked; r needs a buffer that large) are a Monad recording's. It is false for
// anything else, including a header it cannot read.
func IsMonadRWD(r *bufio.Reader) bool {
	prefix, _ := r.Peek(64 << 10)
	if len(prefix) < 4 || string(prefix[:4]) != replay.Magic {
		return false
	}
	h, err := replay.ReadHeader(bytes.NewReader(prefix))
	return err == nil && h.Ruleset == replay.RulesetMonad
}

// OpenMonad opens the Monad replay at path.
func OpenMonad(path string) (MonadSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := NewMonad(f, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// NewMonad reads a Monad replay from r: a .rwd recording, or a log the
// reference engine wrote (replay.json or .mp.gz, see NewMonadLog); closer
// (may be nil) is closed by Close. A ColorfightII replay is refused with
// replay.ErrRuleset.
func NewMonad(r io.Reader, closer io.Closer) (MonadSource, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(4)
	if string(prefix) != replay.Magic {
		if IsMonadLog(br) {
			return newMonadLog(br, closer)
		}
		return nil, errors.New("not a Monad replay: neither a .rwd recording nor a reference log (replay.json, .mp.gz)")
	}
	g, err := replay.OpenMonad(br)
	if err != nil {
		return nil, err
	}
	h := g.Header()
	m := &MonadMeta{Format: MonadRWD, Config: h.MonadConfig(), SeedKnown: true, Counters: true, Header: h}
	for _, p := range h.Players {
		m.Names = append(m.Names, p.Name)
		m.Bots = append(m.Bots, p.Bot)
	}
	return &monadRWD{g: g, meta: m, closer: closer}, nil
}

type monadRWD struct {
	g       *replay.MonadGame
	meta    *MonadMeta
	closer  io.Closer
	started bool
}

func (s *monadRWD) Meta() *MonadMeta { return s.meta }

func (s *monadRWD) Next(f *MonadFrame) error {
	if s.started {
		if err := s.g.Next(); err != nil {
			return err
		}
	}
	s.started = true
	st := s.g.State()
	fillMonadFrame(f, st)
	f.Moves, f.Fights, f.Logs = f.Moves[:0], f.Fights[:0], nil
	if st.Turn() == 0 || s.g.Round() == nil {
		return nil
	}
	f.Logs = s.g.Round().Logs
	for _, e := range st.Executed() {
		f.Moves = append(f.Moves, MonadMove{Player: e.Player, Index: e.Index, X: e.X, Y: e.Y, Kind: e.Kind, Dir: e.Dir, Count: e.Count, Code: e.Code})
	}
	// The commands rejected before execution are not in Executed: add
	// them with what the player sent.
	cmds := s.g.Round().Commands
	for _, e := range st.Errors() {
		if e.Index < 0 || e.Player >= len(cmds) || e.Index >= len(cmds[e.Player]) || executed(f.Moves, e.Player, e.Index) {
			continue
		}
		c := cmds[e.Player][e.Index]
		f.Moves = append(f.Moves, MonadMove{Player: e.Player, Index: e.Index, X: c.X, Y: c.Y, Kind: c.Kind, Dir: c.Dir, Count: c.Count, Code: e.Code})
	}
	f.Fights = append(f.Fights, st.Fights()...)
	return nil
}

func executed(ms []MonadMove, p, index int) bool {
	for i := range ms {
		if ms[i].Player == p && ms[i].Index == index {
			return true
		}
	}
	return false
}

// fillMonadFrame sets f's turn, cells and players from st.
func fillMonadFrame(f *MonadFrame, st *monad.State) {
	f.Turn = st.Turn()
	for y := 0; y < monad.Height; y++ {
		for x := 0; x < monad.Width; x++ {
			c := &f.Cells[y*monad.Width+x]
			p, u := st.Occupant(x, y)
			c.Owner, c.Units = int8(p), int32(u)
			c.Hive = -1
			if o, _, ok := st.Hive(x, y); ok {
				c.Hive = int8(o)
			}
			c.Resource = int32(st.Resource(x, y))
		}
	}
	n := st.Players()
	if cap(f.Players) < n {
		f.Players = make([]MonadPlayer, n)
	}
	f.Players = f.Players[:n]
	for p := range f.Players {
		f.Players[p].PlayerStats = st.Stats(p)
	}
}

func (s *monadRWD) Close() error {
	err := s.g.Close()
	if s.closer != nil {
		if cerr := s.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// IsMonad reports whether the first bytes of a file are a Monad replay
// of any format rewind reads (see NewMonad); r needs a 64 KiB buffer.
// Callers that serve both games ask it first and open a Monad replay with
// NewMonad, anything else with New.
func IsMonad(r *bufio.Reader) bool {
	return IsMonadRWD(r) || IsMonadLog(r)
}

// IsMonadFile reports whether the file at path is a Monad replay (see
// IsMonad); a file it cannot read is not.
func IsMonadFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return IsMonad(bufio.NewReaderSize(f, 64<<10))
}
