package queue

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rewind-game/rewind/internal/match"
)

func testQueue(t *testing.T, lim Limits) *Queue {
	t.Helper()
	s, err := StartServer(ServerOptions{StoreDir: t.TempDir(), User: "u", Password: "p"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	nc, err := nats.Connect(s.ClientURL(), nats.UserInfo("u", "p"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q, err := Open(ctx, js, 1, lim)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestLimits: the stream and buckets carry the documented limits; a job
// published twice is kept once; a replay over MaxReplayBytes is refused
// with the game named; a second attempt of a finished game leaves the
// first result; the server refuses a client without the password, and a
// server without one refuses to listen off loopback.
func TestLimits(t *testing.T) {
	lim := DefaultLimits
	lim.MaxReplayBytes = 1000
	q := testQueue(t, lim)
	ctx := context.Background()
	info, err := q.jobs.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := info.Config
	if c.MaxMsgs != lim.MaxJobs || c.MaxMsgSize != lim.MaxJobBytes || c.MaxAge != lim.MaxAge || c.Discard != jetstream.DiscardNew || c.Retention != jetstream.WorkQueuePolicy {
		t.Errorf("stream config %+v", c)
	}
	st, err := q.results.Status(ctx)
	if err != nil || st.History() != 1 || st.TTL() != lim.MaxAge {
		t.Errorf("results bucket: %v history %d ttl %v", err, st.History(), st.TTL())
	}

	spec := Spec{Game: "colorfight2", Bots: []string{"greedy", "random"}, Players: 2, Seed: 1, MaxTurn: 200}
	for range 2 {
		if err := q.publish(ctx, Job{Tournament: spec.ID(), Spec: spec, Index: 3}, false); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := q.Pending(ctx); err != nil || n != 1 {
		t.Errorf("a job published twice: %d jobs (%v)", n, err)
	}

	big, small := make([]byte, 1001), []byte("RWD replay bytes")
	w := &Worker{Queue: q, ID: "w1"}
	j := Job{Tournament: spec.ID(), Spec: spec, Index: 3}
	err = w.store(ctx, j, match.GameResult{}, big)
	if err == nil || !strings.Contains(err.Error(), "over the limit of 1000 bytes") || !strings.Contains(err.Error(), j.Key()) {
		t.Errorf("a replay over the limit: %v", err)
	}
	if err := w.store(ctx, j, match.GameResult{Seed: 42}, small); err != nil {
		t.Fatal(err)
	}
	w2 := &Worker{Queue: q, ID: "w2"}
	if err := w2.store(ctx, j, match.GameResult{Seed: 43}, small); err != nil {
		t.Fatal(err)
	}
	r, ok, err := q.Result(ctx, j.Tournament, 3)
	if err != nil || !ok || r.Worker != "w1" || r.Game.Seed != 42 {
		t.Fatalf("result %+v %v %v: want the first attempt's", r, ok, err)
	}
	if b, err := q.Replay(ctx, r); err != nil || string(b) != "RWD replay bytes" {
		t.Errorf("replay %q %v", b, err)
	}
	r.SHA256 = strings.Repeat("0", 64)
	if _, err := q.Replay(ctx, r); err == nil {
		t.Error("a replay that does not match its result's SHA-256 was accepted")
	}

	if nc, err := nats.Connect(q.js.Conn().ConnectedUrl()); err == nil {
		nc.Close()
		t.Error("a client without the password was let in")
	}
	if nc, err := nats.Connect(q.js.Conn().ConnectedUrl(), nats.UserInfo("u", "wrong")); err == nil {
		nc.Close()
		t.Error("a client with a wrong password was let in")
	}
	if _, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "without a user and password") {
		t.Errorf("no password off loopback: %v", err)
	}
}

// TestMemoryCoordinator: with Limits.Memory the stream and buckets are in
// memory, a game's result comes back through the coordinator with its
// replay, and once the coordinator has stored the replay the result no
// longer holds it (the memory held per game stays small).
func TestMemoryCoordinator(t *testing.T) {
	lim := DefaultLimits
	lim.Memory = true
	q := testQueue(t, lim)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	info, err := q.jobs.Info(ctx)
	if err != nil || info.Config.Storage != jetstream.MemoryStorage {
		t.Fatalf("jobs stream storage %v (%v), want memory", info.Config.Storage, err)
	}
	spec := Spec{Game: "colorfight2", Bots: []string{"greedy", "random"}, Players: 2, Seed: 1, MaxTurn: 200}
	dir := t.TempDir()
	stored := map[int][]byte{}
	var mu sync.Mutex
	c := &Coordinator{Queue: q, Spec: spec, Store: func(i int, data []byte) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		stored[i] = data
		return filepath.Join(dir, "stored.rwd"), nil
	}, Check: func(i int, data []byte) (match.GameResult, error) {
		if string(data) != fmt.Sprintf("replay of game %d", i) {
			return match.GameResult{}, fmt.Errorf("replay %q", data)
		}
		return match.GameResult{Seed: uint64(100 + i)}, nil
	}}
	c.Start(ctx)
	w := &Worker{Queue: q, ID: "w"}
	w.Play = func(ctx context.Context, j Job) (match.GameResult, []byte, error) {
		return match.GameResult{Seed: uint64(100 + j.Index)}, []byte(fmt.Sprintf("replay of game %d", j.Index)), nil
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	for i := range 3 {
		gr, err := c.Game(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if gr.Seed != uint64(100+i) || gr.Game != i || string(stored[i]) != fmt.Sprintf("replay of game %d", i) {
			t.Errorf("game %d: result %+v, stored %q", i, gr, stored[i])
		}
		r, ok, err := q.Result(ctx, spec.ID(), i)
		if err != nil || !ok || r.Inline != nil || r.Size == 0 {
			t.Errorf("game %d's result after it was stored: %+v %v %v, want it without the replay", i, r, ok, err)
		}
	}
	stop()
	<-done
}

// TestReplayOverLimitFailsAtOnce: a game whose replay is over
// MaxReplayBytes is played once, not delivered again and again: the
// coordinator's game fails at once with the limit and the worker named.
func TestReplayOverLimitFailsAtOnce(t *testing.T) {
	lim := DefaultLimits
	lim.MaxReplayBytes = 1000
	lim.MaxDeliver = 3
	q := testQueue(t, lim)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spec := Spec{Game: "colorfight2", Bots: []string{"greedy", "random"}, Players: 2, Seed: 1, MaxTurn: 200}
	c := &Coordinator{Queue: q, Spec: spec,
		Store: func(int, []byte) (string, error) { return "", fmt.Errorf("nothing to store") },
		Check: func(int, []byte) (match.GameResult, error) { return match.GameResult{}, nil }}
	c.Start(ctx)
	var mu sync.Mutex
	plays := 0
	w := &Worker{Queue: q, ID: "w1", Play: func(context.Context, Job) (match.GameResult, []byte, error) {
		mu.Lock()
		plays++
		mu.Unlock()
		return match.GameResult{}, make([]byte, 1001), nil
	}}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	_, err := c.Game(ctx, 0)
	stop()
	<-done
	if err == nil || !strings.Contains(err.Error(), `game 0 failed on worker "w1"`) || !strings.Contains(err.Error(), "over the limit of 1000 bytes (1001 bytes)") {
		t.Errorf("the game's error: %v", err)
	}
	if plays != 1 {
		t.Errorf("the game was played %d times, want once", plays)
	}
	if ok, err := q.has(ctx, spec.ID(), 0); err != nil || ok {
		t.Errorf("the failure is still the game's result (%v): a run again would not try again", err)
	}
}
