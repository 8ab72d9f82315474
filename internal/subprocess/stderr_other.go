//go:build !unix

package subprocess

import "os"

// readAvailable reads what the pipe f holds without waiting. Where pipes
// have no deadlines syncStderr never asks for it.
func readAvailable(f *os.File, buf []byte, use func([]byte)) {}
