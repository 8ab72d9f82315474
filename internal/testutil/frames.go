package testutil

import (
	"errors"
	"io"
	"testing"
)

// EachFrame reads a replay's frames one after the other into f with next
// (a decoder's or a stream's Next) until next returns io.EOF, calling
// visit after each frame is read with the frame's index, 0 first (visit
// may be nil). It returns how many frames it read. Any other error of
// next fails tb, naming the frame. f is reused from frame to frame: what
// visit keeps of a frame it copies.
func EachFrame[F any](tb testing.TB, f *F, next func(*F) error, visit func(i int)) int {
	tb.Helper()
	return each(tb, "frame", func() error { return next(f) }, visit)
}

// EachRecord reads records one after the other with next (a replay
// reader's NextText, say) until it returns io.EOF, calling visit with
// each record read. It returns how many records it read. Any other error
// of next fails tb, naming the record by its index, 0 first.
func EachRecord[R any](tb testing.TB, next func() (R, error), visit func(R)) int {
	tb.Helper()
	var r R
	return each(tb, "record", func() (err error) {
		r, err = next()
		return err
	}, func(int) { visit(r) })
}

// each calls next until it returns io.EOF, and visit (when not nil) with
// the index of each success; any other error fails tb, naming the
// what-th thing read.
func each(tb testing.TB, what string, next func() error, visit func(i int)) int {
	tb.Helper()
	n := 0
	for {
		err := next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			tb.Fatalf("%s %d: %v", what, n, err)
		}
		if visit != nil {
			visit(n)
		}
		n++
	}
}
