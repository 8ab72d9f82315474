//go:build unix

package subprocess

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// treeMembers lists the processes (zombies included) of the bot's process
// group: from /proc where there is one, else from ps.
func treeMembers(t *testing.T, b *Bot) []int {
	t.Helper()
	pgid := strconv.Itoa(b.tree.pgid)
	var pids []int
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		ents, err := os.ReadDir("/proc")
		if err != nil {
			t.Fatal(err)
		}
		for _, ent := range ents {
			pid, err := strconv.Atoi(ent.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
			if err != nil {
				continue // exited meanwhile
			}
			// pid (comm) state ppid pgrp ...; comm may contain anything.
			s := string(stat)
			fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
			if len(fields) >= 3 && fields[2] == pgid {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	out, err := exec.Command("ps", "-A", "-o", "pid=", "-o", "pgid=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == pgid {
			pid, _ := strconv.Atoi(f[0])
			pids = append(pids, pid)
		}
	}
	return pids
}

// assertTreeGone asserts that nothing of the bot's process group exists,
// not even a zombie.
func assertTreeGone(t *testing.T, b *Bot) {
	t.Helper()
	pgid := b.tree.pgid
	if pgid <= 0 {
		t.Fatalf("bad process group %d", pgid)
	}
	if err := syscall.Kill(-pgid, 0); err != syscall.ESRCH {
		t.Errorf("kill(-%d, 0) = %v, want ESRCH (members: %v)", pgid, err, treeMembers(t, b))
	}
	if pids := treeMembers(t, b); len(pids) != 0 {
		t.Errorf("process group %d still has processes %v", pgid, pids)
	}
}
