// Command libraryfiles builds a library of N distinct, real replay files
// for measuring `rewind serve` and `rewind index` at scale
// (docs/viewer.md, "On real replay files"):
//
//	go run ./scripts/libraryfiles -n 1000000 -o /tmp/lib
//
// It plays -games ColorfightII games of the default built-ins (seeds 1, 2,
// …, -turns rounds each) with the rewind binary (-rewind, default the one
// on the PATH), then writes N copies of them, copy i of game i mod
// -games, recorded i seconds after 2026-01-01 (replay.SetCreated: every
// file another game, each verifies), 1,000 to a sub-folder. Each file is
// written under a temporary name and renamed, so a file that is already
// there is whole and left alone, and a run stopped part way goes on.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rewind-game/rewind/replay"
)

func main() {
	n := flag.Int("n", 20000, "replay files to write")
	games := flag.Int("games", 20, "distinct games played (at least 1)")
	turns := flag.Int("turns", 200, "rounds of each game")
	out := flag.String("o", "", "the library folder to write (required)")
	bin := flag.String("rewind", "rewind", "the rewind binary")
	flag.Parse()
	if *out == "" || *n < 0 || *games < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := build(*bin, *out, *n, *games, *turns); err != nil {
		fmt.Fprintln(os.Stderr, "libraryfiles:", err)
		os.Exit(1)
	}
}

func build(bin, out string, n, games, turns int) error {
	tmp, err := os.MkdirTemp("", "libraryfiles")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var played [][]byte
	for g := 0; g < games; g++ {
		p := filepath.Join(tmp, strconv.Itoa(g)+".rwd")
		cmd := exec.Command(bin, "play", "--seed", strconv.Itoa(g+1), "--turns", strconv.Itoa(turns), "-o", p)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s play: %v\n%s", bin, err, msg)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		played = append(played, data)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		dir := filepath.Join(out, fmt.Sprintf("%04d", i/1000))
		p := filepath.Join(dir, fmt.Sprintf("g%07d.rwd", i))
		if i%1000 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		if _, err := os.Stat(p); err == nil {
			continue
		}
		data, err := replay.SetCreated(played[i%games], base.Add(time.Duration(i)*time.Second))
		if err != nil {
			return err
		}
		if err := writeFile(p, data); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes data to the file p whole or not at all: to a
// temporary name in p's folder (p with ".part" added, which the library
// does not read as a replay), then renamed to p, so a run killed while
// writing leaves no file at p that a later run would keep.
func writeFile(p string, data []byte) error {
	tmp := p + ".part"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}
