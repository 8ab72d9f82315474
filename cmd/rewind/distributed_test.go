package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rewind-game/rewind/internal/queue"
	"github.com/rewind-game/rewind/internal/testutil"
)

// distSafety bounds every wait of these tests: far above any scheduler
// delay, so that no verdict depends on the machine's speed.
const distSafety = 5 * time.Minute

// natsServer starts an embedded JetStream server with a password on
// loopback and returns its URL and the environment its clients need.
func natsServer(t *testing.T) (url string, env []string) {
	t.Helper()
	pw := "pw-" + randomHex(8)
	s, err := queue.StartServer(queue.ServerOptions{StoreDir: t.TempDir(), User: "tester", Password: pw})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s.ClientURL(), []string{natsUserEnv + "=tester", natsPasswordEnv + "=" + pw}
}

// proc is a rewind process started from the test binary.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  testutil.SyncBuffer
	done chan error
	mu   sync.Mutex
	seen []string // stderr lines
	wake chan struct{}
}

func startRewind(t *testing.T, name string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, done: make(chan error, 1), wake: make(chan struct{}, 1)}
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = append(append(os.Environ(), runMainEnv+"=1"), env...)
	p.cmd.Stdout = &p.out
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.seen = append(p.seen, sc.Text())
			p.mu.Unlock()
			select {
			case p.wake <- struct{}{}:
			default:
			}
		}
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("%s (%s) stderr:\n%s", p.name, strings.Join(args, " "), strings.Join(p.lines(), "\n"))
		}
	})
	return p
}

// lines returns the stderr lines so far.
func (p *proc) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// waitLine waits for a stderr line containing s.
func (p *proc) waitLine(t *testing.T, s string) string {
	t.Helper()
	deadline := time.After(distSafety)
	for {
		for _, l := range p.lines() {
			if strings.Contains(l, s) {
				return l
			}
		}
		select {
		case <-p.wake:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s never wrote %q; stderr:\n%s", p.name, s, strings.Join(p.lines(), "\n"))
		}
	}
}

// waitAnyLine waits for a stderr line containing s from any of procs.
func waitAnyLine(t *testing.T, procs []*proc, s string) {
	t.Helper()
	deadline := time.After(distSafety)
	for {
		for _, p := range procs {
			for _, l := range p.lines() {
				if strings.Contains(l, s) {
					return
				}
			}
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no worker wrote %q", s)
		}
	}
}

// waitLines waits for n stderr lines containing s.
func (p *proc) waitLines(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.After(distSafety)
	for {
		k := 0
		for _, l := range p.lines() {
			if strings.Contains(l, s) {
				k++
			}
		}
		if k >= n {
			return
		}
		select {
		case <-p.wake:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s wrote %q %d times, not %d; stderr:\n%s", p.name, s, k, n, strings.Join(p.lines(), "\n"))
		}
	}
}

// wait waits for the process to exit.
func (p *proc) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(distSafety):
		t.Fatalf("%s did not exit; stderr:\n%s", p.name, strings.Join(p.lines(), "\n"))
		return nil
	}
}

