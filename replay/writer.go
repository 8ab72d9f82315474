package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
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
	// tagReplyTimes opens a reply-time record (format version 4): how
	// long each seat took to answer for the round record that follows it
	// (after the log record, when there is one).
	tagReplyTimes = 0x80 | 'R'
	// tagMarks opens a mark record (format version 5): the marks the bots
	// drew for the round record that follows it (after the log and
	// reply-time records, when there are).
	tagMarks = 0x80 | 'M'
	// markColored is the bit of a mark's kind byte that says a colour
	// (three bytes) follows its cells.
	markColored = 0x10
)

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
	if h.ReplyTimes {
		version = VersionReplyTimes
	}
	if h.Marks {
		version = VersionMarks
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
	if h.Seed == nil && len(h.Map) > 0 {
		blob = encodeMapBlob(h.Map)
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

// encodeMapBlob stores a legacy header's explicit map (Header.Map): its
// first byte, then zstd of the rest.
func encodeMapBlob(m []byte) []byte {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	return enc.EncodeAll(m[1:], []byte{m[0]})
}

// roundLogs holds the logs WriteLogs gave for the next round, until its
// round record is written.
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

// appendReplyTimes appends the reply-time record of times (times[p] for
// player p, negative for a seat not timed) when one is timed:
//
//	tagReplyTimes uvarint n (uvarint units+1 | 0 not timed){n}
//
// n the number of players, each time rounded to the nearest
// ReplyTimeUnit, at most MaxReplyTime (a longer one is recorded as
// that).
func appendReplyTimes(b []byte, times []time.Duration, players int) []byte {
	some := false
	for _, d := range times {
		some = some || d >= 0
	}
	if !some {
		return b
	}
	b = append(b, tagReplyTimes)
	b = binary.AppendUvarint(b, uint64(players))
	for p := range players {
		if p >= len(times) || times[p] < 0 {
			b = append(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64((min(times[p], MaxReplyTime)+ReplyTimeUnit/2)/ReplyTimeUnit)+1)
	}
	return b
}

// appendMarks appends the mark record of marks (at least one, in player
// order):
//
//	tagMarks uvarint n (uvarint uid, byte kind|colored, uvarint x, uvarint y,
//	  [uvarint x2, uvarint y2: a line], [byte r, g, b: colored],
//	  [uvarint len, byte{len}: a text]){n}
//
// uids non-decreasing (at most engine.MaxBotMarks each), coordinates at
// most MaxMarkCoord, a text 1..engine.MaxBotMarkTextBytes bytes of
// UTF-8. It refuses marks outside those bounds (the runner keeps only
// those in them): a player that is not one of the game's players (0..players-1),
// a seat after a later one, too many marks of a seat, a mark checkMark
// refuses; the error names the mark (from 1) and its seat (from 1).
func appendMarks(b []byte, marks []engine.BotMark, players int) ([]byte, error) {
	b = append(b, tagMarks)
	b = binary.AppendUvarint(b, uint64(len(marks)))
	last, run := -1, 0
	for i := range marks {
		m := &marks[i]
		switch {
		case m.Player < 0 || m.Player >= players:
			return b, fmt.Errorf("mark %d of seat %d: no such seat in a game of %d", i+1, m.Player+1, players)
		case m.Player < last:
			return b, fmt.Errorf("mark %d of seat %d after seat %d's: marks go in seat order", i+1, m.Player+1, last+1)
		case m.Player != last:
			last, run = m.Player, 0
		}
		if run++; run > engine.MaxBotMarks {
			return b, fmt.Errorf("seat %d drew more than %d marks: %w", m.Player+1, engine.MaxBotMarks, ErrLimit)
		}
		if err := checkMark(m); err != nil {
			return b, fmt.Errorf("mark %d of seat %d: %w", i+1, m.Player+1, err)
		}
		k := byte(m.Kind)
		if m.Color >= 0 {
			k |= markColored
		}
		b = binary.AppendUvarint(b, uint64(m.Player+1))
		b = append(b, k)
		b = binary.AppendUvarint(b, uint64(m.X))
		b = binary.AppendUvarint(b, uint64(m.Y))
		if m.Kind == engine.MarkLine {
			b = binary.AppendUvarint(b, uint64(m.X2))
			b = binary.AppendUvarint(b, uint64(m.Y2))
		}
		if m.Color >= 0 {
			b = append(b, byte(m.Color>>16), byte(m.Color>>8), byte(m.Color))
		}
		if m.Kind == engine.MarkText {
			b = binary.AppendUvarint(b, uint64(len(m.Text)))
			b = append(b, m.Text...)
		}
	}
	return b, nil
}

// checkMark says what of m a mark record cannot hold: an unknown kind,
// a coordinate outside 0..MaxMarkCoord, a colour over 0xffffff, a text
// mark's text empty, longer than engine.MaxBotMarkTextBytes or not UTF-8
// (ErrLimit for a bound, ErrCorrupt for the rest).
func checkMark(m *engine.BotMark) error {
	if m.Kind < engine.MarkDot || m.Kind > engine.MarkText {
		return fmt.Errorf("kind %d: %w", m.Kind, ErrCorrupt)
	}
	for _, c := range [...]int{m.X, m.Y, m.X2, m.Y2} {
		if c < 0 || c > MaxMarkCoord {
			return fmt.Errorf("coordinate %d, limit %d: %w", c, MaxMarkCoord, ErrLimit)
		}
	}
	if m.Color > 0xffffff {
		return fmt.Errorf("colour %#x: %w", m.Color, ErrCorrupt)
	}
	if m.Kind == engine.MarkText {
		if len(m.Text) == 0 || len(m.Text) > engine.MaxBotMarkTextBytes {
			return fmt.Errorf("text of %d bytes, limit 1..%d: %w", len(m.Text), engine.MaxBotMarkTextBytes, ErrLimit)
		}
		if !utf8.ValidString(m.Text) {
			return fmt.Errorf("text not UTF-8: %w", ErrCorrupt)
		}
	}
	return nil
}

// finishRound ends a round record: it appends the
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
