package replay_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/testutil/simtest"
	"github.com/rewind-game/rewind/replay"
)

// flood records a 2-player game of rounds rounds in which both players
// send cmd(i) for i < n every round (after round 0, which takes none).
func flood(tb testing.TB, rounds, n int, cmd func(i int) colorfight2.Command) []byte {
	tb.Helper()
	g, err := colorfight2.Ruleset.New(3, engine.Settings{Players: 2, MaxTurns: rounds, Names: []string{"a", "b"}})
	if err != nil {
		tb.Fatal(err)
	}
	list := make([]colorfight2.Command, n)
	for i := range list {
		list[i] = cmd(i)
	}
	return recordApplied(tb, g.(*colorfight2.Game), 3, func(t int) [][]colorfight2.Command {
		if t == 0 {
			return nil
		}
		return [][]colorfight2.Command{list, list}
	})
}

// recordApplied records g, a ColorfightII game at turn 0 drawn from seed
// (or started from a setup), in its own codec until it is over: round t
// applies cmds(t) (colorfight2.Game.PlayApplied).
func recordApplied(tb testing.TB, g *colorfight2.Game, seed uint64, cmds func(t int) [][]colorfight2.Command) []byte {
	tb.Helper()
	names := make([]string, g.Players())
	for p := range names {
		names[p] = fmt.Sprint("p", p+1)
	}
	h, err := replay.GameHeader(colorfight2.Ruleset, g, seed, nil, g.MaxTurns(), names, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewGameWriter(&buf, h)
	if err != nil {
		tb.Fatal(err)
	}
	for t := 0; !g.Over(); t++ {
		g.PlayApplied(cmds(t))
		if err := w.WriteRound(nil, g); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(g); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// failingAttack is an attack no player can afford.
func failingAttack(i int) colorfight2.Command {
	return colorfight2.Command{Kind: colorfight2.CmdAttack, X: i % 30, Y: i / 30 % 30, Energy: 1 << 40}
}

// TestFloodBounded is issue 13's flood at reduced size: both bots send
// MaxCommandsPerRound failing commands every round. Verifying allocates
// one round's commands (players × MaxCommandsPerRound × a Command, twice
// for the slices' growth) plus a fixed 24 MiB (the zstd window and
// buffers, the damage tracker, two states) — the same for 10 rounds as for
// 40, where it used to keep a copy of every command of the game.
func TestFloodBounded(t *testing.T) {
	verify := func(rwd []byte) uint64 {
		return testutil.Allocated(func() {
			res, err := replay.VerifySim(bytes.NewReader(rwd), nil)
			if err != nil || !res.Complete {
				t.Fatal(err, res)
			}
		})
	}
	n := replay.MaxCommandsPerRound
	short, long := flood(t, 10, n, failingAttack), flood(t, 40, n, failingAttack)
	a, b := verify(short), verify(long)
	bound := uint64(2*2*n)*uint64(unsafe.Sizeof(colorfight2.Command{})) + 24<<20
	t.Logf("%d and %d bytes on disk: verify allocates %.1f MB for 10 rounds, %.1f MB for 40 (bound %.1f MB)", len(short), len(long), float64(a)/1e6, float64(b)/1e6, float64(bound)/1e6)
	if b > bound {
		t.Errorf("40 rounds allocate %d bytes, over the bound %d", b, bound)
	}
	if b > a+1<<20 {
		t.Errorf("allocation grows with rounds: %d for 10, %d for 40", a, b)
	}
}

// TestRawTextBudget: a round of players sending MaxCommandsPerRound
// malformed commands of MaxRawCommandBytes distinct bytes each keeps at
// most MaxRawBytesPerRound bytes of their text per player; every command
// keeps its error code, and the game verifies.
func TestRawTextBudget(t *testing.T) {
	n := replay.MaxCommandsPerRound
	rwd := flood(t, 3, n, func(i int) colorfight2.Command {
		raw := fmt.Sprintf("%06d", i) + strings.Repeat("x", colorfight2.MaxRawCommandBytes-6)
		return colorfight2.Command{Kind: colorfight2.CmdInvalid, Err: colorfight2.ErrUnknownCommand, Raw: raw}
	})
	simtest.Resimulate(t, "the flood", bytes.NewReader(rwd), func(s *replay.Sim) {
		turn := s.Round().Turn
		for p, l := range s.Game().(*colorfight2.Game).Applied() {
			kept := 0
			for _, c := range l {
				kept += len(c.Raw)
				if c.Kind != colorfight2.CmdInvalid || c.Err != colorfight2.ErrUnknownCommand {
					t.Fatalf("round %d player %d: %+v", turn, p+1, c)
				}
			}
			if kept > colorfight2.MaxRawBytesPerRound || turn > 0 && (len(l) != n || kept == 0) {
				t.Fatalf("round %d player %d: %d commands keep %d bytes of text", turn, p+1, len(l), kept)
			}
		}
	})
	if res, err := replay.VerifySim(bytes.NewReader(rwd), nil); err != nil || !res.Complete {
		t.Fatal(err, res)
	}
}
