package protocol

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// Connections beyond MaxConnsPerIP are refused with 429 before the
// upgrade; the server keeps answering and games go on.
func TestThousandConnections(t *testing.T) {
	const limit = 64
	ts := newTestServer(t, Options{MaxConnsPerIP: limit})
	ts.createRoom("r", lockstep(200, "greedy"))
	a := ts.action("r") // the player's channels are opened first
	gc := ts.dial("r", "game_channel")
	a.register("a", "p")
	var mu sync.Mutex
	var open []*websocket.Conn
	refused := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			ch := "game_channel"
			if i%2 == 0 {
				ch = "action_channel"
			}
			ctx, cancel := context.WithTimeout(context.Background(), safety)
			defer cancel()
			c, resp, err := websocket.Dial(ctx, ts.wsURL("r", ch), nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
					t.Errorf("dial %d: %v", i, err)
				}
				refused++
				return
			}
			open = append(open, c)
		}(i)
	}
	wg.Wait()
	if len(open) > limit-2 || refused < 1000-limit {
		t.Errorf("%d connections open, %d refused; limit %d", len(open), refused, limit)
	}
	// the server still answers, and the game is played
	if resp := ts.get("/get_gameroom_list"); resp.status != 200 {
		t.Errorf("list: %d", resp.status)
	}
	ts.start("r")
	for turn := 1; turn < 5; turn++ {
		waitState(t, gc, atTurn(turn))
		a.command()
	}
	waitState(t, gc, atTurn(5))
	for _, c := range open {
		c.CloseNow()
	}
}

// Garbage on the action channel gets replies (or a closed connection for
// non-text frames) and never disturbs the game.
func TestGarbageAndSlowReader(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200, "greedy", "random"))
	gc := ts.dial("r", "game_channel")
	a := ts.action("r")
	a.register("a", "p")
	// a spectator that never reads
	slow := ts.dial("r", "game_channel")
	_ = slow
	g := ts.action("r")
	for _, m := range []string{"\x00\x01", "{", "null", `{"action": null}`, strings.Repeat("[", 10000), `{"action":"command","cmd_list":[1, null, {"a": 1}, ["x"]]}`} {
		if r := g.send(m); r["success"] != false {
			t.Errorf("%q: %v", m, r)
		}
	}
	// a player that floods command messages: each gets its reply, the
	// last list wins
	f := ts.action("r")
	f.register("flood", "p")
	ts.start("r")
	for turn := 1; turn < 200; turn++ {
		st := waitState(t, gc, atTurn(turn))
		if st.Turn != turn {
			t.Fatalf("turn %d, want %d: a round was skipped", st.Turn, turn)
		}
		if turn > 1 && len(st.Error["2"]) != 1 {
			t.Fatalf("turn %d: flooder's errors %q, want the last list's one", turn, st.Error["2"])
		}
		for i := 0; i < 20; i++ {
			if r := f.command(strings.Repeat("x", 100), "a 99 99 1"); r["success"] != true {
				t.Fatal(r)
			}
		}
		if r := f.command("a 99 99 1"); r["success"] != true {
			t.Fatal(r)
		}
		if r := a.command(); r["success"] != true {
			t.Fatal(r)
		}
	}
	waitState(t, gc, atTurn(200))
}

// Close ends a game being played at its last whole round with a footer:
// the file verifies and Recording reports it done.
func TestCloseMidGame(t *testing.T) {
	ts := newTestServer(t, Options{})
	gc, players, _ := ts.startPlayers(lockstep(500), "a")
	for turn := 2; turn <= 10; turn++ {
		players[0].command("a 0 0 1")
		waitState(t, gc, atTurn(turn))
	}
	id := ts.s.Games()[0].ID
	data, info, changed, err := ts.s.Recording(id)
	if err != nil || info.Done || changed == nil || info.Turn != 10 {
		t.Fatalf("live recording: %v %+v", err, info)
	}
	// what Recording gives while the game is played is a valid replay
	// up to a truncation
	if res, err := replay.VerifySim(bytes.NewReader(data), nil); err != nil || res.Rounds != 10 || res.Complete {
		t.Fatalf("live data: %v %+v", err, res)
	}
	ts.s.Close()
	<-changed
	data, info, changed, err = ts.s.Recording(id)
	if err != nil || !info.Done || changed != nil || !strings.HasSuffix(info.File, id+".rwd") {
		t.Fatalf("after Close: %v %+v", err, info)
	}
	file, err := os.ReadFile(info.File)
	if err != nil || !bytes.Equal(file, data) {
		t.Fatalf("file %v differs from Recording", err)
	}
	res, err := replay.VerifySim(bytes.NewReader(data), nil)
	if err != nil || res.Err != nil || !res.Complete || res.Rounds < 10 {
		t.Fatalf("verify: %v %+v", err, res)
	}
	if _, _, _, err := ts.s.Recording("nope"); err != ErrNoGame {
		t.Errorf("unknown game: %v", err)
	}
	if resp := ts.get("/get_gameroom_list"); resp.status != http.StatusServiceUnavailable {
		t.Errorf("after Close: %d", resp.status)
	}
}

// /gameroom/{id}/replay: 400 unless replay_enable allows it; the .cfr
// matches the recording.
func TestReplayDownload(t *testing.T) {
	ts := newTestServer(t, Options{})
	never := lockstep(200, "greedy")
	never.ReplayEnable = "never"
	ts.createRoom("never", never)
	end := lockstep(200, "greedy", "turtle")
	end.ReplayEnable = "end"
	ts.createRoom("end", end)
	ts.createRoom("always", lockstep(200, "economist"))
	if r := ts.get("/gameroom/never/replay"); r.status != 400 {
		t.Errorf("never: %d", r.status)
	}
	if r := ts.get("/gameroom/nope/replay"); r.status != 400 {
		t.Errorf("no room: %d", r.status)
	}
	if r := ts.get("/gameroom/end/replay"); r.status != 400 {
		t.Errorf("end, not finished: %d", r.status)
	}
	// always, at turn 0: the map
	r := ts.get("/gameroom/always/replay")
	if r.status != 200 {
		t.Fatalf("always at turn 0: %d", r.status)
	}
	src, err := cfrimport.OpenFrames(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	src.Close()
	// always, during the game: the rounds so far
	gc := ts.dial("always", "game_channel")
	ts.start("always")
	waitState(t, gc, atTurn(20))
	if r := ts.get("/gameroom/always/replay"); r.status != 200 {
		t.Errorf("always during the game: %d", r.status)
	}
	// end, finished
	ge := ts.dial("end", "game_channel")
	ts.start("end")
	waitState(t, ge, atTurn(200))
	r = ts.get("/gameroom/end/replay")
	if r.status != 200 {
		t.Fatalf("end, finished: %d", r.status)
	}
	var path string
	for _, g := range ts.s.Games() {
		if g.Room == "end" {
			path = g.File
		}
	}
	data := testutil.ReadFile(t, path)
	want, err := cfrimport.OpenFrames(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	if !bytes.Contains(want.Info, []byte(`"round_time":0.0`)) || !bytes.Contains(want.Info, []byte(`"start_count_down":9999`)) {
		t.Errorf("info %s", want.Info)
	}
	res, frames, err := cfrimport.VerifyAgainst(bytes.NewReader(data), want)
	if err != nil || res.Err != nil || frames != 201 {
		t.Fatalf("verify --against: %v %+v %d", err, res, frames)
	}
}
