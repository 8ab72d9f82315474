package protocol

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sp "github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/games/skyport/vectors"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// client is a line-JSON client with messages of look-ahead.
type client struct {
	t       *testing.T
	c       net.Conn
	r       *bufio.Reader
	pending []*msg // read, and to be returned by next first
}

type msg struct {
	raw string
	m   map[string]any
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &client{t: t, c: c, r: bufio.NewReaderSize(c, 1<<16)}
}

func (k *client) send(lines ...string) {
	k.t.Helper()
	for _, l := range lines {
		if _, err := k.c.Write([]byte(l + "\n")); err != nil {
			k.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// next returns the next message, nil at the end of the connection (the
// read deadline is a safety net).
func (k *client) next() *msg {
	if len(k.pending) > 0 {
		p := k.pending[0]
		k.pending = k.pending[1:]
		return p
	}
	k.c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	line, err := k.r.ReadString('\n')
	if err != nil {
		return nil
	}
	m := &msg{raw: strings.TrimSuffix(line, "\n")}
	if err := json.Unmarshal([]byte(m.raw), &m.m); err != nil {
		k.t.Errorf("not a JSON object: %q", m.raw)
	}
	return m
}

func (k *client) peek() *msg {
	if len(k.pending) == 0 {
		k.pending = append(k.pending, k.next())
	}
	return k.pending[0]
}

// unread puts m back: next returns it before what is read after it.
func (k *client) unread(m *msg) { k.pending = append([]*msg{m}, k.pending...) }

// vectorDir is the folder of Skyport's vectors ($REWIND_SKYPORT or
// ../shared/skyport), or a skip with a one-line reason without it.
func vectorDir(t *testing.T) string { return testutil.Shared(t, "skyport", "s01.input.json") }

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r interface{ Read([]byte) (int, error) } = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = z
	}
	if err := json.NewDecoder(r).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// sameError compares error texts as the vectors' README says: org.json's
// own wording after "Invalid packet received: " is not compared.
func sameError(got, want string) bool {
	const pre = "Invalid packet received: "
	if strings.HasPrefix(want, pre) {
		return strings.HasPrefix(got, pre)
	}
	return got == want
}

// withAlive is the observer's copy of a gamestate: every player also has
// "alive" (no vector used here disconnects anybody).
func withAlive(gs map[string]any) map[string]any {
	b, _ := json.Marshal(gs)
	var c map[string]any
	json.Unmarshal(b, &c)
	for _, p := range c["players"].([]any) {
		p.(map[string]any)["alive"] = true
	}
	return c
}

// TestVectorsOverSockets replays conformance vectors through the server:
// one scripted socket per player sends exactly the vector's raw lines
// (lock-step: each turn ends with the third queued line or endturn), an
// observer records everything it is sent; every gamestate, error and
// broadcast each player receives and the observer's stream (gamestates
// with "alive", broadcasts, upgrade subtitles, endactions, the winner)
// are the reference's, and the recording re-simulates to its scores.
func TestVectorsOverSockets(t *testing.T) {
	dir := vectorDir(t)
	for _, name := range []string{"s01", "s02", "s03", "s04", "s05", "s06"} {
		t.Run(name, func(t *testing.T) {
			var in vectors.Input
			var want vectors.States
			readJSON(t, filepath.Join(dir, name+".input.json"), &in)
			if len(in.Disconnects) > 0 {
				t.Skip("a disconnect between two turns cannot be timed from outside the server")
			}
			readJSON(t, filepath.Join(dir, name+".states.json.gz"), &want)
			replayVector(t, dir, &in, &want)
		})
	}
}

func replayVector(t *testing.T, dir string, in *vectors.Input, want *vectors.States) {
	m, err := vectors.LoadMap(filepath.Join(dir, in.Map.Path), in.Map.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	n := len(in.Players)
	su := sp.Setup{Map: m, Ring: in.Ring, MaxTurns: len(in.Turns)}
	for p, pl := range in.Players {
		j, k, err := vectors.ParsePos(in.Spawns[p])
		if err != nil {
			t.Fatal(err)
		}
		su.Names = append(su.Names, pl.Name)
		su.Spawns = append(su.Spawns, j*m.Size+k)
	}
	setup, err := sp.MarshalSetup(su)
	if err != nil {
		t.Fatal(err)
	}
	rec := t.TempDir()
	ready := make(chan map[string]string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Server{}.Serve(ctx, rooms.Options{Addr: "127.0.0.1:0", Dir: rec, Players: n, Setup: setup,
			ThinkTime: 0, Deadline: time.Minute, Games: 1, Tool: "test", Ready: func(a map[string]string) { ready <- a }})
	}()
	var addrs map[string]string
	select {
	case addrs = <-ready:
	case err := <-done:
		t.Fatal(err)
	}

	// The observer records everything and answers every endactions.
	obs := dial(t, addrs["observer"])
	obs.send(`{"message":"connect","revision":1,"password":"supersecretpassword","laserstyle":"start-stop"}`)
	if m := obs.next(); m == nil || m.raw != `{"message":"connect","status":true}` {
		t.Fatalf("observer handshake: %v", m)
	}
	obsMsgs := make(chan []*msg, 1)
	go func() {
		var all []*msg
		for m := obs.next(); m != nil; m = obs.next() {
			all = append(all, m)
			if m.m["message"] == "endactions" {
				obs.send(`{"message":"ready"}`)
			}
		}
		obsMsgs <- all
	}()

	// Players connect and handshake in connection order.
	cl := make([]*client, n)
	for p, pl := range in.Players {
		cl[p] = dial(t, addrs["players"])
		for i, line := range pl.Handshake {
			cl[p].send(line)
			exp := want.Setup.Handshake[p][i]
			for _, e := range exp.Errors {
				if g := cl[p].next(); g == nil || !sameError(g.m["error"].(string), e) {
					t.Fatalf("player %d handshake %d: got %v, want error %q", p, i, g, e)
				}
			}
			if exp.Accepted {
				if g := cl[p].next(); g == nil || g.raw != `{"message":"connect","status":true}` {
					t.Fatalf("player %d handshake: got %v", p, g)
				}
			}
		}
	}
	for p := range cl {
		g := cl[p].next()
		if g == nil || !reflect.DeepEqual(g.m, want.Turn0.Gamestate) {
			t.Fatalf("player %d: turn-0 gamestate %v, want %v", p, g, want.Turn0.Gamestate)
		}
	}
	// Loadout lines in the order the reference read them; a line's
	// errors are awaited before the next line is sent. The phase ends as
	// soon as every player has a loadout, so a line read after that (the
	// reference's game thread polls, and may read it first) is answered
	// after endturn, with the same errors — and after turn 1's gamestate
	// when the line is read once that was sent: it is kept for the turns.
	endturn := make([]bool, n)
	for i, pl := range in.LoadoutLines {
		var p int
		var line string
		json.Unmarshal(pl[0], &p)
		json.Unmarshal(pl[1], &line)
		cl[p].send(line)
		var held []*msg
		for _, e := range want.Turn0.LoadoutResults[i].Errors {
			g := cl[p].next()
			if g != nil && g.raw == `{"message":"endturn"}` && !endturn[p] {
				endturn[p] = true
				g = cl[p].next()
			}
			if g != nil && endturn[p] && g.m["message"] == "gamestate" && len(held) == 0 {
				held = append(held, g)
				g = cl[p].next()
			}
			if g == nil || g.m["error"] == nil || !sameError(g.m["error"].(string), e) {
				t.Fatalf("loadout line %d %q: got %v, want error %q", i, line, g, e)
			}
		}
		for j := len(held) - 1; j >= 0; j-- {
			cl[p].unread(held[j])
		}
	}
	for p := range cl {
		if endturn[p] {
			continue
		}
		if g := cl[p].next(); g == nil || g.raw != `{"message":"endturn"}` {
			t.Fatalf("player %d: after the loadouts got %v, want endturn", p, g)
		}
	}

	for i, tr := range want.Turns {
		lines := in.Turns[i].Lines
		for p := range cl {
			g := cl[p].next()
			if g == nil || g.m["message"] != "gamestate" || !reflect.DeepEqual(g.m, tr.Gamestate) {
				t.Fatalf("turn %d, player %d: gamestate\n got %v\nwant %v", tr.Turn, p, g, tr.Gamestate)
			}
		}
		// Lines of the other players: answered, never performed. A
		// barrier line makes sure they were read before the actor acts.
		others := map[int][]string{}
		for _, o := range in.Turns[i].Others {
			var p int
			var line string
			json.Unmarshal(o[0], &p)
			json.Unmarshal(o[1], &line)
			cl[p].send(line)
			others[p] = append(others[p], "")
		}
		wantOther := map[int][]string{}
		for _, o := range tr.Others {
			wantOther[o.Player] = append(wantOther[o.Player], o.Errors...)
		}
		for p := range others {
			cl[p].send(`{"message":"sync"}`)
			var got []string
			for {
				g := cl[p].next()
				if g == nil || g.m["error"] == nil {
					t.Fatalf("turn %d: player %d's off-turn lines drew %v", tr.Turn, p, g)
				}
				if g.m["error"] == "Unexpected message, got 'sync' but expected 'action'" {
					break
				}
				got = append(got, g.m["error"].(string))
			}
			if len(got) != len(wantOther[p]) {
				t.Fatalf("turn %d: player %d's off-turn errors %q, want %q", tr.Turn, p, got, wantOther[p])
			}
			for j := range got {
				if !sameError(got[j], wantOther[p][j]) {
					t.Fatalf("turn %d: player %d's off-turn errors %q, want %q", tr.Turn, p, got, wantOther[p])
				}
			}
		}
		// The actor's lines, up to its third queued one (lock-step ends
		// the turn there), else followed by endturn.
		a := tr.Actor
		queued, sent := 0, 0
		for j, l := range lines {
			cl[a].send(l)
			sent = j + 1
			if tr.Actions[j].Queued {
				if queued++; queued == 3 {
					break
				}
			}
		}
		if queued < 3 {
			cl[a].send(`{"message":"endturn"}`)
		}
		var exp []string // what the actor is sent, in order
		var bcast []map[string]any
		for j := 0; j < sent; j++ {
			if tr.Actions[j].Status == "not_queued" {
				for _, e := range tr.Actions[j].Errors {
					exp = append(exp, "error:"+e)
				}
			}
		}
		exp = append(exp, "endturn")
		for j := 0; j < sent; j++ {
			ac := tr.Actions[j]
			if ac.Slot == nil {
				continue
			}
			for _, e := range ac.Errors {
				exp = append(exp, "error:"+e)
			}
			if ac.Broadcast != nil {
				exp = append(exp, "broadcast")
				bcast = append(bcast, ac.Broadcast)
			}
		}
		for p := range cl {
			bi := 0
			for _, e := range exp {
				if p != a && strings.HasPrefix(e, "error:") {
					continue
				}
				g := cl[p].next()
				ok := g != nil
				switch {
				case !ok:
				case e == "endturn":
					ok = g.raw == `{"message":"endturn"}`
				case e == "broadcast":
					ok = reflect.DeepEqual(g.m, bcast[bi])
					bi++
				default:
					er, _ := g.m["error"].(string)
					ok = sameError(er, strings.TrimPrefix(e, "error:"))
				}
				if !ok {
					t.Fatalf("turn %d, player %d (actor %d): got %v, want %s (lines %q)", tr.Turn, p, a, g, e, lines[:sent])
				}
			}
			if g := cl[p].peek(); g != nil && g.m["message"] != "gamestate" {
				t.Fatalf("turn %d, player %d: unexpected %s", tr.Turn, p, g.raw)
			}
		}
	}
	for p := range cl {
		if g := cl[p].next(); g != nil {
			t.Fatalf("player %d: after the last turn got %s, want the connection closed", p, g.raw)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// The observer's stream.
	all := <-obsMsgs
	var ev []string
	for _, m := range all {
		switch m.m["message"] {
		case "gamestate", "endturn", "endactions":
			ev = append(ev, m.m["message"].(string))
		case "action":
			ev = append(ev, "action")
		case "subtitle":
			ev = append(ev, "subtitle:"+m.m["text"].(string))
		default:
			t.Fatalf("observer: unexpected %s", m.raw)
		}
	}
	gi := 0
	var gss []map[string]any
	for _, m := range all {
		if m.m["message"] == "gamestate" {
			gss = append(gss, m.m)
		}
	}
	if len(gss) != len(want.Turns)+1 || !reflect.DeepEqual(gss[0], withAlive(want.Turn0.Gamestate)) {
		t.Fatalf("observer: %d gamestates, want %d", len(gss), len(want.Turns)+1)
	}
	for i, tr := range want.Turns {
		gi = i + 1
		if !reflect.DeepEqual(gss[gi], withAlive(tr.Gamestate)) {
			t.Fatalf("observer: turn %d gamestate\n got %v\nwant %v", tr.Turn, gss[gi], withAlive(tr.Gamestate))
		}
	}
	// Per turn: gamestate, endturn, subtitles and broadcasts, endactions.
	var wantEv []string
	wantEv = append(wantEv, "gamestate", "endturn", "endactions")
	for i, tr := range want.Turns {
		wantEv = append(wantEv, "gamestate", "endturn")
		sub := 0
		for j, ac := range tr.Actions {
			if j >= len(in.Turns[i].Lines) || ac.Slot == nil {
				continue
			}
			if ac.Status == "accepted" && ac.Broadcast["type"] == "upgrade" && sub < len(tr.Subtitles) {
				wantEv = append(wantEv, "subtitle:"+tr.Subtitles[sub])
				sub++
			}
			if ac.Broadcast != nil {
				wantEv = append(wantEv, "action")
			}
		}
		wantEv = append(wantEv, "endactions")
	}
	wantEv = append(wantEv, "subtitle:Time over!", "subtitle:"+want.Final.WinnerText)
	if !reflect.DeepEqual(ev, wantEv) {
		for i := range min(len(ev), len(wantEv)) {
			if ev[i] != wantEv[i] {
				t.Fatalf("observer event %d: got %s, want %s", i, ev[i], wantEv[i])
			}
		}
		t.Fatalf("observer: %d events, want %d", len(ev), len(wantEv))
	}

	// The recording re-simulates to the reference's final scores.
	s := resimulate(t, rec, func(*replay.Sim) {})
	st := s.Game().(*sp.Game).State
	for p, sc := range want.Final.Scores {
		if st.PlayerRef(p).Score != sc {
			t.Fatalf("re-simulated score of player %d: %d, want %d", p, st.PlayerRef(p).Score, sc)
		}
	}
}
