package subprocess

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

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
	frames := testFrames(t, 3)
	pidFile := filepath.Join(t.TempDir(), "pid")
	b := startBot(t, shell(t)+" testdata/setsid.sh "+quoteArg(pidFile), Options{Deadline: answerDeadline})
	for _, f := range frames {
		wantTurn(t, b, f)
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
