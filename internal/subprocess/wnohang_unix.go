//go:build unix && !aix

package subprocess

import "syscall"

const wnohang = syscall.WNOHANG
