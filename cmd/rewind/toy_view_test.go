package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestToyAnalyzeReportViewThroughCLI: a toy game recorded by `rewind
// play` (with a Python bot that logs) is analysed by `rewind analyze`
// (table, JSON, CSV), reported by `rewind report` and shown by `rewind
// view` in Chromium: board, a chart per metric, the game's events, the
// bot's log at its turn.
func TestToyAnalyzeReportViewThroughCLI(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the logging bot cannot run")
	}
	dir := t.TempDir()
	bot := filepath.Join(dir, "toybot.py")
	if err := os.WriteFile(bot, []byte(toyBot), 0o644); err != nil {
		t.Fatal(err)
	}
	rwd := filepath.Join(dir, "toy.rwd")
	// A deadline no loaded machine misses: a late answer would be a
	// timeout, and fewer commands rejected than the test counts.
	mustRunCLI(t, "play", "--game", "toyseq", "--seed", "8", "--turns", "30", "--deadline", "60s", "--bot", "painter", "--bot", py+" "+bot, "-o", rwd)

	// analyze --format json: the toy's metrics, events and ranking.
	out, err := runCLIOut(t, "analyze", rwd, "--format", "json")
	if err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	var a struct {
		Ruleset string `json:"game"`
		Turns   int    `json:"turns"`
		Metrics []struct {
			Name string `json:"name"`
		} `json:"metrics"`
		Events []struct {
			Turn int    `json:"turn"`
			Kind string `json:"kind"`
			Text string `json:"text"`
		} `json:"events"`
		Players []struct {
			Name     string `json:"name"`
			Rank     int    `json:"rank"`
			Rejected int64  `json:"rejected"`
			OwnTurns int    `json:"own_turns"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("analyze JSON: %v\n%s", err, out)
	}
	painted := 0
	for _, e := range a.Events {
		if e.Kind == "painted" && strings.Contains(e.Text, " painted (") {
			painted++
		}
	}
	if a.Ruleset != "toyseq" || a.Turns != 30 || len(a.Metrics) != 2 || a.Metrics[0].Name != "score" || painted == 0 || len(a.Players) != 2 {
		t.Fatalf("analysis: %+v", a)
	}
	if p := a.Players[1]; !strings.Contains(p.Name, "toybot") || p.Rank != 2 || p.Rejected != 15 || p.OwnTurns != 15 {
		t.Fatalf("the Python bot's summary: %+v", p)
	}
	for _, f := range []string{"table", "csv"} {
		if out, err := runCLIOut(t, "analyze", rwd, "--format", f); err != nil || !strings.Contains(out, "toybot") {
			t.Fatalf("analyze --format %s: %v\n%s", f, err, out)
		}
	}

	// report: a self-contained page with a chart per metric and the events.
	html := filepath.Join(dir, "toy.html")
	mustRunCLI(t, "report", rwd, "-o", html)
	page := testutil.ReadFile(t, html)
	for _, want := range []string{`"score"`, `"moves"`, "painted ("} {
		if !strings.Contains(string(page), want) {
			t.Fatalf("report lacks %q", want)
		}
	}

	// view, in Chromium.
	b := browsertest.Start(t, 4*time.Minute)
	url := viewPage(t, rwd)
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url+"#turn=4")); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
	var view struct {
		Error, Log, Active string
		Cells, Entities    int
		Events             int
	}
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => ({Error: window.rewind.error || '', Cells: window.rewind.drawn.cells, Entities: window.rewind.drawn.entities,
		Active: document.getElementById('active').textContent,
		Log: (document.querySelector('[data-testid=botlog]') || {}).textContent || '',
		Events: document.querySelectorAll('#events li.ev').length}))()`, &view)); err != nil {
		t.Fatal(err)
	}
	// Turn 4 is the round 3 -> 4, the Python bot's (player 1) second turn.
	if view.Error != "" || view.Cells != 25 || view.Entities != 2 || view.Events == 0 || !strings.Contains(view.Active, "toybot") || !strings.Contains(view.Log, "turn 3 at") {
		t.Fatalf("view at turn 4: %+v", view)
	}

	// The bot logs' search: typed into its box, Enter seeks the turn whose
	// log holds the text and selects the bot, whose log is then shown.
	if err := chromedp.Run(b.Ctx, chromedp.SendKeys(`[data-testid=log-search-input]`, "TURN 9 AT"), chromedp.SendKeys(`[data-testid=log-search-input]`, "\r")); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind.turn() === 10`, time.Minute)
	var found struct {
		Log, Status string
		Hits        []string
	}
	logSearchState := `(() => ({Log: (document.querySelector('[data-testid=botlog]') || {}).textContent || '',
		Status: document.querySelector('[data-testid=log-search-status]').textContent,
		Hits: [...document.querySelectorAll('[data-testid=log-hits] button')].map(b => b.textContent)}))()`
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(logSearchState, &found)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(found.Log, "turn 9 at") || !strings.HasPrefix(found.Status, "1 turn hold") || len(found.Hits) != 1 || !strings.HasPrefix(found.Hits[0], "turn 10 · ") {
		t.Fatalf("log search for turn 9: %+v", found)
	}
	// Every bot turn's log holds " at ": Enter goes to the next, Shift+Enter back.
	var turns []int
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const r = window.rewind, t = [];
		r.searchLogs(' at ', 1); t.push(r.turn()); r.searchLogs(' at ', 1); t.push(r.turn()); r.searchLogs(' at ', -1); t.push(r.turn());
		r.searchLogs('no such words', 1); t.push(r.turn()); return t; })()`, &turns)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(logSearchState, &found)); err != nil {
		t.Fatal(err)
	}
	if len(turns) != 4 || turns[0] != 12 || turns[1] != 14 || turns[2] != 12 || turns[3] != 12 || !strings.HasPrefix(found.Status, "No bot log holds") || len(found.Hits) != 0 {
		t.Fatalf("log search for ' at ' and for nothing: turns %v, %+v", turns, found)
	}

	b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	var charts []string
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`[...document.querySelectorAll('[data-testid=chart]')].map(d => d.dataset.metric)`, &charts)); err != nil {
		t.Fatal(err)
	}
	// The metrics' charts, then the Python bot's reply times.
	if strings.Join(charts, ",") != "score,moves,reply_time" {
		t.Fatalf("charts %v", charts)
	}
	b.CheckProblems(t)
}
