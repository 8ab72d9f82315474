package main

import (
	"bytes"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileWholeOrNone: a write that fails part way (the file size
// limit reached, as a run killed while writing) leaves no file at the
// name, which a later run would keep as it is, and nothing else in the
// folder; a later write puts the whole file there.
func TestWriteFileWholeOrNone(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g0000001.rwd")
	data := bytes.Repeat([]byte("rewind "), 10000)
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	low := old
	low.Cur = 4096
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &low); err != nil {
		t.Skipf("cannot lower the file size limit: %v", err)
	}
	err := writeFile(p, data)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("a write over the file size limit succeeded")
	}
	if fi, err := os.Stat(p); err == nil {
		t.Fatalf("a write that failed left %s of %d bytes (of %d)", p, fi.Size(), len(data))
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("a write that failed left %v", names)
	}
	if err := writeFile(p, data); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, %v; want %d", len(got), err, len(data))
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Fatalf("the folder holds %v", names)
	}
}
