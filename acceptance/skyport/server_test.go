package skyport_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/clitest"
)

// skyClient is a Skyport Rev 1 client written from PROTOCOL-SKYPORT.md:
// one JSON object per line each way.
type skyClient struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialSky(t *testing.T, addr string) *skyClient {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &skyClient{t: t, c: c, r: bufio.NewReaderSize(c, 1<<16)}
}

func (k *skyClient) send(lines ...string) {
	k.t.Helper()
	for _, l := range lines {
		if _, err := k.c.Write([]byte(l + "\n")); err != nil {
			k.t.Fatalf("send %s: %v", l, err)
		}
	}
}

// next returns the next message, raw and parsed; ok false at the end of
// the connection. The read deadline is a safety net, not a verdict.
func (k *skyClient) next() (raw string, m map[string]any, ok bool) {
	k.t.Helper()
	k.c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	line, err := k.r.ReadString('\n')
	if err != nil {
		return "", nil, false
	}
	raw = strings.TrimSuffix(line, "\n")
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		k.t.Fatalf("server sent a line that is not a JSON object: %q: %v", raw, err)
	}
	return raw, m, true
}

// expect reads the next message and fails unless it is exactly want.
func (k *skyClient) expect(want string) {
	k.t.Helper()
	raw, _, ok := k.next()
	if !ok || raw != want {
		k.t.Fatalf("got %q (open %v), want %q", raw, ok, want)
	}
}

var skyPos = regexp.MustCompile(`^(\d+), (\d+)$`)

// checkGamestate checks a gamestate's shape as PROTOCOL-SKYPORT.md §5
// states it and returns the players and map data.
func checkGamestate(t *testing.T, m map[string]any, nplayers int) (players []map[string]any, data [][]string) {
	t.Helper()
	turn := m["turn"].(float64)
	ps, ok := m["players"].([]any)
	if !ok || len(ps) != nplayers {
		t.Fatalf("turn %v: players %v, want %d", turn, m["players"], nplayers)
	}
	mp := m["map"].(map[string]any)
	D := int(mp["j-length"].(float64))
	if int(mp["k-length"].(float64)) != D || D < 2 {
		t.Fatalf("turn %v: map lengths %v", turn, mp)
	}
	rows := mp["data"].([]any)
	if len(rows) != D {
		t.Fatalf("turn %v: %d rows, want %d", turn, len(rows), D)
	}
	for _, r := range rows {
		row := r.([]any)
		if len(row) != D {
			t.Fatalf("turn %v: a row of %d, want %d", turn, len(row), D)
		}
		var s []string
		for _, c := range row {
			if !strings.Contains("GVSOREC", c.(string)) || len(c.(string)) != 1 {
				t.Fatalf("turn %v: tile %q", turn, c)
			}
			s = append(s, c.(string))
		}
		data = append(data, s)
	}
	for _, p := range ps {
		pm := p.(map[string]any)
		players = append(players, pm)
		if turn == 0 {
			if len(pm) != 1 || pm["name"] == nil {
				t.Fatalf("turn 0 lists names only, got %v", pm)
			}
			continue
		}
		h := pm["health"].(float64)
		if h < 0 || h > 100 {
			t.Fatalf("turn %v: health %v", turn, h)
		}
		_ = pm["score"].(float64)
		mm := skyPos.FindStringSubmatch(pm["position"].(string))
		if mm == nil {
			t.Fatalf("turn %v: position %q is not \"j, k\"", turn, pm["position"])
		}
		for _, key := range []string{"primary-weapon", "secondary-weapon"} {
			w := pm[key].(map[string]any)
			if !strings.Contains(" laser mortar droid ", " "+w["name"].(string)+" ") {
				t.Fatalf("turn %v: %s %v", turn, key, w)
			}
			if l := w["level"].(float64); l < 1 || l > 3 {
				t.Fatalf("turn %v: %s level %v", turn, key, l)
			}
		}
		if len(pm) != 6 {
			t.Fatalf("turn %v: player keys %v", turn, pm)
		}
	}
	return players, data
}

// serverListening is the line `rewind server --game skyport` logs once
// it listens (games/skyport/protocol), the players' address its submatch.
var serverListening = regexp.MustCompile(`skyport: players on (\S+), observer on \S+$`)

var skyDirs = []struct {
	name   string
	dj, dk int
}{{"up", -1, -1}, {"down", 1, 1}, {"left-up", 0, -1}, {"left-down", 1, 0}, {"right-up", -1, 0}, {"right-down", 0, 1}}

