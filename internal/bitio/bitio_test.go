package bitio

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestRoundTrip: fields, gamma and exp-Golomb codes read back as written,
// across byte boundaries and at the extremes; Align pads to a byte.
func TestRoundTrip(t *testing.T) {
	var w Writer
	w.Write(1, 1)
	w.Write(0x2a, 6)
	w.Gamma(1)
	w.Gamma(1 << 63)
	w.ExpGolomb(0, 3)
	w.ExpGolomb(12345, 3)
	w.WriteBig(0xdeadbeefcafe, 48)
	w.Align()
	r := Reader{R: bytes.NewReader(w.Buf)}
	want := []uint64{1, 0x2a, 1, 1 << 63, 0, 12345, 0xdeadbeefcafe}
	var got []uint64
	read := func(v uint64, err error) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	read(r.Read(1))
	read(r.Read(6))
	read(r.Gamma())
	read(r.Gamma())
	read(r.ExpGolomb(3))
	read(r.ExpGolomb(3))
	read(r.ReadBig(48))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d: %#x, want %#x", i, got[i], want[i])
		}
	}
	r.Align()
	if _, err := r.Read(1); !errors.Is(err, io.EOF) {
		t.Errorf("after the padded end: %v", err)
	}
}

// TestRange: a gamma code of 64 zeros is ErrRange, not a loop or a
// shift past 64 bits; an exp-Golomb code whose value overflows too.
func TestRange(t *testing.T) {
	r := Reader{R: bytes.NewReader(make([]byte, 9))}
	if _, err := r.Gamma(); !errors.Is(err, ErrRange) {
		t.Errorf("64 zeros: %v", err)
	}
	var w Writer
	w.Gamma(1 << 62)
	w.Write(0, 3)
	r = Reader{R: bytes.NewReader(w.Buf)}
	if _, err := r.ExpGolomb(3); !errors.Is(err, ErrRange) {
		t.Errorf("overflowing exp-Golomb: %v", err)
	}
}
