package subprocess

import "syscall"

// setSubreaper marks this process a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER), so orphaned bot descendants are reparented to it.
func setSubreaper() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}
