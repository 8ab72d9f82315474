package conform

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rewind-game/rewind/engine/rulesets"
)

// Limits of a vector of a game played through the seam (engine.Conformer):
// each file, decompressed, and each file its input names.
const (
	MaxVectorFileBytes = 256 << 20
	MaxVectorRefBytes  = 16 << 20
)

// conformer is a registered game with conformance vectors.
type conformer struct {
	id string
	v  *rulesets.Vectors
}

// conformers returns every registered game with conformance vectors
// (rulesets.Info.Vectors), in registry order.
func conformers() []conformer {
	var out []conformer
	for _, id := range rulesets.IDs() {
		if info, _ := rulesets.About(id); info.Vectors != nil {
			out = append(out, conformer{id, info.Vectors})
		}
	}
	return out
}

// seamVectors returns the vectors of games played through the seam in
// directory dir (sorted by name).
func seamVectors(dir string) ([]Vector, error) {
	var vs []Vector
	seen := map[string]bool{}
	for _, r := range conformers() {
		in := r.v.Input
		ms, err := filepath.Glob(filepath.Join(dir, "*"+in))
		if err != nil {
			return nil, fmt.Errorf("conform: %s: %w", dir, err)
		}
		sort.Strings(ms)
		for _, m := range ms {
			v, ok, err := seamVectorFor(m)
			if err != nil {
				return nil, err
			}
			if ok && !seen[v.Commands] {
				seen[v.Commands] = true
				vs = append(vs, v)
			}
		}
		if pf := r.v.ProbesFile; pf != "" && r.v.CheckProbes != nil {
			p := filepath.Join(dir, pf)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !seen[p] {
				seen[p] = true
				vs = append(vs, Vector{Name: strings.TrimSuffix(pf, filepath.Ext(pf)), Game: r.id, Commands: p, Probes: true})
			}
		}
	}
	return vs, nil
}

// seamVectorFor is the vector of a game played through the seam that
// file p belongs to (its input or expected file); ok is false when p is
// neither for any registered game.
func seamVectorFor(p string) (Vector, bool, error) {
	for _, r := range conformers() {
		if pf := r.v.ProbesFile; pf != "" && r.v.CheckProbes != nil && filepath.Base(p) == pf {
			return Vector{Name: strings.TrimSuffix(pf, filepath.Ext(pf)), Game: r.id, Commands: p, Probes: true}, true, nil
		}
		in, exp := r.v.Input, r.v.Expected
		var stem string
		switch {
		case strings.HasSuffix(p, in):
			stem = strings.TrimSuffix(p, in)
		case strings.HasSuffix(p, exp):
			stem = strings.TrimSuffix(p, exp)
		default:
			continue
		}
		v := Vector{Name: filepath.Base(stem), Game: r.id, Commands: stem + in, States: stem + exp}
		if _, err := os.Stat(v.States); err != nil && in == ".commands.json" && strings.HasSuffix(p, in) {
			// A NAME.commands.json without this game's expected file
			// may be another game's vector (ColorfightII's, beside its
			// .cfr).
			continue
		}
		for _, f := range []string{v.Commands, v.States} {
			if _, err := os.Stat(f); err != nil {
				return Vector{}, false, fmt.Errorf("conform: vector %s: %w", v.Name, err)
			}
		}
		return v, true, nil
	}
	return Vector{}, false, nil
}

// runSeam plays a vector of a game played through the seam on its
// ruleset's Conform.
func runSeam(v Vector) (*Result, error) {
	info, ok := rulesets.About(v.Game)
	if !ok {
		return nil, &rulesets.UnknownError{ID: v.Game}
	}
	c := info.Vectors
	if c == nil {
		return nil, fmt.Errorf("vector %s: %s has no conformance vectors", v.Name, v.Game)
	}
	input, err := readVectorFile(v.Commands)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	dir := filepath.Dir(v.Commands)
	read := func(rel string) ([]byte, error) {
		if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%q is not a path inside the vector's folder", rel)
		}
		return readBounded(filepath.Join(dir, rel), MaxVectorRefBytes)
	}
	if v.Probes {
		cases, div, notes, err := c.CheckProbes(input, read)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.Commands, err)
		}
		res := &Result{Vector: v, Rounds: cases, Notes: notes}
		if div != "" {
			res.Divergence = &Divergence{Text: div}
		}
		return res, nil
	}
	expected, err := readVectorFile(v.States)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	rounds, div, err := c.Conform(input, expected, read)
	if err != nil {
		return nil, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	res := &Result{Vector: v, Rounds: rounds}
	if div != "" {
		res.Divergence = &Divergence{Text: div}
	}
	return res, nil
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

// seamEndings lists the vector file endings of the registered games.
func seamEndings() []string {
	var out []string
	for _, c := range conformers() {
		out = append(out, "NAME"+c.v.Input+" + NAME"+c.v.Expected+" ("+c.id+")")
	}
	return out
}
