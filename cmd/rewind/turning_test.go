package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestTurningPointsThroughCLI: on RuntimeTerrorsVictory.cfr, `analyze`
// lists the turning points (Skynet's surges at 360–363, the lead swing at
// 367) before the events, `analyze --explain 367` says what each side did,
// and the page `report` writes lists them above an events table whose
// filter folds the later lead changes until asked (Chromium).
func TestTurningPointsThroughCLI(t *testing.T) {
	rt := testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")
	out, err := runCLIOut(t, "analyze", rt)
	if err != nil {
		t.Fatal(err)
	}
	tp, ev := strings.Index(out, "turning points:"), strings.Index(out, "events (")
	if tp < 0 || ev < tp {
		t.Fatalf("analyze lists no turning points before the events:\n%s", out)
	}
	for _, w := range []string{`"Skynet" surges: 155095 energy on attacks in turns 360–361`, `"Skynet" surges: 83200 gold on buildings and upgrades in turns 361–363`,
		`turn  367  lead swing: "RuntimeTerrors" gains 123424 gold on "Skynet"`} {
		if !strings.Contains(out[tp:ev], w) {
			t.Errorf("analyze's turning points lack %q:\n%s", w, out[tp:ev])
		}
	}
	out, err = runCLIOut(t, "analyze", rt, "--explain", "367")
	if err != nil || !strings.HasPrefix(out, `At turn 367 "RuntimeTerrors" (202308 gold) takes the lead from "Skynet" (200040 gold). Turns 358–367:`) {
		t.Errorf("analyze --explain 367: %v\n%s", err, out)
	}
	if _, err := runCLIOut(t, "analyze", rt, "--explain", "2"); err == nil || !strings.Contains(err.Error(), "no lead change") {
		t.Errorf("analyze --explain 2: %v", err)
	}

	page := filepath.Join(t.TempDir(), "rt.html")
	mustRunCLI(t, "report", rt, "-o", page)
	b := browsertest.Start(t, 2*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `document.readyState === 'complete'`, time.Minute)
	type state struct {
		TP             []string
		Explain        string
		Leads, Visible int
		LastLead       int
		Note           string
	}
	read := func() state {
		var s state
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const tp = [...document.querySelectorAll('[data-testid=turning-points] tr')];
			const leads = [...document.querySelectorAll('.events tr[data-kind=lead_change]')].filter(r => !r.hidden);
			return {TP: tp.map(r => r.querySelector('td.name').firstChild.textContent.trim()), Explain: (document.querySelector('[data-testid=turning-points] .explain') || {}).textContent || '',
				Leads: leads.length, LastLead: Math.max(0, ...leads.map(r => +r.cells[0].textContent)),
				Visible: [...document.querySelectorAll('.events tr[data-kind]')].filter(r => !r.hidden).length,
				Note: document.querySelector('[data-testid=folded-note]').textContent}; })()`, &s)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := read()
	joined := strings.Join(s.TP, "\n")
	for _, w := range []string{"Skynet surges: 155095 energy on attacks in turns 360–361", "lead swing: RuntimeTerrors gains 123424 gold on Skynet"} {
		if !strings.Contains(joined, w) {
			t.Errorf("the report's turning points lack %q:\n%s", w, joined)
		}
	}
	if s.Leads == 0 || s.LastLead > 50 || !strings.Contains(s.Note, "later lead changes folded") || !strings.Contains(s.Explain, "takes the lead from") {
		t.Errorf("at first: %+v (want the opening's lead changes only, a folded note)", s)
	}
	click := func(kind string) {
		if err := chromedp.Run(b.Ctx, chromedp.Click(`.ev-filter input[data-kind="`+kind+`"]`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	click("lead_change") // off
	if s2 := read(); s2.Leads != 0 || s2.Visible >= s.Visible {
		t.Errorf("lead changes off: %+v", s2)
	}
	click("lead_change") // on: all of them
	if s3 := read(); s3.Leads <= s.Leads || s3.LastLead <= 50 || s3.Note != "" {
		t.Errorf("lead changes on again: %+v, want every lead change", s3)
	}
	b.CheckProblems(t)
}

// TestExplainAnyGame: `analyze --explain TURN` explains a lead change of
// any game from its score (a Skyport match played through the CLI, whose
// ruleset declares nothing more to explain it with).
func TestExplainAnyGame(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "s.rwd")
	mustRunCLI(t, "play", "--game", "skyport", "--turns", "200", "--seed", "3", "-o", rwd)
	out, err := runCLIOut(t, "analyze", "--format", "json", rwd)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Events []struct {
			Turn          int
			Kind          string
			Player, Other int
		}
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	turn := 0
	for _, e := range a.Events {
		if e.Kind == "lead_change" && e.Other >= 0 {
			turn = e.Turn
		}
	}
	if turn == 0 {
		t.Fatal("the match has no lead change between two players")
	}
	out, err = runCLIOut(t, "analyze", rwd, "--explain", strconv.Itoa(turn+1))
	if err != nil || !strings.HasPrefix(out, fmt.Sprintf("At turn %d ", turn)) || !strings.Contains(out, " points) takes the lead from ") ||
		!strings.Contains(out, fmt.Sprintf("Turns %d–%d: ", max(2, turn-9), turn)) || !strings.Contains(out, " points; ") {
		t.Errorf("analyze --explain %d: %v\n%s", turn, err, out)
	}
}
