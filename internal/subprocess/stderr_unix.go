//go:build unix

package subprocess

import (
	"os"
	"syscall"
)

// readAvailable reads what the pipe f holds without waiting, handing each
// chunk to use.
func readAvailable(f *os.File, buf []byte, use func([]byte)) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Read(func(fd uintptr) bool {
		for {
			n, err := syscall.Read(int(fd), buf)
			if n > 0 {
				use(buf[:n])
				continue
			}
			if err == syscall.EINTR {
				continue
			}
			return true // empty (EAGAIN), end of file or an error: done
		}
	})
}
