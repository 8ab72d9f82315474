//go:build unix

package subprocess

import (
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
}

var subreaperOnce sync.Once

// prepare makes the process start in its own process group, and makes
// orphaned descendants children of this process (where the system allows
// it) so that a bot's grandchildren can be reaped after the bot dies.
func (t *procTree) prepare(cmd *exec.Cmd) error {
	subreaperOnce.Do(setSubreaper)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return nil
}

// attach records the group of the started process.
func (t *procTree) attach(p *os.Process) error {
	t.pgid = p.Pid
	return nil
}

// kill sends SIGKILL to the whole group.
func (t *procTree) kill() {
	syscall.Kill(-t.pgid, syscall.SIGKILL)
}

// reap kills what is left of the group and reaps its members that are
// children of this process (orphans reparented to it as subreaper), until
// the group is empty or timeout passes. Call it only after the group leader
// has been waited for.
func (t *procTree) reap(timeout time.Duration) {
	t.kill()
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
		if err := syscall.Kill(-t.pgid, 0); err == syscall.ESRCH || time.Now().After(limit) {
			return
		}
		t.kill()
		time.Sleep(2 * time.Millisecond)
	}
}

// release frees what prepare allocated: nothing on Unix.
func (t *procTree) release() {}
