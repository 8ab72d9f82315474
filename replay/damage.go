package replay

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Telling a file that ends early (ErrTruncated) from one damaged inside
// (ErrCorrupt).
//
// A zstd frame is a header, then blocks each announcing its size in a
// 3-byte header, then a 4-byte content checksum. When the decompressor runs
// out of input the file may have been cut (a killed recorder) — or a
// damaged block header may announce a block longer than the rest of the
// file. The two look alike to the decompressor; the frame's own structure
// tells them apart: a damaged file still holds the rest of the frame, so
// correcting one bit of one of the last block headers makes the block
// chain end exactly where the file ends, on a last block followed by its
// checksum. A cut file has no such rest: the chain cannot close on the
// file's last byte (a cut that happens to close it is as likely as guessing
// a 3-byte header and a size that lands on the exact byte). The header's
// two length fields are checked the same way against its CRC-32.

// zstd frame and block constants (RFC 8878).
const (
	zstdMagic    = 0xFD2FB528
	zstdMaxBlock = 128 << 10
	trackHeaders = 4 // block headers whose repair the tracker tries
	// keepBodyBytes is how much of a body the tracker keeps to verify a
	// repair by decoding it (a real 2000-round recording is ~150 KB);
	// a larger body that ends early is called truncated.
	keepBodyBytes    = 4 << 20
	blockTypeRLE     = 1
	blockTypeReserve = 3
)

// blockTracker sits between the file and the body's zstd decoder and
// follows the frame's block structure as the bytes go by, keeping the
// body's bytes (up to keepBodyBytes), so that a read that ends early can
// be judged (damaged reports whether the file is damaged).
type blockTracker struct {
	r io.Reader
	// buf holds the stream's bytes from offset base on; heads are the
	// stream offsets of the last block headers seen (at most
	// trackHeaders).
	buf   []byte
	base  int64
	heads []int64
	// partial: buf no longer starts at the body's first byte (the body
	// outgrew keepBodyBytes), so no repair can be verified.
	partial bool
	// The parser: pos is the stream offset of the next structure
	// (frame header field or block header) to read; hdrDone once the
	// frame header is parsed; checksum is the content checksum's size
	// (0 or 4); ended once the last block and checksum have gone by.
	pos      int64
	hdrDone  bool
	checksum int
	ended    bool
	bad      bool // the structure itself is invalid: the decoder will say so
}

func (t *blockTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	switch {
	case n == 0:
	case t.bad || t.ended && t.base+int64(len(t.buf)) >= t.pos:
		// Nothing more to follow: count the bytes, keep none.
		t.base += int64(len(t.buf) + n)
		t.buf = t.buf[:0]
	default:
		if !t.partial && len(t.buf)+n > keepBodyBytes {
			t.partial = true
		}
		if t.partial && len(t.heads) > 0 {
			// Only the block structure is followed: keep the bytes from
			// the last header on (the parser needs no earlier ones).
			if drop := t.heads[len(t.heads)-1] - t.base; drop > 0 && drop <= int64(len(t.buf)) {
				t.buf = append(t.buf[:0], t.buf[drop:]...)
				t.base += drop
			}
		}
		t.buf = append(t.buf, p[:n]...)
		t.parse()
	}
	return n, err
}

// at returns the stream bytes [off, off+n), or nil when not (yet) held.
func (t *blockTracker) at(off int64, n int) []byte {
	i := off - t.base
	if i < 0 || i+int64(n) > int64(len(t.buf)) {
		return nil
	}
	return t.buf[i : i+int64(n)]
}

// parse advances over every structure whose bytes have arrived.
func (t *blockTracker) parse() {
	for !t.bad && !t.ended {
		if !t.hdrDone {
			b := t.at(0, 5)
			if b == nil {
				return
			}
			if binary.LittleEndian.Uint32(b) != zstdMagic {
				t.bad = true
				return
			}
			fhd := b[4]
			n := 5
			single := fhd&0x20 != 0
			if !single {
				n++ // window descriptor
			}
			n += [4]int{0, 1, 2, 4}[fhd&3]
			fcs := [4]int{0, 2, 4, 8}[fhd>>6]
			if fhd>>6 == 0 && single {
				fcs = 1
			}
			n += fcs
			if fhd&4 != 0 {
				t.checksum = 4
			}
			t.hdrDone, t.pos = true, int64(n)
			continue
		}
		h := t.at(t.pos, 3)
		if h == nil {
			return
		}
		t.heads = append(t.heads, t.pos)
		if len(t.heads) > trackHeaders {
			t.heads = t.heads[1:]
		}
		last, size, ok := blockHeader(h)
		if !ok {
			t.bad = true
			return
		}
		t.pos += 3 + size
		if last {
			t.pos += int64(t.checksum)
			t.ended = true
		}
	}
}

