package replay_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// TestCrashRecording starts a recording in a child process, kills it with
// SIGKILL mid-game, and checks that the file opens and verifies up to the
// last whole round the child reported as written.
func TestCrashRecording(t *testing.T) {
	if path := os.Getenv("REWIND_CRASH_CHILD"); path != "" {
		crashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "killed.rwd")
	reported := 0
	testutil.KillChildAt(t, []string{"REWIND_CRASH_CHILD=" + path}, func(line string) bool {
		if n, ok := strings.CutPrefix(line, "wrote round "); ok {
			reported, _ = strconv.Atoi(n)
		}
		return reported >= 120
	})
	if reported < 120 {
		t.Fatalf("child reported only %d rounds", reported)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !errors.Is(res.Err, replay.ErrTruncated) {
		t.Fatalf("killed recording: %+v, want truncated", res)
	}
	if res.Rounds < reported || res.Rounds >= 500 {
		t.Fatalf("%d rounds verify; the child had written %d", res.Rounds, reported)
	}
	t.Logf("killed after reporting round %d; %d whole rounds verify: %v", reported, res.Rounds, res.Err)
}

// crashChild records c03 slowly, reporting each round once it is flushed.
func crashChild(path string) {
	vs, err := conform.Find([]string{vectorDir + "/c03.cfr"})
	if err != nil {
		panic(err)
	}
	g, err := cf2vectors.Load(vs[0].Input, vs[0].Expected)
	if err != nil {
		panic(err)
	}
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	cfrimport.RecordVectorRounds(g, f, created, "crash child", func(turn int) error {
		fmt.Printf("wrote round %d\n", turn)
		time.Sleep(2 * time.Millisecond)
		return nil
	})
	// Not reached in the test: the parent kills us first.
	time.Sleep(time.Minute)
}
