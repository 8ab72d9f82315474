//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rewind-game/rewind/replay"
)

// SIGTERM and SIGHUP end play as cleanly as Ctrl-C: the context play and
// tournament run under is cancelled and the process is not killed.
func TestTerminationSignalsInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		ctx, stop := interruptContext(context.Background())
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done() // waits for the signal; no timing in the verdict
		// A play run under the cancelled context stops at once and still
		// writes a replay that verifies as complete up to where it stopped.
		out := filepath.Join(t.TempDir(), "g.rwd")
		res, err := runPlay(ctx, &playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 1, out: out, stdout: io.Discard})
		stop()
		if err != nil {
			t.Fatalf("%v: %v", sig, err)
		}
		if !res.Interrupted {
			t.Errorf("%v: the match was not interrupted", sig)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		vr, err := replay.VerifySim(f, nil)
		f.Close()
		if err != nil || vr.Err != nil {
			t.Errorf("%v: interrupted replay does not verify: %v %v", sig, err, vr.Err)
		}
	}
}
