package monad_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestMonadRejectedCommandShown (issue 40, item 3): a command the rules
// reject before the turn (a move without its direction, one with
// direction 9) is shown on the replay page as the bot sent it, with why
// it was rejected — not as a stand-in such as {} that the bot never sent.
// Through the binary: `rewind play` with a Python bot, then `rewind view`
// in Chromium.
func TestMonadRejectedCommandShown(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	rwd := filepath.Join(t.TempDir(), "monad.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "3", "--turns", "6", "--bot", "expander", "--bot", "'"+py+"' testdata/malformed.py", "--deadline", "1m", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	url := clitest.ViewPage(t, rwd)
	b := browsertest.Start(t, 2*time.Minute)
	openPage(t, b, url+"#turn=3")
	b.Wait(t, `window.rewind.turn() === 3 && document.querySelectorAll('#commands .player-cmds[data-player="1"] li').length > 0`, time.Minute)
	var items []string
	b.Eval(t, `[...document.querySelectorAll('#commands .player-cmds[data-player="1"] li')].map(li => li.textContent)`, &items)
	want := [][2]string{
		{`{"l": [2, 3], "c": "MOVE", "n": 4}`, "lacks one of l, c, d, n"},
		{`{"l": [5, 6], "c": "MOVE", "d": 9, "n": 1}`, "direction is not an integer 1..7"},
	}
	if len(items) != len(want) {
		t.Fatalf("the page lists %d commands of the bot, want %d: %q", len(items), len(want), items)
	}
	for i, w := range want {
		if !strings.Contains(items[i], w[0]) || !strings.Contains(items[i], w[1]) {
			t.Errorf("command %d is shown as %q, want the text sent %s and why it was rejected (%s)", i, items[i], w[0], w[1])
		}
	}
}
