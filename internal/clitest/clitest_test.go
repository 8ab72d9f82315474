package clitest_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }

// TestRun: the binary runs with the arguments given, its output and exit
// status are returned, built once for every call.
func TestRun(t *testing.T) {
	out, code := clitest.Run(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "rewind version ") {
		t.Fatalf("--version: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "no-such-command")
	if code != 2 || !strings.Contains(out, `rewind: unknown command "no-such-command"`) {
		t.Fatalf("an unknown command: status %d\n%s", code, out)
	}
	if a, b := clitest.Binary(t), clitest.Binary(t); a != b {
		t.Fatalf("built twice: %s, %s", a, b)
	}
}

var serving = regexp.MustCompile(` at (http://\S+)  \(Ctrl-C stops\)$`)

// TestStart: a server started answers at the address it printed; its
// cleanup (Ctrl-C) is checked by the test's end.
func TestStart(t *testing.T) {
	url := clitest.Start(t, serving, "serve", t.TempDir(), "--addr", "127.0.0.1:0")
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || len(b) == 0 {
		t.Fatalf("GET %s: %s, %d bytes", url, resp.Status, len(b))
	}
}

// TestStartEnded: a command that ends before printing the line fails the
// test with its status and output, once.
func TestStartEnded(t *testing.T) {
	r := &recorder{TB: t}
	r.do(func() {
		clitest.Start(r, serving, "view", "no-such-file.rwd", "--addr", "127.0.0.1:0")
	})
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], "ended (status 2) before printing a line matching") ||
		!strings.Contains(r.failures[0], "no-such-file.rwd") {
		t.Fatalf("failures %q", r.failures)
	}
}

// TestWait: a command ending by itself hands its status to Wait.
func TestWait(t *testing.T) {
	p := clitest.StartProcess(t, regexp.MustCompile(`^rank +seat +name`), "play", "--turns", "200", "-o", filepath.Join(t.TempDir(), "g.rwd"))
	if code := p.Wait(t); code != 0 || !strings.Contains(p.Output(), "g.rwd") {
		t.Fatalf("play: status %d\n%s", code, p.Output())
	}
}

// recorder records a test's failures; Fatal ends the goroutine of do.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (r *recorder) do(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, strings.TrimSpace(strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
