package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/recording"
)

// TestBrowserPlayOn: on a library's replay page, "play on from here" at
// turn 250 of c03 shows the seats, each with its own bot preselected
// (the game's built-ins in turn for seats that name none); "play on from turn 250" plays the new game,
// which opens at turn 250 saying it was played on from its parent, and
// is kept beside it. A one-file server's page has no button.
func TestBrowserPlayOn(t *testing.T) {
	dir, base := fixtureServer(t, Options{})
	b := browsertest.Start(t, 3*time.Minute)
	openReplay(t, b, base+"/replay/c03.rwd#turn=250")
	var enabled bool
	b.Eval(t, `(() => { const f = document.getElementById('fork'); const ok = !!f && !f.disabled; if (ok) f.click(); return ok; })()`, &enabled)
	if !enabled {
		t.Fatal("the play-on button is missing or disabled at turn 250")
	}
	if err := b.WaitJS(`document.querySelectorAll('[data-testid=fork-seats] select').length === 8`, 30*time.Second); err != nil {
		t.Fatalf("the seats to play on with: %v", err)
	}
	var picks, bots []string
	b.Eval(t, `[...document.querySelectorAll('[data-testid=fork-seats] select')].map(s => s.value)`, &picks)
	b.Eval(t, `window.rewind.packed().players.map(p => p.bot)`, &bots)
	// c03.rwd (its commands from the reference's vector) names no bot:
	// the game's built-ins are offered in turn.
	info, _ := engine.About("colorfight2")
	for i, pick := range picks {
		want := bots[i]
		if want == "" {
			want = info.Bots[i%len(info.Bots)].Name
		}
		if pick != want {
			t.Errorf("seat %d: %q preselected, want %q (its bot: %q)", i, pick, want, bots[i])
		}
	}
	b.Eval(t, `document.getElementById('fork-go').click(), true`, nil)
	if err := b.WaitJS(`location.pathname === '/replay/c03-fork-T250.rwd' && window.rewind && (window.rewind.ready || window.rewind.error)`, 60*time.Second); err != nil {
		var status string
		b.Eval(t, `(document.getElementById('fork-status') || {}).textContent || ''`, &status)
		t.Fatalf("the fork did not open (status %q): %v", status, err)
	}
	var head string
	b.Eval(t, `document.querySelector('header').textContent`, &head)
	if !strings.Contains(head, "played on from turn 250 of c03.rwd") {
		t.Errorf("the fork's header: %q", head)
	}
	if got := turnNow(t, b); got != 250 {
		t.Errorf("the fork opens at turn %d, want 250", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "c03-fork-T250.rwd")); err != nil {
		t.Error(err)
	}

	// rewind view: one file, no button.
	single, err := OpenFile(filepath.Join(dir, "c03.rwd"))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	one := serve(t, single, Options{})
	openReplay(t, b, one+"/replay/c03.rwd")
	var button bool
	b.Eval(t, `!!document.getElementById('fork')`, &button)
	if button {
		t.Error("a one-file server's page offers to play on")
	}
	b.CheckProblems(t)
}

// TestBrowserPlayOnSaysWhichBot (issue 40, item 4): "play on from here"
// on a game whose seat 2 an external bot played says, before it plays,
// that seat 1 plays on as it played and that seat 2's choice takes the
// external bot's place (the server never runs a command a replay
// names); choosing again says it again.
func TestBrowserPlayOnSaysWhichBot(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	ext := cf2Seat(t, "random", "")
	ext.Identity = "python3 mybot.py"
	playCF2(t, 9, 200, recording.NewRecorder(&buf, time.Time{}, "rewind test"), cf2Seat(t, "greedy", ""), ext)
	write(t, filepath.Join(dir, "ext.rwd"), buf.Bytes())
	base := serveDir(t, dir, Options{})
	b := browsertest.Start(t, 3*time.Minute)
	openReplay(t, b, base+"/replay/ext.rwd#turn=100")
	b.Eval(t, `document.getElementById('fork').click(), true`, nil)
	if err := b.WaitJS(`document.querySelectorAll('[data-testid=fork-note]').length === 2`, 30*time.Second); err != nil {
		t.Fatalf("the seats to play on with: %v", err)
	}
	var notes []string
	read := func() {
		b.Eval(t, `[...document.querySelectorAll('[data-testid=fork-note]')].map(e => e.textContent)`, &notes)
	}
	read()
	if len(notes) != 2 || notes[0] != "as it played" || notes[1] != `in place of python3 mybot.py` {
		t.Errorf("the seats' notes %q, want seat 1 as it played, seat 2 in place of its external bot", notes)
	}
	b.Eval(t, `(() => { const s = document.querySelectorAll('[data-testid=fork-seats] select')[0]; s.value = 'turtle'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
	read()
	if len(notes) != 2 || notes[0] != "in place of greedy" {
		t.Errorf("seat 1 given turtle: notes %q, want %q", notes, "in place of greedy")
	}
	b.CheckProblems(t)
}
