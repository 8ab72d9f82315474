package monadlog

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

const official = "../../../../testdata/monad/official"

func decodeFile(t testing.TB, name string) *Log {
	t.Helper()
	f, err := os.Open(filepath.Join(official, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return l
}

// TestDecodeOfficial: every real log decodes with its form told from its
// content, and the two forms of m05 (replay.json, .mp.gz) decode to the
// same log.
func TestDecodeOfficial(t *testing.T) {
	want := map[string]struct {
		enc            Encoding
		gz             bool
		players, turns int
	}{
		"m01.mp.gz":       {Msgpack, true, 2, 301},
		"m02.mp.gz":       {Msgpack, true, 2, 319},
		"m05.mp.gz":       {Msgpack, true, 2, 101},
		"m05.replay.json": {JSON, false, 2, 101},
		"m06.mp.gz":       {Msgpack, true, 4, 549},
	}
	files, _ := filepath.Glob(filepath.Join(official, "*"))
	if len(files) != len(want) {
		t.Fatalf("%d files in %s, want %d", len(files), official, len(want))
	}
	for name, w := range want {
		l := decodeFile(t, name)
		if l.Encoding != w.enc || l.Gzip != w.gz || l.Players != w.players || len(l.Turns) != w.turns || l.W != 20 || l.H != 20 || len(l.Ranked) != w.players {
			t.Errorf("%s: %s gzip %v, %d players, %d turns, %dx%d, %d ranked", name, l.Encoding, l.Gzip, l.Players, len(l.Turns), l.W, l.H, len(l.Ranked))
		}
		if last := l.Turns[len(l.Turns)-1]; len(last.Cmds) != 0 {
			t.Errorf("%s: the final entry has %d commands", name, len(last.Cmds))
		}
	}
	a, b := decodeFile(t, "m05.mp.gz"), decodeFile(t, "m05.replay.json")
	a.Encoding, a.Gzip = b.Encoding, b.Gzip
	if !reflect.DeepEqual(a, b) {
		t.Fatal("m05.mp.gz and m05.replay.json decode differently")
	}
}

// TestSniff: the logs are recognised in every form, and nothing else is:
// .cfr replays (gzip'd JSON lists), .rwd, the vectors' own JSON files.
func TestSniff(t *testing.T) {
	js := testutil.ReadFile(t, filepath.Join(official, "m05.replay.json"))
	mp := msgpackCompatibleJSON(js)
	for name, b := range map[string][]byte{"json": js, "json.gz": gzipped(js), "msgpack": mp, "mp.gz": gzipped(mp), "spaces": append([]byte(" \n"), js...)} {
		if _, _, ok := SniffForm(prefix(b)); !ok {
			t.Errorf("%s: not sniffed", name)
		}
		if _, err := Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, p := range otherFiles(t) {
		b := testutil.ReadFile(t, p)
		if enc, _, ok := SniffForm(prefix(b)); ok {
			t.Errorf("%s sniffed as a log (%s)", p, enc)
		}
		if _, err := Decode(bytes.NewReader(b)); err != ErrNotLog {
			t.Errorf("%s: %v, want ErrNotLog", p, err)
		}
	}
	for _, b := range []string{"", "[", "{", `{"format": 1}`, "\x80", "\x81\xa1x\x01", "RWD1"} {
		if _, _, ok := SniffForm([]byte(b)); ok {
			t.Errorf("%q sniffed as a log", b)
		}
	}
}

func prefix(b []byte) []byte { return b[:min(len(b), 64<<10)] }

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// msgpackCompatibleJSON converts JSON text to msgpack with a small
// walker over the JSON reader (integers, strings, booleans, null, lists
// and objects).
func msgpackCompatibleJSON(js []byte) []byte {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	r := newJSONReader(bytes.NewReader(js))
	var walk func() error
	// detached encodes the next value with walk and returns its bytes,
	// leaving buf as it was (a map's or list's length goes first).
	detached := func() ([]byte, error) {
		saved := buf.Len()
		if err := walk(); err != nil {
			return nil, err
		}
		b := append([]byte(nil), buf.Bytes()[saved:]...)
		buf.Truncate(saved)
		return b, nil
	}
	walk = func() error {
		k, err := r.peek()
		if err != nil {
			return err
		}
		switch k {
		case kindMap:
			var keys []string
			var vals [][]byte
			err := r.readMap(func(key string) error {
				keys = append(keys, key)
				v, err := detached()
				vals = append(vals, v)
				return err
			})
			if err != nil {
				return err
			}
			enc.EncodeMapLen(len(keys))
			for i := range keys {
				enc.EncodeString(keys[i])
				buf.Write(vals[i])
			}
		case kindArray:
			var items [][]byte
			err := r.readArray(func(int) error {
				it, err := detached()
				items = append(items, it)
				return err
			})
			if err != nil {
				return err
			}
			enc.EncodeArrayLen(len(items))
			for _, it := range items {
				buf.Write(it)
			}
		case kindInt:
			v, err := r.readInt()
			if err != nil {
				return err
			}
			enc.EncodeInt(v)
		case kindString:
			s, err := r.readString()
			if err != nil {
				return err
			}
			enc.EncodeString(s)
		case kindBool:
			b, err := r.readBool()
			if err != nil {
				return err
			}
			enc.EncodeBool(b)
		case kindNil:
			if err := r.skip(); err != nil {
				return err
			}
			enc.EncodeNil()
		default:
			return io.ErrUnexpectedEOF
		}
		return nil
	}
	if err := walk(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// small is a valid two-player log of two entries.
func small() string {
	row := func(cells ...string) string {
		out := make([]string, 20)
		for i := range out {
			out[i] = "{}"
			if i < len(cells) {
				out[i] = cells[i]
			}
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	grid := func(first string) string {
		rows := make([]string, 20)
		for i := range rows {
			rows[i] = row()
		}
		rows[0] = first
		return "[" + strings.Join(rows, ", ") + "]"
	}
	t0 := `{"map": ` + grid(row(`{"r": 5, "b": 0, "u": 1, "p": 0}`, `{"r": 3}`)) + `, "res": [100, 100], "cmd": [{"u": 0, "p": 0, "t": 20, "d": 1, "n": 1}]}`
	t1 := `{"map": ` + grid(row(`{"b": 0}`, `{"u": 1, "p": 0}`)) + `, "res": [100, 100], "cmd": []}`
	return `{"w": 20, "h": 20, "turns": [` + t0 + `, ` + t1 + `], "rankedBots": [{"_id": "a", "crashed": false, "timedOut": false, "rank": 1}, {"_id": "b", "crashed": false, "timedOut": false, "rank": 2}]}`
}

// TestDecodeErrors: bad logs are refused with an error naming the turn
// and field, in both encodings, never a panic.
func TestDecodeErrors(t *testing.T) {
	base := small()
	if l, err := Decode(strings.NewReader(base)); err != nil {
		t.Fatalf("the valid log: %v", err)
	} else if c := l.Turns[1].Cells[1]; c.Owner != 0 || c.Units != 1 || c.Resource != 3 || l.Turns[1].Cells[0].Resource != 5 {
		t.Fatalf("turn 1 cells %+v %+v", l.Turns[1].Cells[0], c)
	} else if k := l.Kinds(0); len(k) != 1 || k[0] != monad.KindMove {
		t.Fatalf("kinds %v", k)
	}
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	cases := []struct{ from, to, want string }{
		{`"w": 20`, `"w": 25`, "w is 25"},
		{`"h": 20`, `"h": 10`, "h is 10"},
		{`{"r": 3}`, `{"o": true}`, "turns[0].map[0][1].o: an obstructed cell"},
		{`{"r": 3}`, `{"r": 3, "b": 2}`, "turns[0].map[0][1].b: player 2 of 2"},
		{`{"r": 3}`, `{"r": 3, "p": 1}`, `turns[0].map[0][1]: "u" and "p" go together`},
		{`{"r": 3}`, `{"r": -3}`, "turns[0].map[0][1].r: -3 out of range"},
		{`{"r": 3}`, `{"r": 3.5}`, "turns[0].map[0][1].r: a float, want an integer"},
		{`{"r": 3}`, `{"r": "3"}`, "turns[0].map[0][1].r: a string, want an integer"},
		{`"d": 1`, `"d": 9`, "turns[0].cmd[0].d: direction 9"},
		{`"p": 0, "t"`, `"p": 400, "t"`, "turns[0].cmd[0].p: 400 is off the map"},
		{`"u": 0, "p": 0`, `"u": 3, "p": 0`, "turns[0].cmd[0].u: player 3"},
		{`"u": 0, "p": 0`, `"u": 1, "p": 0`, ""}, // a valid command of player 1
		{`"n": 1`, `"m": 1`, `turns[0].cmd[0].(command): needs "u", "p" and "n"`},
		{`"res": [100, 100], "cmd": []`, `"res": [100], "cmd": []`, "turns[1].res: 1 players, entry 0 has 2"},
		{`"res": [100, 100], "cmd": [{`, `"res": [1, 2, 3, 4, 5], "cmd": [{`, "turns[0].res: more than 4 players"},
		{`"turns": [`, `"x": ` + deep + `, "turns": [`, "nested more than 32 deep"},
		{`"rank": 2}`, `"rank": 2}, {"_id": "c"}`, "rankedBots has 3 entries for 2 players"},
		{`"_id": "a"`, `"_id": "` + strings.Repeat("a", 2000) + `"`, "rankedBots[0]._id: a string longer than 1024 bytes"},
		{`"_id": "a"`, `"_id": [1]`, "rankedBots[0]._id: a list"},
		{`"turns": [`, `"turns": [], "turnz": [`, "the log has no turns"},
	}
	for _, c := range cases {
		if !strings.Contains(base, c.from) {
			t.Fatalf("%q is not in the log", c.from)
		}
		js := strings.Replace(base, c.from, c.to, 1)
		for enc, data := range map[string][]byte{"json": []byte(js), "msgpack": msgpackOrNil(js)} {
			if data == nil {
				continue // JSON the test's converter does not carry (floats)
			}
			_, err := Decode(bytes.NewReader(data))
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s %q: %v", enc, c.to, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%s %q: error %v, want %q", enc, c.to[:min(len(c.to), 60)], err, c.want)
			}
		}
	}
	// Truncated anywhere: an error, never a panic.
	mp := msgpackCompatibleJSON([]byte(base))
	for _, data := range [][]byte{[]byte(base), mp, gzipped(mp)} {
		for n := 1; n < len(data); n += 7 {
			if _, err := Decode(bytes.NewReader(data[:n])); err == nil {
				t.Fatalf("truncated at %d of %d: no error", n, len(data))
			}
		}
	}
	// A cut inside a turn names the turn and field where the log ends.
	_, err := Decode(bytes.NewReader([]byte(base[:len(base)*2/3])))
	if err == nil || !strings.HasPrefix(err.Error(), "turns[") || !strings.Contains(err.Error(), ": the log ends here (the file is truncated)") {
		t.Errorf("cut JSON: %v", err)
	}
}

func msgpackOrNil(js string) (b []byte) {
	defer func() {
		if recover() != nil {
			b = nil
		}
	}()
	return msgpackCompatibleJSON([]byte(js))
}

// TestDecodeCap: a log larger than the cap once decompressed (here a gzip
// bomb of white space) is refused after reading the cap, not more.
func TestDecodeCap(t *testing.T) {
	defer func(n int64) { maxDecompressed = n }(maxDecompressed)
	maxDecompressed = 1 << 20
	bomb := gzipped([]byte(`{"w": 20, "h": 20,` + strings.Repeat(" ", 2<<20) + `"turns": []}`))
	_, err := Decode(bytes.NewReader(bomb))
	if err == nil || !strings.Contains(err.Error(), "larger than 1 MiB decompressed") {
		t.Fatalf("error %v", err)
	}
	// The real logs are far below the cap.
	js, _ := os.ReadFile(filepath.Join(official, "m05.replay.json"))
	maxDecompressed = int64(len(js))
	if _, err := Decode(bytes.NewReader(js)); err != nil {
		t.Fatalf("a log of exactly the cap: %v", err)
	}
}

// BenchmarkDecode decodes real logs: m06 (4 players, 548 turns) as .mp.gz
// and m05 (2 players, 100 turns) as replay.json.
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"m06.mp.gz", "m05.replay.json"} {
		data := testutil.ReadFile(b, filepath.Join(official, name))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Decode(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRankedPlayers: rankedBots is mapped to players by ranking the final
// entry; a crashed player the board cannot tell apart, or ranks the board
// contradicts, leave it unmapped.
func TestRankedPlayers(t *testing.T) {
	for _, c := range []struct {
		name   string
		ranked string
		want   []int
	}{
		// small()'s final entry: player 0 has its hive at (0,0) and one
		// unit at (1,0); player 1 holds nothing.
		{"ranked", `[{"_id": "a", "crashed": false, "timedOut": false, "rank": 1}, {"_id": "b", "crashed": false, "timedOut": true, "rank": 2}]`, []int{0, 1}},
		{"contradicted", `[{"_id": "b", "crashed": false, "timedOut": false, "rank": 2}, {"_id": "a", "crashed": false, "timedOut": false, "rank": 1}]`, nil},
		{"crash ambiguous", `[{"_id": "a", "crashed": false, "timedOut": false, "rank": 1}, {"_id": "b", "crashed": true, "timedOut": false, "rank": 2}]`, nil},
		{"all crashed", `[{"_id": "a", "crashed": true, "timedOut": false, "rank": 1}, {"_id": "b", "crashed": true, "timedOut": false, "rank": 1}]`, []int{0, 1}},
		{"one missing", `[{"_id": "a", "crashed": false, "timedOut": false, "rank": 1}]`, nil},
	} {
		base := small()
		js := base[:strings.Index(base, `"rankedBots": `)] + `"rankedBots": ` + c.ranked + "}"
		l, err := Decode(strings.NewReader(js))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, ok := l.RankedPlayers()
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v %v, want %v", c.name, got, ok, c.want)
		}
	}
}

// TestDecodeNames: a bot's _id as Python's json.dumps escapes it
// (ensure_ascii: \u escapes, surrogate pairs) and as msgpack carries it.
func TestDecodeNames(t *testing.T) {
	js := strings.Replace(small(), `"_id": "a"`, `"_id": "<b>\u00e9\ud83d\ude00\"x"`, 1)
	for enc, data := range map[string][]byte{"json": []byte(js), "msgpack": msgpackCompatibleJSON([]byte(js))} {
		l, err := Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		if got := l.Ranked[0].ID; got != "<b>é😀\"x" {
			t.Errorf("%s: _id %q", enc, got)
		}
	}
}
