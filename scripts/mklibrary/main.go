// Command mklibrary builds a library of N distinct real replay files
// from a few .rwd files: file i is source i mod len(sources) with its
// header's creation time set (replay.SetCreated: the header's CRC-32
// recomputed, the moves unchanged), so that every file is a distinct game
// that verifies. The files go in subfolders of 1,000, DIR/NNNN/NNNNNNN.rwd.
// With -order path the creation times follow the paths (game order is
// path order: a tournament writing its games in order); with -order
// shuffled (the default) they are a permutation of them, so that files
// reach an index out of game order. Memory: the sources only, whatever N
// (-n 1000000 works as -n 20000 does).
//
//	go run ./scripts/mklibrary -n 20000 -dir /tmp/lib20k SRC.rwd...
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	_ "github.com/rewind-game/rewind/games/all" // the games a header may name
	"github.com/rewind-game/rewind/replay"
)

func main() {
	n := flag.Int("n", 20000, "how many files")
	dir := flag.String("dir", "", "the library folder to write (created)")
	order := flag.String("order", "shuffled", "creation times in path order (path) or shuffled")
	seed := flag.Uint64("seed", 1, "the shuffle's seed")
	flag.Parse()
	if *dir == "" || flag.NArg() == 0 || *n < 1 || *order != "path" && *order != "shuffled" {
		fmt.Fprintln(os.Stderr, "usage: mklibrary -n N -dir DIR [-order path|shuffled] SRC.rwd...")
		os.Exit(2)
	}
	var srcs [][]byte
	for _, p := range flag.Args() {
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		srcs = append(srcs, b)
	}
	// A permutation of 0..n-1 as an affine map i -> (a*i + c) mod n with
	// a prime to n: no table of n entries.
	a, c := uint64(1), uint64(0)
	if *order == "shuffled" {
		r := rand.New(rand.NewPCG(*seed, *seed))
		for {
			a = 1 + r.Uint64N(uint64(*n))
			if gcd(a, uint64(*n)) == 1 {
				break
			}
		}
		c = r.Uint64N(uint64(*n))
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < *n; i++ {
		at := base.Add(time.Duration((a*uint64(i)+c)%uint64(*n)) * time.Second)
		out, err := replay.SetCreated(srcs[i%len(srcs)], at)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", flag.Arg(i%len(srcs)), err)
			os.Exit(2)
		}
		p := filepath.Join(*dir, fmt.Sprintf("%04d", i/1000), fmt.Sprintf("%07d.rwd", i))
		if i%1000 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%s: %d files from %d sources (%s order)\n", *dir, *n, len(srcs), *order)
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
