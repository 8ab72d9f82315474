package protocol

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	sp "github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil/simtest"
	"github.com/rewind-game/rewind/replay"
)

// startServer runs Serve with o (Addr loopback port 0) and returns its
// addresses and the channel Serve's error arrives on.
func startServer(t *testing.T, ctx context.Context, o rooms.Options) (map[string]string, <-chan error) {
	t.Helper()
	ready := make(chan map[string]string, 1)
	done := make(chan error, 1)
	o.Addr = "127.0.0.1:0"
	o.Ready = func(a map[string]string) { ready <- a }
	go func() { done <- Server{}.Serve(ctx, o) }()
	select {
	case a := <-ready:
		return a, done
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	}
	return nil, nil
}

func serverDone(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute): // a safety net, not a verdict
		t.Fatal("server did not return")
	}
}

// resimulate re-simulates the one recording in dir, calling round after
// each of its rounds, and returns the simulation at its end.
func resimulate(t *testing.T, dir string, round func(*replay.Sim)) *replay.Sim {
	t.Helper()
	rwds, _ := filepath.Glob(filepath.Join(dir, "*.rwd"))
	if len(rwds) != 1 {
		t.Fatalf("recordings %v", rwds)
	}
	return simtest.ResimulateFile(t, rwds[0], round)
}

// verifyDir re-simulates the one recording in dir and returns its
// rounds' faults per player.
func verifyDir(t *testing.T, dir string) (rounds int, faults map[int][]engine.Fault) {
	t.Helper()
	faults = map[int][]engine.Fault{}
	resimulate(t, dir, func(s *replay.Sim) {
		rounds++
		for p, fl := range s.Round().Faults {
			if fl != 0 {
				faults[p] = append(faults[p], fl)
			}
		}
	})
	return rounds, faults
}

// TestHostileClients: garbage and 10 MB lines are answered with errors
// (memory stays bounded), a player that never reads and one that
// disconnects mid-turn do not stop the game, which ends and verifies.
func TestHostileClients(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 3, Bots: []string{"hunter"},
		MaxTurns: 40, ThinkTime: 0, Deadline: time.Minute, Games: 1, Seed: 3})

	// Garbage and huge lines before the handshake.
	h := dial(t, addrs["players"])
	h.send("garbage", "{")
	for i := 0; i < 2; i++ {
		if g := h.next(); g == nil || !strings.HasPrefix(g.m["error"].(string), "Invalid packet received: ") {
			t.Fatalf("garbage: got %v", g)
		}
	}
	big := append(bytes.Repeat([]byte("x"), 10<<20), '\n')
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 3; i++ {
		if _, err := h.c.Write(big); err != nil {
			t.Fatal(err)
		}
		if g := h.next(); g == nil || g.m["error"] != tooLongText {
			t.Fatalf("10 MB line: got %v", g)
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 4<<20 {
		t.Fatalf("three 10 MB lines grew the heap by %d bytes", grew)
	}
	h.send(`{"message":"connect","revision":1,"name":"hostile"}`)
	if g := h.next(); g == nil || g.raw != `{"message":"connect","status":true}` {
		t.Fatalf("handshake: %v", g)
	}

	// A player that sends endturn lines and never reads a byte.
	slow, err := net.Dial("tcp", addrs["players"])
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	slow.Write([]byte(`{"message":"connect","revision":1,"name":"slow"}` + "\n" +
		`{"message":"loadout","primary-weapon":"mortar","secondary-weapon":"laser"}` + "\n"))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		line := bytes.Repeat([]byte(`{"message":"endturn"}`+"\n"), 64)
		for {
			select {
			case <-stop:
				return
			default:
			}
			slow.SetWriteDeadline(time.Now().Add(time.Minute))
			if _, err := slow.Write(line); err != nil {
				return
			}
		}
	}()

	// hostile: a loadout, garbage on each turn, a 10 MB line, then it
	// leaves in the middle of its third turn.
	h.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	turns := 0
	for turns < 3 {
		g := h.next()
		if g == nil {
			t.Fatal("hostile: connection closed early")
		}
		if g.m["message"] != "gamestate" || g.m["turn"] == 0.0 {
			continue
		}
		ps := g.m["players"].([]any)
		if ps[0].(map[string]any)["name"] != "hostile" {
			continue
		}
		turns++
		h.send(`[1,2]`, `{"message":"action","type":"laser"}`)
		h.c.Write(big)
		if turns == 3 {
			h.c.Close()
			break
		}
		h.send(`{"message":"endturn"}`)
	}
	serverDone(t, done)
	rounds, faults := verifyDir(t, dir)
	if rounds != 40 {
		t.Fatalf("%d rounds, want 40", rounds)
	}
	if len(faults[0]) != 1 || faults[0][0] != engine.FaultCrash {
		t.Fatalf("hostile's faults %v, want one crash (its disconnect)", faults[0])
	}
}

