package engine_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
	colorfight1 "github.com/rewind-game/rewind/games/colorfight1/rules"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// TestCapabilities: each optional capability is found on the games that
// have it, and its fallback is what a game without it gets.
func TestCapabilities(t *testing.T) {
	cf, err := colorfight2.Ruleset.New(1, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	mo, err := monad.Ruleset.New(1, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	sk, err := skyport.Ruleset.New(1, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if engine.CodecOf(colorfight2.Ruleset) == nil || engine.CodecOf(monad.Ruleset) == nil || engine.CodecOf(skyport.Ruleset) != nil {
		t.Error("Codec: want ColorfightII's and Monad's only")
	}
	if engine.LegacyHeaderOf(colorfight2.Ruleset) == nil || engine.LegacyHeaderOf(monad.Ruleset) != nil || engine.LegacyHeaderOf(skyport.Ruleset) != nil {
		t.Error("LegacyHeader: want ColorfightII's only")
	}
	if engine.AccountingOf(colorfight2.Ruleset) == nil || engine.AccountingOf(monad.Ruleset) != nil {
		t.Error("Accounting: want ColorfightII's only")
	}
	if engine.MessengerOf(cf) == nil || engine.MessengerOf(mo) == nil || engine.MessengerOf(sk) != nil {
		t.Error("Messenger: want ColorfightII's and Monad's only")
	}
	if got := string(engine.AppendObservation([]byte("x"), mo, 0)); got != "xnull" {
		t.Errorf("observation of a game without Observer: %q, want null", got)
	}
	if got := engine.AppendObservation(nil, sk, 0); len(got) < 2 || got[0] != '{' {
		t.Errorf("Skyport's observation %.40q, want its gamestate object", got)
	}
	if !engine.Idle(cf) || engine.Idle(mo) || engine.Idle(sk) {
		t.Error("Idle: want ColorfightII's round 0 -> 1 only")
	}
	cf.Round(nil)
	if engine.Idle(cf) {
		t.Error("ColorfightII idle after its first round")
	}
	mo.Fault(1, engine.FaultCrash, "gone")
	mo.Round(nil)
	if engine.Out(mo, 0) || !engine.Out(mo, 1) || engine.Out(cf, 0) || engine.Out(sk, 0) {
		t.Error("Out: want Monad's crashed player only")
	}
	if cf.Active() != -1 || mo.Active() != -1 || sk.Active() != 0 {
		t.Errorf("Active: %d %d %d, want -1 -1 0", cf.Active(), mo.Active(), sk.Active())
	}
	if engine.PlayerName(cf, 1, "given") != "given" || engine.PlayerName(mo, 1, "given") != "given" || engine.PlayerName(sk, 1, "given") != "given" {
		t.Error("PlayerName: a game whose players keep their names keeps the given name")
	}
	v1, err := colorfight1.Ruleset.New(1, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if engine.PlayerName(v1, 1, "seat 2") != "seat 2" {
		t.Error("PlayerName: ColorFight v1's seat before its join keeps the given name")
	}
	v1.Round([][]string{nil, {`/joingame {"name":"Zed"}`}})
	if got := engine.PlayerName(v1, 1, "seat 2"); !strings.HasPrefix(got, "Zed #") {
		t.Errorf("ColorFight v1's seat 2 after joining as Zed: %q", got)
	}
	long := strings.Repeat("é", engine.MaxNameBytes) // 2 bytes each
	if got := engine.PlayerName(named{mo, "x" + long}, 0, "given"); len(got) != engine.MaxNameBytes-1 || !utf8.ValidString(got) {
		t.Errorf("a name of %d bytes is given as %d bytes %.20q, want cut to a whole character", len(long)+1, len(got), got)
	}
	if got := engine.PlayerName(named{mo, "a\xffb"}, 0, "given"); got != "a\uFFFDb" {
		t.Errorf("a name that is not UTF-8 is given as %q", got)
	}
	if engine.ScoreIndex(monad.Ruleset) != 2 || engine.ScoreIndex(outOfRange{colorfight2.Ruleset}) != 0 {
		t.Error("ScoreIndex: want Monad's hives, 0 for an index out of range")
	}
}

// outOfRange is a ruleset whose score index names no metric.
type outOfRange struct{ engine.Ruleset }

func (outOfRange) ScoreMetric() int { return 99 }

// named is a game whose every player goes by one name
// (engine.Attendance).
type named struct {
	engine.Game
	name string
}

func (n named) PlayerName(int) string { return n.name }
func (named) Idle() bool              { return false }
func (named) Out(int) bool            { return false }
