package viewer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
)

// midWordJS lists the texts of the elements sel matches that a line
// breaks inside a word: between two characters neither of which is a
// space or a hyphen (in one text node). A name too long for its box must wrap between its
// words or end in an ellipsis, never be cut mid-word.
const midWordJS = `(sel => {
	const out = [];
	for (const e of document.querySelectorAll(sel)) {
		const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
		let n, top = null, prev = '', broken = false;
		while (!broken && (n = w.nextNode())) {
			const s = n.textContent;
			prev = ' '; // elements' texts may break between them
			for (let i = 0; i < s.length; i++) {
				const r = document.createRange();
				r.setStart(n, i); r.setEnd(n, i + 1);
				const rs = r.getClientRects();
				if (!rs.length || rs[0].width === 0) { if (/\s/.test(s[i])) prev = ' '; continue; } // a space at a line's end
				if (top !== null && rs[0].top > top + 2 && !/[\s-]/.test(prev) && !/\s/.test(s[i])) { out.push(e.textContent.trim()); broken = true; break; }
				top = rs[0].top; prev = s[i];
			}
		}
	}
	return out;
})`

// narrowLibrary is a library of two ColorfightII games of 8 players with
// long names: some of many words, some of one word too long for a
// phone's column.
func narrowLibrary(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	names := bot.BuiltinNames()
	for g := range 2 {
		var seats []match.GameSeat
		for i := range 8 {
			name := fmt.Sprintf("the patient economist of the far north number %d", i)
			if i%2 == 1 {
				name = fmt.Sprintf("PLEASE_LEAVE_AND_NEVER_COME_BACK_AGAIN_%d", i)
			}
			seats = append(seats, cf2Seat(tb, names[i%len(names)], name))
		}
		var buf bytes.Buffer
		playCF2(tb, uint64(3+g), 60, recording.NewRecorder(&buf, time.Date(2026, 11, 26, 0, g, 0, 0, time.UTC), "rewind test"), seats...)
		write(tb, filepath.Join(dir, fmt.Sprintf("g%d.rwd", g)), buf.Bytes())
	}
	return dir
}

// TestNarrowStandings (issue 40, item 15): at 390 px the library, its
// standings and a replay page's player table fit — nothing sticks out of
// its box, a wide table scrolls inside its own — and long names wrap at
// word boundaries or end in an ellipsis, never broken mid-word.
func TestNarrowStandings(t *testing.T) {
	lib := indexedLib(t, narrowLibrary(t))
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 4*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(390, 900)); err != nil {
		t.Fatal(err)
	}
	for _, page := range []struct{ url, ready, names string }{
		{base + "/standings", `document.querySelector('table.standings')`, `table.standings tbody td`},
		{base + "/", `document.querySelector('#library tbody tr')`, `#library tbody td`},
	} {
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(page.url)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(page.ready, 30*time.Second); err != nil {
			t.Fatalf("%s: %v", page.url, err)
		}
		var bad, broken []string
		b.Eval(t, overflowJS, &bad)
		if len(bad) > 0 {
			t.Errorf("%s at 390 px: elements outside their container:\n%q", page.url, bad)
		}
		b.Eval(t, midWordJS+"("+jsString(page.names)+")", &broken)
		if len(broken) > 0 {
			t.Errorf("%s at 390 px: names broken mid-word: %q", page.url, broken)
		}
	}
	openReplay(t, b, base+"/replay/g0.rwd#turn=30")
	var bad, broken []string
	b.Eval(t, overflowJS, &bad)
	if len(bad) > 0 {
		t.Errorf("replay page at 390 px: elements outside their container:\n%q", bad)
	}
	b.Eval(t, midWordJS+"('#players td.name')", &broken)
	if len(broken) > 0 {
		t.Errorf("replay page at 390 px: names broken mid-word: %q", broken)
	}
	b.CheckProblems(t)
}
