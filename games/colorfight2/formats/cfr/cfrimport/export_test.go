package cfrimport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
)

// TestVerifyAgainstAndExport: a recorded vector verifies frame by frame
// against the official replay; its .cfr export decodes to the same frames
// (and verifies against the recording too); a replay of another game is
// reported at frame 0 or 1.
func TestVerifyAgainstAndExport(t *testing.T) {
	vs, err := conform.Find([]string{"../../../../../testdata/conformance/c06.cfr", "../../../../../testdata/conformance/c01.cfr"})
	if err != nil {
		t.Fatal(err)
	}
	rec := func(v conform.Vector) []byte {
		g, err := cf2vectors.Load(v.Input, v.Expected)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := RecordVector(g, &buf, time.Time{}, "t"); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	c06, c01 := rec(vs[0]), rec(vs[1])
	want := cfrtest.Open(t, vs[0].Expected)
	res, frames, err := VerifyAgainst(bytes.NewReader(c06), want)
	want.Close()
	if err != nil || res.Err != nil || !res.Complete || frames != 201 {
		t.Fatalf("c06 against its .cfr: %v %+v, %d frames", err, res, frames)
	}

	var out bytes.Buffer
	n, err := Export(bytes.NewReader(c06), &out)
	if err != nil || n != 201 {
		t.Fatalf("Export: %d frames, %v", n, err)
	}
	exported, err := cfr.NewDecoder(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer exported.Close()
	if res, frames, err := VerifyAgainst(bytes.NewReader(c06), exported); err != nil || res.Err != nil || frames != 201 {
		t.Fatalf("against its own export: %v %+v %d", err, res, frames)
	}

	other := cfrtest.Open(t, vs[0].Expected)
	defer other.Close()
	res, frames, err = VerifyAgainst(bytes.NewReader(c01), other)
	if err != nil || res.Err == nil || frames > 1 || !strings.Contains(res.Err.Error(), "differs") {
		t.Fatalf("c01 against c06: %v %+v, %d frames", err, res, frames)
	}
}
