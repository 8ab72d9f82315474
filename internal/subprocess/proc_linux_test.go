package subprocess

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
	"golang.org/x/sys/unix"
)

// alive reports whether pid is a process that is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// Issue 25, "children that call setsid survive the game": a bot's
// descendant in a session and process group of its own is gone, not even
// a zombie of ours, once the bot is closed.
func TestSetsidGrandchildGone(t *testing.T) {
	testutil.NeedTool(t, "setsid")
	turns := testTurns(3)
	pidFile := filepath.Join(t.TempDir(), "pid")
	b := startBot(t, shell(t)+" testdata/setsid.sh "+quoteArg(pidFile), Options{Deadline: answerDeadline})
	for _, turn := range turns {
		wantTurn(t, b, turn)
	}
	waitFile(t, pidFile)
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file %q", data)
	}
	if sid, err := unix.Getsid(pid); err != nil || sid == b.tree.pgid || !alive(pid) {
		t.Fatalf("the descendant %d: session %d (%v), alive %v; want a running process in its own session", pid, sid, err, alive(pid))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
	if alive(pid) {
		t.Errorf("the setsid descendant %d survived its bot", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("the setsid descendant %d is a zombie nobody reaped", pid)
	}
}

// Issue 25, "after SIGKILL of play a hung bot is orphaned": a runner
// killed by SIGKILL takes its bot with it.
func TestBotDiesWithKilledRunner(t *testing.T) {
	testutil.NeedTool(t, "sleep")
	if os.Getenv("REWIND_RUNNER_CHILD") != "" {
		b := startBot(t, shell(t)+" -c 'exec sleep 1000'", Options{Deadline: answerDeadline})
		fmt.Println("bot", b.cmd.Process.Pid)
		time.Sleep(answerDeadline)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBotDiesWithKilledRunner$")
	cmd.Env = append(os.Environ(), "REWIND_RUNNER_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "bot "); ok {
			pid, _ = strconv.Atoi(n)
			break
		}
	}
	if pid <= 0 || !alive(pid) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the runner did not start its bot (%d)", pid)
	}
	cmd.Process.Kill() // SIGKILL: no Close, no clean-up
	cmd.Wait()
	limit := time.Now().Add(answerDeadline) // a safety net, not a verdict
	for alive(pid) {
		if time.Now().After(limit) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the bot %d outlived its SIGKILLed runner", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A process in the middle of execve shows an empty environment for a
// moment, so an escapee the subreaper just adopted may hide from one
// search (CI saw TestSetsidGrandchildGone's sleeper survive that way): a
// live child with an empty environment makes the search unsure, so that
// reap looks again, and a child with an environment does not.
func TestEscapeesUnsureOfBlankChild(t *testing.T) {
	testutil.NeedTool(t, "sleep")
	marker := treeMarkerEnv + "=test-unsure"
	if _, unsure := escapees(marker); unsure {
		t.Skip("another child of the test process already shows an empty environment")
	}
	start := func(env []string) *exec.Cmd {
		cmd := exec.Command("sleep", "1000")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	marked := start([]string{marker})
	pids, unsure := escapees(marker)
	if unsure || len(pids) != 1 || pids[0] != marked.Process.Pid {
		t.Fatalf("with a marked child: escapees = %v, unsure %v; want [%d], sure", pids, unsure, marked.Process.Pid)
	}
	start([]string{})
	if _, unsure := escapees(marker); !unsure {
		t.Fatal("a live child with an empty environment left the search sure")
	}
}
