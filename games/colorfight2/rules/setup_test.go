package rules

import (
	"strconv"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestNewFromSetupPlaysAsSeeded: a game started from the setup of a game
// drawn from a seed (its map, players and homes) plays the same rounds
// to the same hash, and saves the setup it started from.
func TestNewFromSetupPlaysAsSeeded(t *testing.T) {
	cfg := Config{Width: 30, Height: 30, MaxTurn: 40, MaxPlayer: 4}
	const seed = 42
	m, spawns, err := GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, seed)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ann", "bob", "cy"}
	var players []Player
	for i, n := range names {
		players = append(players, Player{UID: i + 1, Name: n, Home: spawns[i]})
	}
	setup, err := MarshalSetup(Setup{Config: cfg, Map: m, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	seeded, err := Ruleset.New(seed, engine.Settings{Players: 3, MaxTurns: 40, Names: names})
	if err != nil {
		t.Fatal(err)
	}
	restored, err := Ruleset.NewFromSetup(setup, engine.Settings{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s := restored.Setup(); string(s) != string(setup) {
		t.Errorf("Setup() does not return the setup the game started from")
	}
	if s := seeded.Setup(); s != nil {
		t.Errorf("a seeded game saves a setup: %.40q", s)
	}
	for !seeded.Over() {
		var cmds [][]string
		for p := 0; p < 3; p++ {
			h := spawns[p]
			cmds = append(cmds, []string{"a " + strconv.Itoa(h.X+1) + " " + strconv.Itoa(h.Y) + " 50", "b " + strconv.Itoa(h.X) + " " + strconv.Itoa(h.Y+1) + " g", "x"})
		}
		seeded.Round(cmds)
		restored.Round(cmds)
		if seeded.Hash() != restored.Hash() {
			t.Fatalf("turn %d: hashes differ", seeded.Turn())
		}
	}
	if !restored.Over() {
		t.Fatal("the restored game does not end with the seeded one")
	}
}

// TestNewFromSetupSettings: settings override the setup's turn limit
// and names, and a player count that is not the setup's is refused, as
// is a setup whose map does not fit its configuration.
func TestNewFromSetupSettings(t *testing.T) {
	cfg := Config{Width: 10, Height: 10, MaxTurn: 30, MaxPlayer: 2}
	m := NewMap(10, 10)
	setup, err := MarshalSetup(Setup{Config: cfg, Map: m, Players: []Player{{UID: 1, Name: "a", Home: Point{1, 1}}, {UID: 2, Name: "b", Home: Point{8, 8}}}})
	if err != nil {
		t.Fatal(err)
	}
	r := Ruleset
	g, err := r.NewFromSetup(setup, engine.Settings{MaxTurns: 50, Names: []string{"", "zed"}})
	if err != nil {
		t.Fatal(err)
	}
	cg := g.(*Game)
	if cg.MaxTurns() != 50 {
		t.Errorf("max turns %d, want 50", cg.MaxTurns())
	}
	var f Frame
	cg.State.Frame(&f)
	if f.Users[0].Username != "a" || f.Users[1].Username != "zed" {
		t.Errorf("names %q %q, want a zed", f.Users[0].Username, f.Users[1].Username)
	}
	if _, err := r.NewFromSetup(setup, engine.Settings{Players: 3}); err == nil {
		t.Error("3 players on a setup of 2: no error")
	}
	bad := Setup{Config: Config{Width: 11, Height: 10, MaxTurn: 30, MaxPlayer: 2}, Map: m}
	b, _ := MarshalSetup(bad)
	if _, err := r.NewFromSetup(b, engine.Settings{}); err == nil {
		t.Error("a map of the wrong size: no error")
	}
	if _, err := r.NewFromSetup([]byte("{"), engine.Settings{}); err == nil {
		t.Error("bad JSON: no error")
	}
}

// TestSetupFromSeed: a setup of a seed and a configuration (a server's:
// max_player 8 for 2 players) starts the game NewFromSeed draws.
func TestSetupFromSeed(t *testing.T) {
	cfg := Config{Width: 30, Height: 30, MaxTurn: 200, MaxPlayer: 8}
	seed := uint64(11)
	setup, err := MarshalSetup(Setup{Config: cfg, Seed: &seed, Players: []Player{{UID: 1, Name: "a"}, {UID: 2, Name: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Ruleset.NewFromSetup(setup, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewFromSeed(cfg, seed, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.(*Game).State; got.Config() != cfg || got.Hash() != want.Hash() {
		t.Errorf("config %+v hash %x, want %+v %x", got.Config(), got.Hash(), cfg, want.Hash())
	}
}

// FuzzSetup: any bytes given as a setup are refused with an error or
// start a game, never a panic; a setup that decodes encodes back to
// bytes that decode to the same setup.
func FuzzSetup(f *testing.F) {
	cfg := Config{Width: 4, Height: 3, MaxTurn: 20, MaxPlayer: 2}
	m := NewMap(4, 3)
	good, err := MarshalSetup(Setup{Config: cfg, Map: m, Players: []Player{{UID: 1, Name: "a", Home: Point{X: 0, Y: 0}}, {UID: 2, Name: "b", Home: Point{X: 3, Y: 2}}}})
	if err != nil {
		f.Fatal(err)
	}
	seed := uint64(7)
	seeded, err := MarshalSetup(Setup{Config: Config{Width: 30, Height: 30, MaxTurn: 50, MaxPlayer: 2}, Seed: &seed, Players: []Player{{UID: 1, Name: "x"}, {UID: 2, Name: "y"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(seeded)
	f.Add([]byte(`{"width":-1,"height":99999999,"max_turn":1,"max_player":0}`))
	f.Add([]byte(`{"width":2,"height":2,"max_turn":5,"max_player":2,"natural_gold":[1],"players":[{"home":[9,9]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := UnmarshalSetup(b)
		if err != nil {
			return
		}
		if _, err := Ruleset.NewFromSetup(b, engine.Settings{}); err != nil {
			return
		}
		again, err := MarshalSetup(s)
		if err != nil {
			t.Fatalf("a setup that started a game does not encode: %v", err)
		}
		s2, err := UnmarshalSetup(again)
		if err != nil {
			t.Fatalf("the encoded setup does not decode: %v", err)
		}
		if len(s2.Players) != len(s.Players) || s2.Config != s.Config || s2.Map.Width != s.Map.Width || len(s2.Map.NaturalCost) != len(s.Map.NaturalCost) {
			t.Fatalf("round trip: %+v, want %+v", s2, s)
		}
		for i := range s.Players {
			if s2.Players[i] != s.Players[i] {
				t.Fatalf("player %d: %+v, want %+v", i, s2.Players[i], s.Players[i])
			}
		}
	})
}
