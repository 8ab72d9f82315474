package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/bitio"
)

// Monad round records (docs/replay-format.md, "Monad rounds"): per player
// a 2-bit status, the command count, then each command either well formed
// (on-map origin, direction 1..7, count ≤ monad.MaxCount) or malformed
// (its error code alone).
const (
	monadCoordBits = 5 // 0..19
	monadCountK    = 3 // exp-Golomb order of unit counts
	monadCodeBits  = 4 // a rejected command's code, 1..15
)

// MonadRound is one round of a Monad recording (turn Turn -> Turn+1).
type MonadRound struct {
	Turn int
	// Round holds the commands and the players marked timed out or
	// crashed during the round, as monad.State.Play takes them.
	monad.Round
	// Hash is the state hash after the round when the file holds a
	// checkpoint for it (HasHash).
	Hash    uint64
	HasHash bool
	// Logs[uid-1] is what player uid's bot logged while it was asked for
	// this turn's commands, as Round.Logs says; nil when it logged nothing
	// or the file keeps no logs. Not part of the game.
	Logs [][]byte
}

// MonadWriter records a Monad match as it is played. Create it with
// NewMonadWriter, call WriteRound after every turn and Close at the end.
// Like Writer, every WriteRound flushes the compressed stream, so a killed
// recorder leaves a file readable up to its last whole round. Errors are
// sticky.
type MonadWriter struct {
	zw      *zstd.Encoder
	hdr     Header
	players int
	turn    int
	buf     []byte
	err     error
	closed  bool
	logs    roundLogs
}

// NewMonadWriter writes a Monad header (see MonadHeader; CheckpointEvery
// 0 is DefaultCheckpointEvery) to w and returns a writer for the rounds.
func NewMonadWriter(w io.Writer, h Header) (*MonadWriter, error) {
	if h.Ruleset != RulesetMonad {
		return nil, fmt.Errorf("replay: NewMonadWriter writes monad, not %q: %w", h.Ruleset, ErrRuleset)
	}
	if h.CheckpointEvery == 0 {
		h.CheckpointEvery = DefaultCheckpointEvery
	}
	zw, err := writePrefix(w, &h)
	if err != nil {
		return nil, err
	}
	return &MonadWriter{zw: zw, hdr: h, players: len(h.Players), logs: roundLogs{keep: h.Logs, players: len(h.Players)}}, nil
}

// WriteLogs gives the bots' logs of the next turn WriteRound writes, as
// Writer.WriteLogs does for ColorfightII. The header must have Logs set.
func (w *MonadWriter) WriteLogs(logs [][]byte) error {
	if w.err != nil {
		return w.err
	}
	return w.logs.set(logs)
}

// monadMalformed is the code under which a command is recorded as
// malformed, or ErrNone for one recorded whole: the code Step rejects it
// with before the turn (its Err, or an off-map origin, a direction outside
// 1..7, a count above monad.MaxCount). A kind other than MOVE, BUILD and
// MINE is recorded as KindUnknown, which Step treats alike.
func monadMalformed(c *monad.Command) monad.ErrCode {
	switch {
	case c.Err != monad.ErrNone:
		return c.Err
	case !monad.OnMap(c.X, c.Y):
		return monad.ErrOffMap
	case c.Dir < monad.East || c.Dir > monad.None:
		return monad.ErrBadDirection
	case c.Count > monad.MaxCount:
		return monad.ErrBadCount
	}
	return monad.ErrNone
}

