package monadlog

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

// FuzzMonadLog: no input makes Decode panic, and a log it accepts keeps
// the invariants its users rely on (20×20 entries, owners and hives among
// the players, commands on the map), so that Kinds and RankedPlayers run
// on it. The seeds are the real logs under testdata/monad/official and a
// small log in both encodings.
func FuzzMonadLog(f *testing.F) {
	// The real logs, cut to their first three entries (a whole log makes
	// each run slow).
	js := testutil.ReadFile(f, filepath.Join(official, "m05.replay.json"))
	cut := cutLog(f, string(js), 3)
	if l, err := Decode(strings.NewReader(cut)); err != nil || len(l.Turns) != 3 || len(l.Ranked) != 2 {
		f.Fatalf("the cut log: %v", err)
	}
	f.Add([]byte(cut))
	f.Add(gzipped(msgpackCompatibleJSON([]byte(cut))))
	small := []byte(small())
	mp := msgpackCompatibleJSON(small)
	f.Add(small)
	f.Add(mp)
	f.Add(gzipped(mp))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Decode(bytes.NewReader(data))
		if err != nil {
			return
		}
		if l.W != Size || l.H != Size || len(l.Turns) == 0 || l.Players < 1 || l.Players > 4 || len(l.Ranked) > l.Players {
			t.Fatalf("log %dx%d, %d turns, %d players, %d ranked", l.W, l.H, len(l.Turns), l.Players, len(l.Ranked))
		}
		for i, tr := range l.Turns {
			if len(tr.Cells) != Size*Size || len(tr.Res) != l.Players {
				t.Fatalf("turn %d: %d cells, %d res", i, len(tr.Cells), len(tr.Res))
			}
			for _, c := range tr.Cells {
				if int(c.Owner) >= l.Players || int(c.Hive) >= l.Players || c.Owner < -1 || c.Hive < -1 || c.Units < 0 || c.Resource < 0 || (c.Owner < 0) != (c.Units == 0) {
					t.Fatalf("turn %d: cell %+v", i, c)
				}
			}
			for _, c := range tr.Cmds {
				if int(c.Player) >= l.Players || c.P < 0 || c.P >= Size*Size || c.N < 0 || c.Dir > 7 {
					t.Fatalf("turn %d: command %+v", i, c)
				}
			}
			if k := l.Kinds(i); i+1 < len(l.Turns) && len(k) != len(tr.Cmds) {
				t.Fatalf("turn %d: %d kinds for %d commands", i, len(k), len(tr.Cmds))
			}
		}
		l.RankedPlayers()
	})
}

// cutLog returns the JSON log js cut to its first n entries, rankedBots
// kept.
func cutLog(tb testing.TB, js string, n int) string {
	at := 0
	for i := 0; i <= n; i++ {
		k := strings.Index(js[at+1:], `{"map": `)
		if k < 0 {
			tb.Fatalf("the log has fewer than %d entries", n+1)
		}
		at += 1 + k
	}
	rb := strings.LastIndex(js, `"rankedBots": `)
	if rb < 0 {
		tb.Fatal("no rankedBots")
	}
	return strings.TrimRight(js[:at], ", ") + "], " + js[rb:]
}
