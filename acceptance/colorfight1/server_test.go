package colorfight1_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/clitest"
)

var serverListening = regexp.MustCompile(`rewind server at (http://\S+)`)

// cf1Client is a ColorFight v1 client written from PROTOCOL-COLORFIGHT1.md
// (as colorfight.py speaks it): every endpoint a POST of a JSON body.
type cf1Client struct {
	t    *testing.T
	base string
	http *http.Client
	// ending is set while the server may end by itself (--games 1,
	// after its game): a request it no longer answers then returns
	// status 0 instead of failing the test.
	ending bool
}

// post sends body to path and returns the status, the raw answer and
// the answer parsed as a JSON object.
func (c *cf1Client) post(path string, body any) (int, string, map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := c.http.Post(c.base+path, "application/json", bytes.NewReader(b))
	if err != nil && c.ending {
		return 0, err.Error(), nil
	}
	if err != nil {
		c.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Fatalf("POST %s: %s: not a JSON object: %q", path, resp.Status, raw)
	}
	if bytes.Count(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n")) != 0 {
		c.t.Errorf("POST %s: the answer is not one line: %q", path, raw)
	}
	return resp.StatusCode, string(raw), m
}

// gameInfo is a full /getgameinfo, checked against the protocol's shape:
// every cell, ordered by id, the info and users with their types.
func (c *cf1Client) gameInfo() (info map[string]any, users, cells []any) {
	c.t.Helper()
	status, raw, m := c.post("/getgameinfo", map[string]any{"protocol": 2})
	if status == 0 {
		return nil, nil, nil
	}
	if status != http.StatusOK {
		c.t.Fatalf("getgameinfo: %d %s", status, raw)
	}
	info, _ = m["info"].(map[string]any)
	users, _ = m["users"].([]any)
	cells, _ = m["cells"].([]any)
	if info == nil || len(cells) != 900 {
		c.t.Fatalf("getgameinfo: info %v, %d cells", info, len(cells))
	}
	for i, x := range cells {
		cell := x.(map[string]any)
		if cell["x"] != float64(i%30) || cell["y"] != float64(i/30) {
			c.t.Fatalf("cell %d is (%v, %v): not ordered by id", i, cell["x"], cell["y"])
		}
	}
	// Floats are written as floats: time and end_time have a point.
	for _, key := range []string{`"time":`, `"end_time":`} {
		i := strings.Index(raw, key)
		if i < 0 || !strings.ContainsAny(raw[i+len(key):i+len(key)+20], ".e") {
			c.t.Errorf("getgameinfo: %s is not written as a float: %.80s", key, raw[i:])
		}
	}
	return info, users, cells
}

// TestServerPlaysOfficialProtocol: `rewind server --game colorfight1`
// serves the reference's endpoints to a client written from the protocol
// document: it joins a timed game beside two built-ins, attacks on every
// tick it can, gets the reference's answers (shapes, codes, texts), and
// the game is recorded; the recording verifies and info lists it.
func TestServerPlaysOfficialProtocol(t *testing.T) {
	dir := t.TempDir()
	srv := clitest.StartProcess(t, serverListening, "server", "--game", "colorfight1", "--addr", "127.0.0.1:0", "--dir", dir,
		"--bot", "expander", "--bot", "aggressor", "--last-time", "8", "--tick", "0.2", "--games", "1", "--seed", "5")
	c := &cf1Client{t: t, base: srv.Match, http: &http.Client{Timeout: time.Minute}}

	info, _, _ := c.gameInfo()
	if info["width"] != 30.0 || info["height"] != 30.0 || info["game_version"] != "full" {
		t.Fatalf("info %v", info)
	}
	// The field checks come first, in the reference's words.
	if status, raw, _ := c.post("/attack", map[string]any{"celly": 1, "token": "x"}); status != 400 || raw != `{"code":400,"msg":"wrong args! need cellx"}`+"\n" {
		t.Errorf("an attack without cellx: %d %q", status, raw)
	}
	if status, raw, _ := c.post("/attack", map[string]any{"cellx": 1, "celly": 1, "token": "nobody"}); status != 200 || raw != `{"err_code":21,"err_msg":"Invalid player"}`+"\n" {
		t.Errorf("an attack with a token no player has: %d %q", status, raw)
	}
	resp, err := http.Post(c.base+"/joingame", "text/plain", strings.NewReader(`{"name":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || string(raw) != `{"msg":"No json!"}`+"\n" {
		t.Errorf("a join that is not JSON: %s %q", resp.Status, raw)
	}

	status, raw2, join := c.post("/joingame", map[string]any{"name": "MyAI"})
	tok, _ := join["token"].(string)
	uid, _ := join["uid"].(float64)
	if status != 200 || len(tok) != 32 || uid < 1 {
		t.Fatalf("join: %d %s", status, raw2)
	}
	if status, raw, m := c.post("/checktoken", map[string]any{"token": tok}); status != 200 || m["name"] != "MyAI" || m["uid"] != uid {
		t.Errorf("checktoken: %d %s", status, raw)
	}
	// Attack a neighbour of an own cell until the game ends: the last
	// answer seen says so, or the server, told to play one game, has
	// ended after it (its status and recording are checked below).
	attacks := 0
	c.ending = true
	for {
		info, _, cells := c.gameInfo()
		if info == nil || info["time"].(float64) >= info["end_time"].(float64) {
			break
		}
		target := -1
		for i, x := range cells {
			cell := x.(map[string]any)
			if cell["o"] != uid || cell["c"] != 0.0 {
				continue
			}
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := i%30+d[0], i/30+d[1]
				if nx < 0 || ny < 0 || nx >= 30 || ny >= 30 {
					continue
				}
				n := cells[nx+30*ny].(map[string]any)
				if n["o"] != uid && n["c"] == 0.0 {
					target = nx + 30*ny
				}
			}
		}
		if target < 0 {
			time.Sleep(50 * time.Millisecond) // a client's poll interval, not a wait on the server
			continue
		}
		status, raw, m := c.post("/attack", map[string]any{"cellx": target % 30, "celly": target / 30, "boost": false, "token": tok})
		code, _ := m["err_code"].(float64)
		switch {
		case status == 0:
		case status != 200 || m["err_code"] == nil:
			t.Fatalf("attack: %d %s", status, raw)
		case code == 0:
			attacks++
		case code == 4:
		case code == 3 || code == 2 || code == 1:
			// CD time, a cell being taken, a neighbour lost meanwhile.
		default:
			t.Errorf("attack: %s", raw)
		}
	}
	if attacks == 0 {
		t.Errorf("no attack of MyAI succeeded")
	}
	// --games 1: the server ends once the game's recording is in place.
	if code := srv.Wait(t); code != 0 {
		t.Fatalf("server: status %d\n%s", code, srv.Output())
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "colorfight1-*.rwd"))
	if len(rwds) != 1 {
		t.Fatalf("recordings %v\n%s", rwds, srv.Output())
	}
	if out, code := clitest.Run(t, "verify", rwds[0]); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Errorf("verify: status %d\n%s", code, out)
	}
	out, code := clitest.Run(t, "info", rwds[0])
	if code != 0 || !strings.Contains(out, "expander") || !strings.Contains(out, "aggressor") || !strings.Contains(out, `"MyAI #`) {
		t.Errorf("info: status %d\n%s", code, out)
	}
	t.Logf("MyAI: %d attacks accepted", attacks)
}
