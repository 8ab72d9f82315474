package viewer

import (
	"slices"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserFloodCommands: a turn of a flood (more commands a player
// than MaxCommandsShown, all rejected) lists the first MaxCommandsShown
// of each player and says how many more were sent and rejected.
func TestBrowserFloodCommands(t *testing.T) {
	base := serveFile(t, "flood.rwd", flood(t, 5, 3*MaxCommandsShown), Options{})
	b := browsertest.Start(t, 2*time.Minute)
	openReplay(t, b, base+"/replay/flood.rwd#turn=3")
	var listed []int
	var more []string
	b.Eval(t, `[...document.querySelectorAll('#commands .player-cmds ol')].map(o => o.children.length)`, &listed)
	b.Eval(t, `[...document.querySelectorAll('#commands [data-testid=commands-more]')].map(e => e.textContent)`, &more)
	want := "…and 400 more (400 rejected)"
	if !slices.Equal(listed, []int{MaxCommandsShown, MaxCommandsShown}) || !slices.Equal(more, []string{want, want}) {
		t.Errorf("turn 3 lists %v commands, then %q; want %d each, then %q", listed, more, MaxCommandsShown, want)
	}
}
