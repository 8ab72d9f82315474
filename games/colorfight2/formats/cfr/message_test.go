package cfr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// The state message of frame 0 is element 0 of the official replay, byte
// for byte.
func TestAppendStateMessageFrame0(t *testing.T) {
	for _, path := range append([]string{testdataDir + "conformance/c01.cfr"}, testutil.RealWorldOptional(t)...) {
		data := testutil.ReadFile(t, path)
		plain := testutil.Gunzip(t, data)
		jd := json.NewDecoder(bytes.NewReader(plain))
		if _, err := jd.Token(); err != nil {
			t.Fatal(err)
		}
		var elem0 json.RawMessage
		if err := jd.Decode(&elem0); err != nil {
			t.Fatal(err)
		}
		d, err := NewDecoder(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var f colorfight2.Frame
		if err := d.Next(&f); err != nil {
			t.Fatal(err)
		}
		h := d.Header()
		d.Close()
		got := AppendStateMessage(nil, &f, h.Info, h.Chat, h.Error)
		if !bytes.Equal(got, elem0) {
			t.Errorf("%s: state message differs from element 0:\n got %.300s\nwant %.300s", path, got, elem0)
		}
	}
}

// A frame with players: every user has its cells, x outer and y inner as
// the reference scans them, and the message reads back as element 0.
func TestAppendStateMessageCells(t *testing.T) {
	cfg := colorfight2.Config{Width: 30, Height: 30, MaxTurn: 500, MaxPlayer: 4}
	st, err := colorfight2.NewFromSeed(cfg, 7, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	st.Step(nil)
	var f colorfight2.Frame
	st.Frame(&f)
	// Give player 2 a few more cells by hand (the message only reads
	// owners), and leave player 3 with none.
	for _, p := range [][2]int{{5, 9}, {5, 2}, {4, 20}} {
		f.Cells[p[1]*30+p[0]].Owner = 2
	}
	for i := range f.Cells {
		if f.Cells[i].Owner == 3 {
			f.Cells[i].Owner = 0
		}
	}
	msg := AppendStateMessage(nil, &f, json.RawMessage(`{"game_id":"1"}`), json.RawMessage(`[{"user":"x","msg":"hi"}]`), json.RawMessage(`{"1":[]}`))
	if !strings.HasPrefix(string(msg), fmt.Sprintf(`{"turn":%d,"info":{"game_id":"1"},"chat":[{"user":"x","msg":"hi"}],"error":{"1":[]},"game_map":{"data":[[`, f.Turn)) {
		t.Fatalf("message starts %.200s", msg)
	}
	var m struct {
		Users map[string]struct {
			Cells [][2]int `json:"cells"`
		} `json:"users"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatal(err)
	}
	for _, u := range f.Users {
		var want [][2]int
		for x := 0; x < 30; x++ {
			for y := 0; y < 30; y++ {
				if f.Cells[y*30+x].Owner == u.UID {
					want = append(want, [2]int{x, y})
				}
			}
		}
		got := m.Users[fmt.Sprint(u.UID)].Cells
		if got == nil || fmt.Sprint(got) != fmt.Sprint(want) && !(len(want) == 0 && len(got) == 0) {
			t.Errorf("user %d: cells %v, want %v", u.UID, got, want)
		}
	}
	if c := m.Users["2"].Cells; len(c) != 4 || c[0] != [2]int{4, 20} {
		t.Errorf("user 2 cells %v", c)
	}
	// As element 0 of a replay, the official decoder accepts it.
	doc := append([]byte(`[{"turn":0`), msg[len(fmt.Sprintf(`{"turn":%d`, f.Turn)):]...)
	doc = append(doc, ']')
	d, err := NewDecoder(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var back colorfight2.Frame
	if err := d.Next(&back); err != nil {
		t.Fatal(err)
	}
	back.Turn = f.Turn
	if dv := colorfight2.Diff(&f, &back); dv != nil {
		t.Fatalf("read back: %s", dv)
	}
}
