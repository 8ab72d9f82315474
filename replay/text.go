package replay

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/resize"
)

// Limits of the generic text codec (docs/replay-format.md, "Text
// rounds"). A command the engine was given is recorded whole, since a cut
// text would re-simulate differently: the runner keeps bots within these
// (a longer answer is a fault) and the writer refuses what exceeds them.
const (
	// MaxCommandTextBytes bounds one command's text.
	MaxCommandTextBytes = 64 << 10
	// MaxTextBytesPerRound bounds one player's commands of one round, all
	// texts together (a bot's whole answer is at most 1 MiB).
	MaxTextBytesPerRound = 1 << 20
	// MaxFaultTextBytes bounds a fault's description; the writer cuts a
	// longer one (it is shown, never re-simulated).
	MaxFaultTextBytes = 200
)

// TextRound is one round of a generic recording (Header.Codec CodecText):
// the round that took the game from turn Turn to Turn+1.
type TextRound struct {
	Turn int
	// Active is the player who acted (a Sequential game), -1 when every
	// player acted at once.
	Active int
	// Commands[p] are player p's commands as sent, in order; in a
	// Sequential game only the active player's list is recorded.
	Commands [][]string
	// Faults[p] is the fault reported for player p before the round (0
	// for none) and FaultText[p] its description, as engine.Game.Fault
	// took them.
	Faults    []engine.Fault
	FaultText []string
	// Hash is the state hash after the round when the file holds a
	// checkpoint for it (HasHash).
	Hash    uint64
	HasHash bool
	// Logs[p] is what player p's bot logged for this round; not part of
	// the game.
	Logs [][]byte
	// ReplyTimes[p] is how long player p's bot took to answer for this
	// round, from the moment it was asked to its answer, negative when
	// the seat was not timed (a built-in, a seat not asked); nil when no
	// seat was. Not part of the game: it enters no hash, and
	// re-simulation ignores it. A writer records it only under a header
	// that keeps reply times (Header.ReplyTimes), to the nearest
	// ReplyTimeUnit (0.1 ms).
	ReplyTimes []time.Duration
	// Marks are what the bots drew for this round (engine.BotMark), in
	// player order; nil when none. Not part of the game, like the logs;
	// a writer records them only under a header that keeps marks
	// (Header.Marks).
	Marks []engine.BotMark
}

// Reset sizes r for n players with every list empty, reusing its
// storage.
func (r *TextRound) Reset(n int) {
	r.Commands = resize.Lists(r.Commands, n)
	r.Faults, r.FaultText = resize.N(r.Faults, n), resize.N(r.FaultText, n)
	r.Active, r.Hash, r.HasHash = -1, 0, false
}

// TextHeader returns the header of a generic recording of a game of
// ruleset r drawn from seed (and setup, when the game came from one:
// engine.Game.Setup), with maxTurns and these players (names and bots in
// player order). Its codec is the ruleset's own compact record when it
// has one (engine.Codec; setup is then required), else the text codec.
func TextHeader(r engine.Ruleset, seed uint64, setup []byte, maxTurns int, names, bots []string) Header {
	h := Header{
		Ruleset: r.ID(), RulesetVersion: r.Version(), Codec: CodecText,
		GameSeed: seed, Setup: setup,
	}
	if compactHeader(r) {
		h.Codec = ""
	}
	h.Config.MaxTurn, h.Config.MaxPlayer = maxTurns, len(names)
	for i, n := range names {
		p := Player{UID: i + 1, Name: n}
		if i < len(bots) {
			p.Bot = bots[i]
		}
		h.Players = append(h.Players, p)
	}
	return h
}

// Compact reports whether the file's rounds are in its ruleset's own
// compact codec (codec ""), which its engine.Codec decodes and plays:
// ColorfightII's too.
func (h *Header) Compact() bool { return h.Codec == "" }

// Legacy reports whether the header is a legacy header: a file of its
// ruleset's own codec whose ruleset keeps its setup in engine.Legacy
// fields (for example ColorfightII's), which names its game by Config's
// map, Seed, Map and the players' homes. Any other header names its game
// by Ruleset, GameSeed and Setup. Every file, legacy or not, is read by
// OpenSim and NextText.
func (h *Header) Legacy() bool {
	_, lh := h.legacyRuleset()
	return lh != nil
}

// compactHeader reports whether a generic header of r keeps r's own
// compact records: r has them (engine.Codec) and its files of that codec
// do not keep their setup in a legacy header (engine.LegacyHeader, whose
// fields GameHeader fills).
func compactHeader(r engine.Ruleset) bool {
	c := engine.CodecOf(r)
	return c != nil && c.LegacyHeader() == nil
}

