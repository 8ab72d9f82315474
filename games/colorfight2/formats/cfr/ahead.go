package cfr

import (
	"errors"
	"io"
	"sync"
)

// Read-ahead: for gzip input the Decoder decompresses in a background
// goroutine, a few buffers ahead of the parser, so that on a machine with
// a spare core the two overlap (decompressing is the larger half of the
// work).

const (
	// aheadBufs buffers of aheadBufSize bytes each (384 KiB in all): the
	// decompressing goroutine keeps going while the parser waits to be
	// scheduled, without any buffer leaving the cache for long.
	aheadBufs    = 6
	aheadBufSize = 64 << 10
)

// newScannerAhead is newScanner reading src ahead of the scanner in a
// background goroutine (see readAhead).
func newScannerAhead(src io.Reader) *scanner {
	return &scanner{src: src, ahead: newReadAhead(src, aheadBufs, aheadBufSize)}
}

// readAhead reads a source into a few buffers in a background goroutine,
// the producer, ahead of the scanner that consumes them.
//
// The producer runs only while a buffer is free: it fills one, hands it
// over on full (never waiting: full has room for every buffer) and takes
// the next free one; with none free, or once the source failed (io.EOF
// included) or the scanner stopped, it exits. The scanner gives each
// buffer back once parsed, starting a new producer if the last one exited
// for want of a buffer. So the producer never waits for the scanner, and a
// scanner dropped in the middle leaves behind at most the reads of the
// buffers then free, which end on their own.
type readAhead struct {
	src  io.Reader
	full chan chunk
	wg   sync.WaitGroup // the producer

	mu      sync.Mutex
	free    [][]byte
	running bool // a producer exists
	ended   bool // the source failed or panicked: no more reads
	stopped bool // the scanner stopped: no more reads
}

// chunk is one filled buffer; err is the source's error after its n bytes.
type chunk struct {
	buf      []byte
	n        int
	err      error
	panicked bool
	panicVal any
}

var errPanicked = errors.New("cfr: the reader panicked")

func newReadAhead(src io.Reader, nbuf, size int) *readAhead {
	a := &readAhead{src: src, full: make(chan chunk, nbuf)}
	for range nbuf {
		a.free = append(a.free, make([]byte, size))
	}
	a.running = true
	a.wg.Add(1)
	go a.produce()
	return a
}

func (a *readAhead) produce() {
	defer a.wg.Done()
	for {
		a.mu.Lock()
		if len(a.free) == 0 || a.ended || a.stopped {
			a.running = false
			a.mu.Unlock()
			return
		}
		buf := a.free[len(a.free)-1]
		a.free = a.free[:len(a.free)-1]
		a.mu.Unlock()
		c := a.read(buf)
		if c.err != nil || c.panicked {
			a.mu.Lock()
			a.ended = true
			a.mu.Unlock()
		}
		a.full <- c
	}
}

// read fills buf, turning a panic of the source into a chunk that carries
// it (the scanner raises it again in its own goroutine).
func (a *readAhead) read(buf []byte) (c chunk) {
	c.buf = buf
	defer func() {
		if p := recover(); p != nil {
			c.panicked, c.panicVal = true, p
		}
	}()
	c.n, c.err = readChunk(a.src, buf)
	return c
}

// next gives back parsed (the buffer the scanner is done with; nil for
// none) and waits for the next chunk. The scanner calls it only until it
// receives the chunk that ends the source, so a producer is running or a
// chunk waiting.
func (a *readAhead) next(parsed []byte) chunk {
	if parsed != nil {
		a.mu.Lock()
		a.free = append(a.free, parsed[:cap(parsed)])
		start := !a.running && !a.ended && !a.stopped
		if start {
			a.running = true
			a.wg.Add(1)
		}
		a.mu.Unlock()
		if start {
			go a.produce()
		}
	}
	return <-a.full
}

// stop makes the producer exit after its read in flight, if any, and
// waits for it.
func (a *readAhead) stop() {
	a.mu.Lock()
	a.stopped = true
	a.mu.Unlock()
	a.wg.Wait()
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
