package recording_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// TestNoLogsByteIdentical: a match whose bots keep no logs records the
// very bytes it recorded before round logs existed (format version 1, no
// log record): the size and SHA-256 are those of the recorder before,
// but for the header's per-seat bot seeds ("bot_seed", recorded since
// rewind rerun: 126 bytes more).
func TestNoLogsByteIdentical(t *testing.T) {
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 77, MaxTurns: 300, Seats: seats(t, "greedy", "economist", "raider", "random"),
		Recorder: recording.NewRecorder(&buf, created, "rewind golden")}
	if _, err := match.RunGame(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if v := buf.Bytes()[4:6]; v[0] != 1 || v[1] != 0 {
		t.Fatalf("format version %v, want 1", v)
	}
	sum := sha256.Sum256(buf.Bytes())
	const wantSize, wantSum = 8473, "85bb83e0501f98e8dbe194f4bac6b7d5b0eb4e5d7c628375c9d7a2283fcdf457"
	if buf.Len() != wantSize || hex.EncodeToString(sum[:]) != wantSum {
		t.Fatalf("recording is %d bytes, sha256 %x; want %d bytes, %s", buf.Len(), sum, wantSize, wantSum)
	}
}

// TestExternalBotLogsRecorded: an external bot's stderr is kept per round
// in the .rwd — exactly the lines it wrote while asked for that round's
// commands, nothing on silent rounds, a log over 4 KiB cut and marked —
// and the recording verifies to the match's own final state.
func TestExternalBotLogsRecorded(t *testing.T) {
	ext, err := subprocess.New(testutil.LoggerBot(t), subprocess.Options{Deadline: time.Minute, MaxTurn: 12})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 3, MaxTurns: 12, Seats: append([]match.GameSeat{{Bot: ext.Player()}}, seats(t, "greedy")...),
		Recorder: recording.NewRecorder(&buf, created, "rewind test")}
	res, err := match.RunGame(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Players[0].Faults != 0 {
		t.Fatalf("the bot failed %d rounds", res.Players[0].Faults)
	}
	v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete || v.Rounds != 12 {
		t.Fatalf("verify: %v %+v", err, v)
	}
	r, err := replay.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	testutil.EachRecord(t, r.NextText, func(rd *replay.TextRound) {
		var got, other []byte
		if rd.Logs != nil {
			got, other = rd.Logs[0], rd.Logs[1]
		}
		if other != nil {
			t.Fatalf("round %d: a log for the built-in", rd.Turn)
		}
		want := ""
		switch {
		case rd.Turn > 0 && rd.Turn%3 == 0:
			want = fmt.Sprintf("turn %d: thinking\n<script>alert(%d)</script> \x1b[31mred\x1b[0m\n", rd.Turn, rd.Turn)
		case rd.Turn == 5:
			n := bytes.Count(got, []byte("x"))
			want = strings.Repeat("x", n) + fmt.Sprintf("\n… [%d bytes cut]\n", 20000-n)
			if len(got) > replay.MaxRoundLogBytes || n < replay.MaxRoundLogBytes-64 {
				t.Fatalf("round 5: log of %d bytes, %d kept", len(got), n)
			}
		}
		if string(got) != want {
			t.Fatalf("round %d: log %q, want %q", rd.Turn, got, want)
		}
	})
}
