// Package enginetest is a conformance suite any registered game can run
// from its own tests: it checks the contracts of package engine that hold
// for every game (a registration that a match can play, determinism,
// hostile commands, the shape of values, boards and rankings, the end of
// a game) by playing the game's own built-in bots through the seam.
//
// A game's test calls it with its registration, or with its id once the
// game has registered itself:
//
//	func TestEngineContracts(t *testing.T) {
//		enginetest.RunRegistered(t, "mygame")
//	}
package enginetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// MaxRounds bounds the rounds one game of the suite plays.
const MaxRounds = 300

// RunRegistered runs Run on the registration of the game with the given
// id, failing t when no game registered that id.
func RunRegistered(t *testing.T, id string) {
	t.Helper()
	g, ok := engine.About(id)
	if !ok {
		t.Fatalf("no game registered as %q", id)
	}
	Run(t, g)
}

// Run checks g's registration and plays games of it, failing t on every
// broken contract; each check is a subtest.
func Run(t *testing.T, g engine.Registration) {
	t.Helper()
	t.Run("registration", func(t *testing.T) { checkRegistration(t, g) })
	if g.Ruleset == nil {
		return
	}
	t.Run("determinism", func(t *testing.T) { checkDeterminism(t, g) })
	t.Run("hostile commands", func(t *testing.T) { checkHostile(t, g) })
	t.Run("faults", func(t *testing.T) { checkFaults(t, g) })
	t.Run("end", func(t *testing.T) { checkEnd(t, g) })
}

func checkRegistration(t *testing.T, g engine.Registration) {
	if g.Ruleset == nil {
		t.Fatal("no Ruleset")
	}
	id := g.Ruleset.ID()
	if id == "" || id != strings.ToLower(id) || strings.ContainsAny(id, " /\\") {
		t.Errorf("id %q: want a lower-case word", id)
	}
	if g.Name == "" || g.Round == "" {
		t.Errorf("name %q, round %q: both must be set", g.Name, g.Round)
	}
	if g.MinPlayers < 1 || g.MinPlayers > g.MaxPlayers {
		t.Errorf("players %d..%d", g.MinPlayers, g.MaxPlayers)
	}
	if g.DefaultPlayers != 0 && (g.DefaultPlayers < g.MinPlayers || g.DefaultPlayers > g.MaxPlayers) {
		t.Errorf("default players %d outside %d..%d", g.DefaultPlayers, g.MinPlayers, g.MaxPlayers)
	}
	if g.MinTurns < 1 || g.MinTurns > g.MaxTurns || g.DefaultTurns < g.MinTurns || g.DefaultTurns > g.MaxTurns {
		t.Errorf("turns %d..%d, default %d", g.MinTurns, g.MaxTurns, g.DefaultTurns)
	}
	if len(g.Bots) == 0 {
		t.Error("no built-in bot: a match of the game needs one to seat")
	}
	seen := map[string]bool{}
	for _, b := range g.Bots {
		if b.Name == "" || b.Doc == "" || b.New == nil || seen[b.Name] {
			t.Errorf("built-in %q: a unique name, a doc line and New are required", b.Name)
		}
		seen[b.Name] = true
	}
	ms := g.Ruleset.Metrics()
	if len(ms) == 0 {
		t.Error("no metric: the shell has nothing to chart or score")
	}
	names := map[string]bool{}
	for _, m := range ms {
		if m.Name == "" || names[m.Name] || m.Name != strings.ToLower(m.Name) || strings.ContainsAny(m.Name, " -") {
			t.Errorf("metric %q: a unique snake_case name is required", m.Name)
		}
		names[m.Name] = true
	}
	for _, f := range g.Formats {
		if f.Name == "" || len(f.Exts) == 0 || f.Sniff == nil || f.Open == nil {
			t.Errorf("format %q: a name, endings, Sniff and Open are required", f.Name)
		}
		if f.Sniff([]byte("RWD1")) && !f.Catchall {
			t.Errorf("format %q claims a .rwd's magic", f.Name)
		}
	}
}

