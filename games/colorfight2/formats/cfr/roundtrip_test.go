package cfr

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

const testdataDir = "../../../../testdata/"

var realFiles = []struct {
	path   string
	frames int
}{
	{"conformance/c01.cfr", 301},
	{"conformance/c02.cfr", 401},
	{"conformance/c03.cfr", 501},
	{"conformance/c04.cfr", 501},
	{"conformance/c05.cfr", 501},
	{"conformance/c06.cfr", 201},
	{"realworld/RuntimeTerrorsVictory.cfr", 501},
	{"realworld/Segfault1.cfr", 501},
}

// fixturePath returns where a fixture named "conformance/NAME" (in
// testdata) or "realworld/NAME" (a real replay, read where it lives and
// skipped when absent: testutil.RealWorld) is.
func fixturePath(t testing.TB, path string) string {
	t.Helper()
	if name, ok := strings.CutPrefix(path, "realworld/"); ok {
		return testutil.RealWorld(t, name)
	}
	return testdataDir + path
}

// readShared returns the contents of the fixture at path (fixturePath).
func readShared(t testing.TB, path string) []byte {
	t.Helper()
	return testutil.ReadFile(t, fixturePath(t, path))
}

// drain reads every frame of d into f until io.EOF, calling each (when
// not nil) with the frame's index after each one, and returns how many
// frames there were. A decoding error fails tb.
func drain(tb testing.TB, d *Decoder, f *colorfight2.Frame, each func(n int)) int {
	tb.Helper()
	n := 0
	for {
		err := d.Next(f)
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
		if each != nil {
			each(n)
		}
		n++
	}
}

// writeFrames writes frames to e and closes it; any error fails tb.
func writeFrames(tb testing.TB, e *Encoder, frames []colorfight2.Frame) {
	tb.Helper()
	for i := range frames {
		if err := e.WriteFrame(&frames[i]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		tb.Fatal(err)
	}
}

// decodeAll decodes every frame of data (deep copies) and the header.
func decodeAll(data []byte) (Header, []colorfight2.Frame, error) {
	d, err := NewDecoder(bytes.NewReader(data))
	if err != nil {
		return Header{}, nil, err
	}
	var frames []colorfight2.Frame
	for {
		var f colorfight2.Frame
		err := d.Next(&f)
		if err == io.EOF {
			return d.Header(), frames, nil
		}
		if err != nil {
			return d.Header(), frames, err
		}
		frames = append(frames, f)
	}
}

// reencode streams data through a Decoder into an Encoder (plain JSON when
// plain is set, else gzip) and returns the output.
func reencode(data []byte, plain bool) ([]byte, int, error) {
	d, err := NewDecoder(bytes.NewReader(data))
	if err != nil {
		return nil, 0, err
	}
	var out bytes.Buffer
	var e *Encoder
	if plain {
		e, err = NewJSONEncoder(&out, d.Header())
	} else {
		e, err = NewEncoder(&out, d.Header())
	}
	if err != nil {
		return nil, 0, err
	}
	var f colorfight2.Frame
	n := 0
	for {
		err := d.Next(&f)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, n, err
		}
		if err := e.WriteFrame(&f); err != nil {
			return nil, n, err
		}
		n++
	}
	if err := e.Close(); err != nil && !errors.Is(err, ErrNoFrames) {
		return nil, n, err
	}
	return out.Bytes(), n, nil
}

func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestRoundTripRealFiles(t *testing.T) {
	for _, rf := range realFiles {
		t.Run(rf.path, func(t *testing.T) {
			gz := readShared(t, rf.path)
			want := testutil.Gunzip(t, gz)
			got, n, err := reencode(gz, true)
			if err != nil {
				t.Fatalf("re-encode: %v", err)
			}
			if n != rf.frames {
				t.Errorf("%d frames, want %d", n, rf.frames)
			}
			if !bytes.Equal(got, want) {
				i := firstDiff(got, want)
				t.Fatalf("re-encoded JSON differs at byte %d (len %d vs %d):\n got ...%s\nwant ...%s",
					i, len(got), len(want), got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			}
			// The gzip encoder produces the same JSON once decompressed.
			gzOut, _, err := reencode(gz, false)
			if err != nil {
				t.Fatalf("re-encode gzip: %v", err)
			}
			if !bytes.Equal(testutil.Gunzip(t, gzOut), want) {
				t.Fatal("gzip encoder output decompresses to different JSON")
			}
			// Plain JSON input decodes to the same output.
			got2, _, err := reencode(want, true)
			if err != nil {
				t.Fatalf("decode plain JSON: %v", err)
			}
			if !bytes.Equal(got2, want) {
				t.Fatal("plain JSON input re-encodes differently")
			}
		})
	}
}
