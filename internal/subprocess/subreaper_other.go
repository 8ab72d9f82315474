//go:build unix && !linux

package subprocess

import "syscall"

// setSubreaper does nothing where there is no child-subreaper facility
// (darwin, the BSDs...); bots' process groups are still killed and reaped.
func setSubreaper() {}

// setPdeathsig: no parent-death signal outside Linux.
func setPdeathsig(a *syscall.SysProcAttr) {}

// escapees: without /proc environments, a bot's processes that left its
// group are not found (docs/bot-protocol.md).
func escapees(marker string) (pids []int, unsure bool) { return nil, false }
