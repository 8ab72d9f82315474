package cfr

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// realworldFiles are the tournament replays the official server wrote
// (../shared/realworld/README.md; read with testutil.RealWorld).
var realworldFiles = []struct {
	path   string
	winner string
	gold   int64
}{
	{"realworld/RuntimeTerrorsVictory.cfr", "RuntimeTerrors", 648787},
	{"realworld/Segfault1.cfr", "Segfault", 465855},
}

// TestRealworldOpen: every frame of both real replays decodes, the richest
// user of the last frame is the documented winner, verified players keep
// their float ranking as text and unverified ones have "".
func TestRealworldOpen(t *testing.T) {
	for _, rf := range realworldFiles {
		t.Run(rf.path, func(t *testing.T) {
			_, frames, err := decodeAll(readShared(t, rf.path))
			if err != nil {
				t.Fatal(err)
			}
			if len(frames) != 501 {
				t.Fatalf("%d frames, want 501", len(frames))
			}
			last := &frames[len(frames)-1]
			var best *colorfight2.FrameUser
			for i := range last.Users {
				if u := &last.Users[i]; best == nil || u.Gold > best.Gold {
					best = u
				}
			}
			if best == nil || best.Username != rf.winner || best.Gold != rf.gold {
				t.Errorf("richest user %+v, want %s with %d gold", best, rf.winner, rf.gold)
			}
			verified := 0
			for _, f := range frames {
				for _, u := range f.Users {
					switch {
					case u.Verified:
						verified++
						if u.Ranking != "1.000000082740371e-8" {
							t.Fatalf("turn %d: verified user %d has ranking %q", f.Turn, u.UID, u.Ranking)
						}
					case u.Ranking != "":
						t.Fatalf("turn %d: unverified user %d has ranking %q", f.Turn, u.UID, u.Ranking)
					}
				}
			}
			if strings.Contains(rf.path, "Segfault") && verified != 1000 {
				t.Errorf("%d verified user-frames, want 1000 (2 players x 500 frames)", verified)
			}
		})
	}
}

// rankingTexts are valid JSON numbers a ranking may hold.
var rankingTexts = []string{"17.223456789", "1.000000082740371e-8", "-0.5", "1E+2", "0.0", "-0", "3", "2e-308", "12345678901234567890123"}

// TestRankingVariants rewrites every "ranking":0 of each real replay with
// one of rankingTexts (in turn): every frame decodes with the exact text,
// and the export is byte-identical.
func TestRankingVariants(t *testing.T) {
	for _, rf := range realworldFiles {
		t.Run(rf.path, func(t *testing.T) {
			orig := testutil.Gunzip(t, readShared(t, rf.path))
			parts := bytes.Split(orig, []byte(`"ranking":0,`))
			if len(parts) < 100 {
				t.Fatalf("only %d zero rankings", len(parts)-1)
			}
			var b bytes.Buffer
			var want []string // ranking texts in file order
			for i, p := range parts {
				if i > 0 {
					r := rankingTexts[(i-1)%len(rankingTexts)]
					b.WriteString(`"ranking":` + r + `,`)
					want = append(want, r)
				}
				b.Write(p)
			}
			variant := b.Bytes()
			_, frames, err := decodeAll(variant)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for _, f := range frames {
				for _, u := range f.Users {
					if u.Verified {
						continue
					}
					if u.Ranking != want[k] {
						t.Fatalf("turn %d user %d: ranking %q, want %q", f.Turn, u.UID, u.Ranking, want[k])
					}
					k++
				}
			}
			if k != len(want) {
				t.Fatalf("saw %d rankings, wrote %d", k, len(want))
			}
			out, _, err := reencode(variant, true)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, variant) {
				i := firstDiff(out, variant)
				t.Fatalf("export differs at byte %d: got ...%s", i, out[max(0, i-60):min(len(out), i+60)])
			}
		})
	}
}

// TestHostileRanking: a ranking that is not a number, or a number longer
// than MaxRankingBytes, is refused with an error naming the frame and user.
func TestHostileRanking(t *testing.T) {
	orig := string(testutil.Gunzip(t, readShared(t, "realworld/Segfault1.cfr")))
	const float = `"ranking":1.000000082740371e-8`
	first := strings.Index(orig, float)
	if first < 0 {
		t.Fatal("no float ranking")
	}
	for _, tc := range []struct {
		name, ranking string
		sentinel      error
		msg           string
	}{
		{"string", `"1.5"`, ErrInvalid, "expected a number"},
		{"object", `{"mean":1}`, ErrInvalid, "expected a number"},
		{"word", `high`, ErrSyntax, "expected a number"},
		{"10 KB number", "1." + strings.Repeat("5", 10<<10), ErrLimit, "number longer than 64 bytes"},
		{"10 KB exponent", "1e" + strings.Repeat("9", 10<<10), ErrLimit, "number longer than 64 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := orig[:first] + `"ranking":` + tc.ranking + orig[first+len(float):]
			_, frames, err := decodeAll([]byte(bad))
			var fe *FormatError
			if !errors.As(err, &fe) || !errors.Is(err, tc.sentinel) {
				t.Fatalf("err = %v, want a FormatError wrapping %v", err, tc.sentinel)
			}
			if fe.Frame != 1 || fe.Where != `users: "5": ranking` || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v (frame %d, where %q)", err, fe.Frame, fe.Where)
			}
			if len(err.Error()) > 200 {
				t.Errorf("error message is %d bytes long", len(err.Error()))
			}
			if len(frames) != 1 {
				t.Errorf("%d frames before the error, want 1", len(frames))
			}
		})
	}
}

