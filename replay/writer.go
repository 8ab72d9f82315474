package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// Body records. A round record starts with a 0 bit and is bit-packed (see
// docs/replay-format.md); checkpoint and footer records start with a tag
// byte whose top bit is set.
const (
	tagCheckpoint = 0x80 | 'C'
	tagFooter     = 0x80 | 'F'
	// tagLog opens a log record (format version 2): the bots' logs of the
	// round record that follows it.
	tagLog = 0x80 | 'L'
)

// Writer records a match as it is played. Create it with NewWriter, call
// WriteRound after every round and Close at the end.
//
// Every WriteRound ends with a flush of the compressed stream to the
// underlying writer, so whatever has been written is a readable file up
// to its last whole round even if the process dies. Errors are sticky.
type Writer struct {
	w       io.Writer
	zw      *zstd.Encoder
	hdr     Header
	players int
	rec     *colorfight2.RecordCodec
	turn    int // turn of the next round
	buf     []byte
	err     error
	closed  bool
	// logs are the round logs WriteLogs gave for the next round.
	logs roundLogs
}

// NewWriter writes h's header to w and returns a Writer for the rounds.
// Ruleset and RulesetVersion default to ColorfightII, CheckpointEvery to
// DefaultCheckpointEvery. A game generated from a seed needs only Seed;
// any other needs Map. Writing begins immediately.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if h.Ruleset == "" {
		h.Ruleset, h.RulesetVersion = RulesetColorfight2, RulesetColorfight2Version
	}
	if h.CheckpointEvery == 0 {
		h.CheckpointEvery = DefaultCheckpointEvery
	}
	if h.Ruleset != RulesetColorfight2 {
		return nil, fmt.Errorf("replay: NewWriter writes colorfight2, not %q: %w", h.Ruleset, ErrRuleset)
	}
	zw, err := writePrefix(w, &h)
	if err != nil {
		return nil, err
	}
	return &Writer{w: w, zw: zw, hdr: h, players: len(h.Players), rec: h.recordCodec(), logs: roundLogs{keep: h.Logs, players: len(h.Players)}}, nil
}

// writePrefix validates h and writes everything before the body (magic,
// version, header JSON, map blob, CRC-32), then returns the body's
// compressor.
func writePrefix(w io.Writer, h *Header) (*zstd.Encoder, error) {
	if err := h.validate(); err != nil {
		return nil, fmt.Errorf("replay: header: %w", err)
	}
	version := uint16(1)
	if h.Logs {
		version = VersionLogs
	}
	if h.Codec != "" {
		version = VersionText
	}
	hj, err := json.Marshal(h.toJSON())
	if err != nil {
		return nil, fmt.Errorf("replay: header: %w", err)
	}
	hj = appendSetupKey(hj, h)
	if len(hj) > MaxHeaderBytes {
		return nil, fmt.Errorf("replay: header is %d bytes: %w", len(hj), ErrLimit)
	}
	var blob []byte
	if h.Seed == nil && h.Map != nil {
		blob = encodeMap(h.Map)
	}
	var pre bytes.Buffer
	pre.WriteString(Magic)
	pre.Write(binary.LittleEndian.AppendUint16(nil, version))
	pre.Write(binary.AppendUvarint(nil, uint64(len(hj))))
	pre.Write(hj)
	pre.Write(binary.AppendUvarint(nil, uint64(len(blob))))
	pre.Write(blob)
	pre.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(pre.Bytes())))
	if _, err := w.Write(pre.Bytes()); err != nil {
		return nil, fmt.Errorf("replay: writing header: %w", err)
	}
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return zw, nil
}

// Map symmetries a map blob can declare.
const (
	symNone   = 0 // every cell stored
	symMirror = 1 // v(x,y) = v(W-1-x,y) = v(x,H-1-y)
	symEight  = 2 // symMirror and, square maps only, v(x,y) = v(y,x)
)

// canonical reports whether (x, y) is a stored cell under symmetry sym:
// 2x <= W-1 and 2y <= H-1, and x <= y for symEight.
func canonical(sym byte, x, y, w, h int) bool {
	switch sym {
	case symMirror:
		return 2*x <= w-1 && 2*y <= h-1
	case symEight:
		return 2*x <= w-1 && 2*y <= h-1 && x <= y
	}
	return true
}

// canonicalOf maps (x, y) to the stored cell that holds its values.
func canonicalOf(sym byte, x, y, w, h int) (int, int) {
	if sym == symNone {
		return x, y
	}
	x, y = min(x, w-1-x), min(y, h-1-y)
	if sym == symEight && x > y {
		x, y = y, x
	}
	return x, y
}

// mapSymmetry returns the strongest symmetry m has.
func mapSymmetry(m *colorfight2.Map) byte {
	w, h := m.Width, m.Height
	best := byte(symNone)
	for _, sym := range []byte{symEight, symMirror} {
		if sym == symEight && w != h {
			continue
		}
		ok := true
		for y := 0; y < h && ok; y++ {
			for x := 0; x < w && ok; x++ {
				cx, cy := canonicalOf(sym, x, y, w, h)
				i, j := y*w+x, cy*w+cx
				ok = m.NaturalGold[i] == m.NaturalGold[j] && m.NaturalEnergy[i] == m.NaturalEnergy[j] && m.NaturalCost[i] == m.NaturalCost[j]
			}
		}
		if ok {
			best = sym
			break
		}
	}
	return best
}