// waitPending waits until the jobs stream holds at least n jobs.
func waitPending(t *testing.T, url string, env []string, n uint64) {
	t.Helper()
	js := jetStreamOf(t, url, env)
	deadline := time.Now().Add(distSafety)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), distSafety)
		s, err := js.Stream(ctx, queue.JobsStream)
		if err == nil {
			if info, err := s.Info(ctx); err == nil && info.State.Msgs >= n {
				cancel()
				return
			}
		}
		cancel()
		if time.Now().After(deadline) {
			t.Fatalf("the jobs stream never held %d jobs", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// jetStreamOf connects to url with the credentials of env.
func jetStreamOf(t *testing.T, url string, env []string) jetstream.JetStream {
	t.Helper()
	var user, pw string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, natsUserEnv+"="); ok {
			user = v
		}
		if v, ok := strings.CutPrefix(e, natsPasswordEnv+"="); ok {
			pw = v
		}
	}
	nc, err := nats.Connect(url, nats.UserInfo(user, pw))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// resultKeys lists the keys of the results bucket.
func resultKeys(t *testing.T, url string, env []string) []string {
	t.Helper()
	js := jetStreamOf(t, url, env)
	ctx, cancel := context.WithTimeout(context.Background(), distSafety)
	defer cancel()
	kv, err := js.KeyValue(ctx, queue.ResultsBucket)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(keys)
	return keys
}

// standingsTable is a tournament's printed standings without its last line
// (which says how long it took).
func standingsTable(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return strings.Join(lines[:len(lines)-1], "\n")
}

// TestDistributedKill: a coordinator and worker processes play a 60-game
// tournament on a NATS server; the first worker is killed with SIGKILL
// while it plays a game, two more take the queue over and one of them
// plays the killed game again, and a fourth joins after that. The results
// hold exactly 60 games under 60 distinct ids, every replay in the folder
// verifies, and the standings equal those of the same tournament played
// by one process. The workers start one stage at a time, so that no step
// waits on how the queue shares jobs between workers.
func TestDistributedKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL of a worker: Unix")
	}
	url, env := natsServer(t)
	dir := filepath.Join(t.TempDir(), "dist")
	args := []string{"--bot", "greedy", "--bot", "random", "--bot", "economist", "--bot", "raider",
		"--games", "60", "--turns", "1000", "--seed", "7"}
	coord := startRewind(t, "coordinator", env, append([]string{"tournament", "--nats", url, "--dir", dir}, args...)...)
	worker := func(k int) *proc {
		return startRewind(t, fmt.Sprintf("worker %d", k), env, "worker", "--nats", url, "--ack-wait", "2s")
	}
	// Worker 0, alone on the queue, is killed as soon as it starts a game.
	first := worker(0)
	line := first.waitLine(t, ": playing")
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.wait(t)
	f := strings.Fields(line)
	if len(f) < 3 || f[1] != "game" {
		t.Fatalf("worker 0 wrote %q, want \"TIME game ID: playing\"", line)
	}
	killed := "game " + strings.TrimSuffix(f[2], ":")
	t.Logf("killed worker 0 after %q", line)
	// The killed game is played again by one of the next two workers.
	workers := []*proc{worker(1), worker(2)}
	waitAnyLine(t, workers, killed+": stored")
	// A fourth worker joins once that is done.
	workers = append(workers, worker(3))
	if err := coord.wait(t); err != nil {
		t.Fatalf("coordinator: %v\nstdout:\n%s\nstderr:\n%s", err, coord.out.String(), strings.Join(coord.lines(), "\n"))
	}
	for _, w := range workers {
		w.cmd.Process.Signal(os.Interrupt)
		if err := w.wait(t); err != nil {
			t.Errorf("%s: %v\n%s", w.name, err, strings.Join(w.lines(), "\n"))
		}
	}

	keys := resultKeys(t, url, env)
	if len(keys) != 60 {
		t.Fatalf("%d results, want 60: %v", len(keys), keys)
	}
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			t.Errorf("game id %s twice", keys[i])
		}
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd"))
	if len(rwds) != 60 {
		t.Fatalf("%d replays in the folder, want 60", len(rwds))
	}
	for _, p := range rwds {
		if err := runCLI(t, "verify", p); err != nil {
			t.Errorf("verify %s: %v", filepath.Base(p), err)
		}
	}

	// The same tournament in one process.
	one := filepath.Join(t.TempDir(), "one")
	var out bytes.Buffer
	if err := runCLITo(&out, &out, append([]string{"tournament", "--dir", one, "--parallel", "2"}, args...)...); err != nil {
		t.Fatalf("one process: %v\n%s", err, out.String())
	}
	if got, want := standingsTable(coord.out.String()), standingsTable(out.String()); got != want {
		t.Errorf("standings differ:\ndistributed:\n%s\none process:\n%s", got, want)
	}
}

