// Package clitest runs the rewind command in tests the way a user runs
// it: the real binary, built from ./cmd/rewind once per test process,
// started as a process of its own, its exit status and its printed
// output being all a test sees.
//
// A package using it returns Main from its TestMain, which removes the
// binary when the tests end:
//
//	func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }
//
// Timeouts here are safety nets that stop a hung command and say so,
// never verdicts: nothing waits a fixed time for something to happen.
package clitest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// Safety nets (not verdicts): how long a command run to its end, a
// started command before printing its line, a started command asked to
// end by itself or by Ctrl-C, and its output after it ended (a
// subprocess of its may still hold the pipe) may take.
const (
	runSafetyNet    = 10 * time.Minute
	startSafetyNet  = 2 * time.Minute
	waitSafetyNet   = 2 * time.Minute
	stopSafetyNet   = time.Minute
	drainSafetyNet  = 10 * time.Second
	deadlineReserve = 30 * time.Second
)

var build struct {
	sync.Mutex
	mainRan bool
	done    bool
	dir     string // the temporary folder holding the binary
	bin     string
	err     error
}

// Main runs the package's tests (m.Run), then removes the binary Binary
// built, and returns m.Run's exit code. A package using clitest calls it
// from TestMain.
func Main(m *testing.M) int {
	build.Lock()
	build.mainRan = true
	build.Unlock()
	code := m.Run()
	build.Lock()
	defer build.Unlock()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	return code
}

// Binary returns the path of the rewind binary, built from ./cmd/rewind
// of the module the working directory is in (a test runs in its
// package's folder) with `go build`, once per test process, into a
// temporary folder Main removes. A failed build fails every test that
// asks for the binary, with the compiler's output; so does a package
// whose TestMain does not call Main.
func Binary(tb testing.TB) string {
	tb.Helper()
	build.Lock()
	defer build.Unlock()
	if !build.mainRan {
		tb.Fatal("clitest: the package's TestMain must run its tests through clitest.Main (it removes the binary)")
	}
	if !build.done {
		build.done = true
		build.bin, build.err = buildRewind()
	}
	if build.err != nil {
		tb.Fatal(build.err)
	}
	return build.bin
}

// buildRewind builds ./cmd/rewind into a new temporary folder.
func buildRewind() (string, error) {
	root, err := testutil.ModuleRoot()
	if err != nil {
		return "", fmt.Errorf("clitest: %w", err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("clitest: no go command to build rewind: %w", err)
	}
	build.dir, err = os.MkdirTemp("", "rewind-clitest-")
	if err != nil {
		return "", fmt.Errorf("clitest: %w", err)
	}
	bin := filepath.Join(build.dir, "rewind")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/rewind")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("clitest: go build ./cmd/rewind in %s: %v\n%s", root, err, out)
	}
	return bin, nil
}