// encodeMap stores an explicit map: one symmetry byte, then zstd of the
// stored cells' natural_gold values (row-major over stored cells), then
// their natural_energy, then natural_cost, each a uvarint.
func encodeMap(m *colorfight2.Map) []byte {
	sym := mapSymmetry(m)
	var raw []byte
	for _, vs := range [][]int64{m.NaturalGold, m.NaturalEnergy, m.NaturalCost} {
		for y := 0; y < m.Height; y++ {
			for x := 0; x < m.Width; x++ {
				if canonical(sym, x, y, m.Width, m.Height) {
					raw = binary.AppendUvarint(raw, uint64(vs[y*m.Width+x]))
				}
			}
		}
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	return enc.EncodeAll(raw, []byte{sym})
}

// WriteRound records the commands applied in the round just played on s
// (s.Step(commands) has returned, so s.Turn() is one past the round).
// commands[uid-1] is player uid's list. When s.Turn() is a multiple of the
// checkpoint interval, a checkpoint with s.Hash() follows. The compressed
// stream is flushed to the underlying writer before WriteRound returns.
func (w *Writer) WriteRound(commands [][]colorfight2.Command, s *colorfight2.State) error {
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
	for i := 0; i < w.players && i < len(commands); i++ {
		if n := len(commands[i]); n > MaxCommandsPerRound {
			w.err = fmt.Errorf("replay: round %d: player %d sent %d commands, limit %d: %w", w.turn, i+1, n, MaxCommandsPerRound, ErrLimit)
			return w.err
		}
	}
	b := w.rec.AppendRound(w.logs.appendRecord(w.buf[:0]), commands)
	w.turn++
	w.buf, w.err = finishRound(w.zw, b, w.turn, w.hdr.CheckpointEvery, s)
	return w.err
}

// WriteLogs gives the bots' logs of the next round WriteRound writes:
// logs[uid-1] is what player uid's bot logged while it was asked for the
// round's commands (nil or empty: nothing). They are stored in a log
// record before the round record — not part of the game, no effect on
// hashes or re-simulation. A log longer than MaxRoundLogBytes keeps its
// first MaxRoundLogBytes bytes. The header must have Logs set.
func (w *Writer) WriteLogs(logs [][]byte) error {
	if w.err != nil {
		return w.err
	}
	return w.logs.set(logs)
}

// roundLogs holds the logs WriteLogs gave for the next round of either
// game's writer, until its round record is written.
type roundLogs struct {
	keep    bool // the header keeps logs
	players int
	logs    [][]byte
}

func (l *roundLogs) set(logs [][]byte) error {
	if !l.keep {
		return errors.New("replay: WriteLogs on a recording whose header does not keep logs")
	}
	if len(logs) > l.players {
		return fmt.Errorf("replay: %d logs for %d players", len(logs), l.players)
	}
	l.logs = append(l.logs[:0], logs...)
	return nil
}

// appendRecord appends the log record of the logs set gave, if any is
// not empty, and forgets them:
//
//	tagLog uvarint n (uvarint uid, uvarint len, byte{len}){n}
//
// uids increasing, 1 <= len <= MaxRoundLogBytes.
func (l *roundLogs) appendRecord(b []byte) []byte {
	n := 0
	for _, x := range l.logs {
		if len(x) > 0 {
			n++
		}
	}
	if n > 0 {
		b = append(b, tagLog)
		b = binary.AppendUvarint(b, uint64(n))
		for i, x := range l.logs {
			if len(x) == 0 {
				continue
			}
			x = x[:min(len(x), MaxRoundLogBytes)]
			b = binary.AppendUvarint(b, uint64(i+1))
			b = binary.AppendUvarint(b, uint64(len(x)))
			b = append(b, x...)
		}
	}
	clear(l.logs)
	l.logs = l.logs[:0]
	return b
}

// Close writes the footer — final turn, state hash, ranking and gold of s —
// and ends the compressed stream. It does not close the underlying writer.
// A recording that is never closed (a killed process) still reads back up
// to its last whole round; it just has no footer.
func (w *Writer) Close(s *colorfight2.State) error {
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
	for _, uid := range rank {
		b = binary.AppendUvarint(b, uint64(uid))
		b = binary.AppendVarint(b, s.PlayerGold(uid))
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

// finishRound ends a round record of either game: it appends the
// checkpoint due once turn rounds are written (every `every` rounds, with
// the state's hash), then writes and flushes the bytes, so a recorder
// killed later keeps this round. It returns the bytes for reuse and an
// error naming the round.
func finishRound(zw *zstd.Encoder, b []byte, turn, every int, s interface{ Hash() uint64 }) ([]byte, error) {
	if turn%every == 0 {
		b = append(b, tagCheckpoint)
		b = binary.AppendUvarint(b, uint64(turn))
		b = binary.LittleEndian.AppendUint64(b, s.Hash())
	}
	if _, err := zw.Write(b); err != nil {
		return b, fmt.Errorf("replay: round %d: %w", turn-1, err)
	}
	if err := zw.Flush(); err != nil {
		return b, fmt.Errorf("replay: round %d: %w", turn-1, err)
	}
	return b, nil
}