// TestConnectionFlood: over the per-address bound, the address's oldest
// connection without a handshake is closed to make room; with every one
// handshaken, a connection is refused with an error line naming the
// bound; the server still plays its game.
func TestConnectionFlood(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 2, Bots: []string{"miner"},
		MaxTurns: 20, ThinkTime: 0, Deadline: time.Minute, Games: 1, MaxConnsPerIP: 4})
	var silent []*client
	for i := 0; i < 4; i++ {
		silent = append(silent, dial(t, addrs["players"]))
	}
	// A fifth: the oldest silent one is closed for it.
	p := dial(t, addrs["players"])
	if g := silent[0].next(); g != nil {
		t.Fatalf("the oldest silent connection: got %s, want it closed", g.raw)
	}
	p.send(`{"message":"connect","revision":1,"name":"player"}`)
	if g := p.next(); g == nil || g.m["message"] != "connect" || g.m["status"] != true {
		t.Fatalf("the fifth connection's handshake: got %v", g)
	}
	// The others handshake too (they wait in the lobby): with no silent
	// connection left, the bound refuses, on either port.
	for i, c := range silent[1:] {
		c.send(fmt.Sprintf(`{"message":"connect","revision":1,"name":"waiting%d"}`, i))
		if g := c.next(); g == nil || g.m["status"] != true {
			t.Fatalf("waiting%d's handshake: got %v", i, g)
		}
	}
	extra := dial(t, addrs["observer"])
	if g := extra.next(); g == nil || g.raw != `{"error":"Too many connections from this address"}` {
		t.Fatalf("over the bound: got %v", g)
	}
	if g := extra.next(); g != nil {
		t.Fatalf("over the bound: not closed, got %s", g.raw)
	}
	for _, c := range silent[1:] {
		c.c.Close()
	}
	p.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	playOut(t, p, "player", done, dir, 20)
}

// TestSilentConnectionsLockNobodyOut: four addresses holding 64 silent
// connections each fill the server (MaxConns); a bot from a fifth address
// still gets in — the oldest silent connection is closed for it — and
// plays its game. (It used to be refused, as "Too many connections from
// this address", on every try.)
func TestSilentConnectionsLockNobodyOut(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 2, Bots: []string{"miner"},
		MaxTurns: 20, ThinkTime: 0, Deadline: time.Minute, Games: 1, MaxConnsPerIP: MaxConns / 4})
	from := func(host string) *client {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(host)}}
		c, err := d.Dial("tcp", addrs["players"])
		if err != nil {
			t.Skipf("no loopback address %s to dial from: %v", host, err)
		}
		t.Cleanup(func() { c.Close() })
		return &client{t: t, c: c, r: bufio.NewReader(c)}
	}
	var silent []*client
	for a := 2; a <= 5; a++ {
		for range MaxConns / 4 {
			silent = append(silent, from(fmt.Sprintf("127.0.0.%d", a)))
		}
	}
	p := from("127.0.0.6")
	p.send(`{"message":"connect","revision":1,"name":"player"}`)
	if g := p.next(); g == nil || g.m["message"] != "connect" || g.m["status"] != true {
		t.Fatalf("a bot from a fifth address: got %v, want its handshake accepted", g)
	}
	if g := silent[0].next(); g != nil {
		t.Fatalf("the oldest silent connection: got %s, want it closed", g.raw)
	}
	p.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	playOut(t, p, "player", done, dir, 20)
}

