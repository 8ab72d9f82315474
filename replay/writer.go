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

	"github.com/klauspost/compress/zstd"
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
