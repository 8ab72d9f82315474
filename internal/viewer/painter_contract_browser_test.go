package viewer

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// contractRuleset is the toy duel under an id of its own, registered
// with contractPainter as its painter (and nowhere but this package's
// tests), so the other toy pages keep the board's own drawing.
type contractRuleset struct{ toyRuleset }

func (contractRuleset) ID() string { return "toycontract" }

// contractPainter is a painter that reads its Geometry as the contract
// (contract.js) types it: g.packed, g.frame (the frame of g.turn) and
// g.turn in its legend (a control, Q, rebuilds it) and in each command
// it words, noting what it saw in window.seen.
const contractPainter = `(function (rewind) {
  'use strict';
  window.seen = [];
  function note(hook, g) {
    window.seen.push({Hook: hook, Turn: g.turn, Frame: g.frame.turn, Game: g.packed.game, Framed: g.frame === g.packed.frames[g.turn]});
  }
  rewind.boards.toycontract = {
    controls: [{ id: 'probe', label: 'probe', key: 'q' }],
    legend: function (packed, g) { note('legend', g); return ['turn ' + g.turn + ' of ' + g.packed.game]; },
    command: function (text, p, f, g) { note('command', g); return null; }
  };
})(window.rewind);
`

func init() {
	r := contractRuleset{toyRuleset{topo: engine.Square, w: 5, h: 5}}
	if _, ok := engine.Lookup(r.ID()); !ok {
		engine.Register(engine.Registration{Ruleset: r, Name: "Toy contract", MinPlayers: 2, MaxPlayers: 2, MinTurns: 1, MaxTurns: 1000, DefaultTurns: 40,
			Round: "turns", BoardScript: []byte(contractPainter)})
	}
}

// TestBrowserPainterGeometry: every hook of a painter gets the Geometry
// of the turn shown, as the contract types it (g.packed the replay,
// g.frame the frame of g.turn), the legend too, which the page builds
// before it draws the first frame (it got a null frame and packed then,
// and the page could not start).
func TestBrowserPainterGeometry(t *testing.T) {
	p, err := PackStream(newToyStream(engine.Square, 5, 5, 20, "ann", "bob"), StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	p.Game = "toycontract"
	var page bytes.Buffer
	if err := WriteReplayHTML(context.Background(), &page, p, "contract.rwd"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "contract.html")
	write(t, file, page.Bytes())
	b := browsertest.Start(t, 2*time.Minute)
	openReplay(t, b, "file://"+file+"#turn=9")

	type seen struct {
		Hook        string
		Turn, Frame int
		Game        string
		Framed      bool
	}
	check := func(when string, turn int) {
		t.Helper()
		var got []seen
		var legend string
		b.Eval(t, `window.seen.splice(0)`, &got)
		b.Eval(t, `document.getElementById('legend').textContent`, &legend)
		hooks := map[string]bool{}
		for _, s := range got {
			hooks[s.Hook] = true
			// The legend at the start is built before the first seek: turn 0.
			want := turn
			if s.Hook == "legend" && when == "start" {
				want = 0
			}
			if s.Turn != want || s.Frame != want || !s.Framed || s.Game != "toycontract" {
				t.Errorf("%s: %s saw %+v, want turn %d's frame of toycontract", when, s.Hook, s, want)
			}
		}
		if !hooks["legend"] || !hooks["command"] {
			t.Errorf("%s: hooks called %v, want the legend and a command", when, hooks)
		}
		if want := "turn " + map[bool]string{true: "0", false: "9"}[when == "start"] + " of toycontract"; !bytes.Contains([]byte(legend), []byte(want)) {
			t.Errorf("%s: legend %q, want %q", when, legend, want)
		}
	}
	check("start", 9)
	// Q flips the painter's control: the board and the legend again, at
	// the turn shown.
	b.Eval(t, `window.dispatchEvent(new KeyboardEvent('keydown', {key: 'q'})); window.rewind.controls().probe`, new(bool))
	b.Eval(t, `window.rewind.select(-1); true`, nil)
	check("after Q", 9)
	b.CheckProblems(t)
}