// playOut plays p's turns as name (endturn on each) until the server
// closes it, waits for the server to end and checks that the one game
// recorded in dir re-simulates rounds rounds.
func playOut(t *testing.T, p *client, name string, done <-chan error, dir string, rounds int) {
	t.Helper()
	for g := p.next(); g != nil; g = p.next() {
		if g.m["message"] == "gamestate" && g.m["turn"] != 0.0 && g.m["players"].([]any)[0].(map[string]any)["name"] == name {
			p.send(`{"message":"endturn"}`)
		}
	}
	serverDone(t, done)
	if got, _ := verifyDir(t, dir); got != rounds {
		t.Fatalf("%d rounds, want %d", got, rounds)
	}
}

// TestCancelMidGame: cancelling the context ends the server cleanly; the
// recording stops at the last whole turn and verifies.
func TestCancelMidGame(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 2, Bots: []string{"random"},
		ThinkTime: 0, Deadline: time.Hour, Games: 0})
	p := dial(t, addrs["players"])
	p.send(`{"message":"connect","revision":1,"name":"quitter"}`, `{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	mine := 0
	for g := p.next(); g != nil; g = p.next() {
		if g.m["message"] == "gamestate" && g.m["turn"] != 0.0 && g.m["players"].([]any)[0].(map[string]any)["name"] == "quitter" {
			if mine++; mine == 5 {
				cancel() // during its think time: the server waits for it
				break
			}
			p.send(`{"message":"endturn"}`)
		}
	}
	serverDone(t, done)
	rounds, _ := verifyDir(t, dir)
	if rounds < 2+8 || rounds >= sp.DefaultMaxTurns {
		t.Fatalf("%d rounds recorded", rounds)
	}
}

// TestThinkTimeAndObserver: with a think time, a silent bot's turns are
// recorded as timeouts and the game goes on; the observer's faster and
// slower change the think time with the reference's subtitles, a second
// observer is refused, and a wrong password draws "Wrong password!".
func TestThinkTimeAndObserver(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 2, Bots: []string{"artillery"},
		MaxTurns: 12, ThinkTime: 50 * time.Millisecond, Deadline: time.Minute, Games: 1})
	obs := dial(t, addrs["observer"])
	obs.send(`{"message":"connect","revision":1,"password":"wrong"}`)
	if g := obs.next(); g == nil || g.raw != `{"error":"Wrong password!"}` {
		t.Fatalf("wrong password: %v", g)
	}
	obs.send(`{"message":"connect","revision":2,"password":"supersecretpassword"}`)
	if g := obs.next(); g == nil || g.raw != `{"error":"Wrong protocol revision: supporting 1, but got 2"}` {
		t.Fatalf("wrong revision: %v", g)
	}
	obs.send(`{"message":"connect","revision":1,"password":"supersecretpassword"}`)
	if g := obs.next(); g == nil || g.raw != `{"message":"connect","status":true}` {
		t.Fatalf("observer handshake: %v", g)
	}
	second := dial(t, addrs["observer"])
	second.send(`{"message":"connect","revision":1,"password":"supersecretpassword"}`)
	if g := second.next(); g == nil || g.m["error"] == nil {
		t.Fatalf("second observer: %v", g)
	}
	obs.send(`{"message":"slower"}`, `{"message":"slower"}`, `{"message":"faster"}`, `{"message":"faster"}`)
	for _, want := range []string{"Delay changed to 150", "Delay changed to 250", "Delay changed to 150", "Can't go faster"} {
		if g := obs.next(); g == nil || g.m["message"] != "subtitle" || g.m["text"] != want {
			t.Fatalf("subtitle: got %v, want %q", g, want)
		}
	}
	p := dial(t, addrs["players"])
	p.send(`{"message":"connect","revision":1,"name":"silent"}`, `{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	go func() {
		for g := obs.next(); g != nil; g = obs.next() {
			if g.m["message"] == "endactions" {
				obs.send(`{"message":"ready"}`)
			}
		}
	}()
	for g := p.next(); g != nil; g = p.next() {
	}
	serverDone(t, done)
	rounds, faults := verifyDir(t, dir)
	if rounds != 12 || len(faults[0]) < 3 {
		t.Fatalf("%d rounds, silent's faults %v (want 12 rounds, a timeout a turn)", rounds, faults[0])
	}
	for _, f := range faults[0] {
		if f != engine.FaultTimeout {
			t.Fatalf("silent's faults %v", faults[0])
		}
	}
}

// TestSilentPlayerNotWaitedFor: a player that handshakes and then stays
// silent holds rooms.Misses of its turns for the deadline, then its turns
// are timeouts at once (recorded as such) until it sends a line, after
// which it is waited for and plays again. (Each of its turns used to take
// the whole deadline, for ever.)
func TestSilentPlayerNotWaitedFor(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const silentTurns = 6
	addrs, done := startServer(t, ctx, rooms.Options{Dir: dir, Players: 2,
		MaxTurns: 40, ThinkTime: 0, Deadline: 2 * time.Second, Games: 1})
	quiet := dial(t, addrs["players"])
	quiet.send(`{"message":"connect","revision":1,"name":"quiet"}`)
	if g := quiet.next(); g == nil || g.m["status"] != true {
		t.Fatalf("quiet's handshake: %v", g)
	}
	talker := dial(t, addrs["players"])
	talker.send(`{"message":"connect","revision":1,"name":"talker"}`)
	for _, c := range []*client{quiet, talker} {
		c.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}`)
	}
	active := func(g *msg, name string) bool {
		return g.m["message"] == "gamestate" && g.m["turn"] != 0.0 && g.m["players"].([]any)[0].(map[string]any)["name"] == name
	}
	// quiet ignores its first silentTurns turns; on the next it sends a
	// line the server answers with an error (so the server has read it),
	// then plays. talker plays every turn, but once quiet's turn after
	// its silence has begun (talker sees its gamestate too), not before
	// the server has read quiet's line: the game cannot run past quiet's
	// return.
	back := make(chan struct{})
	quietDone := make(chan int)
	go func() {
		mine := 0
		for g := quiet.next(); g != nil; g = quiet.next() {
			if !active(g, "quiet") {
				continue
			}
			switch mine++; {
			case mine == silentTurns+1:
				quiet.c.Write([]byte(`{"message":"hello"}` + "\n"))
				for g := quiet.next(); g != nil && g.m["error"] == nil; g = quiet.next() {
				}
				close(back)
			case mine > silentTurns+1:
				quiet.c.Write([]byte(`{"message":"endturn"}` + "\n"))
			}
		}
		quietDone <- mine
	}()
	quietTurns := 0
	for g := talker.next(); g != nil; g = talker.next() {
		if active(g, "quiet") {
			quietTurns++
		}
		if active(g, "talker") {
			if quietTurns > silentTurns {
				<-back
			}
			// The last gamestate is answered too, and the server may
			// have closed the connection by then.
			talker.c.Write([]byte(`{"message":"endturn"}` + "\n"))
		}
	}
	mine := <-quietDone
	serverDone(t, done)

	var texts []string
	resimulate(t, dir, func(s *replay.Sim) {
		if r := s.Round(); r.Faults[0] != 0 {
			texts = append(texts, r.FaultText[0])
		} else if r.Faults[1] != 0 {
			t.Logf("talker's fault: %s", r.FaultText[1])
		}
	})
	if len(texts) < rooms.Misses+1 {
		t.Fatalf("quiet's faults %q: want at least %d", texts, rooms.Misses+1)
	}
	for i, text := range texts[:rooms.Misses] {
		if text != "no endturn within the lock-step deadline" {
			t.Errorf("quiet's fault %d: %q, want the deadline's", i+1, text)
		}
	}
	if want := "silent for 3 turns in a row: not waited for until it sends a line"; texts[rooms.Misses] != want {
		t.Errorf("quiet's fault %d: %q, want %q", rooms.Misses+1, texts[rooms.Misses], want)
	}
	if len(texts) >= mine {
		t.Errorf("quiet faulted on all its %d turns %q: never waited for again after it spoke", mine, texts)
	}
}
