package viewer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"

	"github.com/rewind-game/rewind/replay"
)

// Bounds of the work an upload may ask for, checked before it is decoded
// (checkUploadWork) so that a small file cannot cost minutes of CPU: a
// bomb is refused and not kept. Each is far above a real game's.
const (
	// MaxUploadExpansion bounds what a compressed upload — a gzip'd file,
	// a .rwd's zstd body — decompresses to, as a multiple of its size: a
	// real .cfr decompresses about 5×, a real .rwd body about 1×.
	MaxUploadExpansion = 20
	// MaxUploadDecompressed bounds it absolutely.
	MaxUploadDecompressed = 256 << 20
	// minUploadGzip and minUploadRWDBody: a small upload may always expand
	// this far (a .rwd body of 8 MiB holds under a million commands).
	minUploadGzip    = 16 << 20
	minUploadRWDBody = 8 << 20
	// MaxUploadCellRounds bounds a .rwd upload's map cells × max_turn:
	// 4.4× a real game (30 × 30 × 2000), about a second of re-simulation.
	MaxUploadCellRounds = 8_000_000
)

// errUploadWork is what checkUploadWork's refusals wrap.
var errUploadWork = errors.New("the upload asks for more work than an upload may (docs/limits.md)")

// expansionLimit is what an upload of size bytes may decompress to.
func expansionLimit(size, floor int64) int64 {
	return min(max(size*MaxUploadExpansion, floor), MaxUploadDecompressed)
}

// checkUploadWork checks the upload in f (size bytes) against the upload
// bounds, decompressing at most what they allow and decoding nothing: a
// gzip'd file (.cfr, .mp.gz) is decompressed up to its bound; a .rwd has
// its header checked and its body decompressed up to its bound. It stops
// when ctx ends (the client left). Other files cost what they weigh
// (they are at most MaxUpload).
func checkUploadWork(ctx context.Context, f io.Reader, size int64) error {
	br := bufio.NewReaderSize(ctxReader{ctx, f}, 64<<10)
	head, _ := br.Peek(4)
	if err := ctx.Err(); err != nil {
		return err
	}
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		limit := expansionLimit(size, minUploadGzip)
		zr, err := gzip.NewReader(br)
		if err != nil {
			return ctx.Err() // else not gzip after all: the decoders say what it is
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(zr, limit+1)) // a damaged stream: the decoders say where
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if n > limit {
			return fmt.Errorf("it decompresses to more than %s, %d× its size (a real replay: about 5×): %w", sizeString(limit), limit/max(size, 1), errUploadWork)
		}
	case bytes.Equal(head, []byte(replay.Magic)):
		limit := expansionLimit(size, minUploadRWDBody)
		h, n, err := replay.BodyBytes(br, limit)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return nil // the decoders say what is wrong
		}
		if c := h.Config; h.Legacy() && int64(c.Width)*int64(c.Height)*int64(c.MaxTurn) > MaxUploadCellRounds {
			return fmt.Errorf("its %d×%d map for %d rounds is more than the %d cell-rounds an upload may re-simulate: %w", c.Width, c.Height, c.MaxTurn, MaxUploadCellRounds, errUploadWork)
		}
		if n > limit {
			return fmt.Errorf("its body decompresses to more than %s, %d× its size (a real recording: about 1×): %w", sizeString(limit), limit/max(size, 1), errUploadWork)
		}
	}
	return nil
}

// ctxReader fails its reads once ctx ends, so that the work on a request
// whose client left stops at its next read.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// checkUploadFile opens name in the library folder and checks it.
func (s *Server) checkUploadFile(ctx context.Context, name string, size int64) error {
	f, err := s.lib.root.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return checkUploadWork(ctx, f, size)
}
