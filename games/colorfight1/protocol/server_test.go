package protocol

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight1/rules"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/spf13/pflag"
)

// openIdle mounts a server whose first tick is a minute away, so that
// every request stays queued for the test to count.
func openIdle(t *testing.T) *mount {
	t.Helper()
	fs := pflag.NewFlagSet("server", pflag.ContinueOnError)
	Server{}.AddFlags(fs)
	if err := fs.Parse([]string{"--tick", "60"}); err != nil {
		t.Fatal(err)
	}
	mm, err := Server{}.Mount(rooms.Options{Dir: t.TempDir(), Flags: fs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mm.Close() })
	m := mm.(*mount)
	// The game's first state (before its first tick) answers what is
	// queued then: wait for it.
	m.mu.Lock()
	g := m.game
	m.mu.Unlock()
	<-g.ready
	return m
}

func body(t *testing.T, s string) *rules.Body {
	t.Helper()
	b, err := rules.ParseBody(true, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return &b
}

// TestBounds: the bounds of docs/limits.md hold: the joins of an
// address, the requests of unknown tokens waiting for a tick, a player's
// waiting requests and a body's size; each refusal says which.
func TestBounds(t *testing.T) {
	m := openIdle(t)
	for i := 0; i < JoinsPerMinute; i++ {
		c := newCall(rules.JoinGame, "/joingame", []byte(`{"name":"p"}`))
		status, msg := m.queue(c, body(t, `{"name":"p"}`), "10.0.0.1")
		if i < rules.MaxPlayers && status != 0 || i >= rules.MaxPlayers && status != http.StatusForbidden {
			t.Fatalf("join %d: %d %s", i+1, status, msg)
		}
	}
	c := newCall(rules.JoinGame, "/joingame", []byte(`{"name":"p"}`))
	if status, msg := m.queue(c, body(t, `{"name":"p"}`), "10.0.0.1"); status != http.StatusTooManyRequests || !strings.Contains(string(msg), "joins a minute") {
		t.Errorf("join %d from one address: %d %s", JoinsPerMinute+1, status, msg)
	}

	for i := 0; i < MaxStrangers; i++ {
		c := newCall(rules.Attack, "/attack", []byte(`{"cellx":1,"celly":1,"token":"x"}`))
		if status, msg := m.queue(c, body(t, `{"cellx":1,"celly":1,"token":"x"}`), "10.0.0.2"); status != 0 {
			t.Fatalf("stranger %d: %d %s", i+1, status, msg)
		}
	}
	c = newCall(rules.Attack, "/attack", []byte(`{"cellx":1,"celly":1,"token":"x"}`))
	if status, msg := m.queue(c, body(t, `{"cellx":1,"celly":1,"token":"x"}`), "10.0.0.2"); status != http.StatusTooManyRequests {
		t.Errorf("stranger %d: %d %s", MaxStrangers+1, status, msg)
	}

	// A player's requests: give seat 1's player a token, as a join's
	// answer does.
	m.mu.Lock()
	m.game.token["tok"], m.game.seatToken[0] = 0, "tok"
	m.mu.Unlock()
	sent := 0
	for ; ; sent++ {
		c := newCall(rules.Attack, "/attack", []byte(`{"cellx":1,"celly":1,"token":"tok"}`))
		status, msg := m.queue(c, body(t, `{"cellx":1,"celly":1,"token":"tok"}`), "10.0.0.3")
		if status == 0 {
			continue
		}
		if status != http.StatusTooManyRequests || !strings.Contains(string(msg), fmt.Sprint(MaxPending)) {
			t.Errorf("request %d of a player: %d %s", sent+1, status, msg)
		}
		break
	}
	m.mu.Lock()
	waiting := len(m.game.pending[0])
	m.mu.Unlock()
	if waiting != MaxPending {
		t.Errorf("a player had %d requests waiting (%d attacks accepted), want %d", waiting, sent, MaxPending)
	}

	srv := httptest.NewServer(m)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/attack", "application/json", strings.NewReader(`{"token":"`+strings.Repeat("a", MaxBody)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over %d bytes: %s", MaxBody, resp.Status)
	}
}

// TestSeatPerJoin: every successful join gets a seat of its own, in join
// order: a join after the seat's player died, or beside a player alive,
// takes the next seat; only the seat claimed last, when its join failed,
// is taken again.
func TestSeatPerJoin(t *testing.T) {
	m := openIdle(t)
	join := func() int {
		t.Helper()
		c := newCall(rules.JoinGame, "/joingame", []byte(`{"name":"MyAI"}`))
		if status, msg := m.queue(c, body(t, `{"name":"MyAI"}`), "10.0.0.1"); status != 0 {
			t.Fatalf("join: %d %s", status, msg)
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		for p, cs := range m.game.pending {
			for _, x := range cs {
				if x == c {
					return p
				}
			}
		}
		t.Fatal("the join waits on no seat")
		return -1
	}
	// answered is what Played does when seat p's join is answered.
	answered := func(p int, ok bool) {
		m.mu.Lock()
		defer m.mu.Unlock()
		g := m.game
		g.joining[p], g.pending[p] = false, nil
		if ok {
			g.joined[p], g.seatToken[p] = true, "tok"+fmt.Sprint(p)
			g.token[g.seatToken[p]] = p
		}
	}
	died := func(p int) {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.game.token, m.game.seatToken[p])
		m.game.seatToken[p] = ""
	}
	if p := join(); p != 0 {
		t.Fatalf("first join on seat %d", p+1)
	}
	answered(0, true)
	if p := join(); p != 1 {
		t.Errorf("a join beside a player alive on seat %d, want 2", p+1)
	}
	answered(1, true)
	died(0)
	if p := join(); p != 2 {
		t.Errorf("a join after seat 1's player died on seat %d, want 3", p+1)
	}
	answered(2, false) // refused: seat 3 is free again
	if p := join(); p != 2 {
		t.Errorf("a join after seat 3's join failed on seat %d, want 3 again", p+1)
	}
	if p := join(); p != 3 {
		t.Errorf("a join while seat 3's waits on seat %d, want 4", p+1)
	}
	answered(2, false)
	if p := join(); p != 4 {
		t.Errorf("a join after seat 3's failed and seat 4's waits on seat %d, want 5 (join order)", p+1)
	}
}
