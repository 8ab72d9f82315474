package cfr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

func tinyJSON(t testing.TB) []byte {
	return encodeFrames(t, Header{Info: []byte(`{"a":[1,2.5e3,true,null,"x"]}`)}, tinyFrames(), true)
}

// mustFormatError asserts err is a *FormatError wrapping sentinel.
func mustFormatError(t *testing.T, name string, err error, sentinel error) *FormatError {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", name)
		return nil
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Errorf("%s: error %T %v is not a *FormatError", name, err, err)
		return nil
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %v does not wrap %v", name, err, sentinel)
	}
	if !strings.HasPrefix(err.Error(), "cfr: ") {
		t.Errorf("%s: error %q lacks the cfr: prefix", name, err)
	}
	return fe
}

func TestTruncatedTinyJSON(t *testing.T) {
	data := tinyJSON(t)
	for n := 0; n < len(data); n++ {
		_, _, err := decodeAll(data[:n])
		mustFormatError(t, fmt.Sprintf("cut at %d", n), err, io.ErrUnexpectedEOF)
	}
}

func TestTruncatedGzip(t *testing.T) {
	tiny := encodeFrames(t, Header{}, tinyFrames(), false)
	for n := 0; n < len(tiny); n++ {
		if _, _, err := decodeAll(tiny[:n]); err == nil {
			t.Errorf("tiny gzip cut at %d/%d decoded without error", n, len(tiny))
		}
	}
	c06 := readShared(t, "conformance/c06.cfr")
	for i := 0; i < 120; i++ {
		n := i * len(c06) / 120
		_, _, err := decodeAll(c06[:n])
		if err == nil {
			t.Fatalf("c06 cut at %d decoded without error", n)
		}
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("c06 cut at %d: %T %v", n, err, err)
		}
	}
}

func TestTruncatedRealJSON(t *testing.T) {
	data := testutil.Gunzip(t, readShared(t, "conformance/c06.cfr"))
	for i := 0; i < 120; i++ {
		n := i * len(data) / 120
		_, _, err := decodeAll(data[:n])
		mustFormatError(t, fmt.Sprintf("c06 JSON cut at %d", n), err, io.ErrUnexpectedEOF)
	}
}

func TestCorruptGzip(t *testing.T) {
	tiny := encodeFrames(t, Header{}, tinyFrames(), false)
	// Flipping any byte of the deflate data or the CRC/size trailer fails.
	for i := 10; i < len(tiny); i++ {
		bad := bytes.Clone(tiny)
		bad[i] ^= 0xff
		if _, _, err := decodeAll(bad); err == nil {
			t.Errorf("flip at %d/%d decoded without error", i, len(tiny))
		}
	}
	c06 := readShared(t, "conformance/c06.cfr")
	for i := 0; i < 100; i++ {
		bad := bytes.Clone(c06)
		bad[10+i*(len(c06)-10)/100] ^= 0x55
		if _, _, err := decodeAll(bad); err == nil {
			t.Errorf("c06 flip %d decoded without error", i)
		}
	}
}

// TestCorruptJSON flips and deletes bytes of a tiny plain replay. It must
// never panic; whatever decodes must re-encode and decode to the same frames.
func TestCorruptJSON(t *testing.T) {
	data := tinyJSON(t)
	nerr := 0
	for i := range data {
		for _, mut := range [][]byte{
			append(append(bytes.Clone(data[:i]), data[i]^0x01), data[i+1:]...),
			append(append(bytes.Clone(data[:i]), '}'), data[i+1:]...),
			append(bytes.Clone(data[:i]), data[i+1:]...),
		} {
			if err := checkDecodeConsistent(mut); err != nil {
				if !strings.HasPrefix(err.Error(), "cfr: ") {
					t.Fatalf("mutation at %d: %v", i, err)
				}
				var fe *FormatError
				if errors.As(err, &fe) {
					nerr++
				} else {
					t.Fatalf("mutation at %d: consistency failure: %v", i, err)
				}
			}
		}
	}
	if nerr < len(data) {
		t.Errorf("only %d of %d mutations rejected", nerr, 3*len(data))
	}
}

