package subprocess

import (
	"bytes"
	"os"
	"strconv"
	"strings"
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
// users, and zombies, show no environment and are not returned.
//
// unsure reports a live child of this process that showed no environment:
// one in the middle of execve shows none for a moment, so it may be an
// escapee the subreaper adopted; the caller looks again. Work: one read of
// /proc and of each process's environ (and stat, for those with none).
func escapees(marker string) (pids []int, unsure bool) {
	if marker == "" {
		return nil, false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	self := os.Getpid()
	want := []byte(marker)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && len(env) == 0 && liveChild(e.Name(), self) {
			unsure = true
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids, unsure
}

// liveChild reports whether the process /proc/name is a child of the
// process self and not a zombie, from its stat line ("pid (comm) state
// ppid ...").
func liveChild(name string, self int) bool {
	stat, err := os.ReadFile("/proc/" + name + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	return len(f) >= 2 && f[0] != "Z" && f[1] == strconv.Itoa(self)
}
