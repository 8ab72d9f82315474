package all_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	_ "github.com/rewind-game/rewind/games/all"
)

// TestRegistry: All and IDs list ColorFight v1, ColorfightII, Monad, Skyport; Lookup, Get and
// About find each by id and nothing else; an unknown id's error names it
// and the known ones.
func TestRegistry(t *testing.T) {
	if got, want := engine.IDs(), []string{"colorfight1", "colorfight2", "monad", "skyport"}; !slices.Equal(got, want) {
		t.Fatalf("IDs %v, want %v", got, want)
	}
	all := engine.All()
	if len(all) != 4 {
		t.Fatalf("All has %d rulesets", len(all))
	}
	for i, id := range engine.IDs() {
		if all[i].ID() != id {
			t.Errorf("All()[%d] is %q, IDs()[%d] %q", i, all[i].ID(), i, id)
		}
		r, ok := engine.Lookup(id)
		if !ok || r.ID() != id {
			t.Errorf("Lookup(%q) = %v, %v", id, r, ok)
		}
		if r, err := engine.Get(id); err != nil || r.ID() != id {
			t.Errorf("Get(%q) = %v, %v", id, r, err)
		}
		if info, ok := engine.About(id); !ok || info.Name == "" || info.Round == "" {
			t.Errorf("About(%q) = %+v, %v", id, info, ok)
		}
	}
	if _, ok := engine.About(engine.Default()); !ok {
		t.Errorf("the default %q is not registered", engine.Default())
	}
	all[0] = nil // the caller's copy
	if engine.All()[0] == nil {
		t.Error("All returned the registry's own slice")
	}
	for _, id := range []string{"", "chess", "Monad", "colorfight2 "} {
		if _, ok := engine.Lookup(id); ok {
			t.Errorf("Lookup(%q) found a ruleset", id)
		}
		if _, ok := engine.About(id); ok {
			t.Errorf("About(%q) found a ruleset", id)
		}
		_, err := engine.Get(id)
		var ue *engine.UnknownError
		if !errors.As(err, &ue) || ue.ID != id {
			t.Fatalf("Get(%q): %v", id, err)
		}
	}
	_, err := engine.Get("chess")
	if want := `unknown game "chess"; known: colorfight1, colorfight2, monad, skyport`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestInfoMatchesRules: each game's Registration is what its ruleset plays: a
// game with the most players and the longest and shortest turn limits
// starts, the default limit is the one a game gets without one, and one
// player more is refused.
func TestInfoMatchesRules(t *testing.T) {
	for _, r := range engine.All() {
		info, _ := engine.About(r.ID())
		t.Run(r.ID(), func(t *testing.T) {
			if info.MinPlayers < 1 || info.MinPlayers > info.MaxPlayers {
				t.Fatalf("players %d..%d", info.MinPlayers, info.MaxPlayers)
			}
			if info.DefaultTurns < info.MinTurns || info.DefaultTurns > info.MaxTurns {
				t.Fatalf("default %d outside %d..%d", info.DefaultTurns, info.MinTurns, info.MaxTurns)
			}
			for _, s := range []engine.Settings{
				{Players: info.MinPlayers, MaxTurns: info.MinTurns},
				{Players: info.MaxPlayers, MaxTurns: info.MaxTurns},
			} {
				g, err := r.New(1, s)
				if err != nil {
					t.Fatalf("%+v: %v", s, err)
				}
				if g.Players() != s.Players || g.MaxTurns() != s.MaxTurns {
					t.Errorf("%+v: a game of %d players, %d turns", s, g.Players(), g.MaxTurns())
				}
			}
			g, err := r.New(1, engine.Settings{Players: info.MinPlayers})
			if err != nil || g.MaxTurns() != info.DefaultTurns {
				t.Errorf("no limit given: %v, limit %d, want %d", err, g.MaxTurns(), info.DefaultTurns)
			}
			if _, err := r.New(1, engine.Settings{Players: info.MaxPlayers + 1}); err == nil {
				t.Errorf("%d players accepted", info.MaxPlayers+1)
			}
		})
	}
}

// TestFirstPlayer: a game numbers its players from its document's first
// player (ColorfightII's uids from 1), or from 0 without a document.
func TestFirstPlayer(t *testing.T) {
	for id, want := range map[string]int{"colorfight1": 0, "colorfight2": 1, "monad": 0, "skyport": 0} {
		r, err := engine.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := engine.FirstPlayer(r); got != want {
			t.Errorf("%s: first player %d, want %d", id, got, want)
		}
	}
}
