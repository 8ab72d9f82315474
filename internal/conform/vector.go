// Package conform replays conformance vectors — games recorded on a
// game's reference implementation, given as an input file and the
// reference's expected output — on rewind's engine and compares them, for
// every registered game with vectors (engine.Registration.Vectors): the game's
// own package plays a vector and compares it, this package finds the
// vectors and reads their files.
package conform

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rewind-game/rewind/engine"
)

// Vector names one conformance vector of a registered game: its input
// file and the reference's expected output (engine.Vectors.Input and
// Expected), or a game's file of probes.
type Vector struct {
	Name     string // NAME, the common file-name stem (a probes file: its name without extension)
	Game     string // the registered game's id
	Input    string // path of NAME+Input (a probes file: its path)
	Expected string // path of NAME+Expected ("" for a probes file)
	// Probes is set for a game's file of single-turn probes
	// (engine.Vectors.ProbesFile, at Input): Rounds then counts its
	// cases.
	Probes bool
}

// conformer is a registered game with conformance vectors.
type conformer struct {
	id string
	v  *engine.Vectors
}

// conformers returns every registered game with conformance vectors
// (engine.Registration.Vectors), in registry order.
func conformers() []conformer {
	var out []conformer
	for _, id := range engine.IDs() {
		if info, _ := engine.About(id); info.Vectors != nil {
			out = append(out, conformer{id, info.Vectors})
		}
	}
	return out
}

// Find expands paths — directories or vector files — into vectors. A
// directory contributes every vector of a registered game
// (NAME+input with NAME+expected beside it, e.g. ColorfightII's
// NAME.commands.json + NAME.cfr, Monad's NAME.commands.json +
// NAME.states.json.gz) and the game's probes file; its vectors come in
// registry order of their input endings, sorted by name within one
// ending. A file belongs to the first game, in registry order, whose
// ending it has and whose other file is beside it; when no game's is,
// to the first whose ending it has, and the missing file is the error.
func Find(paths []string) ([]Vector, error) {
	var vs []Vector
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("conform: %w", err)
		}
		if st.IsDir() {
			dv, err := dirVectors(p)
			if err != nil {
				return nil, err
			}
			if len(dv) == 0 {
				return nil, fmt.Errorf("conform: %s: no vectors in directory", p)
			}
			vs = append(vs, dv...)
			continue
		}
		v, ok, err := vectorFor(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("conform: %s: not a vector file (want a registered game's vector files: %s)", p, strings.Join(endings(), ", "))
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// dirVectors returns the vectors in directory dir.
func dirVectors(dir string) ([]Vector, error) {
	var vs []Vector
	seen := map[string]bool{}
	for _, r := range conformers() {
		ms, err := filepath.Glob(filepath.Join(dir, "*"+r.v.Input))
		if err != nil {
			return nil, fmt.Errorf("conform: %s: %w", dir, err)
		}
		sort.Strings(ms)
		for _, m := range ms {
			v, ok, err := vectorFor(m)
			if err != nil {
				return nil, err
			}
			if ok && !seen[v.Input] {
				seen[v.Input] = true
				vs = append(vs, v)
			}
		}
		if pf := r.v.ProbesFile; pf != "" && r.v.CheckProbes != nil {
			p := filepath.Join(dir, pf)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !seen[p] {
				seen[p] = true
				vs = append(vs, probes(r, p))
			}
		}
	}
	return vs, nil
}

func probes(r conformer, p string) Vector {
	pf := r.v.ProbesFile
	return Vector{Name: strings.TrimSuffix(pf, filepath.Ext(pf)), Game: r.id, Input: p, Probes: true}
}

// vectorFor is the vector that file p belongs to (its input or expected
// file, or a probes file), as Find says; ok is false when p has no
// registered game's ending.
func vectorFor(p string) (v Vector, ok bool, err error) {
	var first *Vector
	// A game whose Sniff takes the file comes before one without Sniff.
	for _, sniffed := range []bool{true, false} {
		for _, r := range conformers() {
			if (r.v.Sniff != nil) != sniffed {
				continue
			}
			if pf := r.v.ProbesFile; pf != "" && r.v.CheckProbes != nil && filepath.Base(p) == pf {
				return probes(r, p), true, nil
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
			v := Vector{Name: filepath.Base(stem), Game: r.id, Input: stem + in, Expected: stem + exp}
			if exists(v.Input) && exists(v.Expected) && (r.v.Sniff == nil || r.v.Sniff(head(v.Input))) {
				return v, true, nil
			}
			if first == nil && !sniffed {
				first = &v
			}
		}
	}
	if first == nil {
		return Vector{}, false, nil
	}
	for _, f := range []string{first.Input, first.Expected} {
		if _, err := os.Stat(f); err != nil {
			return Vector{}, false, fmt.Errorf("conform: vector %s: %w", first.Name, err)
		}
	}
	return *first, true, nil
}

// head is the start of file p (engine.SniffBytes at most; nothing when
// it cannot be read).
func head(p string) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, engine.SniffBytes)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// endings lists the vector file endings of the registered games.
func endings() []string {
	var out []string
	for _, c := range conformers() {
		out = append(out, "NAME"+c.v.Input+" + NAME"+c.v.Expected+" ("+c.id+")")
	}
	return out
}
