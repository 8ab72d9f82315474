package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// slowBotPy answers every turn at once but the one named on its command
// line, where it sleeps 8 s first — twice the longest start-up of Python
// seen on a loaded machine (4 s), which its first reply includes; it
// sends no command and plays ColorfightII and Monad alike (their "turn"
// messages carry "turn").
const slowBotPy = `import json, sys, time
slow = int(sys.argv[1])
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "turn":
        continue
    if msg["turn"] == slow:
        time.sleep(8)
    sys.stdout.write(json.dumps({"cmd_list": [], "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
`

// slowBot writes slowBotPy into dir and returns the --bot command of a
// bot slow when asked at turn slow.
func slowBot(t *testing.T, dir string, slow int) string {
	t.Helper()
	py := testutil.NeedTool(t, "python3")
	p := filepath.Join(dir, "slowbot.py")
	if err := os.WriteFile(p, []byte(slowBotPy), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%q %q %d", py, p, slow)
}

// replyTimesJSON is the "reply_times" key of `rewind analyze --format json`.
type replyTimesJSON struct {
	ReplyTimes []struct {
		Seat, Turns int
		Median      int64 `json:"median_us"`
		Max         int64 `json:"max_us"`
		Slowest     []struct {
			Turn int
			US   int64 `json:"us"`
		}
	} `json:"reply_times"`
}

// TestReplyTimesThroughCLI is a bot author's question "which turn was my
// bot slow at?" through the CLI: a Python bot that sleeps 8 s when
// asked at turn 7, played with `rewind play` (ColorfightII, its analysis
// document; Monad, the analysis of any game) beside a built-in. The
// replay holds reply times (format version 5: its external seat may
// also draw marks) and verifies; `rewind analyze --format json` names frame 8 (the round 7 → 8, its reply to
// turn 7) as the bot's slowest and the built-in as not timed; the table
// says so too; and the replay page in Chromium lists the reply time in
// turn 8's panel and draws a reply-time chart.
func TestReplyTimesThroughCLI(t *testing.T) {
	dir := t.TempDir()
	bot := slowBot(t, dir, 7)
	files := map[string]string{}
	for _, game := range []string{"colorfight2", "monad"} {
		out := filepath.Join(dir, game+".rwd")
		turns := map[string]string{"colorfight2": "200", "monad": "60"}[game]
		if o, err := runCLIOut(t, "play", "--game", game, "--bot", bot, "--bot", builtinOf(game), "--turns", turns, "--deadline", "1m", "-o", out); err != nil {
			t.Fatalf("play %s: %v\n%s", game, err, o)
		}
		files[game] = out
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// An external seat may draw marks too: the version that keeps
		// them, which keeps reply times.
		if v := binary.LittleEndian.Uint16(data[4:]); v != replay.VersionMarks {
			t.Fatalf("%s: version %d, want %d", game, v, replay.VersionMarks)
		}
		if o, err := runCLIOut(t, "verify", out); err != nil {
			t.Fatalf("verify %s: %v\n%s", game, err, o)
		}
		js, err := runCLIOut(t, "analyze", out, "--format", "json")
		if err != nil {
			t.Fatalf("analyze %s: %v\n%s", game, err, js)
		}
		var a replyTimesJSON
		if err := json.Unmarshal([]byte(js), &a); err != nil {
			t.Fatalf("analyze %s: %v\n%s", game, err, js)
		}
		if len(a.ReplyTimes) != 2 {
			t.Fatalf("%s: reply_times %+v, want 2 seats", game, a.ReplyTimes)
		}
		r := a.ReplyTimes[0]
		if r.Seat != 1 || r.Turns < 50 || len(r.Slowest) != 5 || r.Slowest[0].Turn != 8 || r.Slowest[0].US < 8_000_000 || r.Max != r.Slowest[0].US || r.Median >= 8_000_000 {
			t.Fatalf("%s: seat 1's reply times %+v, want its slowest turn 8 (≥ 8 s)", game, r)
		}
		if b := a.ReplyTimes[1]; b.Seat != 2 || b.Turns != 0 || len(b.Slowest) != 0 {
			t.Fatalf("%s: the built-in's reply times %+v, want none (not timed)", game, b)
		}
		table, err := runCLIOut(t, "analyze", out)
		if err != nil || !strings.Contains(table, "reply times") || !strings.Contains(table, "slowest: turn 8 (") || !strings.Contains(table, "not timed") {
			t.Fatalf("analyze %s (table): %v\n%s", game, err, table)
		}
	}

	b := browsertest.Start(t, 2*time.Minute)
	for game, file := range files {
		url := viewPage(t, file) + "#turn=8"
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`window.rewind && (window.rewind.ready || window.rewind.error) && window.rewind.chartsReady`, time.Minute); err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		var panel string
		var charts []string
		if err := chromedp.Run(b.Ctx,
			chromedp.Evaluate(`window.rewind.seek(8), (document.querySelector('[data-testid=reply-times]') || {}).textContent || ''`, &panel),
			chromedp.Evaluate(`window.rewind.chartState().map(c => c.metric + ':' + c.title + ':' + c.names.length)`, &charts),
		); err != nil {
			t.Fatal(err)
		}
		// Seat 1 took at least 8 s, shown as "8,0xx ms"; seat 2 is a
		// built-in.
		if !strings.Contains(panel, "reply time") || !strings.Contains(panel, "not timed") || !regexp.MustCompile(`\b(8|9|\d\d),\d{3} ms`).MatchString(panel) {
			t.Errorf("%s: turn 8's panel says %q, want seat 1's 8,xxx ms and seat 2 not timed", game, panel)
		}
		last := ""
		if len(charts) > 0 {
			last = charts[len(charts)-1]
		}
		if !strings.HasPrefix(last, "reply_time:reply time (ms):2") {
			t.Errorf("%s: charts %q, want a reply-time chart of both seats last", game, charts)
		}
	}
	b.CheckProblems(t)
}

// builtinOf is a built-in bot of game.
func builtinOf(game string) string {
	if game == "monad" {
		return "expander"
	}
	return "greedy"
}

// TestReplyTimesOldFiles: files written before reply times — a Monad
// recording in testdata, and a ColorfightII game of built-ins (version
// 1, which the writer writes byte for byte as before when no seat is
// timed) — still open, verify and analyse, with no reply times in the
// analysis.
func TestReplyTimesOldFiles(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.rwd")
	if o, err := runCLIOut(t, "play", "--bot", "greedy", "--bot", "raider", "--turns", "200", "-o", plain); err != nil {
		t.Fatalf("play: %v\n%s", err, o)
	}
	files := []string{filepath.Join("..", "..", "acceptance", "monad", "testdata", "legacy-4p.rwd"), plain}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint16(data[4:]); v >= replay.VersionReplyTimes {
			t.Fatalf("%s: version %d, an old file is below %d", f, v, replay.VersionReplyTimes)
		}
		for _, args := range [][]string{{"info", f}, {"verify", f}, {"analyze", f}} {
			if o, err := runCLIOut(t, args...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, o)
			}
		}
		js, err := runCLIOut(t, "analyze", f, "--format", "json")
		if err != nil || strings.Contains(js, "reply_times") {
			t.Fatalf("analyze %s: %v, reply times in an old file's analysis:\n%.300s", f, err, js)
		}
	}
}