// WriteRound records round r, which took s from turn s.Turn()-1 to
// s.Turn() (r.Commands[p] is player p's list, as Step took it), then a
// checkpoint with s.Hash() when s.Turn() is a multiple of the interval.
func (w *MonadWriter) WriteRound(r *monad.Round, s *monad.State) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("replay: write after Close")
	}
	if s.Turn() != w.turn+1 {
		w.err = fmt.Errorf("replay: WriteRound for turn %d, want turn %d", s.Turn(), w.turn+1)
		return w.err
	}
	bw := bitio.Writer{Buf: w.logs.appendRecord(w.buf[:0])}
	bw.Write(0, 1)
	for p := 0; p < w.players; p++ {
		var list []monad.Command
		if p < len(r.Commands) {
			list = r.Commands[p]
		}
		if len(list) > MaxCommandsPerRound {
			w.err = fmt.Errorf("replay: round %d: player %d sent %d commands, limit %d: %w", w.turn, p+1, len(list), MaxCommandsPerRound, ErrLimit)
			return w.err
		}
		var status uint64
		if r.TimedOut[p] {
			status |= 1
		}
		if r.Crashed[p] {
			status |= 2
		}
		bw.Write(status, 2)
		bw.Gamma(uint64(len(list)) + 1)
		for k := range list {
			c := &list[k]
			if code := monadMalformed(c); code != monad.ErrNone {
				bw.Write(1, 1)
				bw.Write(uint64(code), monadCodeBits)
				continue
			}
			kind := c.Kind
			if kind > monad.KindMine {
				kind = monad.KindUnknown
			}
			count := c.Count
			if count < 0 {
				count = 0 // Step plays a count below 1 as 0
			}
			bw.Write(0, 1)
			bw.Write(uint64(c.X), monadCoordBits)
			bw.Write(uint64(c.Y), monadCoordBits)
			bw.Write(uint64(kind), 2)
			bw.Write(uint64(c.Dir), 3)
			bw.ExpGolomb(uint64(count), monadCountK)
		}
	}
	bw.Align()
	w.turn++
	w.buf, w.err = finishRound(w.zw, bw.Buf, w.turn, w.hdr.CheckpointEvery, s)
	return w.err
}

// Close writes the footer — final turn, state hash, the ranking (uids =
// players + 1) with each player's resources — and ends the compressed
// stream. It does not close the underlying writer.
func (w *MonadWriter) Close(s *monad.State) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	if s.Turn() != w.turn {
		w.err = fmt.Errorf("replay: Close at turn %d, but %d rounds were written", s.Turn(), w.turn)
		return w.err
	}
	b := append(w.buf[:0], tagFooter)
	b = binary.AppendUvarint(b, uint64(s.Turn()))
	b = binary.LittleEndian.AppendUint64(b, s.Hash())
	rank := s.Ranking()
	b = binary.AppendUvarint(b, uint64(len(rank)))
	for _, r := range rank {
		b = binary.AppendUvarint(b, uint64(r.Player+1))
		b = binary.AppendVarint(b, s.Stats(r.Player).Resources)
	}
	if _, err := w.zw.Write(b); err != nil {
		w.err = fmt.Errorf("replay: footer: %w", err)
		return w.err
	}
	if err := w.zw.Close(); err != nil {
		w.err = fmt.Errorf("replay: footer: %w", err)
		return w.err
	}
	return nil
}

// NextMonad returns the next round of a Monad recording, as Next does for
// ColorfightII (same errors; the Round and its slices are reused by the
// following call). On a ColorfightII recording it fails with ErrRuleset.
func (r *Reader) NextMonad() (*MonadRound, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.monad {
		return nil, &FormatError{Round: r.turn, Err: fmt.Errorf("a %s recording's rounds are read with Next: %w", r.hdr.Ruleset, ErrRuleset)}
	}
	rd := &r.mround
	np := len(r.hdr.Players)
	first, err := r.roundLogs(&rd.Logs)
	if err != nil {
		return nil, err
	}
	if first[0]&0x80 != 0 {
		tag, _ := r.br.ReadByte()
		if tag == tagFooter {
			return nil, r.readFooter()
		}
		return nil, r.fail(fmt.Errorf("tag 0x%02x: %w", tag, ErrUnknownRecord))
	}
	if r.turn >= r.hdr.Config.MaxTurn {
		return nil, r.fail(fmt.Errorf("more rounds than max_turn %d: %w", r.hdr.Config.MaxTurn, ErrCorrupt))
	}
	if cap(rd.Commands) < np {
		rd.Commands = make([][]monad.Command, np)
	}
	rd.Commands = rd.Commands[:np]
	rd.Turn, rd.HasHash, rd.Hash = r.turn, false, 0
	rd.TimedOut, rd.Crashed = [monad.MaxPlayers]bool{}, [monad.MaxPlayers]bool{}
	br := &bitio.Reader{R: r.br}
	if _, err := br.Read(1); err != nil {
		return nil, r.fail(err)
	}
	for p := 0; p < np; p++ {
		status, err := br.Read(2)
		if err != nil {
			return nil, r.fail(err)
		}
		rd.TimedOut[p], rd.Crashed[p] = status&1 != 0, status&2 != 0
		n, err := br.Gamma()
		if err != nil {
			return nil, r.fail(err)
		}
		n--
		if n > MaxCommandsPerRound {
			return nil, r.fail(fmt.Errorf("player %d has %d commands, limit %d: %w", p+1, n, MaxCommandsPerRound, ErrLimit))
		}
		list := rd.Commands[p][:0]
		for k := uint64(0); k < n; k++ {
			c, err := readMonadCommand(br)
			if err != nil {
				return nil, r.fail(fmt.Errorf("player %d command %d: %w", p+1, k, err))
			}
			list = append(list, c)
		}
		rd.Commands[p] = list
	}
	br.Align()
	r.turn++
	if r.turn%r.hdr.CheckpointEvery == 0 {
		h, err := r.readCheckpoint()
		if err != nil {
			return nil, err
		}
		rd.Hash, rd.HasHash = h, true
	}
	return rd, nil
}

