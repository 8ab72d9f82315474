package replay

import (
	"errors"
	"math/bits"
)

// bitWriter appends bits MSB-first to a byte slice.
type bitWriter struct {
	buf  []byte
	acc  uint64 // pending bits, right-aligned
	nacc uint   // number of pending bits (< 8 after each call)
}

// write appends the low n bits of v (n <= 56).
func (w *bitWriter) write(v uint64, n uint) {
	w.acc = w.acc<<n | (v & (1<<n - 1))
	w.nacc += n
	for w.nacc >= 8 {
		w.nacc -= 8
		w.buf = append(w.buf, byte(w.acc>>w.nacc))
	}
	w.acc &= 1<<w.nacc - 1
}

// writeBig appends the low n bits of v for any n <= 64.
func (w *bitWriter) writeBig(v uint64, n uint) {
	if n > 32 {
		w.write(v>>32, n-32)
		n = 32
	}
	w.write(v, n)
}

// gamma writes v >= 1 in Elias gamma code: len-1 zeros, then v's bits.
func (w *bitWriter) gamma(v uint64) {
	n := uint(bits.Len64(v))
	w.writeBig(0, n-1)
	w.writeBig(v, n)
}

// expGolomb writes v >= 0 in exponential-Golomb code of order k:
// gamma((v >> k) + 1) followed by the low k bits of v.
func (w *bitWriter) expGolomb(v uint64, k uint) {
	w.gamma(v>>k + 1)
	w.write(v, k)
}

// align pads with zero bits to a byte boundary.
func (w *bitWriter) align() {
	if w.nacc > 0 {
		w.write(0, 8-w.nacc)
	}
}

var errBits = errors.New("bit field out of range")

// bitReader reads bits MSB-first from a byteReader.
type bitReader struct {
	r    *byteReader
	acc  uint64
	nacc uint
}

func (r *bitReader) read(n uint) (uint64, error) {
	for r.nacc < n {
		b, err := r.r.ReadByte()
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

func (r *bitReader) readBig(n uint) (uint64, error) {
	var hi uint64
	if n > 32 {
		h, err := r.read(n - 32)
		if err != nil {
			return 0, err
		}
		hi, n = h, 32
	}
	lo, err := r.read(n)
	return hi<<32 | lo, err
}

// gamma reads an Elias gamma code; values need at most 64 bits.
func (r *bitReader) gamma() (uint64, error) {
	zeros := uint(0)
	for {
		b, err := r.read(1)
		if err != nil {
			return 0, err
		}
		if b == 1 {
			break
		}
		zeros++
		if zeros > 63 {
			return 0, errBits
		}
	}
	rest, err := r.readBig(zeros)
	if err != nil {
		return 0, err
	}
	return 1<<zeros | rest, nil
}

func (r *bitReader) expGolomb(k uint) (uint64, error) {
	q, err := r.gamma()
	if err != nil {
		return 0, err
	}
	if (q-1)>>(64-k) != 0 {
		return 0, errBits
	}
	lo, err := r.read(k)
	if err != nil {
		return 0, err
	}
	return (q-1)<<k | lo, nil
}

// align drops the bits left in the current byte.
func (r *bitReader) align() { r.acc, r.nacc = 0, 0 }

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// sideBits is how many bits a coordinate in 0..n-1 takes.
func sideBits(n int) uint {
	if n <= 1 {
		return 0
	}
	return uint(bits.Len(uint(n - 1)))
}
