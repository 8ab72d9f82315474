package monad_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// legacyFile is a Monad .rwd written by rewind before Monad moved onto
// the generic path (by the Monad-only writer since removed, format
// version 2 with logs): 4
// players, 140 turns, checkpoints every 10, bots' logs, malformed
// commands of every code, a reply that was not a list, timeouts and a
// crash.
const (
	legacyFile  = "testdata/legacy-4p.rwd"
	legacyTurns = 140
	legacyHash  = 0x6978483337da9cdf
)

// body returns the decompressed body of a .rwd: what follows the header
// (magic, version, JSON, map blob, CRC-32).
func body(t *testing.T, data []byte) []byte {
	t.Helper()
	off := 6
	n, k := binary.Uvarint(data[off:])
	off += k + int(n)
	n, k = binary.Uvarint(data[off:])
	off += k + int(n) + 4
	zr, err := zstd.NewReader(bytes.NewReader(data[off:]))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLegacyRecordingReadsAsStream: a Monad .rwd of the compact codec,
// written before the generic path existed, re-simulates through
// replay.Sim (the ruleset's engine.Codec) to its footer's hash; written
// again by the generic writer from the re-simulated game, its body is
// the same bytes; the rounds' commands as text, played through the seam
// (Fault and Round), reach the same hash at every turn.
func TestLegacyRecordingReadsAsStream(t *testing.T) {
	data := testutil.ReadFile(t, legacyFile)
	sim, err := replay.OpenSim(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	h := sim.Header()
	if !h.Compact() || h.Ruleset != monad.RulesetID || string(h.Setup) != `{"seed":77}` {
		t.Fatalf("header: compact %v ruleset %q setup %s", h.Compact(), h.Ruleset, h.Setup)
	}
	var names, bots []string
	for _, p := range h.Players {
		names, bots = append(names, p.Name), append(bots, p.Bot)
	}
	g := sim.Game()
	wh := replay.TextHeader(monad.Ruleset, 0, g.Setup(), h.Config.MaxTurn, names, bots)
	wh.Logs, wh.CheckpointEvery = true, h.CheckpointEvery
	var out bytes.Buffer
	w, err := replay.NewTextWriter(&out, wh)
	if err != nil {
		t.Fatal(err)
	}
	seam, err := monad.Ruleset.NewFromSetup(h.Setup, engine.Settings{Players: len(h.Players), MaxTurns: h.Config.MaxTurn})
	if err != nil {
		t.Fatal(err)
	}
	faults, garbage, texts := 0, 0, 0
	for {
		err := sim.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rd := sim.Round()
		if err := w.WriteLogs(rd.Logs); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRound(rd, g); err != nil {
			t.Fatal(err)
		}
		for p, f := range rd.Faults {
			if f != 0 {
				seam.Fault(p, f, "")
				faults++
				if f == engine.FaultGarbage {
					garbage++
				}
			}
		}
		for _, l := range rd.Commands {
			texts += len(l)
		}
		errs := seam.Round(rd.Commands)
		if seam.Hash() != g.Hash() || len(errs) != len(sim.Errors()) {
			t.Fatalf("turn %d: the commands as text give hash %016x and %d errors, the record %016x and %d", g.Turn(), seam.Hash(), len(errs), g.Hash(), len(sim.Errors()))
		}
	}
	if g.Turn() != legacyTurns || g.Hash() != legacyHash {
		t.Fatalf("re-simulated turn %d hash %016x, want %d %016x", g.Turn(), g.Hash(), legacyTurns, uint64(legacyHash))
	}
	if faults < 3 || garbage != 1 || texts == 0 {
		t.Errorf("the fixture's rounds gave %d faults (%d garbage), %d commands: not the fixture described", faults, garbage, texts)
	}
	if err := w.Close(g); err != nil {
		t.Fatal(err)
	}
	if a, b := body(t, data), body(t, out.Bytes()); !bytes.Equal(a, b) {
		t.Errorf("the generic writer's body differs from the legacy writer's (%d vs %d bytes)", len(b), len(a))
	}
	res, err := replay.VerifySim(bytes.NewReader(out.Bytes()), nil)
	if err != nil || res.Err != nil || res.Rounds != legacyTurns {
		t.Fatalf("the rewritten file: %v %+v", err, res)
	}
}

// TestLegacyRecordingCLI: verify and info read the legacy recording.
func TestLegacyRecordingCLI(t *testing.T) {
	out, code := clitest.Run(t, "verify", legacyFile)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d rounds", legacyTurns)) {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", legacyFile)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%016x", uint64(legacyHash))) {
		t.Fatalf("info: exit %d\n%s", code, out)
	}
}
