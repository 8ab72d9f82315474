package cfr

import (
	"errors"
	"io"
)

// Read-ahead: for gzip input the Decoder decompresses in the background,
// one buffer ahead of the parser, so that the two overlap.

// aheadBufSize is the size of each of the two buffers of a read-ahead
// scanner: the parser parses one while the other is filled.
const aheadBufSize = 128 << 10

// newScannerAhead is newScanner reading src ahead of the scanner in a
// background goroutine (see readAhead).
func newScannerAhead(src io.Reader) *scanner {
	a := &readAhead{src: src, done: make(chan chunk, 1)}
	a.start(make([]byte, aheadBufSize))
	return &scanner{src: src, ahead: a, buf: make([]byte, aheadBufSize)}
}

// readAhead fills the buffers of a scanner in the background, one at a
// time: each time the scanner takes a filled buffer it hands back the one
// it has parsed, and a new goroutine fills that while the scanner parses.
//
// Each goroutine does one read and ends, never waiting for the scanner
// (done has room for its result), so a scanner dropped in the middle
// leaves behind at most one read, which ends on its own. And a goroutine
// not yet picked up by another thread when the scanner needs its buffer
// runs on the scanner's own thread while the scanner waits: on a busy
// machine the read-ahead costs next to nothing.
type readAhead struct {
	src     io.Reader
	done    chan chunk // capacity 1
	pending bool       // a read is in flight
}

// chunk is one filled buffer.
type chunk struct {
	buf      []byte
	n        int
	err      error
	panicked bool
	panicVal any
}

var errPanicked = errors.New("cfr: the reader panicked")

// start fills buf in a new goroutine; the result arrives on a.done.
func (a *readAhead) start(buf []byte) {
	a.pending = true
	go func() {
		c := chunk{buf: buf}
		defer func() {
			if p := recover(); p != nil {
				c.panicked, c.panicVal = true, p
			}
			a.done <- c
		}()
		c.n, c.err = readChunk(a.src, buf)
	}()
}

// next waits for the buffer being filled, and starts filling parsed (the
// buffer the scanner is done with) unless the source has ended.
func (a *readAhead) next(parsed []byte) chunk {
	c := <-a.done
	a.pending = false
	if c.err == nil && !c.panicked {
		a.start(parsed)
	}
	return c
}

// stop waits for the read in flight, if any.
func (a *readAhead) stop() {
	if a.pending {
		<-a.done
		a.pending = false
	}
}

// readChunk reads from src until buf is full or src fails (io.EOF
// included), checking the counts src returns.
func readChunk(src io.Reader, buf []byte) (int, error) {
	n, idle := 0, 0
	for n < len(buf) {
		m, err := src.Read(buf[n:])
		if m < 0 || m > len(buf)-n {
			return n, errInvalidCount
		}
		n += m
		if err != nil {
			return n, err
		}
		if m > 0 {
			idle = 0
		} else if idle++; idle >= 100 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

var errInvalidCount = errors.New("cfr: reader returned invalid count")

// stop ends the scanner's input here (it is used after a decoding error):
// no more reads, and none in flight once stop returns. What a read in
// flight returned, a panic included, is dropped: the scanner never needed
// it.
func (s *scanner) stop() {
	if s.err == nil {
		s.err = errStopped
	}
	if s.ahead != nil {
		s.ahead.stop()
	}
}

var errStopped = errors.New("cfr: decoding stopped")