// Run runs `rewind args...` in the test's working directory, with no
// input, to its end, and returns what it printed (stdout and stderr
// interleaved as written) and its exit status. A command that cannot be
// started fails the test; one still running at the safety net (10
// minutes, or 30 s before the test binary's -timeout) is killed and fails
// the test with its output.
func Run(tb testing.TB, args ...string) (output string, code int) {
	tb.Helper()
	bin := Binary(tb)
	ctx, cancel := context.WithTimeout(context.Background(), runSafetyNet)
	defer cancel()
	if d, ok := deadline(tb); ok {
		ctx, cancel = context.WithDeadline(ctx, d.Add(-deadlineReserve))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out // one writer: exec writes it from one goroutine at a time
	cmd.WaitDelay = drainSafetyNet
	err := cmd.Run()
	if ctx.Err() != nil {
		tb.Fatalf("rewind %s: still running at the safety net, killed (%v)\n%s", strings.Join(args, " "), err, out.String())
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	case err != nil:
		tb.Fatalf("rewind %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String(), 0
}

// deadline is the test binary's -timeout deadline, when tb has one.
func deadline(tb testing.TB) (time.Time, bool) {
	if t, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		return t.Deadline()
	}
	return time.Time{}, false
}

// Start runs a long-running `rewind args...` (view, serve, server) until
// the test ends and returns the first submatch of match (the whole
// match when match has no group) in the first line it prints, on stdout
// or stderr, that match matches: the address it listens on, say. See
// StartProcess for the contract.
func Start(tb testing.TB, match *regexp.Regexp, args ...string) (submatch string) {
	tb.Helper()
	return StartProcess(tb, match, args...).Match
}

// Process is a rewind command started by StartProcess.
type Process struct {
	// Match is the first submatch of the line StartProcess waited for
	// (the whole match when the pattern has no group).
	Match string

	name     string // "rewind ARGS", for messages
	cmd      *exec.Cmd
	mu       sync.Mutex
	out      bytes.Buffer
	read     chan struct{} // closed when the output is read to its end
	exited   chan struct{} // closed when the process has ended; code is set
	code     int
	reported bool // its exit status was reported or handed to the test
}

// StartProcess starts `rewind args...` in the test's working directory
// and waits for a line of its output (stdout and stderr) that match
// matches. A command that ends first, or prints no such line within the
// safety net (2 minutes), fails the test with its output.
//
// When the test ends (its cleanup), a command still running is sent
// SIGINT, as Ctrl-C in a terminal, and must end with status 0 within the
// safety net (a minute; then it is killed): the test fails otherwise, as
// it does when the command ended by itself with another status and the
// test did not take that status with Wait. Windows has no SIGINT to
// send: there the command is killed and its status not checked.
func StartProcess(tb testing.TB, match *regexp.Regexp, args ...string) *Process {
	tb.Helper()
	bin := Binary(tb)
	p := &Process{name: "rewind " + strings.Join(args, " "), read: make(chan struct{}), exited: make(chan struct{})}
	pr, pw, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	err = p.cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		tb.Fatalf("%s: %v", p.name, err)
	}
	matched := make(chan string, 1)
	go func() {
		defer close(p.read)
		defer pr.Close()
		r := bufio.NewReader(pr)
		found := false
		for {
			line, err := r.ReadString('\n')
			p.mu.Lock()
			p.out.WriteString(line)
			p.mu.Unlock()
			if m := match.FindStringSubmatch(strings.TrimRight(line, "\r\n")); !found && m != nil {
				found = true
				matched <- m[min(1, len(m)-1)]
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		err := p.cmd.Wait()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			p.code = ee.ExitCode()
		case err != nil:
			p.code = -1
		}
		close(p.exited)
	}()
	tb.Cleanup(func() { p.stop(tb) })

	select {
	case p.Match = <-matched:
		return p
	case <-p.exited:
		p.drain()
		select {
		case p.Match = <-matched:
			return p
		default:
		}
		p.setReported()
		tb.Fatalf("%s ended (status %d) before printing a line matching %s:\n%s", p.name, p.code, match, p.Output())
	case <-time.After(startSafetyNet):
		tb.Fatalf("%s printed no line matching %s within %v (a safety net):\n%s", p.name, match, startSafetyNet, p.Output())
	}
	return p
}

// Output returns what the command has printed so far, stdout and stderr
// interleaved as written.
func (p *Process) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// Wait waits for the command to end by itself (a server told to play one
// game, say) and returns its exit status, the test then judging it. A
// command still running at the safety net (2 minutes) fails the test
// (and is stopped at its cleanup).
func (p *Process) Wait(tb testing.TB) int {
	tb.Helper()
	select {
	case <-p.exited:
	case <-time.After(waitSafetyNet):
		tb.Fatalf("%s did not end within %v (a safety net):\n%s", p.name, waitSafetyNet, p.Output())
	}
	p.drain()
	p.setReported()
	return p.code
}

// drain waits, bounded, for the output of an ended command to be read
// to its end (a subprocess may still hold the pipe).
func (p *Process) drain() {
	select {
	case <-p.read:
	case <-time.After(drainSafetyNet):
	}
}

func (p *Process) setReported() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	was := p.reported
	p.reported = true
	return was
}

// stop ends the command with SIGINT, if it runs, and checks its status.
func (p *Process) stop(tb testing.TB) {
	select {
	case <-p.exited:
	default:
		if runtime.GOOS == "windows" { // no SIGINT to send
			p.cmd.Process.Kill()
			<-p.exited
			p.setReported()
			return
		}
		if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
			p.cmd.Process.Kill()
			<-p.exited
			if !p.setReported() {
				tb.Errorf("%s: sending SIGINT: %v (killed)", p.name, err)
			}
			return
		}
		select {
		case <-p.exited:
		case <-time.After(stopSafetyNet):
			p.cmd.Process.Kill()
			<-p.exited
			p.drain()
			if !p.setReported() {
				tb.Errorf("%s did not end within %v of SIGINT (killed):\n%s", p.name, stopSafetyNet, p.Output())
			}
			return
		}
	}
	p.drain()
	if !p.setReported() && p.code != 0 {
		tb.Errorf("%s ended with status %d, want 0 (Ctrl-C ends it cleanly):\n%s", p.name, p.code, p.Output())
	}
}

