package replay_test

import (
	"bytes"
	"encoding/binary"
	"math"
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

// damagedHeaders are data's header damaged: its CRC-32 wrong, a byte
// of its JSON changed (still JSON), the length after the JSON the
// largest uvarint or one that wraps around when 4 is added.
func damagedHeaders(tb testing.TB, data []byte) map[string][]byte {
	tb.Helper()
	at := len(replay.Magic) + 2
	n, w := binary.Uvarint(data[at:])
	rest := at + w + int(n)
	bn, bw := binary.Uvarint(data[rest:])
	crc := rest + bw + int(bn)
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(data)) }
	length := func(v uint64) []byte {
		return edit(func(b []byte) []byte {
			return append(append(b[:rest:rest], binary.AppendUvarint(nil, v)...), data[rest+bw:]...)
		})
	}
	year := bytes.Index(data[:rest], []byte(`"created":"`)) + len(`"created":"`) + 3
	if year < len(`"created":"`)+3 {
		tb.Fatal("no creation time in the header")
	}
	return map[string][]byte{
		"crc":        edit(func(b []byte) []byte { b[crc] ^= 1; return b }),
		"json":       edit(func(b []byte) []byte { b[year] ^= 1; return b }),
		"max length": length(math.MaxUint64),
		"wraps":      length(math.MaxUint64 - 2),
	}
}

// TestSetCreatedRefusesDamage: a damaged header is refused, not signed
// again.
func TestSetCreatedRefusesDamage(t *testing.T) {
	for name, data := range damagedHeaders(t, small(t, 3)) {
		if out, err := replay.SetCreated(data, time.Now()); err == nil {
			_, rerr := replay.ReadHeader(bytes.NewReader(out))
			t.Errorf("%s: accepted (its result reads as %v)", name, rerr)
		}
	}
}

// FuzzSetCreated: no input panics; what it accepts has a header that
// reads, and its result a header that reads with the new time.
func FuzzSetCreated(f *testing.F) {
	f.Add(small(f, 3))
	f.Add([]byte(replay.Magic + "\x01\x00\x02{}"))
	for _, d := range damagedHeaders(f, small(f, 3)) {
		f.Add(d)
	}
	at := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := replay.SetCreated(data, at)
		if err != nil {
			return
		}
		if _, err := replay.ReadHeader(bytes.NewReader(data)); err != nil {
			t.Fatalf("accepted a header that does not read: %v", err)
		}
		if h, err := replay.ReadHeader(bytes.NewReader(out)); err != nil || !h.Created.Equal(at) {
			t.Fatalf("the result's header: %v, created %v, want %v", err, h, at)
		}
	})
}