// checkDecodeConsistent decodes data; on success it re-encodes the frames
// and checks that decoding again gives equal frames and that encoding those
// gives identical bytes. It returns the decode error (a *FormatError) or a
// plain error describing an inconsistency.
func checkDecodeConsistent(data []byte) error {
	h, frames, err := decodeAll(data)
	if err != nil {
		return err
	}
	enc := func(h Header, frames []colorfight2.Frame) ([]byte, error) {
		var buf bytes.Buffer
		e, err := NewJSONEncoder(&buf, h)
		if err != nil {
			return nil, err
		}
		for i := range frames {
			if err := e.WriteFrame(&frames[i]); err != nil {
				return nil, err
			}
		}
		err = e.Close()
		return buf.Bytes(), err
	}
	out1, err := enc(h, frames)
	if err != nil {
		return fmt.Errorf("re-encode: %v", err)
	}
	h2, frames2, err := decodeAll(out1)
	if err != nil {
		return fmt.Errorf("decode re-encoded: %v\n%s", err, out1)
	}
	if len(frames2) != len(frames) {
		return fmt.Errorf("frame count %d != %d", len(frames2), len(frames))
	}
	for i := range frames {
		if !framesEqual(&frames[i], &frames2[i]) {
			return fmt.Errorf("frame %d differs after round trip", i)
		}
	}
	out2, err := enc(h2, frames2)
	if err != nil {
		return fmt.Errorf("re-encode 2: %v", err)
	}
	if !bytes.Equal(out1, out2) {
		return fmt.Errorf("second encoding differs")
	}
	return nil
}