// viewServing is the line `rewind view` prints once it listens, the
// page's URL its submatch.
var viewServing = regexp.MustCompile(` at (http://\S+/replay/\S+)  \(Ctrl-C stops\)$`)

// ViewPage runs `rewind view FILE --addr 127.0.0.1:0` until the test
// ends (then Ctrl-C, which must end it with status 0) and returns the URL
// of the replay's page it prints, which must be the file's.
func ViewPage(tb testing.TB, file string) string {
	tb.Helper()
	url := Start(tb, viewServing, "view", file, "--addr", "127.0.0.1:0")
	if want := "/replay/" + filepath.Base(file); !strings.HasSuffix(url, want) {
		tb.Fatalf("view %s prints %s, want its page %s", file, url, want)
	}
	return url
}

// SeatsOfTable reads the text table of a rewind command's output whose
// header row holds the columns "seat" and "name" (play, analyze of one
// file) and returns each row's seat by its name, quotes removed: a row is
// a line with as many fields as the header, up to the first line that
// has not.
func SeatsOfTable(tb testing.TB, out string) map[string]int {
	tb.Helper()
	seats := map[string]int{}
	var seat, name, width int
	inTable := false
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		if !inTable {
			seat, name = slices.Index(fields, "seat"), slices.Index(fields, "name")
			inTable, width = seat >= 0 && name >= 0, len(fields)
			continue
		}
		if len(fields) != width {
			break
		}
		n, err := strconv.Atoi(fields[seat])
		if err != nil {
			tb.Fatalf("seat %q of row %q is no number", fields[seat], line)
		}
		seats[strings.Trim(fields[name], `"`)] = n
	}
	if !inTable {
		tb.Fatalf("no table with columns seat and name in:\n%s", out)
	}
	return seats
}

// CheckSeatsNumbered plays a 60-turn game of game with its default bots
// (`rewind play --game GAME`), analyzes it and writes its report in a
// temporary folder, and checks that play's, analyze's and the report's
// tables give every player of want the seat want gives it (numbered
// from 1, as `rewind info` and `--bot SEAT=…` do). want's keys are the
// players' names ("2_miner").
func CheckSeatsNumbered(t *testing.T, game string, want map[string]int) {
	t.Helper()
	dir := t.TempDir()
	rwd := filepath.Join(dir, "game.rwd")
	out, code := Run(t, "play", "--game", game, "--turns", "60", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if got := SeatsOfTable(t, out); !maps.Equal(got, want) {
		t.Errorf("play's seats %v, want %v\n%s", got, want, out)
	}
	out, code = Run(t, "analyze", rwd)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	if got := SeatsOfTable(t, out); !maps.Equal(got, want) {
		t.Errorf("analyze's seats %v, want %v\n%s", got, want, out)
	}
	html := filepath.Join(dir, "game.html")
	if out, code := Run(t, "report", rwd, "-o", html); code != 0 {
		t.Fatalf("report: status %d\n%s", code, out)
	}
	page := string(testutil.ReadFile(t, html))
	for name, seat := range want {
		if row := "<td>" + strconv.Itoa(seat) + "</td><td class=\"name\">" + name; !strings.Contains(page, row) {
			t.Errorf("the report has no row %q", row)
		}
	}
}
