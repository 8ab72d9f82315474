package bitio

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
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

// gammaBitByBit is Gamma read a bit at a time: the definition Reader's
// Gamma, which counts zeros a byte at a time, must match.
func gammaBitByBit(r *Reader) (uint64, error) {
	zeros := uint(0)
	for {
		b, err := r.Read(1)
		if err != nil {
			return 0, err
		}
		if b == 1 {
			break
		}
		if zeros++; zeros > 63 {
			return 0, ErrRange
		}
	}
	rest, err := r.ReadBig(zeros)
	if err != nil {
		return 0, err
	}
	return 1<<zeros | rest, nil
}

// TestGammaMatchesBitByBit reads random streams, mostly zero bytes (long
// codes, ErrRange, the end of the input), with Gamma and with
// gammaBitByBit, each code after a field of a few bits, and checks that
// both give the same values and errors having read the same bytes.
func TestGammaMatchesBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	codes, ranges := 0, 0
	for run := 0; run < 3000; run++ {
		buf := make([]byte, rng.IntN(24))
		for i := range buf {
			if rng.IntN(3) == 0 {
				buf[i] = byte(rng.Uint32() >> uint(rng.IntN(8)))
			}
		}
		src, ref := bytes.NewReader(buf), bytes.NewReader(buf)
		a, b := Reader{R: src}, Reader{R: ref}
		for {
			n := uint(rng.IntN(8))
			va, ea := a.Read(n)
			vb, eb := b.Read(n)
			if va != vb || ea != eb {
				t.Fatalf("run %d: Read(%d) = %d, %v and %d, %v", run, n, va, ea, vb, eb)
			}
			if ea != nil {
				break
			}
			ga, ea := a.Gamma()
			gb, eb := gammaBitByBit(&b)
			if ga != gb || !errors.Is(ea, eb) || src.Len() != ref.Len() {
				t.Fatalf("run %d of % x: Gamma = %d, %v (%d bytes left), bit by bit %d, %v (%d left)", run, buf, ga, ea, src.Len(), gb, eb, ref.Len())
			}
			if ea != nil {
				if errors.Is(ea, ErrRange) {
					ranges++
				}
				break
			}
			codes++
		}
	}
	if codes < 1000 || ranges < 10 {
		t.Errorf("%d codes and %d ErrRange read: the streams test too little", codes, ranges)
	}
}