// TestDistributedResume: the coordinator is killed with SIGKILL while its
// games are played and started again with the same command: it finishes
// the tournament, every game's result is stored once, and no worker
// reports a game played to completion twice.
func TestDistributedResume(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL of a coordinator: Unix")
	}
	url, env := natsServer(t)
	dir := filepath.Join(t.TempDir(), "dist")
	args := []string{"tournament", "--nats", url, "--dir", dir, "--bot", "greedy", "--bot", "turtle", "--bot", "raider",
		"--games", "30", "--turns", "1000", "--seed", "11"}
	w := startRewind(t, "worker", env, "worker", "--nats", url, "--parallel", "2")
	coord := startRewind(t, "coordinator", env, args...)
	w.waitLine(t, ": stored")
	if err := coord.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	coord.wait(t)
	again := startRewind(t, "coordinator again", env, args...)
	if err := again.wait(t); err != nil {
		t.Fatalf("coordinator again: %v\n%s", err, strings.Join(again.lines(), "\n"))
	}
	if !strings.Contains(again.out.String(), "30 games (") {
		t.Errorf("the second run's summary:\n%s", again.out.String())
	}
	// The coordinator ends once it reads the 30th result, which the
	// worker stores before it acknowledges the job and says so: wait for
	// its word before stopping it.
	w.waitLines(t, ": stored", 30)
	w.cmd.Process.Signal(os.Interrupt)
	w.wait(t)
	if keys := resultKeys(t, url, env); len(keys) != 30 {
		t.Errorf("%d results, want 30", len(keys))
	}
	stored := map[string]int{}
	for _, l := range w.lines() {
		if strings.Contains(l, "played again") {
			t.Errorf("worker: %s", l)
		}
		if _, rest, ok := strings.Cut(l, " game "); ok && strings.HasSuffix(rest, ": stored") {
			stored[strings.TrimSuffix(rest, ": stored")]++
		}
	}
	for k, n := range stored {
		if n != 1 {
			t.Errorf("game %s stored %d times", k, n)
		}
	}
	if len(stored) != 30 {
		t.Errorf("%d games stored by the worker, want 30", len(stored))
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd"))
	if len(rwds) != 30 {
		t.Errorf("%d replays in the folder, want 30", len(rwds))
	}
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startCluster starts a three-node JetStream cluster on loopback. The
// route ports are free when picked but may be taken before a node binds
// them (another test's listener). A node whose route port is taken does
// not become ready (StartServer fails); the options being otherwise
// fixed, a failed start is retried with new ports, a few times.
func startCluster(t *testing.T, user, pw string) []*server.Server {
	t.Helper()
	var lastErr error
	for range 5 {
		routes := []string{freeAddr(t), freeAddr(t), freeAddr(t)}
		var servers []*server.Server
		stop := func() {
			for _, s := range servers {
				s.Shutdown()
				s.WaitForShutdown()
			}
		}
		lastErr = nil
		for k := range 3 {
			var others []string
			for j, r := range routes {
				if j != k {
					others = append(others, "nats-route://"+r)
				}
			}
			s, err := queue.StartServer(queue.ServerOptions{StoreDir: t.TempDir(), User: user, Password: pw,
				Cluster: routes[k], ClusterName: "rewind-test", ServerName: fmt.Sprintf("n%d", k), Routes: others})
			if err != nil {
				lastErr = err
				break
			}
			servers = append(servers, s)
		}
		if lastErr == nil {
			t.Cleanup(stop)
			return servers
		}
		stop()
		t.Logf("retrying with other ports: %v", lastErr)
	}
	t.Fatalf("no free ports for the cluster after 5 tries: %v", lastErr)
	return nil
}

// TestDistributedCluster: a tournament runs on a three-node JetStream
// cluster on loopback with its stream and buckets replicated three times;
// one node is stopped while the games are played, and the tournament
// completes with every game.
func TestDistributedCluster(t *testing.T) {
	const user, pw = "tester", "cluster-pw"
	servers := startCluster(t, user, pw)
	var urls []string
	for _, s := range servers {
		urls = append(urls, s.ClientURL())
	}
	t.Setenv(natsUserEnv, user)
	t.Setenv(natsPasswordEnv, pw)
	dir := filepath.Join(t.TempDir(), "cluster")
	var out testutil.SyncBuffer
	args := []string{"tournament", "--nats", strings.Join(urls, ","), "--replicas", "3", "--parallel", "2", "--dir", dir,
		"--bot", "greedy", "--bot", "random", "--bot", "economist", "--games", "40", "--turns", "1000", "--seed", "5"}
	done := make(chan error, 1)
	go func() { done <- runCLITo(&out, &out, args...) }()
	// Stop a node once a third of the games are in the folder.
	deadline := time.After(distSafety)
	for stopped := false; !stopped; {
		select {
		case err := <-done:
			t.Fatalf("the tournament ended before a node was stopped: %v\n%s", err, out.String())
		case <-deadline:
			t.Fatalf("no progress:\n%s", out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd")); len(rwds) >= 13 {
			servers[1].Shutdown()
			stopped = true
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tournament: %v\n%s", err, out.String())
		}
	case <-time.After(distSafety):
		t.Fatalf("the tournament did not finish after a node stopped:\n%s", out.String())
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd"))
	if len(rwds) != 40 || !strings.Contains(out.String(), "40 games (") {
		t.Fatalf("%d replays; output:\n%s", len(rwds), out.String())
	}
	for _, p := range rwds {
		if err := runCLI(t, "verify", p); err != nil {
			t.Errorf("verify %s: %v", filepath.Base(p), err)
		}
	}
}

// TestDistributedBotNames: a job names its entrants only. A worker that
// has no bot for an entrant leaves the game to others, and the coordinator
// says so; a worker that maps the name to a command plays it; --status
// reports the tournament's progress from the server.
func TestDistributedBotNames(t *testing.T) {
	python := testutil.NeedTool(t, "python3")
	bot, err := filepath.Abs("../../examples/bots/python/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	url, env := natsServer(t)
	dir := filepath.Join(t.TempDir(), "names")
	args := []string{"tournament", "--nats", url, "--dir", dir, "--bot", "greedy", "--bot", "mybot", "--games", "2", "--turns", "200", "--players", "2"}
	lacking := startRewind(t, "worker without mybot", env, "worker", "--nats", url)
	coord := startRewind(t, "coordinator", env, args...)
	coord.waitLine(t, `has no bot "mybot"`)
	having := startRewind(t, "worker with mybot", env, "worker", "--nats", url, "--bot", "mybot="+python+" "+bot)
	if err := coord.wait(t); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, strings.Join(coord.lines(), "\n"))
	}
	for _, w := range []*proc{lacking, having} {
		w.cmd.Process.Signal(os.Interrupt)
		w.wait(t)
	}
	for _, l := range lacking.lines() {
		if strings.HasSuffix(l, ": stored") {
			t.Errorf("the worker without mybot played a game: %s", l)
		}
	}
	status := startRewind(t, "status", env, append(args, "--status")...)
	if err := status.wait(t); err != nil || !strings.Contains(status.out.String(), "2 of 2 games finished") {
		t.Errorf("--status: %v\n%s%s", err, status.out.String(), strings.Join(status.lines(), "\n"))
	}
}

// TestDistributedDocExamples: every rewind command line of
// docs/distributed.md names a command and flags that exist, with values
// they accept (the examples that need other machines are parsed, not
// run; the tests above run their equivalents on loopback).
func TestDistributedDocExamples(t *testing.T) {
	b := testutil.ReadFile(t, "../../docs/distributed.md")
	n := 0
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "rewind ") {
			continue
		}
		args, err := shellWords(strings.TrimPrefix(line, "rewind "))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		root := newRootCmd()
		cmd, rest, err := root.Find(args)
		if err != nil || cmd == root {
			t.Errorf("%s: no such command (%v)", line, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
		}
		n++
	}
	if n < 8 {
		t.Errorf("found %d rewind command lines in docs/distributed.md", n)
	}
}

// shellWords splits a command line as sh would for the quoting the docs
// use (single and double quotes, no escapes).
func shellWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		case c == '#':
			if !in {
				return out, nil
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// TestTwoTournamentsOneFolder: two tournaments writing into one folder at
// the same time (as two machines on a shared file system would) both
// finish and print their standings, and the folder holds every game once,
// each verifying.
func TestTwoTournamentsOneFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	args := []string{"tournament", "--dir", dir, "--bot", "greedy", "--bot", "random", "--games", "12", "--turns", "200", "--parallel", "1"}
	var outs [2]testutil.SyncBuffer
	errs := make(chan error, 2)
	for k := range 2 {
		go func() { errs <- runCLITo(&outs[k], &outs[k], args...) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("a tournament failed: %v", err)
		}
	}
	for k := range 2 {
		if !strings.Contains(outs[k].String(), "12 games (") {
			t.Errorf("tournament %d printed:\n%s", k, outs[k].String())
		}
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd"))
	partials, _ := filepath.Glob(filepath.Join(dir, "*.partial"))
	if len(rwds) != 12 || len(partials) != 0 {
		t.Fatalf("%d replays and %d partial files in the folder, want 12 and 0", len(rwds), len(partials))
	}
	for _, p := range rwds {
		if err := runCLI(t, "verify", p); err != nil {
			t.Errorf("verify %s: %v", filepath.Base(p), err)
		}
	}
}

// TestDistributedForeignJobNotRun: a coordinator that plays with workers
// of its own (--nats with --parallel) never runs another tournament's
// entrant names as commands: a job whose entrant is a command line it was
// not given is left to others (and its coordinator is told).
func TestDistributedForeignJobNotRun(t *testing.T) {
	url, env := natsServer(t)
	work := t.TempDir()
	marker := filepath.Join(work, "ran")
	evil := "touch " + marker // a command line, as a job's name
	foreign := startRewind(t, "foreign coordinator", env, "tournament", "--nats", url, "--dir", filepath.Join(work, "foreign"),
		"--bot", "greedy", "--bot", evil, "--games", "1", "--turns", "200", "--players", "2")
	// The foreign job is queued before the own tournament's 40 (the
	// queue hands jobs out in order), so the own workers meet it.
	waitPending(t, url, env, 1)
	own := startRewind(t, "own coordinator", env, "tournament", "--nats", url, "--parallel", "1", "--dir", filepath.Join(work, "own"),
		"--bot", "greedy", "--bot", "random", "--games", "40", "--turns", "200")
	foreign.waitLine(t, fmt.Sprintf("has no bot %q", evil))
	if err := own.wait(t); err != nil {
		t.Fatalf("own coordinator: %v\n%s", err, strings.Join(own.lines(), "\n"))
	}
	foreign.cmd.Process.Kill()
	foreign.wait(t)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a job's entrant name was run as a command")
	}
}

// TestTournamentAhead: a coordinator queues at most --ahead games at
// once (the next as one finishes), so its memory does not grow with the
// number of games: with no worker, 3 of 12 are queued and no more; a
// worker started then plays all 12. --ahead out of its range is refused
// with the range.
func TestTournamentAhead(t *testing.T) {
	url, env := natsServer(t)
	dir := filepath.Join(t.TempDir(), "ahead")
	coord := startRewind(t, "coordinator", env, "tournament", "--nats", url, "--dir", dir, "--bot", "greedy", "--bot", "raider",
		"--games", "12", "--turns", "200", "--seed", "4", "--ahead", "3")
	waitPending(t, url, env, 3)
	js := jetStreamOf(t, url, env)
	ctx, cancel := context.WithTimeout(context.Background(), distSafety)
	defer cancel()
	s, err := js.Stream(ctx, queue.JobsStream)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := s.Info(ctx); err != nil || info.State.Msgs != 3 {
		t.Fatalf("jobs queued with --ahead 3 and no worker: %v (%v), want 3", info.State.Msgs, err)
	}
	w := startRewind(t, "worker", env, "worker", "--nats", url, "--parallel", "2")
	if err := coord.wait(t); err != nil {
		t.Fatalf("coordinator: %v\n%s", err, strings.Join(coord.lines(), "\n"))
	}
	if !strings.Contains(coord.out.String(), "12 games (") {
		t.Errorf("the summary:\n%s", coord.out.String())
	}
	w.cmd.Process.Signal(os.Interrupt)
	w.wait(t)
	if rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd")); len(rwds) != 12 {
		t.Errorf("%d replays in the folder, want 12", len(rwds))
	}
	for _, bad := range []string{"0", "100001"} {
		out, code := runRewind(t, "tournament", "--games", "2", "--ahead", bad, "--dir", filepath.Join(t.TempDir(), "x"))
		if code != 2 || !strings.Contains(out, "--ahead "+bad+": give a number from 1 to 100000") {
			t.Errorf("--ahead %s: status %d\n%s", bad, code, out)
		}
	}
}
