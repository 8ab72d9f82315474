package replay_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// readAll reads a whole recording without re-simulating it and returns how
// reading ended: nil for a complete file.
func readAll(data []byte) error {
	r, err := replay.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		if _, err := r.NextText(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// TestBitFlipsAreCorrupt flips single bits all over a small real
// recording. A file of the full length with damage inside is never called
// truncated: every flip that changes what the file says is ErrCorrupt (or
// ErrLimit, ErrUnknownRecord, ErrNotReplay, ErrNewerVersion for the
// header's own fields); only a file that ends early is ErrTruncated.
func TestBitFlipsAreCorrupt(t *testing.T) {
	full := small(t, -1)
	if err := readAll(full); err != nil {
		t.Fatal(err)
	}
	bad := 0
	// Every fifth bit: 5 and 8 are coprime, so every bit position of a
	// byte is flipped somewhere, block headers included.
	for i := 0; i < len(full)*8; i += 5 {
		b := bytes.Clone(full)
		b[i/8] ^= 1 << (i % 8)
		err := readAll(b)
		var fe *replay.FormatError
		switch {
		case errors.Is(err, replay.ErrTruncated):
			bad++
			t.Errorf("bit %d (byte %d of %d): %v", i, i/8, len(full), err)
		case err != nil && !errors.As(err, &fe):
			t.Errorf("bit %d: %v is not a FormatError", i, err)
		case err != nil && !errors.Is(err, replay.ErrCorrupt) && !errors.Is(err, replay.ErrLimit) &&
			!errors.Is(err, replay.ErrUnknownRecord) && !errors.Is(err, replay.ErrNotReplay) && !errors.Is(err, replay.ErrNewerVersion):
			t.Errorf("bit %d: %v is not classified", i, err)
		}
	}
	t.Logf("%d bytes, %d flips called truncated", len(full), bad)
}

// TestEveryCutIsTruncated cuts a small recording after every byte of its
// body: each is ErrTruncated, never corrupt.
func TestEveryCutIsTruncated(t *testing.T) {
	full := small(t, -1)
	h, err := replay.ReadHeader(bytes.NewReader(full))
	if err != nil || h == nil {
		t.Fatal(err)
	}
	body := bytes.LastIndex(full[:1000], []byte{0x28, 0xb5, 0x2f, 0xfd})
	for cut := body; cut < len(full); cut++ {
		if err := readAll(full[:cut]); !errors.Is(err, replay.ErrTruncated) {
			t.Errorf("cut at %d of %d: %v, want ErrTruncated", cut, len(full), err)
		}
	}
}

// TestLargeBody: a body larger than what the reader keeps to judge damage
// (4 MiB compressed: random malformed text) reads whole, and cut short it
// is still ErrTruncated.
func TestLargeBody(t *testing.T) {
	rng := uint64(1)
	rwd := flood(t, 2, 3000, func(i int) colorfight2.Command {
		b := make([]byte, colorfight2.MaxRawCommandBytes)
		for k := range b {
			rng = rng*6364136223846793005 + 1442695040888963407
			b[k] = byte(rng >> 56)
		}
		return colorfight2.Command{Kind: colorfight2.CmdInvalid, Err: colorfight2.ErrBadInteger, Raw: string(b)}
	})
	if len(rwd) < 5<<20 {
		t.Fatalf("only %d bytes", len(rwd))
	}
	if err := readAll(rwd); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(rwd) - 100, len(rwd) - 3<<20} {
		if err := readAll(rwd[:cut]); !errors.Is(err, replay.ErrTruncated) {
			t.Errorf("cut at %d of %d: %v", cut, len(rwd), err)
		}
	}
}
