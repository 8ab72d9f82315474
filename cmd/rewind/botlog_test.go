package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/testutil"
)

// logBotPy is a bot author's first bot: it logs a line to stderr every
// turn it is asked (naming its uid and the turn), sends no command, and
// plays either game (ColorfightII's "turn" messages carry "turn" and
// "uid", Monad's "turn" and "player").
const logBotPy = `import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "turn":
        continue
    t = msg["turn"]
    who = msg.get("uid", msg.get("player"))
    sys.stderr.write("bot %s thinking at turn %d\n" % (who, t))
    sys.stderr.flush()
    sys.stdout.write(json.dumps({"cmd_list": [], "turn": t}) + "\n")
    sys.stdout.flush()
`

// logBot writes logBotPy into dir and returns the --bot command for it.
func logBot(t *testing.T, dir string) string {
	t.Helper()
	py := testutil.NeedTool(t, "python3")
	p := filepath.Join(dir, "logbot.py")
	if err := os.WriteFile(p, []byte(logBotPy), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%q %q", py, p)
}

// viewPage runs `rewind view FILE` until the test ends and returns the
// replay page's URL.
func viewPage(t *testing.T, file string) string {
	t.Helper()
	return serveForTest(t, "view "+file, func(ctx context.Context, opts *serveOptions) error { return runView(ctx, file, opts) }) + "/replay/" + filepath.Base(file)
}

// serveForTest runs run (a command that serves until its context ends,
// with opts' address, output and ready channel set) until the test ends,
// which must end it without an error, and returns the base URL it
// listens on; what names it in failures.
func serveForTest(t *testing.T, what string, run func(ctx context.Context, opts *serveOptions) error) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, &serveOptions{addr: "127.0.0.1:0", stdout: io.Discard, ready: ready})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("%s: %v", what, err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", what, err)
		}
	})
	return base
}

// panelLogs opens url in b, selects the player whose bot command names
// logbot.py and returns, for each turn in turns, the bot log the
// commands panel shows ("" when it shows none), and the player's number
// as the bot is told it (ColorfightII: its uid; Monad: its 0-based
// player).
func panelLogs(t *testing.T, b *browsertest.Browser, url string, turns []int) (uid int, logs []string) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitJS(`window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	var errText string
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`window.rewind.error || ""`, &errText)); err != nil || errText != "" {
		t.Fatalf("%s: %v %s", url, err, errText)
	}
	var slot int
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const r = window.rewind, ps = r.players ? r.players() : r.packed().players; for (let i = 0; i < ps.length; i++) if (ps[i].bot.includes('logbot.py')) return [i + 1, ps[i].uid === undefined ? i : ps[i].uid]; return [0, 0]; })()`, &[]*int{&slot, &uid})); err != nil {
		t.Fatal(err)
	}
	if slot == 0 {
		t.Fatalf("%s: no player's bot is logbot.py", url)
	}
	// The generic page numbers players from 0; the bot's log names it
	// by the game's own number (engine.FirstPlayer on).
	var game string
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(window.rewind.packed && window.rewind.packed().game) || ""`, &game)); err != nil {
		t.Fatal(err)
	}
	if rs, err := engine.Get(game); err == nil {
		uid = slot - 1 + engine.FirstPlayer(rs)
	}
	// A click on the player's row of the panel (ColorfightII: data-slot
	// from 1; the replay page, Monad's: data-player from 0).
	row := fmt.Sprintf(`#players tbody tr[data-slot="%d"], #players tr[data-player="%d"]`, slot, slot-1)
	if err := chromedp.Run(b.Ctx, chromedp.Click(row, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	for _, turn := range turns {
		var s string
		expr := fmt.Sprintf(`window.rewind.seek(%d), (() => { const pre = document.querySelector('#commands pre[data-testid=botlog], #moves pre[data-testid=botlog]'); return pre ? pre.textContent : ''; })()`, turn)
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(expr, &s)); err != nil {
			t.Fatal(err)
		}
		logs = append(logs, s)
	}
	return uid, logs
}

// checkLogs: the page at frame f shows what the bot logged when asked at
// turn f-1 — for every frame from first on.
func checkLogs(t *testing.T, what string, uid int, turns []int, logs []string) {
	t.Helper()
	for i, f := range turns {
		if want := fmt.Sprintf("bot %d thinking at turn %d\n", uid, f-1); logs[i] != want {
			t.Errorf("%s: frame %d shows log %q, want %q", what, f, logs[i], want)
		}
	}
}

