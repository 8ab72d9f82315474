package conform

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rewind-game/rewind/engine"
)

// Limits of a vector: each file, decompressed, and each file its input
// names.
const (
	MaxVectorFileBytes = 256 << 20
	MaxVectorRefBytes  = 16 << 20
)

// Result is the outcome of one vector.
type Result struct {
	Vector Vector
	// Rounds is how many rounds (player-turns) the game compared; for a
	// probes file, how many cases.
	Rounds int
	// Divergence is the game's description of the first difference
	// found, "" when the vector passes.
	Divergence string
	// Notes are documented differences the game accepts (a probe the
	// reference crashes on, rejected clearly instead).
	Notes []string
}

// Pass reports whether the vector reproduced exactly.
func (r *Result) Pass() bool { return r.Divergence == "" }

// Run plays vector v on its game's Conform (or CheckProbes) and returns
// what it compared and found. An error is returned only when the vector
// cannot be read or is not one of its game's; one about either file
// names it (engine.VectorFileError).
func Run(v Vector) (*Result, error) {
	info, ok := engine.About(v.Game)
	if !ok {
		return nil, &engine.UnknownError{ID: v.Game}
	}
	c := info.Vectors
	if c == nil {
		return nil, fmt.Errorf("vector %s: %s has no conformance vectors", v.Name, v.Game)
	}
	input, err := readVectorFile(v.Input)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	dir := filepath.Dir(v.Input)
	read := func(rel string) ([]byte, error) {
		if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%q is not a path inside the vector's folder", rel)
		}
		return readBounded(filepath.Join(dir, rel), MaxVectorRefBytes)
	}
	if v.Probes {
		cases, div, notes, err := c.CheckProbes(input, read)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.Input, err)
		}
		return &Result{Vector: v, Rounds: cases, Divergence: div, Notes: notes}, nil
	}
	expected, err := readVectorFile(v.Expected)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	rounds, div, err := c.Conform(input, expected, read)
	if err != nil {
		var fe *engine.VectorFileError
		if errors.As(err, &fe) {
			f := v.Input
			if fe.Expected {
				f = v.Expected
			}
			return nil, fmt.Errorf("vector %s: %s: %w", v.Name, f, err)
		}
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	return &Result{Vector: v, Rounds: rounds, Divergence: div}, nil
}

// readVectorFile reads a vector file, decompressing a .gz one, at most
// MaxVectorFileBytes either way.
func readVectorFile(path string) ([]byte, error) {
	if !strings.HasSuffix(path, ".gz") {
		return readBounded(path, MaxVectorFileBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readAllBounded(zr, path, MaxVectorFileBytes)
}

func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllBounded(f, path, limit)
}

func readAllBounded(r io.Reader, path string, limit int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n > limit {
		return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, errTooLarge, limit)
	}
	return b.Bytes(), nil
}

var errTooLarge = errors.New("vector file too large")