// players returns the seats a default match of g has.
func players(g engine.Registration) int {
	if g.DefaultPlayers > 0 {
		return g.DefaultPlayers
	}
	return g.MaxPlayers
}

// match is one game of g with built-ins seated in turn.
type match struct {
	g     engine.Game
	bots  []engine.Strategy
	cmds  [][]string
	trace []string
}

func newMatch(t *testing.T, g engine.Registration, seed uint64, n int) *match {
	t.Helper()
	game, err := g.Ruleset.New(seed, engine.Settings{Players: n, MaxTurns: max(g.MinTurns, min(g.DefaultTurns, MaxRounds))})
	if err != nil {
		t.Fatalf("New(%d, %d players): %v", seed, n, err)
	}
	if game.Players() != n || game.Turn() != 0 {
		t.Fatalf("a new game has %d players at turn %d, want %d at 0", game.Players(), game.Turn(), n)
	}
	m := &match{g: game, cmds: make([][]string, n)}
	for p := range n {
		b := g.Bots[p%len(g.Bots)]
		m.bots = append(m.bots, b.New(seed+uint64(p)))
	}
	return m
}

// round asks the bots and plays one round, checking what the game says
// after it; false once the game is over.
func (m *match) round(t *testing.T) bool {
	t.Helper()
	if m.g.Over() {
		return false
	}
	active := m.g.Active()
	before := m.g.Hash()
	for p := range m.cmds {
		m.cmds[p] = m.cmds[p][:0]
		if active < 0 || p == active {
			m.cmds[p] = m.bots[p].Commands(m.g, p, m.cmds[p])
		}
	}
	if m.g.Hash() != before {
		t.Fatalf("turn %d: asking the bots changed the game", m.g.Turn())
	}
	turn := m.g.Turn()
	errs := m.g.Round(m.cmds)
	checkErrors(t, m.g, errs, m.cmds)
	if m.g.Turn() != turn+1 {
		t.Fatalf("a round at turn %d left the game at turn %d", turn, m.g.Turn())
	}
	m.trace = append(m.trace, state(t, m.g))
	return true
}

// state describes g after a round and checks its shape: values, board,
// ranking.
func state(t *testing.T, g engine.Game) string {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "turn %d hash %x over %v", g.Turn(), g.Hash(), g.Over())
	n := g.Players()
	var vals []int64
	for p := range n {
		vals = g.Values(p, vals[:0])
		fmt.Fprintf(&sb, " %v", vals)
	}
	if len(vals) == 0 {
		t.Fatalf("turn %d: no values", g.Turn())
	}
	var b engine.Board
	g.Board(&b)
	if b.Width < 1 || b.Height < 1 || len(b.Cells) != b.Width*b.Height {
		t.Fatalf("turn %d: a %d×%d board of %d cells", g.Turn(), b.Width, b.Height, len(b.Cells))
	}
	for i, c := range b.Cells {
		if c.Owner < -1 || c.Owner >= n {
			t.Fatalf("turn %d: cell %d owned by %d of %d players", g.Turn(), i, c.Owner, n)
		}
		if len(b.Badges) < 32 && c.Badges>>uint(len(b.Badges)) != 0 {
			t.Fatalf("turn %d: cell %d has badge bits %b beyond its %d badges", g.Turn(), i, c.Badges, len(b.Badges))
		}
	}
	for _, l := range b.Layers {
		if len(l.Values) != len(b.Cells) {
			t.Fatalf("turn %d: layer %q has %d values for %d cells", g.Turn(), l.Name, len(l.Values), len(b.Cells))
		}
	}
	r := g.Ranking()
	sorted := slices.Sorted(slices.Values(r))
	for i, p := range sorted {
		if p != i || len(sorted) != n {
			t.Fatalf("turn %d: ranking %v is not an order of the %d players", g.Turn(), r, n)
		}
	}
	fmt.Fprintf(&sb, " rank %v cells %d", r, len(b.Cells))
	return sb.String()
}

