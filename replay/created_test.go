package replay_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/rewind-game/rewind/replay"
)

// TestSetCreated: a recording given another creation time reads it back,
// still verifies completely, has another content hash, and keeps its
// body; every cut of its header is refused, not a panic.
func TestSetCreated(t *testing.T) {
	full := small(t, -1)
	at := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	out, err := replay.SetCreated(full, at)
	if err != nil {
		t.Fatal(err)
	}
	h, err := replay.ReadHeader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if !h.Created.Equal(at) {
		t.Errorf("created %v, want %v", h.Created, at)
	}
	res, err := replay.VerifySim(bytes.NewReader(out), nil)
	if err != nil || !res.Complete || res.Err != nil {
		t.Fatalf("verify: %+v, %v", res, err)
	}
	if hash := func(b []byte) string {
		r, err := replay.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r.HashContent()
		for {
			if _, err := r.NextText(); err != nil {
				break
			}
		}
		return r.ContentHash()
	}; hash(out) == hash(full) {
		t.Error("the content hash does not change with the creation time")
	}
	if !bytes.HasSuffix(out, full[len(full)-100:]) || len(out) != len(full) {
		t.Error("the body changed")
	}
	hl := bytes.Index(full, []byte{0x28, 0xb5, 0x2f, 0xfd})
	for cut := 0; cut < hl; cut++ {
		if _, err := replay.SetCreated(full[:cut], at); err == nil {
			t.Fatalf("a header cut at %d of %d is accepted", cut, hl)
		}
	}
}

// FuzzSetCreated: no input panics; what it accepts has the new time.
func FuzzSetCreated(f *testing.F) {
	f.Add(small(f, 3))
	f.Add([]byte(replay.Magic + "\x01\x00\x02{}"))
	at := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := replay.SetCreated(data, at)
		if err != nil {
			return
		}
		if h, err := replay.ReadHeader(bytes.NewReader(out)); err == nil && !h.Created.Equal(at) {
			t.Fatalf("created %v, want %v", h.Created, at)
		}
	})
}
