// Package bitio reads and writes bit fields most significant bit first:
// fixed-width fields, Elias gamma and exponential-Golomb codes. It is the
// one bit coder of the compact round records (.rwd, docs/replay-format.md),
// the shell's and each game's.
//
// Bounds: a Reader never reads a field wider than 64 bits, and a gamma
// code with more than 63 leading zeros is ErrRange, so a damaged record
// costs at most a few bytes of reading per field before an error.
package bitio

import (
	"errors"
	"io"
	"math/bits"
)

// ErrRange is a code whose value does not fit in 64 bits.
var ErrRange = errors.New("bit field out of range")

// Writer appends bits to Buf. The zero value writes to a nil Buf.
type Writer struct {
	Buf  []byte
	acc  uint64 // pending bits, right-aligned
	nacc uint   // number of pending bits (< 8 after each call)
}

// Write appends the low n bits of v (n <= 56).
func (w *Writer) Write(v uint64, n uint) {
	w.acc = w.acc<<n | (v & (1<<n - 1))
	w.nacc += n
	for w.nacc >= 8 {
		w.nacc -= 8
		w.Buf = append(w.Buf, byte(w.acc>>w.nacc))
	}
	w.acc &= 1<<w.nacc - 1
}

// WriteBig appends the low n bits of v for any n <= 64.
func (w *Writer) WriteBig(v uint64, n uint) {
	if n > 32 {
		w.Write(v>>32, n-32)
		n = 32
	}
	w.Write(v, n)
}

// Gamma writes v >= 1 in Elias gamma code: len-1 zeros, then v's bits.
func (w *Writer) Gamma(v uint64) {
	n := uint(bits.Len64(v))
	w.WriteBig(0, n-1)
	w.WriteBig(v, n)
}

// ExpGolomb writes v >= 0 in exponential-Golomb code of order k:
// Gamma((v >> k) + 1) followed by the low k bits of v.
func (w *Writer) ExpGolomb(v uint64, k uint) {
	w.Gamma(v>>k + 1)
	w.Write(v, k)
}

// Align pads with zero bits to a byte boundary.
func (w *Writer) Align() {
	if w.nacc > 0 {
		w.Write(0, 8-w.nacc)
	}
}

// Reader reads bits from R. Its errors are R's (io.EOF when R ends
// between bytes) and ErrRange.
type Reader struct {
	R    io.ByteReader
	acc  uint64
	nacc uint
}

// Read reads an n-bit field (n <= 56).
func (r *Reader) Read(n uint) (uint64, error) {
	for r.nacc < n {
		b, err := r.R.ReadByte()
		if err != nil {
			return 0, err
		}
		r.acc = r.acc<<8 | uint64(b)
		r.nacc += 8
	}
	r.nacc -= n
	v := r.acc >> r.nacc
	r.acc &= 1<<r.nacc - 1
	return v & (1<<n - 1), nil
}

// ReadBig reads an n-bit field for any n <= 64.
func (r *Reader) ReadBig(n uint) (uint64, error) {
	var hi uint64
	if n > 32 {
		h, err := r.Read(n - 32)
		if err != nil {
			return 0, err
		}
		hi, n = h, 32
	}
	lo, err := r.Read(n)
	return hi<<32 | lo, err
}

// Gamma reads an Elias gamma code; values need at most 64 bits. It
// counts the leading zeros a byte at a time, reading no byte the bit by
// bit reading would not.
func (r *Reader) Gamma() (uint64, error) {
	zeros := uint(0)
	for r.acc == 0 {
		// Every pending bit is a zero.
		if zeros += r.nacc; zeros > 63 {
			return 0, ErrRange
		}
		b, err := r.R.ReadByte()
		if err != nil {
			return 0, err
		}
		r.acc, r.nacc = uint64(b), 8
	}
	lz := uint(bits.LeadingZeros64(r.acc)) - (64 - r.nacc)
	if zeros += lz; zeros > 63 {
		return 0, ErrRange
	}
	r.nacc -= lz + 1 // the zeros and the 1
	r.acc &= 1<<r.nacc - 1
	rest, err := r.ReadBig(zeros)
	if err != nil {
		return 0, err
	}
	return 1<<zeros | rest, nil
}

// ExpGolomb reads an exponential-Golomb code of order k.
func (r *Reader) ExpGolomb(k uint) (uint64, error) {
	q, err := r.Gamma()
	if err != nil {
		return 0, err
	}
	if (q-1)>>(64-k) != 0 {
		return 0, ErrRange
	}
	lo, err := r.Read(k)
	if err != nil {
		return 0, err
	}
	return (q-1)<<k | lo, nil
}

// Align drops the bits left in the current byte.
func (r *Reader) Align() { r.acc, r.nacc = 0, 0 }
