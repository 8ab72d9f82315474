package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/replay"
)

// loggingBot is a built-in that keeps a round log (match.Logger): what
// log says for the game's turn.
type loggingBot struct {
	match.GamePlayer
	log  func(turn int) []byte
	last []byte
}

func (b *loggingBot) Commands(g engine.Game, p int) ([]string, error) {
	b.last = b.log(g.Turn())
	return b.GamePlayer.Commands(g, p)
}

func (b *loggingBot) RoundLog() []byte { return b.last }

// testLog is what seat uid logs at turn t in loggedGame.
func testLog(uid, t int) []byte {
	switch {
	case uid == 1 && t == 7:
		return bytes.Repeat([]byte("y"), 5000) // cut by the writer
	case uid == 1 && t%4 == 0:
		return fmt.Appendf(nil, "turn %d <script>alert(1)</script> \x1b[31mred\x1b[0m\n", t)
	case uid == 2 && t%5 == 0:
		return fmt.Appendf(nil, "uid 2, turn %d\n", t)
	}
	return nil
}

// loggedGame records a game of turns rounds between two built-ins, with
// round logs (testLog) when logs is set; the commands are the same either
// way.
func loggedGame(tb testing.TB, turns int, logs bool) ([]byte, *match.Result) {
	tb.Helper()
	return playOwn(tb, 5, turns, builtinSeats(tb, func(uid int, b match.GamePlayer) match.GamePlayer {
		if !logs {
			return b
		}
		return &loggingBot{GamePlayer: b, log: func(t int) []byte { return testLog(uid, t) }}
	}, "greedy", "raider"))
}

// TestRoundLogsRecorded: a game whose bots keep logs is format version 2
// and holds each round's logs (a log over MaxRoundLogBytes cut); the logs
// change nothing of the game: the same rounds, checkpoints and footer,
// the same verification as without them.
func TestRoundLogsRecorded(t *testing.T) {
	const turns = 60
	withLogs, res := loggedGame(t, turns, true)
	plain, resPlain := loggedGame(t, turns, false)
	if res.Hash != resPlain.Hash {
		t.Fatal("logs changed the game")
	}
	checkVersion(t, withLogs, replay.VersionLogs, "with logs")
	checkVersion(t, plain, 1, "without logs")
	verifyWhole(t, turns, withLogs, plain)
	r, rp := roundsBeside(t, withLogs, plain, func(rd, rdp *replay.TextRound) {
		if fmt.Sprint(rd.Commands) != fmt.Sprint(rdp.Commands) || rd.Hash != rdp.Hash || rd.HasHash != rdp.HasHash {
			t.Fatalf("round %d differs with logs", rd.Turn)
		}
		if rdp.Logs != nil {
			t.Fatalf("round %d: logs in a file without", rd.Turn)
		}
		for uid := 1; uid <= 2; uid++ {
			var got []byte
			if rd.Logs != nil {
				got = rd.Logs[uid-1]
			}
			want := []byte(nil)
			if rd.Turn > 0 {
				want = testLog(uid, rd.Turn)
			}
			if len(want) > replay.MaxRoundLogBytes {
				want = want[:replay.MaxRoundLogBytes]
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("round %d uid %d: log %q, want %q", rd.Turn, uid, got, want)
			}
		}
	})
	if !r.Header().Logs {
		t.Fatal("header does not say the file keeps logs")
	}
	if fmt.Sprint(*r.Footer()) != fmt.Sprint(*rp.Footer()) {
		t.Fatal("footers differ")
	}
}

// checkVersion fails t unless data is a recording of format version
// want; what says which recording data is.
func checkVersion(t *testing.T, data []byte, want uint16, what string) {
	t.Helper()
	if v := binary.LittleEndian.Uint16(data[4:]); v != want {
		t.Fatalf("version %d %s, want %d", v, what, want)
	}
}

// verifyWhole fails t unless every recording of files verifies by
// re-simulation, whole, with turns rounds.
func verifyWhole(t *testing.T, turns int, files ...[]byte) {
	t.Helper()
	for _, data := range files {
		v, err := replay.VerifySim(bytes.NewReader(data), nil)
		if err != nil || v.Err != nil || !v.Complete || v.Rounds != turns {
			t.Fatalf("verify: %v %+v", err, v)
		}
	}
}

