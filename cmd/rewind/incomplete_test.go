package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestIncompleteGameHasNoWinner: a game cut short — a recording killed
// mid-game, a match stopped at turn 51 of 200 (as a server game stopped)
// — names its first "leader at round N (game incomplete)" in analyze,
// report and the viewer, never "winner"; a whole game still has a winner.
func TestIncompleteGameHasNoWinner(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", "turtle", "--turns", "200", "-o", full)
	data := testutil.ReadFile(t, full)
	killed := filepath.Join(dir, "killed.rwd")
	if err := os.WriteFile(killed, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	// A match stopped after turn 51: the recording ends there, cleanly.
	stopped := filepath.Join(dir, "stopped.rwd")
	f, err := os.Create(stopped)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := engine.About("colorfight2")
	g, _ := info.FindBot("greedy")
	r, _ := info.FindBot("raider")
	ctx, cancel := context.WithCancel(context.Background())
	cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 4, MaxTurns: 200,
		Seats:    []match.GameSeat{{Bot: match.BuiltinPlayer(g)}, {Bot: match.BuiltinPlayer(r)}},
		Recorder: recording.NewRecorder(f, time.Now(), "rewind test"),
		Progress: func(turn int) {
			if turn == 51 {
				cancel()
			}
		}}
	res, err := match.RunGame(ctx, cfg)
	f.Close()
	if err != nil || res.Turn != 51 {
		t.Fatalf("stopped match: %v, turn %d", err, res.Turn)
	}

	leader := regexp.MustCompile(`(?i)leader at (?:round|turn) (\d+) \(game incomplete\)`)
	b := browsertest.Start(t, 3*time.Minute)
	for _, c := range []struct {
		file   string
		rounds string // "" for any
	}{{killed, ""}, {stopped, "51"}, {full, "200"}} {
		name := filepath.Base(c.file)
		complete := c.file == full
		check := func(what, text string) {
			t.Helper()
			text = strings.ReplaceAll(text, dir, "DIR") // the test's name is in it
			m := leader.FindStringSubmatch(text)
			switch {
			case complete && (m != nil || !strings.Contains(strings.ToLower(text), "winner")):
				t.Errorf("%s of the whole game: want a winner, no leader line:\n%.400s", what, text)
			case !complete && (m == nil || strings.Contains(strings.ToLower(text), "winner")):
				t.Errorf("%s of %s: want \"leader at round N (game incomplete)\" and no winner:\n%.600s", what, name, text)
			case !complete && c.rounds != "" && m[1] != c.rounds:
				t.Errorf("%s of %s: leader at round %s, want %s", what, name, m[1], c.rounds)
			}
		}
		out, err := runCLIOut(t, "analyze", c.file)
		if err != nil && !complete && !strings.Contains(out, "round") {
			t.Fatalf("analyze %s: %v\n%s", name, err, out)
		}
		check("analyze", out)
		report := filepath.Join(dir, name+".html")
		if out, err := runCLIOut(t, "report", c.file, "-o", report); err != nil && !complete && !strings.Contains(out, "round") {
			t.Fatalf("report %s: %v\n%s", name, err, out)
		}
		page := testutil.ReadFile(t, report)
		summary := regexp.MustCompile(`(?s)<p data-testid="summary">(.*?)</p>`).FindSubmatch(page)
		if summary == nil {
			t.Fatalf("report of %s has no summary", name)
		}
		check("report", string(summary[1]))

		url := viewPage(t, c.file)
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, time.Minute)
		var head string
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`document.querySelector('[data-testid=summary]').textContent + ' · ' + ((document.querySelector('[data-testid=outcome]') || {}).textContent || '')`, &head)); err != nil {
			t.Fatal(err)
		}
		check("the viewer's header", head)
	}
}