// compactCodec returns the registered ruleset id and its engine.Codec.
func compactCodec(id string) (engine.Ruleset, engine.Codec, error) {
	r, err := engine.Get(id)
	if err != nil {
		return nil, nil, err
	}
	c := engine.CodecOf(r)
	if c == nil {
		return nil, nil, fmt.Errorf("ruleset %s has no compact codec of its own (engine.Codec)", id)
	}
	return r, c, nil
}

// headerKey reports whether id is one of the header JSON's own keys (a
// json tag of headerJSON): a ruleset whose ID is one cannot keep its
// setup under its ID.
func headerKey(id string) bool {
	t := reflect.TypeFor[headerJSON]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == id {
			return true
		}
	}
	return false
}

// appendSetupKey adds the setup of a compact header to its JSON object
// hj under the ruleset's ID.
func appendSetupKey(hj []byte, h *Header) []byte {
	if !h.Compact() || h.Legacy() || len(h.Setup) == 0 {
		return hj
	}
	id, _ := json.Marshal(h.Ruleset)
	out := append(hj[:len(hj)-1:len(hj)-1], ',')
	out = append(out, id...)
	out = append(out, ':')
	out = append(out, h.Setup...)
	return append(out, '}')
}

// validateOwnSetup checks a generic header: a registered ruleset at its
// version, players, turns and checkpoints within the limits, nothing of
// a legacy header.
func (h *Header) validateOwnSetup() error {
	if h.Codec != CodecText && !h.Compact() {
		return fmt.Errorf("unknown codec %q", h.Codec)
	}
	r, err := engine.Get(h.Ruleset)
	if err != nil {
		return err
	}
	if h.RulesetVersion != r.Version() {
		return fmt.Errorf("ruleset %s version %d not supported (this build plays version %d)", h.Ruleset, h.RulesetVersion, r.Version())
	}
	if h.Compact() {
		if _, _, err := compactCodec(h.Ruleset); err != nil {
			return err
		}
		if headerKey(h.Ruleset) {
			return fmt.Errorf("ruleset id %q is a header key", h.Ruleset)
		}
		if len(h.Setup) == 0 || !json.Valid(h.Setup) || h.Setup[0] != '{' {
			return fmt.Errorf("a %s header without its setup object", h.Ruleset)
		}
	}
	c := h.Config
	if c.MaxTurn < 1 || c.MaxTurn > MaxTurns {
		return fmt.Errorf("max_turn %d outside 1..%d: %w", c.MaxTurn, MaxTurns, ErrLimit)
	}
	n := len(h.Players)
	if n < 1 || n > MaxPlayers || c.MaxPlayer != n {
		return fmt.Errorf("%d players with max_player %d (1..%d, max_player the count): %w", n, c.MaxPlayer, MaxPlayers, ErrLimit)
	}
	if err := h.validatePlayers(); err != nil {
		return err
	}
	if len(h.Setup) > MaxMapBlobBytes {
		return fmt.Errorf("setup of %d bytes: %w", len(h.Setup), ErrLimit)
	}
	if h.Seed != nil || h.Map != nil || h.CFRInfo != nil || h.Import != nil {
		return errors.New("a text-codec header has no legacy map, official info or import")
	}
	return nil
}

// TextWriter records any game as the commands' text (Header.Codec
// CodecText). Create it with NewTextWriter, call WriteRound after every
// round and Close at the end. Like Writer, every round is flushed, so a
// killed recorder leaves a file readable up to its last whole round.
// Errors are sticky.
type TextWriter struct {
	zw      *zstd.Encoder
	hdr     Header
	players int
	turn    int
	buf     []byte
	err     error
	closed  bool
	logs    roundLogs
	// codec records the rounds of a header of its ruleset's own codec
	// (Header.Compact), nil for the text codec's.
	codec engine.Codec
}

// NewTextWriter writes h (see TextHeader; CheckpointEvery 0 is
// DefaultCheckpointEvery; codec "" is the ruleset's own when it has one,
// engine.Codec, else the text codec) to w and returns a writer for the
// rounds. It does not close w.
func NewTextWriter(w io.Writer, h Header) (*TextWriter, error) {
	if h.Codec == "" {
		if r, err := engine.Get(h.Ruleset); err != nil || !compactHeader(r) {
			h.Codec = CodecText
		}
	}
	return newTextWriter(w, h)
}

