package replay_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rewind-game/rewind/replay"
)

// BodyBytes counts what a body decompresses to, up to its limit.
func TestBodyBytes(t *testing.T) {
	data := small(t, 30)
	h, n, err := replay.BodyBytes(bytes.NewReader(data), 1<<30)
	if err != nil || h == nil || n <= 0 || n > 1<<30 {
		t.Fatalf("BodyBytes: %v %d %v", h, n, err)
	}
	if _, m, err := replay.BodyBytes(bytes.NewReader(data), n-1); err != nil || m != n {
		t.Errorf("limit %d: %d %v, want %d (limit+1)", n-1, m, err, n)
	}
	if _, _, err := replay.BodyBytes(bytes.NewReader([]byte("nope")), 10); !errors.Is(err, replay.ErrNotReplay) {
		t.Errorf("not a replay: %v", err)
	}
}

// FuzzBodyBytes: no input panics, the count never passes limit+1, and an
// error is a FormatError.
func FuzzBodyBytes(f *testing.F) {
	f.Add(small(f, 5), int64(100))
	f.Add([]byte(replay.Magic+"\x01\x00"), int64(0))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		if limit < 0 || limit > 1<<24 {
			return
		}
		_, n, err := replay.BodyBytes(bytes.NewReader(data), limit)
		if n > limit+1 || n < 0 {
			t.Fatalf("count %d over limit %d", n, limit)
		}
		var fe *replay.FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("error %v (%T) is not a FormatError", err, err)
		}
	})
}
