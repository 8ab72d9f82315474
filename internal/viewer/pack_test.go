package viewer

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestEncodeStream: EncodeStream gives what PackStream then EncodePacked
// give (encoding/json's JSON of the Packed value), or the same error, for
// whole, limited, cut, damaged and refused streams.
func TestEncodeStream(t *testing.T) {
	toy := func(topo engine.Topology) func() engine.Stream {
		return func() engine.Stream { return newToyStream(topo, 5, 5, 30, "<alice>", "bob \xff") }
	}
	failing := func(after int) func() engine.Stream {
		return func() engine.Stream { return &failingStream{newToyStream(engine.Square, 5, 5, 30, "a", "b"), after} }
	}
	for _, c := range []struct {
		name string
		open func() engine.Stream
		l    StreamLimits
		ok   bool
	}{
		{"hexaxial", toy(engine.HexAxial), StreamLimits{}, true},
		{"square", toy(engine.Square), StreamLimits{}, true},
		{"hex", toy(engine.Hex), StreamLimits{}, true},
		{"text", toy(engine.HexAxial), StreamLimits{MaxText: 400}, true},
		{"shown", toy(engine.HexAxial), StreamLimits{MaxCommandsShown: 1}, true},
		{"damaged", failing(7), StreamLimits{}, true},
		{"frames", toy(engine.HexAxial), StreamLimits{MaxFrames: 10}, false},
		{"cells", toy(engine.HexAxial), StreamLimits{MaxCells: 24}, false},
		{"bytes", toy(engine.HexAxial), StreamLimits{MaxBytes: 8 << 10}, false},
		{"empty", failing(0), StreamLimits{}, false},
		{"one frame", failing(1), StreamLimits{}, true},
		{"no players", func() engine.Stream { return newToyStream(engine.Square, 5, 5, 30) }, StreamLimits{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, perr := PackStream(c.open(), c.l)
			gz, err := EncodeStream(c.open(), c.l)
			if (perr == nil) != c.ok {
				t.Fatalf("PackStream: %v, want success %t", perr, c.ok)
			}
			if !c.ok {
				if err == nil || err.Error() != perr.Error() {
					t.Fatalf("EncodeStream: %v, want PackStream's %v", err, perr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			two, err := EncodePacked(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := testutil.Gunzip(t, two); !bytes.Equal(got, want) {
				t.Errorf("EncodePacked's JSON is not encoding/json's:\n%.300s\n%.300s", got, want)
			}
			if got := testutil.Gunzip(t, gz); !bytes.Equal(got, want) {
				t.Errorf("EncodeStream's JSON is not PackStream's:\n%.300s\n%.300s", got, want)
			}
		})
	}
}

// panickyStream is a toy stream whose Next panics after some frames.
type panickyStream struct {
	*toyStream
	after int
}

func (s *panickyStream) Next(f *engine.Frame) error {
	if s.n >= s.after {
		panic("a bug in the game")
	}
	return s.toyStream.Next(f)
}

// TestEncodeStreamPanic: a stream that panics has EncodeStream panic, and
// its encoder goroutine ends all the same.
func TestEncodeStreamPanic(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		defer func() {
			if r := recover(); r != "a bug in the game" {
				t.Errorf("recovered %v", r)
			}
		}()
		EncodeStream(&panickyStream{newToyStream(engine.Square, 5, 5, 30, "a", "b"), 5}, StreamLimits{})
	}()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 100 {
			t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