// TestBotLogsThroughCLI is the bot author's loop through the CLI: a
// Python bot that logs every turn, played with `rewind play`, `rewind
// tournament` and `rewind fork` (ColorfightII) and `rewind play` and
// `rewind tournament` (Monad), then `rewind view` in Chromium: the
// player's panel shows the lines the bot logged for each round.
func TestBotLogsThroughCLI(t *testing.T) {
	dir := t.TempDir()
	cmd := logBot(t, dir)
	turns := []int{2, 3, 100, 199, 200}

	played := filepath.Join(dir, "played.rwd")
	if out, err := runCLIOut(t, "play", "--bot", "greedy", "--bot", cmd, "--turns", "200", "--deadline", "1m", "-o", played); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	tdir := filepath.Join(dir, "t")
	if out, err := runCLIOut(t, "tournament", "--bot", "turtle", "--bot", cmd, "--games", "1", "--turns", "200", "--deadline", "1m", "--dir", tdir); err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	forked := filepath.Join(dir, "forked.rwd")
	if out, err := runCLIOut(t, "fork", played, "--turn", "120", "--bot", "raider", "--bot", cmd, "--deadline", "1m", "-o", forked); err != nil {
		t.Fatalf("fork: %v\n%s", err, out)
	}

	mplayed := filepath.Join(dir, "monad.rwd")
	if out, err := runCLIOut(t, "play", "--game", "monad", "--bot", "expander", "--bot", cmd, "--turns", "60", "--deadline", "1m", "-o", mplayed); err != nil {
		t.Fatalf("play --game monad: %v\n%s", err, out)
	}
	mdir := filepath.Join(dir, "m")
	if out, err := runCLIOut(t, "tournament", "--game", "monad", "--bot", "miner", "--bot", cmd, "--games", "1", "--turns", "60", "--deadline", "1m", "--dir", mdir); err != nil {
		t.Fatalf("tournament --game monad: %v\n%s", err, out)
	}

	b := browsertest.Start(t, 4*time.Minute)
	for _, c := range []struct{ what, file string }{
		{"play", played},
		{"tournament", filepath.Join(tdir, "game-0000.rwd")},
	} {
		uid, logs := panelLogs(t, b, viewPage(t, c.file), turns)
		checkLogs(t, c.what, uid, turns, logs)
	}
	mturns := []int{2, 30, 60}
	for _, c := range []struct{ what, file string }{
		{"play --game monad", mplayed},
		{"tournament --game monad", filepath.Join(mdir, "game-0000.rwd")},
	} {
		player, logs := panelLogs(t, b, viewPage(t, c.file), mturns)
		checkLogs(t, c.what, player, mturns, logs)
	}
	// fork: the parent's rounds keep their logs, then the bot's own from turn 120 on.
	fturns := []int{50, 120, 121, 150, 200}
	uid, logs := panelLogs(t, b, viewPage(t, forked), fturns)
	checkLogs(t, "fork", uid, fturns, logs)
	b.CheckProblems(t)
}

// TestWrappersKeepOptionalInterfaces: the seat an external --bot gets
// (watchedPlayer around subprocess.Player) still keeps round logs and is
// waited for in parallel, for play, tournament and fork alike (they all
// seat it through watchedSeat).
func TestWrappersKeepOptionalInterfaces(t *testing.T) {
	opts := &playOptions{game: engine.Default(), out: filepath.Join(t.TempDir(), "g.rwd"), deadline: time.Second, turns: 200}
	// The bot's program is this test binary running no test: a program
	// every machine that runs the test has (no python3 needed).
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	seat, wb, err := watchedSeat(fmt.Sprintf("%q -test.run=^$", exe), 0, opts, "")
	if err != nil {
		t.Fatal(err)
	}
	defer seat.Bot.Close()
	if _, ok := seat.Bot.(match.Logger); !ok {
		t.Errorf("an external seat's bot (%T) hides match.Logger", seat.Bot)
	}
	if _, ok := seat.Bot.(match.Preparer); !ok {
		t.Errorf("an external seat's bot (%T) hides match.Preparer", seat.Bot)
	}
	if _, ok := seat.Bot.(match.Marker); !ok {
		t.Errorf("an external seat's bot (%T) hides match.Marker", seat.Bot)
	}
	if _, ok := seat.Bot.(*watchedPlayer); !ok || wb == nil {
		t.Errorf("an external seat's bot is %T, not watched", seat.Bot)
	}
}