// TestSkyportServerLockstep: a client written from the protocol document
// plays a whole lock-step game through `rewind server --game skyport`
// against two built-in bots; the handshake, loadout, gamestates, its own
// moves' broadcasts and effects and the errors for bad lines are as the
// document says; the .rwd verifies and info names the players.
func TestSkyportServerLockstep(t *testing.T) {
	dir := t.TempDir()
	const rounds = 63 // 3 loadout rounds + 60 player-turns
	server := clitest.StartProcess(t, serverListening, "server", "--game", "skyport", "--addr", "127.0.0.1:0", "--dir", dir,
		"--bot", "hunter", "--bot", "artillery", "--max-player", "3", "--max-turn", fmt.Sprint(rounds),
		"--round-time", "0", "--lockstep-deadline", "1h", "--games", "1", "--seed", "7")
	start := time.Now()
	k := dialSky(t, server.Match)
	// Handshake: refused attempts get the reference's texts, then
	// exactly the connect reply.
	k.send(`{"message":"connect","revision":2,"name":"tester"}`)
	k.expect(`{"error":"Wrong protocol revision: supporting 1, but got 2"}`)
	k.send(`{"message":"connect","revision":1,"name":"ab"}`)
	k.expect(`{"error":"Username too short: needs to be 3 characters or longer."}`)
	k.send(`{"message":"connect","revision":1,"name":"tester"}`)
	k.expect(`{"message":"connect","status":true}`)
	// A bad loadout before the game starts is answered once it does.
	k.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"laser"}`)
	_, m, _ := k.next()
	if m["message"] != "gamestate" || m["turn"] != 0.0 {
		t.Fatalf("want the turn-0 gamestate, got %v", m)
	}
	players, _ := checkGamestate(t, m, 3)
	var names []string
	for _, p := range players {
		names = append(names, p["name"].(string))
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "tester") || !strings.Contains(got, "hunter") || !strings.Contains(got, "artillery") {
		t.Fatalf("turn-0 players %v", names)
	}
	k.expect(`{"error":"Invalid loadout: Can't have the same weapon twice."}`)
	k.send(`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"droid"}`)
	k.expect(`{"message":"endturn"}`)

	turns, mine, moved, lastTurn := 0, 0, 0, 0.0
	var want string // "j, k" after my move, checked in the next gamestate
	for {
		raw, m, ok := k.next()
		if !ok {
			break
		}
		switch m["message"] {
		case "gamestate":
		case "endturn":
			continue
		case "action":
			// Another player's action: it carries type and from (§7).
			if _, ok := m["type"].(string); !ok || m["from"] == nil || m["from"] == "tester" {
				t.Fatalf("turn %v: broadcast %s", lastTurn, raw)
			}
			continue
		default:
			t.Fatalf("turn %v: want a gamestate, got %s", lastTurn, raw)
		}
		if m["turn"].(float64) != lastTurn+1 {
			t.Fatalf("gamestate turn %v after %v", m["turn"], lastTurn)
		}
		lastTurn = m["turn"].(float64)
		turns++
		players, data := checkGamestate(t, m, 3)
		var me map[string]any
		occupied := map[string]bool{}
		for _, p := range players {
			occupied[p["position"].(string)] = true
			if p["name"] == "tester" {
				me = p
			}
		}
		if me["primary-weapon"].(map[string]any)["name"] != "laser" || me["secondary-weapon"].(map[string]any)["name"] != "droid" {
			t.Fatalf("turn %v: my loadout is %v / %v", lastTurn, me["primary-weapon"], me["secondary-weapon"])
		}
		if want != "" && me["position"] != want {
			t.Fatalf("turn %v: my move to %s was broadcast, the gamestate has me on %v", lastTurn, want, me["position"])
		}
		want = ""
		if players[0]["name"] != "tester" {
			continue
		}
		// My turn: a free legal move if there is one, garbage on the first
		// turn, then endturn.
		mine++
		mm := skyPos.FindStringSubmatch(me["position"].(string))
		var j, kk int
		fmt.Sscan(mm[1], &j)
		fmt.Sscan(mm[2], &kk)
		move, to := "", ""
		for _, d := range skyDirs {
			nj, nk := j+d.dj, kk+d.dk
			if nj < 0 || nk < 0 || nj >= len(data) || nk >= len(data) {
				continue
			}
			pos := fmt.Sprintf("%d, %d", nj, nk)
			if strings.Contains("GREC", data[nj][nk]) && !occupied[pos] && me["health"].(float64) > 0 {
				move, to = d.name, pos
				break
			}
		}
		if mine == 1 {
			k.send(`not json`, `{"message":"hello"}`)
			if _, e, _ := k.next(); !strings.HasPrefix(fmt.Sprint(e["error"]), "Invalid packet received: ") {
				t.Fatalf("garbage: got %v", e)
			}
			k.expect(`{"error":"Unexpected message, got 'hello' but expected 'action'"}`)
			k.send(`{"message":"action","type":"move","direction":"north"}`)
		}
		if move != "" {
			k.send(`{"message":"action","type":"move","direction":"` + move + `"}`)
		}
		k.send(`{"message":"endturn"}`)
		k.expect(`{"message":"endturn"}`)
		if mine == 1 {
			k.expect(`{"error":"Invalid move packet: Invalid direction: 'north'"}`)
		}
		if move != "" {
			k.expect(`{"message":"action","type":"move","direction":"` + move + `","from":"tester"}`)
			want = to
			moved++
		}
	}
	elapsed := time.Since(start)
	// The server ends by itself after its one game (Wait's safety net: 2
	// minutes).
	if code := server.Wait(t); code != 0 {
		t.Fatalf("server: status %d\n%s", code, server.Output())
	}
	if turns != rounds-3 || mine < 10 || moved == 0 {
		t.Fatalf("%d turns (want %d), %d mine, %d moves", turns, rounds-3, mine, moved)
	}
	t.Logf("a lock-step game of %d turns (%d mine) took %v", turns, mine, elapsed)
	_, out := theRecording(t, dir, server.Output())
	for _, n := range []string{`"tester"`, `"hunter"`, `"artillery"`, "turns: 63, complete"} {
		if !strings.Contains(out, n) {
			t.Fatalf("info does not say %s:\n%s", n, out)
		}
	}
}

// theRecording checks that the server whose output is serverOutput
// recorded exactly one game in dir, that the recording verifies and that
// info reads it, and returns its path and what info said.
func theRecording(t *testing.T, dir, serverOutput string) (rwd, info string) {
	t.Helper()
	rwds, _ := filepath.Glob(filepath.Join(dir, "*.rwd"))
	if len(rwds) != 1 {
		t.Fatalf("recordings %v\n%s", rwds, serverOutput)
	}
	if out, code := clitest.Run(t, "verify", rwds[0]); code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	info, code := clitest.Run(t, "info", rwds[0])
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, info)
	}
	return rwds[0], info
}
