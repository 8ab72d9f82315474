package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
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
	evalJS(t, b, `(() => { const f = document.getElementById('fork'); const ok = !!f && !f.disabled; if (ok) f.click(); return ok; })()`, &enabled)
	if !enabled {
		t.Fatal("the play-on button is missing or disabled at turn 250")
	}
	if err := b.WaitJS(`document.querySelectorAll('[data-testid=fork-seats] select').length === 8`, 30*time.Second); err != nil {
		t.Fatalf("the seats to play on with: %v", err)
	}
	var picks, bots []string
	evalJS(t, b, `[...document.querySelectorAll('[data-testid=fork-seats] select')].map(s => s.value)`, &picks)
	evalJS(t, b, `window.rewind.packed().players.map(p => p.bot)`, &bots)
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
	evalJS(t, b, `document.getElementById('fork-go').click(), true`, nil)
	if err := b.WaitJS(`location.pathname === '/replay/c03-fork-T250.rwd' && window.rewind && (window.rewind.ready || window.rewind.error)`, 60*time.Second); err != nil {
		var status string
		evalJS(t, b, `(document.getElementById('fork-status') || {}).textContent || ''`, &status)
		t.Fatalf("the fork did not open (status %q): %v", status, err)
	}
	var head string
	evalJS(t, b, `document.querySelector('header').textContent`, &head)
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
	evalJS(t, b, `!!document.getElementById('fork')`, &button)
	if button {
		t.Error("a one-file server's page offers to play on")
	}
	b.CheckProblems(t)
}