// checkErrors checks a round's command errors against what was sent.
func checkErrors(t *testing.T, g engine.Game, errs []engine.CommandError, cmds [][]string) {
	t.Helper()
	for _, e := range errs {
		if e.Player < 0 || e.Player >= g.Players() {
			t.Fatalf("turn %d: an error of player %d of %d", g.Turn(), e.Player, g.Players())
		}
		if e.Code == 0 {
			t.Fatalf("turn %d: error %+v has code 0", g.Turn(), e)
		}
		if e.Index < -1 || e.Index >= len(cmds[e.Player]) {
			t.Fatalf("turn %d: error %+v names command %d of %d sent", g.Turn(), e, e.Index, len(cmds[e.Player]))
		}
	}
}

// checkDeterminism: two games of one seed played by the same bots are the
// same after every round (hash, values, board, ranking).
func checkDeterminism(t *testing.T, g engine.Registration) {
	n := players(g)
	a, b := newMatch(t, g, 7, n), newMatch(t, g, 7, n)
	for a.round(t) {
		if !b.round(t) {
			t.Fatalf("turn %d: one game is over, the other not", a.g.Turn())
		}
		if x, y := a.trace[len(a.trace)-1], b.trace[len(b.trace)-1]; x != y {
			t.Fatalf("two games of one seed differ:\n%s\n%s", x, y)
		}
	}
	if len(a.trace) == 0 {
		t.Fatal("the game played no round")
	}
}

// hostile are commands no game takes as they are.
var hostile = []string{"", " ", "\x00", "\xff\xfe", strings.Repeat("x", 100000), "💥", "-1", "99999999999999999999999",
	"move", "attack 0 0 0 0 0", `{"json": true}`, "\n\n", "\t", "nan", "-0", "1e308"}

// checkHostile: a round of garbage for every player is rejected command
// by command, never fails the game, and the game plays on.
func checkHostile(t *testing.T, g engine.Registration) {
	m := newMatch(t, g, 3, players(g))
	for i := 0; i < 20 && !m.g.Over(); i++ {
		for p := range m.cmds {
			m.cmds[p] = append(m.cmds[p][:0], hostile...)
		}
		turn := m.g.Turn()
		errs := m.g.Round(m.cmds)
		checkErrors(t, m.g, errs, m.cmds)
		if m.g.Turn() != turn+1 {
			t.Fatalf("a hostile round at turn %d left the game at turn %d", turn, m.g.Turn())
		}
		state(t, m.g)
		if !m.round(t) {
			break
		}
	}
}

// checkFaults: a fault of every kind for every player before a round
// leaves a game that plays on.
func checkFaults(t *testing.T, g engine.Registration) {
	m := newMatch(t, g, 5, players(g))
	for i, f := range []engine.Fault{engine.FaultTimeout, engine.FaultGarbage, engine.FaultCrash} {
		if m.g.Over() {
			break
		}
		for p := range m.cmds {
			if (p+i)%2 == 0 {
				m.g.Fault(p, f, f.String()+" in a test")
			}
		}
		if !m.round(t) {
			break
		}
	}
}

// checkEnd: a game played by its bots ends by its limit at the latest,
// and a round after its end changes nothing.
func checkEnd(t *testing.T, g engine.Registration) {
	m := newMatch(t, g, 11, players(g))
	limit := m.g.MaxTurns()
	for m.round(t) {
		if m.g.Turn() > limit {
			t.Fatalf("turn %d of a game limited to %d", m.g.Turn(), limit)
		}
	}
	if !m.g.Over() || m.g.Turn() > limit {
		t.Fatalf("the game stopped at turn %d of %d without being over", m.g.Turn(), limit)
	}
	end := state(t, m.g)
	for p := range m.cmds {
		m.cmds[p] = append(m.cmds[p][:0], hostile[:3]...)
	}
	m.g.Round(m.cmds)
	if after := state(t, m.g); after != end {
		t.Fatalf("a round after the end changed the game:\n%s\n%s", end, after)
	}
}
