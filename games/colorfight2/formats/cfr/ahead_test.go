package cfr

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// watchReader counts the reads in flight on r and can panic or slow down.
type watchReader struct {
	r        io.Reader
	inflight atomic.Int32
	max      atomic.Int32
	reads    atomic.Int32
	delay    time.Duration
	panicAt  int32 // panic on this read (1-based); 0 never
}

func (w *watchReader) Read(p []byte) (int, error) {
	n := w.inflight.Add(1)
	defer w.inflight.Add(-1)
	for {
		m := w.max.Load()
		if n <= m || w.max.CompareAndSwap(m, n) {
			break
		}
	}
	k := w.reads.Add(1)
	if w.panicAt != 0 && k == w.panicAt {
		panic("watchReader: boom")
	}
	time.Sleep(w.delay)
	if len(p) > 4096 {
		p = p[:4096]
	}
	return w.r.Read(p)
}

// TestReadAheadQuiesces: gzip input is read ahead by at most one read at a
// time, and none is in flight once Next has returned io.EOF or an error.
func TestReadAheadQuiesces(t *testing.T) {
	gz := readShared(t, "conformance/c06.cfr")
	w := &watchReader{r: bytes.NewReader(gz)}
	d, err := NewDecoder(w)
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	n := drain(t, d, &f, nil)
	if n != 201 || w.inflight.Load() != 0 || w.max.Load() != 1 {
		t.Errorf("%d frames, %d reads in flight after EOF, at most %d at once", n, w.inflight.Load(), w.max.Load())
	}

	// A decoding error with a (slow) read in flight: Next waits for it.
	js := testutil.Gunzip(t, gz)
	bad := bytes.Replace(js, []byte(`{"turn":3,`), []byte(`{"turn":3,"users":0,`), 1)
	w = &watchReader{r: bytes.NewReader(gzipBytes(t, bad)), delay: 2 * time.Millisecond}
	d, err = NewDecoder(w)
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		err = d.Next(&f)
	}
	if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %v", err)
	}
	if w.inflight.Load() != 0 {
		t.Error("a read is in flight after Next returned an error")
	}
	if err2 := d.Next(&f); err2 != err {
		t.Errorf("error not sticky: %v", err2)
	}
}

// TestReadAheadPanic: a panic of the reader in the background surfaces in
// the caller's goroutine, from Next.
func TestReadAheadPanic(t *testing.T) {
	gz := readShared(t, "conformance/c06.cfr")
	w := &watchReader{r: bytes.NewReader(gz), panicAt: 30}
	d, err := NewDecoder(w)
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	defer func() {
		p := recover()
		if s, ok := p.(string); !ok || !strings.Contains(s, "boom") {
			t.Errorf("recovered %v, want the reader's panic", p)
		}
	}()
	for {
		if err := d.Next(&f); err != nil {
			t.Fatalf("Next returned %v, want a panic", err)
		}
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// nextN reads n frames from d; an error (io.EOF included) fails t.
func nextN(t *testing.T, d *Decoder, n int) {
	t.Helper()
	var f colorfight2.Frame
	for range n {
		if err := d.Next(&f); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadAheadDropped: a Decoder dropped after a few frames stops reading
// on its own, long before the end of the input.
func TestReadAheadDropped(t *testing.T) {
	gz := readShared(t, "conformance/c03.cfr")
	br := bytes.NewReader(gz)
	w := &watchReader{r: br}
	d, err := NewDecoder(w)
	if err != nil {
		t.Fatal(err)
	}
	nextN(t, d, 3)
	last, stable := int32(-1), 0
	for deadline := time.Now().Add(10 * time.Second); stable < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("still reading after 10 s (%d reads)", w.reads.Load())
		}
		time.Sleep(20 * time.Millisecond)
		if n := w.reads.Load(); n == last && w.inflight.Load() == 0 {
			stable++
		} else {
			last, stable = n, 0
		}
	}
	if read := len(gz) - br.Len(); read > len(gz)/2 {
		t.Errorf("read %d of %d bytes after 3 frames", read, len(gz))
	}
}

// TestDecoderClose: Close stops the background reads at once; Next then
// returns ErrClosed.
func TestDecoderClose(t *testing.T) {
	gz := readShared(t, "conformance/c03.cfr")
	w := &watchReader{r: bytes.NewReader(gz), delay: time.Millisecond}
	d, err := NewDecoder(w)
	if err != nil {
		t.Fatal(err)
	}
	nextN(t, d, 3)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	n := w.reads.Load()
	if w.inflight.Load() != 0 {
		t.Error("a read is in flight after Close")
	}
	time.Sleep(20 * time.Millisecond)
	if w.reads.Load() != n {
		t.Error("reads went on after Close")
	}
	var f colorfight2.Frame
	if err := d.Next(&f); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	// Plain JSON: Close is harmless too; after io.EOF, Next keeps saying so.
	d, err = NewDecoder(bytes.NewReader(tinyJSON(t)))
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		err = d.Next(&f)
	}
	if err != io.EOF || d.Close() != nil || d.Next(&f) != io.EOF {
		t.Errorf("after EOF and Close: %v, %v", err, d.Next(&f))
	}
}