// newTextWriter writes h as it is (CheckpointEvery 0 is
// DefaultCheckpointEvery) and returns the writer of its rounds.
func newTextWriter(w io.Writer, h Header) (*TextWriter, error) {
	if h.CheckpointEvery == 0 {
		h.CheckpointEvery = DefaultCheckpointEvery
	}
	zw, err := writePrefix(w, &h)
	if err != nil {
		return nil, err
	}
	tw := &TextWriter{zw: zw, hdr: h, players: len(h.Players), logs: roundLogs{keep: h.Logs, players: len(h.Players)}}
	if h.Compact() {
		if r, ok := engine.Lookup(h.Ruleset); ok {
			tw.codec = engine.CodecOf(r)
		}
	}
	return tw, nil
}

// WriteLogs gives the bots' logs of the round WriteRound writes next
// (logs[p] for player p); the header must have Logs set.
func (w *TextWriter) WriteLogs(logs [][]byte) error {
	if w.err != nil {
		return w.err
	}
	return w.logs.set(logs)
}

// WriteRound records round r, which took g from turn g.Turn()-1 to
// g.Turn(), then a checkpoint with g.Hash() when g.Turn() is a multiple
// of the interval. In a Sequential round (r.Active ≥ 0) only the active
// player's commands are written. In a ruleset's own codec the record is
// the game's (engine.Codec) and r may be nil.
func (w *TextWriter) WriteRound(r *TextRound, g engine.Game) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("replay: write after Close")
	}
	if g.Turn() != w.turn+1 {
		w.err = fmt.Errorf("replay: WriteRound for turn %d, want turn %d", g.Turn(), w.turn+1)
		return w.err
	}
	if r == nil {
		r = &TextRound{Active: -1}
	}
	if r.Active >= w.players {
		w.err = fmt.Errorf("replay: round %d: active player %d of %d", w.turn, r.Active, w.players)
		return w.err
	}
	b := w.logs.appendRecord(w.buf[:0])
	if k := len(b); r.ReplyTimes != nil {
		if b = appendReplyTimes(b, r.ReplyTimes, w.players); len(b) > k && !w.hdr.ReplyTimes {
			w.err = errors.New("replay: reply times on a recording whose header does not keep them")
			return w.err
		}
	}
	if len(r.Marks) > 0 {
		if !w.hdr.Marks {
			w.err = errors.New("replay: marks on a recording whose header does not keep them")
			return w.err
		}
		var err error
		if b, err = appendMarks(b, r.Marks, w.players); err != nil {
			w.err = fmt.Errorf("replay: round %d: %w", w.turn, err)
			return w.err
		}
	}
	if w.hdr.Compact() {
		if w.codec == nil {
			w.err = fmt.Errorf("replay: a %s game that does not record compactly (engine.Codec)", w.hdr.Ruleset)
			return w.err
		}
		for p, list := range r.Commands {
			if err := w.checkCount(p, list); err != nil {
				return err
			}
		}
		b = w.codec.AppendRecord(g, b)
		return w.finish(b, g)
	}
	b = append(b, tagText)
	b = binary.AppendUvarint(b, uint64(r.Active+1))
	for p := 0; p < w.players; p++ {
		var f engine.Fault
		var text string
		if p < len(r.Faults) {
			f = r.Faults[p]
		}
		if p < len(r.FaultText) {
			text = r.FaultText[p]
		}
		if len(text) > MaxFaultTextBytes {
			text = text[:MaxFaultTextBytes]
		}
		b = binary.AppendUvarint(b, uint64(f))
		if f != 0 {
			b = binary.AppendUvarint(b, uint64(len(text)))
			b = append(b, text...)
		}
		if r.Active >= 0 && p != r.Active {
			continue
		}
		var list []string
		if p < len(r.Commands) {
			list = r.Commands[p]
		}
		if err := w.checkCount(p, list); err != nil {
			return err
		}
		total := 0
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, c := range list {
			total += len(c)
			if len(c) > MaxCommandTextBytes || total > MaxTextBytesPerRound {
				w.err = fmt.Errorf("replay: round %d: player %d's commands exceed %d bytes each or %d together: %w", w.turn, p+1, MaxCommandTextBytes, MaxTextBytesPerRound, ErrLimit)
				return w.err
			}
			b = binary.AppendUvarint(b, uint64(len(c)))
			b = append(b, c...)
		}
	}
	return w.finish(b, g)
}

// checkCount refuses (for good) a player's list of more commands than a
// round may hold.
func (w *TextWriter) checkCount(p int, list []string) error {
	if len(list) > MaxCommandsPerRound {
		w.err = fmt.Errorf("replay: round %d: player %d sent %d commands, limit %d: %w", w.turn, p+1, len(list), MaxCommandsPerRound, ErrLimit)
	}
	return w.err
}