// TestUnknownKeysSkipped: unknown keys anywhere outside info/chat/error are
// skipped (their values may be any JSON); the export leaves them out and is
// otherwise byte-identical. Keys inside info are kept.
func TestUnknownKeysSkipped(t *testing.T) {
	frames := tinyFrames()
	frames[1].Users[0].Ranking = "2.5e-3"
	plain := string(encodeFrames(t, Header{Info: []byte(`{"width":3,"future":{"x":[1,{"y":null}]}}`)}, frames, true))
	junk := `{"a":[1,-2.5e+3,true,false,null,"\u00e9\"",{}],"b":[[[]]],"c":"` + strings.Repeat("z", 1000) + `"}`
	edits := []struct{ old, new string }{
		{`{"turn":0,`, `{"turn":0,"replay_note":` + junk + `,`},
		{`,"users":{}}`, `,"users":{},"extra":1}`},
		{`"game_map":{"data":[[[101`, `"game_map":{"legend":"x","data":[[[101`},
		{`"username":"bot two","verified":false`, `"username":"bot two","avatar":` + junk + `,"verified":false`},
		{`"cell_number":1}`, `"cell_number":1,"cells":[[0,0]],"team":"red"}`},
		{`{"turn":2,`, `{"turn":2,"chat":["gg"],`},
		{`]]}}]`, `]],"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"],"z":0}}]`},
		{`]]]}},{"turn":2`, `]]]},"trailer":{"k":[]}},{"turn":2`},
	}
	variant := plain
	for _, e := range edits {
		if !strings.Contains(variant, e.old) {
			t.Fatalf("no %q in %s", e.old, variant)
		}
		variant = strings.Replace(variant, e.old, e.new, 1)
	}
	h, got, err := decodeAll([]byte(variant))
	if err != nil {
		t.Fatal(err)
	}
	if string(h.Info) != `{"width":3,"future":{"x":[1,{"y":null}]}}` {
		t.Errorf("info = %s", h.Info)
	}
	if len(got) != len(frames) || got[1].Users[0].Ranking != "2.5e-3" {
		t.Fatalf("decoded %d frames; %+v", len(got), got)
	}
	for i := range frames {
		if !framesEqual(&got[i], &frames[i]) {
			t.Errorf("frame %d differs", i)
		}
	}
	out, _, err := reencode([]byte(variant), true)
	if err != nil || string(out) != plain {
		t.Errorf("export: err %v\n got %s\nwant %s", err, out, plain)
	}
	// A known key twice is still an error.
	dup := strings.Replace(plain, `"verified":false`, `"verified":false,"verified":false`, 1)
	if _, _, err := decodeAll([]byte(dup)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `duplicate key "verified"`) {
		t.Errorf("duplicate user key: %v", err)
	}
}

// TestEncoderRanking: the encoder writes "" as 0 and any other ranking as
// its text, and refuses a ranking that is not a JSON number.
func TestEncoderRanking(t *testing.T) {
	for _, r := range rankingTexts {
		frames := tinyFrames()
		frames[2].Users[1].Ranking = r
		out := encodeFrames(t, Header{}, frames, true)
		if !bytes.Contains(out, []byte(`"username":"bot two","verified":false,"ranking":`+r+`,`)) {
			t.Errorf("ranking %q not written verbatim", r)
		}
		if !bytes.Contains(out, []byte(`"ranking":0,`)) {
			t.Errorf("empty ranking not written as 0")
		}
		_, got, err := decodeAll(out)
		if err != nil || got[2].Users[1].Ranking != r {
			t.Errorf("ranking %q read back as %q (%v)", r, got[2].Users[1].Ranking, err)
		}
	}
	for _, r := range []string{"abc", "1.5x", "01", "1.", ".5", "+1", "1e", "NaN", " 1", "1 ", "0x10", strings.Repeat("1", MaxRankingBytes+1)} {
		frames := tinyFrames()
		frames[1].Users[0].Ranking = r
		e, err := NewJSONEncoder(&bytes.Buffer{}, Header{})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.WriteFrame(&frames[0]); err != nil {
			t.Fatal(err)
		}
		if err := e.WriteFrame(&frames[1]); !errors.Is(err, ErrBadFrame) {
			t.Errorf("ranking %q: err = %v, want ErrBadFrame", r, err)
		}
	}
}

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "10", "1.5", "0.5", "-1.25e-10", "1E5", "1e+5", "2E-0"} {
		if !validNumber(s) {
			t.Errorf("validNumber(%q) = false", s)
		}
	}
	bad := []string{"", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", "1.5.5", "1e5e5", "Infinity", "0x1", "1_000"}
	for _, s := range bad {
		if validNumber(s) {
			t.Errorf("validNumber(%q) = true", s)
		}
	}
	// The scanner reads exactly the numbers validNumber accepts.
	for _, s := range append(bad, "0", "-0", "1.5", "-1.25e-10", "1E5", "1e+5", "2E-0") {
		for _, end := range []string{",", ""} {
			sc := newScanner(strings.NewReader(s + end))
			b, err := sc.number(64)
			if ok := err == nil && string(b) == s; ok != validNumber(s) {
				t.Errorf("scanner.number(%q) = %q, %v", s+end, b, err)
			}
		}
	}
}
