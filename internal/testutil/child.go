package testutil

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// KillChildAt runs the running top-level test again as a child process
// (the test binary with -test.run=^NAME$), env added to its environment,
// and reads the child's stdout line by line until at returns true for a
// line; then it kills the child with SIGKILL (no clean-up of its own) and
// waits for it. It returns whether at returned true before the child's
// output ended. The child tells itself apart by env. Failing to start
// the child fails tb.
func KillChildAt(tb testing.TB, env []string, at func(line string) bool) bool {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+tb.Name()+"$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	reached := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if at(sc.Text()) {
			reached = true
			break
		}
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	return reached
}
