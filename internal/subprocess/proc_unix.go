//go:build unix

package subprocess

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// procTree is a bot's process group: the bot is its leader, and everything
// it starts belongs to it unless it leaves the group on purpose.
type procTree struct {
	pgid int
	// marker is an environment entry (NAME=random) only this bot's
	// processes carry: it finds those that left the group (setsid) where
	// the system shows environments (Linux's /proc).
	marker string
	// escaped are the escapees signalled so far, to be reaped when they
	// are children of this process (the subreaper adopted them); kill and
	// reap run on different goroutines.
	mu      sync.Mutex
	escaped map[int]bool
}

var subreaperOnce sync.Once

// maxUnsureLooks bounds the searches for escapees reap repeats because one
// saw a child it could not tell (2 ms apart): an execve ends well within
// them, while a child of another part of the program that really has an
// empty environment does not hold every close for the whole reap timeout.
const maxUnsureLooks = 50

// prepare makes the process start in its own process group, and makes
// orphaned descendants children of this process (where the system allows
// it) so that a bot's grandchildren can be reaped after the bot dies.
func (t *procTree) prepare(cmd *exec.Cmd) error {
	subreaperOnce.Do(setSubreaper)
	var r [8]byte
	rand.Read(r[:])
	t.marker = treeMarkerEnv + "=" + hex.EncodeToString(r[:])
	cmd.Env = append(cmd.Env, t.marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setPdeathsig(cmd.SysProcAttr)
	return nil
}

// treeMarkerEnv names the environment entry that marks a bot's processes.
const treeMarkerEnv = "REWIND_BOT_TREE"

// attach records the group of the started process.
func (t *procTree) attach(p *os.Process) error {
	t.pgid = p.Pid
	return nil
}

// kill sends SIGKILL to the whole group and to the bot's processes that
// left it (escapees). unsure reports that the search for escapees saw a
// child it could not tell (see escapees): look again.
func (t *procTree) kill() (unsure bool) {
	syscall.Kill(-t.pgid, syscall.SIGKILL)
	t.mu.Lock()
	defer t.mu.Unlock()
	pids, unsure := escapees(t.marker)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
		if t.escaped == nil {
			t.escaped = map[int]bool{}
		}
		t.escaped[pid] = true
	}
	return unsure
}

// reap kills what is left of the group and reaps its members that are
// children of this process (orphans reparented to it as subreaper), until
// the group is empty, no escapee is left and the last search for them was
// sure (or maxUnsureLooks searches were not), or timeout passes. Call it
// only after the group leader has been waited for.
func (t *procTree) reap(timeout time.Duration) {
	unsure := t.kill()
	looks := 0
	limit := time.Now().Add(timeout)
	for {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-t.pgid, &ws, wnohang, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil || pid <= 0 {
				break
			}
		}
		// Escapees reparented to this process (the subreaper) are reaped
		// here; others by whoever adopted them.
		t.mu.Lock()
		for pid := range t.escaped {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(pid, &ws, wnohang, nil)
			if got == pid || (err != nil && err != syscall.EINTR) {
				delete(t.escaped, pid) // reaped, or not a child of ours
			}
		}
		pending := len(t.escaped)
		t.mu.Unlock()
		if err := syscall.Kill(-t.pgid, 0); (err == syscall.ESRCH && pending == 0 && (!unsure || looks >= maxUnsureLooks)) || time.Now().After(limit) {
			return
		}
		unsure = t.kill()
		looks++
		time.Sleep(2 * time.Millisecond)
	}
}

// release frees what prepare allocated: nothing on Unix.
func (t *procTree) release() {}