// blockHeader decodes a 3-byte block header: whether it is the last block,
// how many bytes of content follow it, and whether it is valid.
func blockHeader(h []byte) (last bool, size int64, ok bool) {
	v := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
	typ := (v >> 1) & 3
	size = int64(v >> 3)
	if typ == blockTypeReserve || size > zstdMaxBlock {
		return false, 0, false
	}
	if typ == blockTypeRLE {
		size = 1
	}
	return v&1 != 0, size, true
}

// damaged reports, once the input has ended, whether the file is damaged
// rather than cut short: one bit of the size or type of one of the last
// block headers can be corrected so that the frame ends exactly at the end
// of the file, on its last block and checksum, and the corrected body
// decodes with a matching content checksum; or the content's footer was
// read whole (footer) yet the frame does not close.
//
// The last-block flag itself is never corrected (a cut file's chain closes
// that way whenever the cut falls 4 bytes after a block); a cleared flag
// on the final block is caught by footer. A body over keepBodyBytes that
// ends early is called cut.
func (t *blockTracker) damaged(footer bool) bool {
	if t.bad || !t.hdrDone {
		return false
	}
	if footer && !t.ended {
		return true
	}
	end := t.base + int64(len(t.buf))
	if t.ended && t.pos <= end {
		// The frame closed: bytes after it are damage (the decoder
		// reports those itself); a frame that closed on the last byte
		// is whole, and only its content can have ended early.
		return t.pos < end
	}
	if t.partial || t.checksum == 0 {
		return false
	}
	for i := len(t.heads) - 1; i >= 0; i-- {
		h := t.at(t.heads[i], 3)
		if h == nil {
			continue
		}
		for bit := 1; bit < 24; bit++ {
			var alt [3]byte
			copy(alt[:], h)
			alt[bit/8] ^= 1 << (bit % 8)
			if t.closes(t.heads[i], alt[:], end) && t.decodes(t.heads[i], alt) {
				return true
			}
		}
	}
	return false
}

// decodes reports whether the whole body, with the block header at off
// replaced by alt, decodes and matches its content checksum: proof that
// the file is whole and that header damaged.
func (t *blockTracker) decodes(off int64, alt [3]byte) bool {
	b := append([]byte(nil), t.buf...)
	copy(b[off-t.base:], alt[:])
	zr, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(256<<20), zstd.WithDecoderMaxWindow(8<<20))
	if err != nil {
		return false
	}
	defer zr.Close()
	_, err = io.Copy(io.Discard, zr)
	return err == nil
}

// closes reports whether the block chain starting at off, whose first
// header is first, ends exactly at end on a last block and its checksum.
func (t *blockTracker) closes(off int64, first []byte, end int64) bool {
	h := first
	for {
		last, size, ok := blockHeader(h)
		if !ok {
			return false
		}
		off += 3 + size
		if last {
			return off+int64(t.checksum) == end
		}
		if h = t.at(off, 3); h == nil {
			return false
		}
	}
}

// headerLengthDamaged reports whether a header that ran out of input while
// reading its JSON or map blob holds a damaged length instead: rec is every
// byte read from the start of the file; the lengths' varints are at
// lenOff[i] (0 when not read). It tries every one-bit change of each
// varint and reports true when one gives a header whose CRC-32 matches.
func headerLengthDamaged(rec []byte, lenOff [2]int) bool {
	for _, off := range lenOff {
		if off <= 0 || off >= len(rec) {
			continue
		}
		_, n := binary.Uvarint(rec[off:])
		if n <= 0 {
			continue
		}
		for bit := range 8 * n {
			rec[off+bit/8] ^= 1 << (bit % 8)
			ok := crcCloses(rec, lenOff)
			rec[off+bit/8] ^= 1 << (bit % 8)
			if ok {
				return true
			}
		}
	}
	return false
}

// crcCloses walks a header (magic, version, JSON length and JSON, blob
// length and blob) in rec and reports whether the CRC-32 after it matches.
func crcCloses(rec []byte, lenOff [2]int) bool {
	p := lenOff[0]
	for range 2 {
		if p <= 0 || p >= len(rec) {
			return false
		}
		v, n := binary.Uvarint(rec[p:])
		if n <= 0 || v > uint64(len(rec)) {
			return false
		}
		p += n + int(v)
	}
	if p+4 > len(rec) {
		return false
	}
	return crc32.ChecksumIEEE(rec[:p]) == binary.LittleEndian.Uint32(rec[p:])
}
