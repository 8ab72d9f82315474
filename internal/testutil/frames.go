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
	n := 0
	for {
		err := next(f)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			tb.Fatalf("frame %d: %v", n, err)
		}
		if visit != nil {
			visit(n)
		}
		n++
	}
}