// finish writes a round's record b, then its checkpoint when one is due.
func (w *TextWriter) finish(b []byte, g engine.Game) error {
	w.turn++
	var err error
	w.buf, err = finishRound(w.zw, b, w.turn, w.hdr.CheckpointEvery, g)
	if err != nil {
		w.err = err
	}
	return w.err
}

// Close writes the footer (final turn, hash, ranking with each player's
// score: Values of the ruleset's score metric, or in a ruleset's own
// codec the metric it keeps there: engine.FooterIndex) and ends
// the compressed stream. It does not close the underlying writer.
func (w *TextWriter) Close(g engine.Game) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	score := 0
	if rs, err := engine.Get(w.hdr.Ruleset); err == nil {
		score = engine.FooterIndex(rs, w.hdr.Compact())
	}
	b := append(w.buf[:0], tagFooter)
	b = binary.AppendUvarint(b, uint64(w.turn))
	b = binary.LittleEndian.AppendUint64(b, g.Hash())
	rank := g.Ranking()
	b = binary.AppendUvarint(b, uint64(len(rank)))
	var vals []int64
	for _, p := range rank {
		vals = g.Values(p, vals[:0])
		var v int64
		if score < len(vals) {
			v = vals[score]
		}
		b = binary.AppendUvarint(b, uint64(p+1))
		b = binary.AppendVarint(b, v)
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

// tagText opens a text round record. Its top bit is clear, like every
// round record's first byte, so a reader tells rounds from the other
// records (checkpoint, footer, log) by that bit.
const tagText = 0x54 // 'T'

// NextText returns the next round of a generic recording, as Next does
// for ColorfightII: the round and its slices are reused by the next call,
// io.EOF at the footer (Footer is then set), a *FormatError on damage. A
// recording in its ruleset's compact codec (engine.Codec; ColorfightII's
// own too) is decoded by the ruleset, with a decoder made from the game
// the header starts: the round holds its commands as text. A Reader's
// rounds are read with Next or NextText, not both.
func (r *Reader) NextText() (*TextRound, error) {
	if r.err != nil {
		return nil, r.err
	}
	switch {
	case r.text:
		return r.nextRound(r.readTextRecord)
	case r.codec != nil:
		if r.dec == nil {
			g, err := r.hdr.NewGame(r.rs)
			if err != nil {
				return nil, r.fail(fmt.Errorf("%v: %w", err, ErrCorrupt))
			}
			if r.dec, err = r.codec.NewDecoder(g); err != nil {
				return nil, r.fail(fmt.Errorf("%v: %w", err, ErrCorrupt))
			}
		}
		return r.nextRound(func(rd *TextRound) error {
			return r.dec(r.br, rd.Commands, rd.Faults, rd.FaultText)
		})
	}
	return nil, &FormatError{Round: r.turn, Err: fmt.Errorf("a %s recording's rounds are not of the text codec: %w", r.hdr.Ruleset, ErrRuleset)}
}

// playNext reads the next record of a compact-codec recording and plays
// it on g, as NextText reads it; with text, the round's commands and
// faults are g's text of them (engine.Codec.PlayRecord), else empty.
func (r *Reader) playNext(g engine.Game, text bool) (*TextRound, []engine.CommandError, error) {
	if r.err != nil {
		return nil, nil, r.err
	}
	if r.codec == nil {
		return nil, nil, &FormatError{Round: r.turn, Err: fmt.Errorf("a %s recording's rounds are not in a compact codec: %w", r.hdr.Ruleset, ErrRuleset)}
	}
	var errs []engine.CommandError
	rd, err := r.nextRound(func(rd *TextRound) error {
		var err error
		if text {
			errs, err = r.codec.PlayRecord(g, r.br, rd.Commands, rd.Faults, rd.FaultText)
		} else {
			errs, err = r.codec.PlayRecord(g, r.br, nil, rd.Faults, rd.FaultText)
		}
		return err
	})
	return rd, errs, err
}

// nextRound reads one round of a generic recording: the side records
// that precede it (logs, reply times, marks), or the footer (io.EOF), then its
// record with body, then the checkpoint that follows it.
func (r *Reader) nextRound(body func(rd *TextRound) error) (*TextRound, error) {
	rd := &r.tround
	np := len(r.hdr.Players)
	first, err := r.sideRecords(rd)
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
	rd.Reset(np)
	rd.Turn, rd.Active = r.turn, -1
	if err := body(rd); err != nil {
		return nil, r.fail(err)
	}
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

// readTextRecord reads a text codec round record.
func (r *Reader) readTextRecord(rd *TextRound) error {
	np := len(r.hdr.Players)
	if tag, _ := r.br.ReadByte(); tag != tagText {
		return fmt.Errorf("tag 0x%02x where a text round belongs: %w", tag, ErrUnknownRecord)
	}
	active, err := r.uvarint(uint64(np))
	if err != nil {
		return fmt.Errorf("active player: %w", err)
	}
	rd.Active = int(active) - 1
	for p := 0; p < np; p++ {
		f, err := r.uvarint(uint64(engine.FaultGarbage))
		if err != nil {
			return fmt.Errorf("player %d fault: %w", p+1, err)
		}
		rd.Faults[p] = engine.Fault(f)
		if f != 0 {
			text, err := r.readText(MaxFaultTextBytes)
			if err != nil {
				return fmt.Errorf("player %d fault text: %w", p+1, err)
			}
			rd.FaultText[p] = text
		}
		if rd.Active >= 0 && p != rd.Active {
			continue
		}
		n, err := r.uvarint(MaxCommandsPerRound)
		if err != nil {
			return fmt.Errorf("player %d command count: %w", p+1, err)
		}
		list := rd.Commands[p]
		total := 0
		for k := uint64(0); k < n; k++ {
			c, err := r.readText(min(MaxCommandTextBytes, MaxTextBytesPerRound-total))
			if err != nil {
				return fmt.Errorf("player %d command %d: %w", p+1, k, err)
			}
			total += len(c)
			list = append(list, c)
		}
		rd.Commands[p] = list
	}
	return nil
}

// text reads a length-prefixed string of at most max bytes.
func (r *Reader) readText(max int) (string, error) {
	n, err := r.uvarint(uint64(max))
	if err != nil {
		return "", err
	}
	if cap(r.rawBuf) < int(n) {
		r.rawBuf = make([]byte, n)
	}
	b := r.rawBuf[:n]
	if err := r.br.full(b); err != nil {
		return "", err
	}
	return string(b), nil
}

// TextSummary is what a generic recording says without re-simulating it.
type TextSummary struct {
	Header *Header
	// Rounds is the number of whole rounds the file holds, Checkpoints
	// how many carry a hash, Faults how many faults were recorded,
	// Commands how many commands.
	Rounds, Checkpoints, Faults, Commands int
	// Marks counts the bots' marks (mark records).
	Marks MarkCount
	// Footer is the footer (nil without one).
	Footer *Footer
	// Err is nil for a complete file, else the *FormatError that ended
	// reading (ErrTruncated for a recording cut after its last whole
	// round).
	Err error
}

// MarkCount counts the marks of a recording's rounds per seat: Marks[p]
// how many player p's bot drew, Turns[p] in how many rounds, First[p]
// the turn it was asked at when it first drew (-1 never); all nil while
// no round has marks.
type MarkCount struct {
	Marks, Turns, First []int
}

// Add counts round's marks, in a game of players players.
func (c *MarkCount) Add(round *TextRound, players int) {
	if len(round.Marks) == 0 {
		return
	}
	if c.Marks == nil {
		c.Marks, c.Turns, c.First = make([]int, players), make([]int, players), make([]int, players)
		for p := range c.First {
			c.First[p] = -1
		}
	}
	last := -1
	for _, m := range round.Marks {
		if m.Player < 0 || m.Player >= players {
			continue
		}
		c.Marks[m.Player]++
		if m.Player != last {
			last = m.Player
			c.Turns[m.Player]++
			if c.First[m.Player] < 0 {
				c.First[m.Player] = round.Turn
			}
		}
	}
}

// SummarizeText reads a generic recording's header and rounds without
// re-simulating them (VerifySim does that), for a file of any ruleset and
// codec. It fails only when the header cannot be read.
func SummarizeText(r io.Reader) (*TextSummary, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	h := rd.Header()
	if h.Codec != CodecText && !h.Compact() {
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("a %s recording of codec %q: %w", h.Ruleset, h.Codec, ErrRuleset)}
	}
	sum := &TextSummary{Header: h}
	for {
		round, err := rd.NextText()
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
		for p, f := range round.Faults {
			if f != 0 {
				sum.Faults++
			}
			sum.Commands += len(round.Commands[p])
		}
		sum.Marks.Add(round, len(h.Players))
	}
	sum.Footer = rd.Footer()
	return sum, nil
}
