package subprocess

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// setSubreaper marks this process a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER), so orphaned bot descendants are reparented to it.
func setSubreaper() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// setPdeathsig makes the bot get SIGKILL when the runner dies (even by
// SIGKILL), so that a killed `rewind play` leaves no hung bot behind.
func setPdeathsig(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// escapees returns the live processes whose environment holds marker
// (as one whole NUL-separated entry), read from /proc: a bot's
// descendants, wherever setsid or setpgid took them. Processes of other
// users, and zombies, show no environment and are not returned. Work: one
// read of /proc and of each process's environ.
func escapees(marker string) []int {
	if marker == "" {
		return nil
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	want := []byte(marker)
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
