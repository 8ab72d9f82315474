package rules

import (
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in   string
		want Command
	}{
		{"a 3 4 120", Command{Kind: CmdAttack, X: 3, Y: 4, Energy: 120}},
		{"a  5   5   40  ", Command{Kind: CmdAttack, X: 5, Y: 5, Energy: 40}},
		{"\ta 1\n2 3", Command{Kind: CmdAttack, X: 1, Y: 2, Energy: 3}},
		{"a 1 2 -7", Command{Kind: CmdAttack, X: 1, Y: 2, Energy: -7}},
		{"a +1 2 1_000", Command{Kind: CmdAttack, X: 1, Y: 2, Energy: 1000}},
		{"b 1 2 h", Command{Kind: CmdBuild, X: 1, Y: 2, Building: Home}},
		{"b 1 2 g", Command{Kind: CmdBuild, X: 1, Y: 2, Building: GoldMine}},
		{"b 1 2 e", Command{Kind: CmdBuild, X: 1, Y: 2, Building: EnergyWell}},
		{"b 1 2 f", Command{Kind: CmdBuild, X: 1, Y: 2, Building: Fortress}},
		{"b 1 1 z", Command{Kind: CmdBuild, X: 1, Y: 1, Building: BuildingNone}},
		{"b 1 1 hh", Command{Kind: CmdBuild, X: 1, Y: 1, Building: BuildingNone}},
		{"u 1 2", Command{Kind: CmdUpgrade, X: 1, Y: 2}},
		{"u 1 2 3", Command{Kind: CmdUpgrade, X: 1, Y: 2}},
		{"a 99999999999999 1 1", Command{Kind: CmdAttack, X: 1 << 30, Y: 1, Energy: 1}},
		{"", Command{Kind: CmdInvalid, Err: ErrEmpty, Raw: ""}},
		{"   ", Command{Kind: CmdInvalid, Err: ErrEmpty, Raw: "   "}},
		{"a 0 0", Command{Kind: CmdInvalid, Err: ErrTooFewFields, Raw: "a 0 0"}},
		{"b 0 0", Command{Kind: CmdInvalid, Err: ErrTooFewFields, Raw: "b 0 0"}},
		{"u 0", Command{Kind: CmdInvalid, Err: ErrTooFewFields, Raw: "u 0"}},
		{"a one two three", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a one two three"}},
		{"a 3 4 1e3", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 1e3"}},
		{"a 3 4 3.0", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 3.0"}},
		{"a 3 4 _1", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 _1"}},
		{"a 3 4 1__0", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 1__0"}},
		{"a 3 4 1_", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 1_"}},
		{"a 3 4 -", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 -"}},
		{"a 3 4 99999999999999999999", Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: "a 3 4 99999999999999999999"}},
		{"x 1 2 3", Command{Kind: CmdInvalid, Err: ErrUnknownCommand, Raw: "x 1 2 3"}},
		{"A 1 2 3", Command{Kind: CmdInvalid, Err: ErrUnknownCommand, Raw: "A 1 2 3"}},
		{"attack 1 2 3", Command{Kind: CmdInvalid, Err: ErrUnknownCommand, Raw: "attack 1 2 3"}},
	}
	for _, tt := range tests {
		if got := ParseCommand(tt.in); got != tt.want {
			t.Errorf("ParseCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParsePyIntLimits(t *testing.T) {
	if v, ok := parsePyInt("9223372036854775807"); !ok || v != 1<<63-1 {
		t.Errorf("max int64: got %d %v", v, ok)
	}
	if v, ok := parsePyInt("-9223372036854775808"); !ok || v != -1<<63 {
		t.Errorf("min int64: got %d %v", v, ok)
	}
	if _, ok := parsePyInt("9223372036854775808"); ok {
		t.Error("2^63 accepted")
	}
}

func TestParseCommandAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		ParseCommand("a  5   5   40  ")
		ParseCommand("b 1 2 h")
		ParseCommand("x 1 2")
	})
	if n != 0 {
		t.Errorf("ParseCommand allocates %v times", n)
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"a 3 4 120", "b 1 2 h", "u 1 2", "", "a 0 0", "a one two three", "b 1 1 z", "a 3 4 1e3", "x 1 2 3", "a  5   5   40  ", "a 1 2 -5", "a 1_0 2 +3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := ParseCommand(s)
		switch c.Kind {
		case CmdInvalid:
			if !c.Err.Malformed() || c.Raw != s {
				t.Fatalf("invalid command %q: err %v raw %q", s, c.Err, c.Raw)
			}
		case CmdAttack, CmdBuild, CmdUpgrade:
			if c.Err != ErrNone {
				t.Fatalf("valid command %q carries error %v", s, c.Err)
			}
		default:
			t.Fatalf("kind %d", c.Kind)
		}
		// Applying any command to a small game never panics and fails
		// at most once.
		s2 := smallGame(t)
		s2.Step([][]Command{{c}})
		if len(s2.Errors()) > 1 {
			t.Fatalf("%q produced %d errors", s, len(s2.Errors()))
		}
		checkInvariants(t, s2)
	})
}

func TestCommandStringRoundTrips(t *testing.T) {
	for _, s := range []string{"a 3 4 120", "b 0 29 g", "b 1 2 h", "b 1 2 e", "b 1 2 f", "u 7 8", "a 0 0 -5"} {
		c := ParseCommand(s)
		if got := c.String(); got != s {
			t.Errorf("ParseCommand(%q).String() = %q", s, got)
		}
		if again := ParseCommand(c.String()); again != c {
			t.Errorf("%q does not round-trip: %+v vs %+v", s, again, c)
		}
	}
	if got := ParseCommand("  x 1 2").String(); got != "  x 1 2" {
		t.Errorf("invalid command keeps its raw text, got %q", got)
	}
	if got := ParseCommand("b 1 2 z").String(); got != "b 1 2 ?" {
		t.Errorf("unknown building letter: got %q", got)
	}
}

// FuzzCommandText: every command plays back from its text. A parsed
// command's String parses back to it; a malformed command whose recorded
// text was cut to n bytes (or lost) still has a String that ParseCommand
// rejects with its code, and that is its raw text whenever that text
// still gives the code.
func FuzzCommandText(f *testing.F) {
	for _, s := range []string{"a 3 4 120", "b 1 2 z", "u 1 2", "", "  ", "a 0 0", "a one two three", "x 1 2 3", "a 1 2 0_0_", "\u2028"} {
		f.Add(s, uint16(0))
		f.Add(s, uint16(3))
	}
	f.Fuzz(func(t *testing.T, s string, n uint16) {
		c := ParseCommand(s)
		if again := ParseCommand(c.String()); again != c {
			t.Fatalf("%q: ParseCommand(String()) = %+v, want %+v", s, again, c)
		}
		if c.Kind != CmdInvalid {
			return
		}
		cut := c
		cut.Raw = s[:min(int(n), len(s))]
		got := ParseCommand(cut.String())
		if got.Kind != CmdInvalid || got.Err != c.Err {
			t.Fatalf("%q cut to %q: String %q parses to %v, want %v", s, cut.Raw, cut.String(), got.Err, c.Err)
		}
		if ParseCommand(cut.Raw).Err == c.Err && cut.String() != cut.Raw {
			t.Fatalf("%q: String %q, not its raw text", cut.Raw, cut.String())
		}
	})
}

// TestCommandErrorAsEngineError: a command's error reads across the seam as
// Game.Round reports it: player uid-1, the index in the list sent, the
// code and its text.
func TestCommandErrorAsEngineError(t *testing.T) {
	g, err := Ruleset.New(7, engine.Settings{Players: 2, MaxTurns: 5, Names: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	g.Round(nil)
	errs := g.Round([][]string{nil, {"u 0 0", "x 1 2"}})
	want := engine.CommandError{Player: 1, Index: 1, Code: int(ErrUnknownCommand), Text: ErrUnknownCommand.String()}
	if i := slices.Index(errs, want); i < 0 || want.Text == "" {
		t.Fatalf("errors %+v, want among them %+v", errs, want)
	}
	if got := (CommandError{UID: 2, Index: 1, Code: ErrUnknownCommand}).EngineError(); got != want {
		t.Errorf("EngineError: %+v, want %+v", got, want)
	}
}
