package source

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// TestForkTurnBounds: NewFork refuses a turn out of range, whatever its
// size, before allocating for it; in range it keeps the rounds before
// the turn and names its parent.
func TestForkTurnBounds(t *testing.T) {
	data := testutil.ReadFile(t, "../../testdata/conformance/c06.cfr")
	for _, turn := range []int{-3, 0, 200, math.MaxInt} {
		if _, err := NewFork("c06.cfr", data, turn); err == nil {
			t.Errorf("fork at turn %d accepted", turn)
		}
	}
	fk, err := NewFork("c06.cfr", data, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(fk.Prefix) != 50 || fk.Parent.Turn != 50 || fk.Parent.Source != "c06.cfr" {
		t.Errorf("fork at 50: %d rounds, parent %+v", len(fk.Prefix), fk.Parent)
	}
}

// TestForkKeepBounds: a fork refuses a parent whose rounds hold more
// command text, or more commands, than it keeps (MaxForkTextBytes,
// MaxForkCommands; docs/limits.md), with replay.ErrLimit naming the
// turn; within the bounds it keeps a copy.
func TestForkKeepBounds(t *testing.T) {
	var h heldRounds
	var r match.GameRound
	cmds := [][]string{{"a 1 2 3"}, nil}
	if err := h.keep(&r, 0, -1, cmds, []engine.Fault{0, engine.FaultTimeout}, []string{"", "late"}); err != nil {
		t.Fatal(err)
	}
	cmds[0][0] = "changed"
	if r.Commands[0][0] != "a 1 2 3" || r.Faults[1] != engine.FaultTimeout || r.FaultText[1] != "late" || r.Active != -1 {
		t.Fatalf("kept %+v", r)
	}
	long := strings.Repeat("x", MaxForkTextBytes/2)
	if err := h.keep(&r, 1, -1, [][]string{{long}}, nil, nil); err != nil {
		t.Fatalf("half the text bound: %v", err)
	}
	err := h.keep(&r, 2, -1, [][]string{{long}}, nil, nil)
	if !errors.Is(err, replay.ErrLimit) || !strings.Contains(err.Error(), "turn 3") {
		t.Fatalf("past the text bound: %v", err)
	}
	h = heldRounds{n: MaxForkCommands}
	if err := h.keep(&r, 4, -1, [][]string{{"a"}}, nil, nil); !errors.Is(err, replay.ErrLimit) {
		t.Fatalf("past the command bound: %v", err)
	}
}
