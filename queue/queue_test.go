package queue

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rewind-game/rewind/engine/match"
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
		if err := q.Publish(ctx, spec, 3); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := q.Pending(ctx); err != nil || n != 1 {
		t.Errorf("a job published twice: %d jobs (%v)", n, err)
	}

	dir := t.TempDir()
	big := filepath.Join(dir, "big.rwd")
	os.WriteFile(big, make([]byte, 1001), 0o644)
	small := filepath.Join(dir, "small.rwd")
	os.WriteFile(small, []byte("RWD replay bytes"), 0o644)
	w := &Worker{Queue: q, ID: "w1"}
	j := Job{Tournament: spec.ID(), Spec: spec, Index: 3}
	err = w.store(ctx, j, match.GameResult{Path: big})
	if err == nil || !strings.Contains(err.Error(), "over the limit of 1000 bytes") || !strings.Contains(err.Error(), j.Key()) {
		t.Errorf("a replay over the limit: %v", err)
	}
	if err := w.store(ctx, j, match.GameResult{Path: small, Seed: 42}); err != nil {
		t.Fatal(err)
	}
	w2 := &Worker{Queue: q, ID: "w2"}
	if err := w2.store(ctx, j, match.GameResult{Path: small, Seed: 43}); err != nil {
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
