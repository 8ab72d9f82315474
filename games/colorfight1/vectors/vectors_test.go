package vectors

import (
	"bytes"
	"errors"
	"github.com/rewind-game/rewind/engine"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

// vectorDir is the shared vectors' folder: $REWIND_COLORFIGHT1, or
// ../shared/colorfight1 beside the repository.
func vectorDir(t testing.TB) string {
	t.Helper()
	return testutil.Shared(t, "colorfight1", "v01.input.json")
}

var names = []string{"v01", "v02", "v03", "v04", "v05", "v06"}

// TestVectors: every vector reproduces exactly — every answer, every
// poll digest, every full poll answer and every column of every row
// after every poll and every command; a divergence names its tick, the
// step, the cell or user and the field.
func TestVectors(t *testing.T) {
	dir := vectorDir(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			v, err := ParseInput(testutil.ReadFile(t, filepath.Join(dir, name+Input)))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Check(v, testutil.GunzipFile(t, filepath.Join(dir, name+Expected)))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Divergences {
				t.Error(d)
			}
			if r.Ticks != v.Ticks+1 || r.Polls != v.Ticks || r.FullPolls < 4 {
				t.Errorf("compared %d ticks, %d polls, %d full polls of %d ticks", r.Ticks, r.Polls, r.FullPolls, v.Ticks+1)
			}
			t.Logf("%s: %d ticks, %d polls (%d in full), %d commands", name, r.Ticks, r.Polls, r.FullPolls, r.Commands)
		})
	}
}

// TestPowExceptionsNeeded: with the correctly rounded 2^x alone, v01's
// states and answers still agree but its poll digests do not, first at
// tick 140 (RULES §12.5): the digests do test the port's 2 ** x.
func TestPowExceptionsNeeded(t *testing.T) {
	dir := vectorDir(t)
	withoutPowExceptions = true
	defer func() { withoutPowExceptions = false }()
	v, err := ParseInput(testutil.ReadFile(t, filepath.Join(dir, "v01"+Input)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(v, testutil.GunzipFile(t, filepath.Join(dir, "v01"+Expected)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Divergences) == 0 || !strings.HasPrefix(r.Divergences[0], "tick 140, poll: digest ") {
		t.Fatalf("divergences %q, want the first at tick 140's poll digest", r.Divergences)
	}
	for _, d := range r.Divergences {
		if !strings.Contains(d, ", poll: digest ") {
			t.Errorf("a divergence other than a poll digest: %s", d)
		}
	}
}

// TestConform: Conform (what `rewind conform` calls) passes v03 and
// names the tick, the cell and the field of a doctored expected file; an
// answer changed is named with its command; a foreign input is an error
// about the input file.
func TestConform(t *testing.T) {
	dir := vectorDir(t)
	input := testutil.ReadFile(t, filepath.Join(dir, "v03"+Input))
	expected := testutil.GunzipFile(t, filepath.Join(dir, "v03"+Expected))
	n, div, err := Conform(input, expected, nil)
	if err != nil || div != "" || n != 4401 {
		t.Fatalf("v03: %d ticks, %q, %v", n, div, err)
	}
	// tick 1's first command is an attack whose delta sets a cd_time.
	for _, c := range []struct{ old, new, want string }{
		{`"is_taking":false,"last_update":1551234567.75,"occupy_time":1551234567.25}`, `"is_taking":false,"last_update":1551234567.75,"occupy_time":1551234567.5}`,
			"tick 1, after the poll: cell "},
		{`[200,{"err_code":3,"err_msg":"You are in CD time!"}`, `[200,{"err_code":3,"err_msg":"You are in CD"}`, "answer 200 {\"err_code\":3,\"err_msg\":\"You are in CD time!\"}, want 200 {\"err_code\":3,\"err_msg\":\"You are in CD\"}"},
	} {
		bad := bytes.Replace(expected, []byte(c.old), []byte(c.new), 1)
		if bytes.Equal(bad, expected) {
			t.Fatalf("%s not found in v03's states", c.old)
		}
		_, div, err := Conform(input, bad, nil)
		if err != nil || !strings.Contains(div, c.want) {
			t.Errorf("doctored %s: %q, %v; want %q", c.new, div, err, c.want)
		}
	}
	var fe *engine.VectorFileError
	if _, _, err := Conform([]byte(`{"format":"other"}`), expected, nil); !errors.As(err, &fe) || fe.Expected {
		t.Errorf("a foreign input: %v", err)
	}
}

// TestInputBounds: an input of more than MaxTicks ticks, or with
// commands out of tick order, is refused saying so.
func TestInputBounds(t *testing.T) {
	for in, want := range map[string]string{
		`{"format":"colorfight1-vector-input/1","name":"x","ticks":1048577}`:                                  "1048577 ticks, want 0..1048576",
		`{"format":"colorfight1-vector-input/1","name":"x","ticks":5,"commands":[{"k":2,"cmds":[]},{"k":1}]}`: "commands[1] at tick 1",
		`{"format":"colorfight1-vector-input/1","name":"x","ticks":5,"commands":[{"k":6}]}`:                   "commands[0] at tick 6",
		`{"format":"skyport"}`: `format "skyport"`,
	} {
		if _, err := ParseInput([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