// roundsBeside reads the rounds of the recordings with and plain in step,
// to the end of both, calling visit with each pair; an error of either
// fails t. It returns the two readers, read to their ends.
func roundsBeside(t *testing.T, with, plain []byte, visit func(rd, rdp *replay.TextRound)) (r, rp *replay.Reader) {
	t.Helper()
	r, err := replay.NewReader(bytes.NewReader(with))
	if err != nil {
		t.Fatal(err)
	}
	rp, err = replay.NewReader(bytes.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	for {
		rd, err := r.NextText()
		rdp, errp := rp.NextText()
		if errors.Is(err, io.EOF) && errors.Is(errp, io.EOF) {
			return r, rp
		}
		if err != nil || errp != nil {
			t.Fatal(err, errp)
		}
		visit(rd, rdp)
	}
}

// craftedBody returns a file with h's header and a body of the given
// records, a round record of two players without commands after each.
func craftedBody(t *testing.T, h *replay.Header, logsRecords ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := replay.NewGameWriter(&buf, *h); err != nil {
		t.Fatal(err)
	}
	var body []byte
	for _, rec := range logsRecords {
		body = append(body, rec...)
		body = append(body, 0b0110_0000) // round: 0, gamma(1), gamma(1)
	}
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(body, buf.Bytes())
}

// logRecord builds a log record of (uid, log) pairs.
func logRecord(entries ...any) []byte {
	b := []byte{0x80 | 'L'}
	b = binary.AppendUvarint(b, uint64(len(entries)/2))
	for i := 0; i < len(entries); i += 2 {
		l := entries[i+1].([]byte)
		b = binary.AppendUvarint(b, uint64(entries[i].(int)))
		b = binary.AppendUvarint(b, uint64(len(l)))
		b = append(b, l...)
	}
	return b
}

// TestRoundLogsBounded: the reader refuses a log over MaxRoundLogBytes
// (ErrLimit), damaged log records (ErrCorrupt), and a log record in a
// version 1 file (an unknown record).
func TestRoundLogsBounded(t *testing.T) {
	data, _ := loggedGame(t, 3, true)
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	h.Config.MaxTurn = 10
	ok := []byte("hello\n")
	cases := []struct {
		name string
		logs bool
		rec  []byte
		want error
	}{
		{"fits", true, logRecord(1, bytes.Repeat([]byte("z"), replay.MaxRoundLogBytes), 2, ok), nil},
		{"over", true, logRecord(1, bytes.Repeat([]byte("z"), replay.MaxRoundLogBytes+1)), replay.ErrLimit},
		{"uid 0", true, logRecord(0, ok), replay.ErrCorrupt},
		{"uid 3", true, logRecord(3, ok), replay.ErrCorrupt},
		{"uids out of order", true, logRecord(2, ok, 1, ok), replay.ErrCorrupt},
		{"empty log", true, logRecord(1, []byte{}), replay.ErrCorrupt},
		{"no entries", true, logRecord(), replay.ErrCorrupt},
		{"two records", true, append(logRecord(1, ok), logRecord(2, ok)...), replay.ErrCorrupt},
		{"version 1", false, logRecord(1, ok), replay.ErrUnknownRecord},
	}
	for _, c := range cases {
		hc := *h
		hc.Logs = c.logs
		file := craftedBody(t, &hc, nil, c.rec)
		r, err := replay.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r.NextText() // round 0
		rd, err := r.NextText()
		if c.want == nil {
			if err != nil || len(rd.Logs[0]) != replay.MaxRoundLogBytes || string(rd.Logs[1]) != string(ok) {
				t.Fatalf("%s: %v", c.name, err)
			}
			continue
		}
		var fe *replay.FormatError
		if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Round != 1 {
			t.Fatalf("%s: %v, want %v in round 1", c.name, err, c.want)
		}
		if c.want == replay.ErrLimit && !strings.Contains(err.Error(), "4096") {
			t.Fatalf("%s: %v does not name the limit", c.name, err)
		}
	}
}