// readCheckpoint reads the checkpoint record that must follow the round
// that reached r.turn.
func (r *Reader) readCheckpoint() (uint64, error) {
	tag, err := r.br.ReadByte()
	if err != nil {
		r.turn--
		return 0, r.fail(err)
	}
	if tag != tagCheckpoint {
		return 0, r.fail(fmt.Errorf("tag 0x%02x where the checkpoint of turn %d belongs: %w", tag, r.turn, ErrCorrupt))
	}
	t, err := binary.ReadUvarint(r.br)
	if err != nil {
		return 0, r.fail(err)
	}
	if t != uint64(r.turn) {
		return 0, r.fail(fmt.Errorf("checkpoint for turn %d at turn %d: %w", t, r.turn, ErrCorrupt))
	}
	var hb [8]byte
	if err := r.br.full(hb[:]); err != nil {
		return 0, r.fail(err)
	}
	return binary.LittleEndian.Uint64(hb[:]), nil
}

func readMonadCommand(br *bitio.Reader) (monad.Command, error) {
	bad, err := br.Read(1)
	if err != nil {
		return monad.Command{}, err
	}
	if bad == 1 {
		code, err := br.Read(monadCodeBits)
		if err != nil {
			return monad.Command{}, err
		}
		if code == 0 {
			return monad.Command{}, fmt.Errorf("rejected command with code 0: %w", ErrCorrupt)
		}
		return monad.Command{Err: monad.ErrCode(code)}, nil
	}
	var v [4]uint64
	for i, n := range [4]uint{monadCoordBits, monadCoordBits, 2, 3} {
		if v[i], err = br.Read(n); err != nil {
			return monad.Command{}, err
		}
	}
	count, err := br.ExpGolomb(monadCountK)
	if err != nil {
		return monad.Command{}, err
	}
	c := monad.Command{X: int(v[0]), Y: int(v[1]), Kind: monad.Kind(v[2]), Dir: monad.Dir(v[3]), Count: int64(count)}
	if monadMalformed(&c) != monad.ErrNone || count > monad.MaxCount {
		return monad.Command{}, fmt.Errorf("command (%d,%d) d=%d n=%d out of range: %w", c.X, c.Y, c.Dir, count, ErrCorrupt)
	}
	return c, nil
}

// MonadGame re-simulates a Monad recording, as Game does a ColorfightII
// one: it streams the rounds, plays them on engine/monad and checks every
// checkpoint and the footer. Its memory does not grow with the rounds.
type MonadGame struct {
	r       *Reader
	initial *monad.State
	s       *monad.State
	round   *MonadRound
	done    bool
}

// OpenMonad reads the header of a Monad .rwd from r and returns the game
// at turn 0; a recording of another ruleset is refused with ErrRuleset.
func OpenMonad(r io.Reader) (*MonadGame, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	h := rd.Header()
	if h.Ruleset != RulesetMonad {
		rd.Close()
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("a %s recording, not monad: %w", h.Ruleset, ErrRuleset)}
	}
	s, err := monad.New(h.MonadConfig())
	if err != nil {
		rd.Close()
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("%v: %w", err, ErrCorrupt)}
	}
	return &MonadGame{r: rd, initial: s.Clone(), s: s}, nil
}