func TestMalformed(t *testing.T) {
	base := string(tinyJSON(t))
	head := base[:strings.Index(base, `,{"turn":1`)]
	rep := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("base lacks %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	users64 := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%d":{"uid":%d,"username":"u","verified":false,"ranking":0,"energy":0,"gold":0,"dead":false,"energy_source":0,"gold_source":0,"tech_level":1,"tax_level":0,"tax_amount":0,"building_number":{},"cell_number":0}`, i, i)
		}
		return b.String()
	}
	wideRow := func(w int) string {
		var b strings.Builder
		b.WriteString(`[{"turn":0,"info":{},"chat":[],"error":{},"game_map":{"data":[[`)
		for x := 0; x < w; x++ {
			if x > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `[1,0,[" ",1],1,1,0,[%d,0],1,1,1]`, x)
		}
		b.WriteString(`]],"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"]},"users":{}}]`)
		return b.String()
	}
	tests := []struct {
		name     string
		in       string
		sentinel error
		frame    int
		msg      string
	}{
		{"empty", "", io.ErrUnexpectedEOF, -1, ""},
		{"empty array", "[]", ErrSyntax, 0, "expected '{'"},
		{"not array", "{}", ErrSyntax, -1, "expected '['"},
		{"garbage", "\x00\x01", ErrSyntax, -1, ""},
		{"trailing data", base + "x", ErrSyntax, -1, "after the array"},
		{"trailing gzip-less junk", base + " ]", ErrSyntax, -1, "after the array"},
		{"turn 0 wrong", rep(`{"turn":0`, `{"turn":7`), ErrInvalid, 0, "turn is 7, want 0"},
		{"turn mismatch", rep(`{"turn":2`, `{"turn":3`), ErrInvalid, 2, "turn is 3, want 2"},
		{"turn float", rep(`{"turn":2`, `{"turn":2.0`), ErrInvalid, 2, "integer"},
		{"bad header", rep(`"natural_gold"`, `"natural_gould"`), ErrInvalid, 0, "header 7"},
		{"short headers", rep(`,"natural_cost"]`, `]`), ErrInvalid, 0, "9 headers"},
		{"long headers", rep(`"natural_cost"]`, `"natural_cost","x"]`), ErrInvalid, 0, "more than 10 headers"},
		{"missing headers", rep(`],"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"]}`, `]}`), ErrInvalid, 0, `missing key "headers"`},
		{"bad letter", rep(`["f",2]`, `["x",2]`), ErrInvalid, 2, `cell (1,1): field 2: invalid replay: building letter "x"`},
		{"long letter", rep(`["f",2]`, `["ff",2]`), ErrInvalid, 2, `building letter "ff"`},
		{"level 4", rep(`["f",2]`, `["f",4]`), ErrInvalid, 2, "level 4 is outside 1..3"},
		{"level 0", rep(`["f",2]`, `["f",0]`), ErrInvalid, 2, "level 0 is outside 1..3"},
		{"level 2 for none", rep(`[[[101,0,[" ",1]`, `[[[101,0,[" ",2]`), ErrInvalid, 0, "for an empty cell"},
		{"position wrong", rep(`[102,0,[" ",1],2,8,0,[1,0]`, `[102,0,[" ",1],2,8,0,[1,1]`), ErrInvalid, 0, "cell (1,0): field 6: invalid replay: position [1,1]"},
		{"position wrong delta", rep(`[102,0,[" ",1],2,8,1]`, `[102,0,[" ",1],2,8,1,[0,0]]`), ErrInvalid, 2, "position [0,0]"},
		{"11 fields", rep(`[102,0,[" ",1],2,8,1]`, `[102,0,[" ",1],2,8,1,[1,0],2,8,102,5]`), ErrLimit, 2, "more than 10 fields"},
		{"short full cell", rep(`[101,0,[" ",1],1,9,0,[0,0],1,9,101]`, `[101,0,[" ",1],1,9,0,[0,0],1,9]`), ErrInvalid, 0, "9 fields, want 10"},
		{"empty full cell", rep(`[101,0,[" ",1],1,9,0,[0,0],1,9,101]`, `[]`), ErrInvalid, 0, "0 fields"},
		{"row too short", rep(`[[],[],[]]]}}]`, `[[],[]]]}}]`), ErrInvalid, 2, "row has 2 cells, want 3"},
		{"row too long", rep(`[[],[],[]]]}}]`, `[[],[],[],[]]]}}]`), ErrInvalid, 2, "more than 3 cells"},
		{"too few rows", rep(`,[[],[],[]]]}}]`, `]}}]`), ErrInvalid, 2, "2 rows, want 3"},
		{"too many rows", rep(`[[],[],[]]]}}]`, `[[],[],[]],[[],[],[]]]}}]`), ErrInvalid, 2, "more than 3 rows"},
		{"missing data", rep(`"game_map":{"data":[[[2010]`, `"game_map":{"dat":[[[2010]`), ErrInvalid, 2, `game_map: invalid replay: missing key "data"`},
		{"ragged frame 0", rep(`,[103,0,[" ",1],3,7,0,[2,0],3,7,103]]`, `]`), ErrInvalid, 0, "row 1: invalid replay: row has more than 2 cells"},
		{"float cell", rep(`[2010]`, `[2010.5]`), ErrInvalid, 2, "cell (0,0): field 0"},
		{"string cell", rep(`[2010]`, `["2010"]`), ErrInvalid, 2, "expected an integer"},
		{"huge int", rep(`[2010]`, `[99999999999999999999]`), ErrInvalid, 2, "out of range"},
		{"leading zero", rep(`[2010]`, `[02010]`), ErrSyntax, 2, "leading zero"},
		{"negative owner", rep(`[102,0,[" ",1],2,8,1]`, `[102,0,[" ",1],2,8,-1]`), ErrInvalid, 2, "negative owner"},
		{"unknown key bad value", rep(`{"turn":2,`, `{"turn":2,"x":[1,}`), ErrSyntax, 2, `"x": syntax error`},
		{"unknown key deep value", rep(`{"turn":2,`, `{"turn":2,"x":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`,`), ErrLimit, 2, `"x": limit exceeded: nesting deeper than 64`},
		{"unknown key big value", rep(`{"turn":2,`, `{"turn":2,"x":"`+strings.Repeat("x", MaxRawBytes)+`",`), ErrLimit, 2, `"x": limit exceeded: value longer than`},
		{"unknown user key big value", rep(`"cell_number":1}}`, `"cell_number":1,"x":[`+strings.Repeat("1,", MaxRawBytes/2)+`1]}}`), ErrLimit, 1, `users: "2": "x": limit exceeded: value longer than`},
		{"unknown element-0 key deep", rep(`"chat":[],`, `"chat":[],"x":{"a":`+strings.Repeat("[", 100)+`,`), ErrLimit, 0, `"x": limit exceeded: nesting`},
		{"huge unknown key", rep(`{"turn":2,`, `{"turn":2,"`+strings.Repeat("k", MaxRawBytes+1)+`":1,`), ErrLimit, 2, "string longer than"},
		{"duplicate key", rep(`{"turn":2,`, `{"turn":2,"turn":2,`), ErrInvalid, 2, `duplicate key "turn"`},
		{"missing users", rep(`{"turn":2,"users":{"1"`, `{"turn":2,"usrs":{"1"`), ErrInvalid, 2, `missing key "users"`},
		{"user key mismatch", rep(`"2":{"uid":2`, `"3":{"uid":2`), ErrInvalid, 1, "under key"},
		{"duplicate uid", rep(`"2":{"uid":2,"username":"bot two"`, `"1":{"uid":1,"username":"bot two"`), ErrInvalid, 1, `users: "1": invalid replay: duplicate user key "1"`},
		{"ranking string", rep(`"ranking":0`, `"ranking":"0"`), ErrInvalid, 1, `users: "1": ranking: invalid replay: expected a number`},
		{"ranking bool", rep(`"ranking":0`, `"ranking":true`), ErrInvalid, 1, `users: "1": ranking: invalid replay: expected a number`},
		{"ranking null", rep(`"ranking":0`, `"ranking":null`), ErrInvalid, 1, `users: "1": ranking: invalid replay: expected a number`},
		{"ranking NaN", rep(`"ranking":0`, `"ranking":NaN`), ErrSyntax, 1, `users: "1": ranking: syntax error: expected a number`},
		{"ranking Infinity", rep(`"ranking":0`, `"ranking":-Infinity`), ErrSyntax, 1, `users: "1": ranking: syntax error: invalid number`},
		{"ranking 10 KB", rep(`"ranking":0`, `"ranking":1`+strings.Repeat("0", 10<<10)), ErrLimit, 1, `users: "1": ranking: limit exceeded: number longer than 64 bytes`},
		{"ranking 65 bytes", rep(`"ranking":0`, `"ranking":0.`+strings.Repeat("1", 63)), ErrLimit, 1, `number longer than 64 bytes`},
		{"ranking leading zero", rep(`"ranking":0`, `"ranking":01.5`), ErrSyntax, 1, `ranking: syntax error: number with a leading zero`},
		{"ranking no fraction digits", rep(`"ranking":0`, `"ranking":1.e5`), ErrSyntax, 1, `ranking: syntax error: invalid number`},
		{"ranking no exponent digits", rep(`"ranking":0`, `"ranking":1e+`), ErrSyntax, 1, `ranking: syntax error: invalid number`},
		{"ranking trailing junk", rep(`"ranking":0`, `"ranking":1.5x`), ErrSyntax, 1, `expected ',' or '}'`},
		{"uid zero", rep(`{"turn":2,"users":{"1":{"uid":1,`, `{"turn":2,"users":{"0":{"uid":0,`), ErrInvalid, 2, "not a uid"},
		{"missing user field", rep(`"tax_amount":0,"building_number":{"fortress":1`, `"building_number":{"fortress":1`), ErrInvalid, 2, `missing key "tax_amount"`},
		{"unknown building", rep(`{"fortress":1,"home":1}`, `{"castle":1}`), ErrInvalid, 2, `unknown building type "castle"`},
		{"duplicate building", rep(`{"fortress":1,"home":1}`, `{"home":1,"home":1}`), ErrInvalid, 2, `duplicate key "home"`},
		{"negative building", rep(`{"fortress":1,"home":1}`, `{"home":-1}`), ErrInvalid, 2, "negative count"},
		{"bool as int", rep(`"dead":true`, `"dead":1`), ErrInvalid, 2, "expected a boolean"},
		{"bad literal", rep(`"dead":true`, `"dead":trve`), ErrSyntax, 2, "invalid literal"},
		{"bad escape", rep(`\"b`, `\qb`), ErrSyntax, 1, "invalid escape"},
		{"lone surrogate", rep(`\ud83d\ude00`, `\ude00\ud83d`), ErrInvalid, 1, "surrogate"},
		{"bad utf8", rep(`bot two`, "bot\xfftwo"), ErrInvalid, 1, "UTF-8"},
		{"control char", rep(`bot two`, "bot\ttwo"), ErrSyntax, 1, "control character"},
		{"long username", rep(`bot two`, strings.Repeat("x", MaxUsernameBytes+1)), ErrLimit, 1, "longer than 1024"},
		{"long escaped username", rep(`bot two`, strings.Repeat(`\u00e9`, MaxUsernameBytes/2+1)), ErrLimit, 1, "longer than 1024"},
		{"65 users", head + `,{"turn":1,"users":{` + users64(65) + `},"game_map":{"data":[[[],[],[]],[[],[],[]],[[],[],[]]]}}]`, ErrLimit, 1, "more than 64 users"},
		{"1001 wide", wideRow(1001), ErrLimit, 0, "more than 1000 columns"},
		{"bad info", rep(`{"a":[1,2.5e3`, `{"a":[1,2.5e`), ErrSyntax, 0, "info: "},
		{"bad info number", rep(`{"a":[1,2.5e3`, `{"a":[01,2.5e3`), ErrSyntax, 0, "info: "},
		{"deep info", rep(`{"a":[1,2.5e3,true,null,"x"]}`, strings.Repeat("[", 100)+strings.Repeat("]", 100)), ErrLimit, 0, "nesting"},
		{"big info", rep(`{"a":[1,2.5e3,true,null,"x"]}`, `"`+strings.Repeat("x", MaxRawBytes)+`"`), ErrLimit, 0, "info: "},
		{"missing element key", rep(`"chat":[],`, ``), ErrInvalid, 0, `missing key "chat"`},
		{"no separator", rep(`]}},{"turn":2`, `]}}{"turn":2`), ErrSyntax, 2, "expected ',' or ']'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decodeAll([]byte(tc.in))
			fe := mustFormatError(t, tc.name, err, tc.sentinel)
			if fe == nil {
				return
			}
			if fe.Frame != tc.frame {
				t.Errorf("frame %d, want %d (%v)", fe.Frame, tc.frame, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q lacks %q", err, tc.msg)
			}
		})
	}
	// 1000 wide is accepted.
	if _, frames, err := decodeAll([]byte(wideRow(1000))); err != nil || len(frames) != 1 || frames[0].Width != 1000 || frames[0].Height != 1 {
		t.Errorf("1000x1 map: %v", err)
	}
	// 64 users are accepted.
	if _, frames, err := decodeAll([]byte(head + `,{"turn":1,"users":{` + users64(64) + `},"game_map":{"data":[[[],[],[]],[[],[],[]],[[],[],[]]]}}]`)); err != nil || len(frames[1].Users) != 64 {
		t.Errorf("64 users: %v", err)
	}
}

func TestErrorMessageAndSticky(t *testing.T) {
	data := strings.Replace(string(tinyJSON(t)), `["f",2]`, `["f",4]`, 1)
	d, err := NewDecoder(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	for i := 0; i < 2; i++ {
		if err := d.Next(&f); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
	err = d.Next(&f)
	off := strings.Index(data, `["f",4]`) + len(`["f",4`)
	want := fmt.Sprintf("cfr: frame 2: cell (1,1): field 2: invalid replay: building level 4 is outside 1..3 (offset %d)", off)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Frame != 2 || fe.Where != "cell (1,1): field 2" || fe.Offset != int64(off) {
		t.Errorf("FormatError = %+v", fe)
	}
	if err2 := d.Next(&f); err2 != err {
		t.Errorf("second Next = %v, want the same error", err2)
	}
}

// errWriter fails after n bytes.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestEncoderErrors(t *testing.T) {
	frames := tinyFrames()
	if _, err := NewEncoder(io.Discard, Header{Info: []byte(`{`)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid info: %v", err)
	}
	if _, err := NewEncoder(io.Discard, Header{Width: 1001, Height: 3}); !errors.Is(err, ErrBadFrame) {
		t.Errorf("header width 1001: %v", err)
	}
	bad := func(name string, mod func(f *colorfight2.Frame), idx int) {
		t.Helper()
		e, err := NewJSONEncoder(io.Discard, Header{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < idx; i++ {
			if err := e.WriteFrame(&frames[i]); err != nil {
				t.Fatal(err)
			}
		}
		var f colorfight2.Frame
		f.CopyFrom(&frames[idx])
		mod(&f)
		if err := e.WriteFrame(&f); !errors.Is(err, ErrBadFrame) {
			t.Errorf("%s: err = %v, want ErrBadFrame", name, err)
		}
		// The encoder stays usable after a refused frame.
		if err := e.WriteFrame(&frames[idx]); err != nil {
			t.Errorf("%s: valid frame after refusal: %v", name, err)
		}
	}
	bad("turn", func(f *colorfight2.Frame) { f.Turn = 5 }, 1)
	bad("width", func(f *colorfight2.Frame) { f.Width = 1; f.Height = 9 }, 1)
	bad("cells", func(f *colorfight2.Frame) { f.Cells = f.Cells[:8] }, 0)
	bad("position", func(f *colorfight2.Frame) { f.Cell(1, 1).X = 0 }, 1)
	bad("level", func(f *colorfight2.Frame) { f.Cell(1, 1).Level = 2 }, 1)
	bad("building", func(f *colorfight2.Frame) { f.Cell(1, 1).Building = 9 }, 1)
	bad("uid order", func(f *colorfight2.Frame) { f.Users[1].UID = 1 }, 1)
	bad("username", func(f *colorfight2.Frame) { f.Users[1].Username = "\xff" }, 1)
	bad("order", func(f *colorfight2.Frame) {
		f.Users[1].BuildingOrder = []colorfight2.Building{colorfight2.Home, colorfight2.Home}
	}, 1)
	bad("zero size", func(f *colorfight2.Frame) { f.Width, f.Height, f.Cells = 0, 0, nil }, 0)

	e, _ := NewEncoder(io.Discard, Header{})
	if err := e.Close(); !errors.Is(err, ErrNoFrames) {
		t.Errorf("Close with no frames: %v", err)
	}
	if err := e.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	if err := e.WriteFrame(&frames[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("WriteFrame after Close: %v", err)
	}
	// Write errors surface (at the latest at Close) and are sticky.
	ew := &errWriter{n: 10}
	e, _ = NewJSONEncoder(ew, Header{})
	var werr error
	for i := range frames {
		if werr = e.WriteFrame(&frames[i]); werr != nil {
			break
		}
	}
	if werr == nil {
		werr = e.Close()
	}
	if werr == nil || !strings.Contains(werr.Error(), "disk full") {
		t.Errorf("write error = %v", werr)
	}
}

// TestEncodeUnlistedBuildings: counts not named in BuildingOrder are written
// after the listed ones, in canonical order.
func TestEncodeUnlistedBuildings(t *testing.T) {
	frames := tinyFrames()
	frames[2].Users[0].BuildingOrder = nil
	frames[2].Users[0].Buildings[colorfight2.EnergyWell] = 2
	out := encodeFrames(t, Header{}, frames, true)
	if !bytes.Contains(out, []byte(`"building_number":{"home":1,"energy_well":2}`)) {
		t.Errorf("output: %s", out)
	}
	_, got, err := decodeAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if o := got[2].Users[0].BuildingOrder; len(o) != 2 || o[0] != colorfight2.Home || o[1] != colorfight2.EnergyWell {
		t.Errorf("order %v", o)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(tinyJSON(f))
	f.Add(encodeFrames(f, Header{}, tinyFrames(), false))
	one := tinyFrames()[1:2]
	one[0].Turn = 0
	f.Add(encodeFrames(f, Header{Users: []HeaderUser{{FrameUser: colorfight2.FrameUser{UID: 1}, Cells: [][2]int64{{0, 0}}}}}, one, true))
	f.Add([]byte(`[{"turn":0,"info":{},"chat":[],"error":{},"game_map":{"data":[[[1,0,[" ",1],1,1,0,[0,0],1,1,1]]],"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"]},"users":{}}]`))
	f.Add([]byte("[]"))
	// Users out of uid order, float rankings, unknown keys.
	rev := tinyFrames()
	for i := 1; i < len(rev); i++ {
		rev[i].Users[0], rev[i].Users[1] = rev[i].Users[1], rev[i].Users[0]
		rev[i].Users[0].Ranking = "1.000000082740371e-8"
	}
	f.Add(bytes.Replace(encodeFrames(f, Header{}, rev, true), []byte(`"verified":false,`), []byte(`"verified":false,"x":[{"y":-1.5E+3}],`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := checkDecodeConsistent(data)
		if err == nil {
			return
		}
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("not a FormatError: %v", err)
		}
		if !strings.HasPrefix(err.Error(), "cfr: ") {
			t.Fatalf("error without prefix: %v", err)
		}
	})
}
