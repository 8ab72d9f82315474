package viewer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/rewind-game/rewind/internal/testutil"
)

// loggedReplay records 12 rounds of the logger bot (testutil.LoggerBot;
// uid 1, logging to stderr on turns divisible by 3, and 20000 bytes on
// turn 5) against greedy (uid 2).
func loggedReplay(tb testing.TB) []byte {
	tb.Helper()
	ext, err := subprocess.New(testutil.LoggerBot(tb), subprocess.Options{Deadline: time.Minute, MaxTurn: 12})
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	playCF2(tb, 3, 12, recording.NewRecorder(&buf, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "rewind test"),
		match.GameSeat{Bot: ext.Player(), Name: "logger"}, cf2Seat(tb, "greedy", ""))
	return buf.Bytes()
}

// wantLogText is what the page shows of uid 1's log for the round asked
// at turn k (frame k+1), "" for nothing; turn 5's is checked apart.
func wantLogText(k int) string {
	if k > 0 && k%3 == 0 {
		return fmt.Sprintf("turn %d: thinking\n<script>alert(%d)</script> red\n", k, k)
	}
	return ""
}

// TestLogText: escape sequences and control characters go, text stays.
func TestLogText(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[1;31mred\x1b[0m\n": "red\n",
		"a\x1b]0;title\x07b":     "a0;titleb",
		"<b>x</b>\r\n\tz\x00":    "<b>x</b>\n\tz",
		"bad \xff utf-8":         "bad \uFFFD utf-8",
		"\x1b[":                  "",
		"ok":                     "ok",
	} {
		if got := logText([]byte(in)); got != want {
			t.Errorf("logText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBrowserBotLog: the commands panel shows the selected player's log
// for the current round, as text: the script tag it printed is not
// markup and never runs, its colour escapes are gone.
func TestBrowserBotLog(t *testing.T) {
	base := serveFile(t, "logged.rwd", loggedReplay(t), Options{})
	b := browsertest.Start(t, 2*time.Minute)
	openReplay(t, b, base+"/replay/logged.rwd")
	b.Eval(t, `window.alert = () => { window.alerted = true; }, true`, nil)
	if err := chromedp.Run(b.Ctx, chromedp.Click(`//table[@id="players"]//tbody//tr[td[@class="name" and normalize-space(.)="logger"]]`, chromedp.BySearch)); err != nil {
		t.Fatal(err)
	}
	type panel struct {
		Log     string
		HasLog  bool
		None    bool
		Scripts int
		Alerted bool
	}
	read := func(turn int) panel {
		var p panel
		b.Eval(t, fmt.Sprintf(`window.rewind.seek(%d), (() => { const c = document.getElementById('commands'); const pre = c.querySelector('pre[data-testid=botlog]');
			return {Log: pre ? pre.textContent : '', HasLog: !!pre, None: !!c.querySelector('[data-testid=botlog-none]'),
				Scripts: c.querySelectorAll('script').length + (pre ? pre.children.length : 0), Alerted: !!window.alerted}; })()`, turn), &p)
		return p
	}
	if p := read(4); !p.HasLog || p.Log != wantLogText(3) || p.Scripts != 0 || p.Alerted {
		t.Errorf("turn 4: %+v, want the log %q as text", p, wantLogText(3))
	}
	if p := read(5); p.HasLog || !p.None {
		t.Errorf("turn 5: %+v, want nothing logged", p)
	}
	if p := read(7); p.Log != wantLogText(6) || p.Scripts != 0 || p.Alerted {
		t.Errorf("turn 7: %+v, want the log %q", p, wantLogText(6))
	}
	b.Screenshot(t, "botlog.png")
	b.CheckProblems(t)
}

// TestBrowserBotLogOfficialClient: a player who played through the
// official client (rewind server) has no log rewind could see; its panel
// says so instead of "nothing logged".
func TestBrowserBotLogOfficialClient(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	remote := cf2Seat(t, "greedy", "remote")
	remote.Identity = match.OfficialClient
	playCF2(t, 3, 12, recording.NewRecorder(&buf, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "rewind test"), remote, cf2Seat(t, "turtle", ""))
	write(t, filepath.Join(dir, "remote.rwd"), buf.Bytes())
	base := serveDir(t, dir, Options{})
	b := browsertest.Start(t, 2*time.Minute)
	openReplay(t, b, base+"/replay/remote.rwd")
	var unseen, other bool
	b.Eval(t, `window.rewind.seek(5), window.rewind.select(0), !!document.querySelector('#commands [data-testid=botlog-unseen]')`, &unseen)
	b.Eval(t, `window.rewind.select(1), !!document.querySelector('#commands [data-testid=botlog-unseen]')`, &other)
	if !unseen || other {
		t.Errorf("official client's panel says why it has no log: %v; the built-in's: %v (want true, false)", unseen, other)
	}
	b.CheckProblems(t)
}