// Header returns the recording's header.
func (g *MonadGame) Header() *Header { return g.r.Header() }

// Footer returns the footer once the last round has been played (Gold
// holds each player's final resources); nil before and without one.
func (g *MonadGame) Footer() *Footer { return g.r.Footer() }

// State returns the current state; it changes with Next and Seek.
func (g *MonadGame) State() *monad.State { return g.s }

// Round returns the round last played, or nil (before the first, after
// the end or a backward Seek). It is the Reader's storage.
func (g *MonadGame) Round() *MonadRound { return g.round }

// Close releases the reader.
func (g *MonadGame) Close() error { return g.r.Close() }

// Next plays the next round; io.EOF after the last, once the footer's
// turn and hash have been checked. A hash that differs is a *FormatError
// wrapping ErrDiverged.
func (g *MonadGame) Next() error {
	if g.done {
		return io.EOF
	}
	rd, err := g.r.NextMonad()
	if errors.Is(err, io.EOF) {
		g.done, g.round = true, nil
		f := g.r.Footer()
		if f.Turn != g.s.Turn() || f.Hash != g.s.Hash() {
			return &FormatError{Round: g.s.Turn(), Err: fmt.Errorf("footer hash %016x, re-simulated %016x: %w", f.Hash, g.s.Hash(), ErrDiverged)}
		}
		return io.EOF
	}
	if err != nil {
		g.round = nil
		return err
	}
	g.round = rd
	g.s.Play(&rd.Round)
	if rd.HasHash {
		if h := g.s.Hash(); h != rd.Hash {
			return &FormatError{Round: rd.Turn, Err: fmt.Errorf("checkpoint after turn %d: recorded hash %016x, re-simulated %016x: %w", g.s.Turn(), rd.Hash, h, ErrDiverged)}
		}
	}
	return nil
}

// Seek moves the game to turn, as Game.Seek.
func (g *MonadGame) Seek(turn int) error {
	if turn < 0 {
		return fmt.Errorf("replay: seek to negative turn %d", turn)
	}
	if turn < g.s.Turn() {
		if err := g.r.Seek(0); err != nil {
			return err
		}
		g.s.CopyFrom(g.initial)
		g.round, g.done = nil, false
	}
	for g.s.Turn() < turn {
		if err := g.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("replay: seek to turn %d past the end (%d rounds)", turn, g.s.Turn())
			}
			return err
		}
	}
	return nil
}

// VerifyMonad re-simulates a whole Monad recording and checks every
// checkpoint and the footer, as Verify does for ColorfightII; visit, if
// not nil, is called after each round.
func VerifyMonad(r io.Reader, visit func(g *MonadGame) error) (*VerifyResult, error) {
	g, err := OpenMonad(r)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	var v func() error
	if visit != nil {
		v = func() error { return visit(g) }
	}
	return verifyRounds(g.Next, g.s.Turn, v), nil
}

// MonadSummary is what a Monad recording says without being played.
type MonadSummary struct {
	Header *Header
	// Rounds is the number of whole rounds the file holds, Checkpoints
	// how many carry a hash, Faults how many times a player was marked
	// timed out or crashed.
	Rounds, Checkpoints, Faults int
	// Footer is the footer (nil without one).
	Footer *Footer
	// Err is nil for a complete file, else the *FormatError that ended
	// reading: ErrTruncated for a recording cut after its last whole
	// round, ErrCorrupt or ErrLimit for damage.
	Err error
}

// SummarizeMonad reads a Monad recording's header and rounds without
// re-simulating them (see VerifyMonad for that). It fails only when the
// header cannot be read or the file is not a Monad recording.
func SummarizeMonad(r io.Reader) (*MonadSummary, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	h := rd.Header()
	if h.Ruleset != RulesetMonad {
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("a %s recording, not monad: %w", h.Ruleset, ErrRuleset)}
	}
	sum := &MonadSummary{Header: h}
	for {
		round, err := rd.NextMonad()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				sum.Err = err
			}
			break
		}
		sum.Rounds++
		if round.HasHash {
			sum.Checkpoints++
		}
		for p := range h.Players {
			if round.TimedOut[p] || round.Crashed[p] {
				sum.Faults++
			}
		}
	}
	sum.Footer = rd.Footer()
	return sum, nil
}
