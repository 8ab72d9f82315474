package cfrimport_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/bots/hidingbot"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// hiddenGame is the k-th game of the property test: its map, length and
// seats all follow from k (a hider in every game, against the random bot,
// the aggressive built-ins and other hiders).
func hiddenGame(k int) (colorfight2.Config, uint64, []hidingbot.Seat) {
	others := []string{"random", "raider", "greedy", "random", "turtle", "economist", "runtimeterrors"}
	players := 2
	if k%3 != 0 {
		players = 4
	}
	cfg := colorfight2.Config{Width: 8 + k%9, Height: 8 + (k/9)%9, MaxTurn: 60 + k%91, MaxPlayer: 2}
	if players == 4 {
		cfg.MaxPlayer = 4
	}
	inner := []string{"greedy", "raider", "random", "greedy", "raider"}
	seats := []hidingbot.Seat{{Hider: true, Bot: inner[k%len(inner)]}}
	for p := 1; p < players; p++ {
		if (k+p)%2 == 0 {
			seats = append(seats, hidingbot.Seat{Hider: true, Bot: inner[(k+p)%len(inner)]})
		} else {
			seats = append(seats, hidingbot.Seat{Bot: others[(k+p)%len(others)]})
		}
	}
	return cfg, uint64(k)*0x9E3779B97F4A7C15 + 1, seats
}

// checkGame imports an official replay, verifies the .rwd against it
// frame by frame and audits it, and checks that no round of it is refuted
// (colorfight2.Impossible): all must pass.
func checkGame(name string, data []byte) error {
	var rwd bytes.Buffer
	res, err := cfrimport.Import(bytes.NewReader(data), &rwd, cfrimport.ImportOptions{Source: name})
	if err != nil {
		return fmt.Errorf("%s: import: %w", name, err)
	}
	want, err := cfrimport.OpenFrames(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer want.Close()
	vr, frames, err := cfrimport.VerifyAgainst(bytes.NewReader(rwd.Bytes()), want)
	if vr != nil && !res.Complete && errors.Is(vr.Err, replay.ErrTruncated) {
		vr.Err = nil // a game that ends before max_turn: its .rwd has no footer
	}
	if err != nil || vr.Err != nil || frames != res.Rounds+1 {
		return fmt.Errorf("%s: verify --against: %v %+v, %d frames equal of %d", name, err, vr, frames, res.Rounds+1)
	}
	ar, err := cfr.Audit(bytes.NewReader(data), 0)
	if err != nil || len(ar.Violations) != 0 || len(ar.Unexplained) != 0 {
		return fmt.Errorf("%s: audit: %v %v %v", name, err, ar.Violations, ar.Unexplained)
	}
	if _, err := refutesNone(data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// TestHiddenGames is the property test of the inference: short seeded
// games of the hiding bot (which makes every action a frame hides) against
// the built-ins and other hiders, written as the reference writes them,
// must import, verify against their .cfr bit for bit, and audit clean. A
// fixed sample runs by default; REWIND_HIDDEN_GAMES=N runs games 0..N-1
// (REWIND_HIDDEN_FROM=K starts at game K), the long run of docs/import.md.
func TestHiddenGames(t *testing.T) {
	n, from := 40, 0
	if s := os.Getenv("REWIND_HIDDEN_GAMES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("REWIND_HIDDEN_GAMES=%q: %v", s, err)
		}
	}
	if s := os.Getenv("REWIND_HIDDEN_FROM"); s != "" {
		var err error
		if from, err = strconv.Atoi(s); err != nil {
			t.Fatalf("REWIND_HIDDEN_FROM=%q: %v", s, err)
		}
	}
	failed := 0
	var total hidingbot.Stats
	for k := from; k < from+n; k++ {
		cfg, seed, seats := hiddenGame(k)
		var buf bytes.Buffer
		st, err := hidingbot.Game(&buf, cfg, seed, seats)
		if err != nil {
			t.Fatalf("game %d: %v", k, err)
		}
		total.Add(st)
		if err := checkGame("game"+strconv.Itoa(k), buf.Bytes()); err != nil {
			if failed++; failed <= 20 {
				t.Error(err)
			}
		}
	}
	t.Logf("games %d..%d: %d passed, %d failed; hidden actions tried: %+v", from, from+n-1, n-failed, failed, total)
}

// TestEveryReferenceReplay: every conformance vector and every real
// tournament replay imports, verifies against its .cfr and audits clean,
// with no violation and no unexplained round.
func TestEveryReferenceReplay(t *testing.T) {
	vectors, _ := filepath.Glob("../../../../../testdata/conformance/*.cfr")
	if len(vectors) == 0 {
		t.Fatal("no conformance vectors")
	}
	check := func(t *testing.T, paths []string) {
		for _, p := range paths {
			data := testutil.ReadFile(t, p)
			if err := checkGame(filepath.Base(p), data); err != nil {
				t.Error(err)
			}
		}
	}
	t.Run("vectors", func(t *testing.T) { check(t, vectors) })
	t.Run("realworld", func(t *testing.T) { check(t, testutil.RealWorldAll(t)) })
}

// refutesNone walks a clean game and checks that colorfight2.Impossible,
// the proof behind every violation, refutes none of its rounds (so an
// audit calls a frame illegal only when it is); it returns the rounds
// checked.
func refutesNone(data []byte) (int, error) {
	var prev *colorfight2.State
	var f colorfight2.Frame
	rounds := 0
	_, err := cfr.Walk(bytes.NewReader(data), func(_ *cfr.Game, s *cfr.Step) error {
		if len(s.Violations) > 0 || s.Unexplained != nil {
			return fmt.Errorf("turn %d: not a clean game: %v %v", s.Turn, s.Violations, s.Unexplained)
		}
		s.State.Frame(&f)
		if prev != nil {
			rounds++
			if d := colorfight2.Impossible(prev, &f); d != nil {
				return fmt.Errorf("a legal round refuted: %v", d)
			}
			prev.CopyFrom(s.State)
		} else {
			prev = s.State.Clone()
		}
		return nil
	})
	return rounds, err
}
