package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
)

// The damage table of RULES-SKYPORT.md §7 (turnsLeft 0 / 1 / 2).
func TestDamageTable(t *testing.T) {
	want := map[string][3][3]int{
		"laser":  {{16, 19, 22}, {18, 22, 25}, {22, 26, 31}},
		"mortar": {{20, 24, 28}, {20, 24, 28}, {25, 30, 35}},
		"droid":  {{22, 26, 31}, {24, 29, 34}, {26, 31, 36}},
	}
	got := map[string]*[4][3]int{"laser": &laserDamage, "mortar": &mortarDamage, "droid": &droidDamage}
	for w, tab := range want {
		for l := 0; l < 3; l++ {
			if got[w][l+1] != tab[l] {
				t.Errorf("%s level %d: %v, want %v", w, l+1, got[w][l+1], tab[l])
			}
		}
	}
	if mortarSplash != [3]int{18, 22, 25} || droidSplash != [3]int{10, 12, 14} {
		t.Errorf("splash %v %v", mortarSplash, droidSplash)
	}
}

// For ranges 2..4 the reference's cosine-law test is hex distance
// (RULES §7), and 2*j*k overflowing is out of range.
func TestMortarRange(t *testing.T) {
	for rng := 2; rng <= 4; rng++ {
		for dj := -60; dj <= 60; dj++ {
			for dk := -60; dk <= 60; dk++ {
				if got, want := mortarInRange(int32(dj), int32(dk), rng), Distance(0, 0, dj, dk) <= rng; got != want {
					t.Fatalf("range %d offset %d,%d: %v, want %v", rng, dj, dk, got, want)
				}
			}
		}
	}
	if mortarInRange(46341, 46341, 4) {
		t.Error("46341,46341 in range")
	}
}

func TestParseCoordinates(t *testing.T) {
	for _, c := range []struct {
		in   string
		j, k int32
		ok   bool
	}{
		{"1,0", 1, 0, true}, {"+1,-1", 1, -1, true}, {"01,-01", 1, -1, true}, {"1,0,7", 1, 0, true},
		{"1,0,,", 1, 0, true}, {"1", 0, 0, false}, {"a,b", 0, 0, false}, {"1, 0", 0, 0, false},
		{"", 0, 0, false}, {"1,", 0, 0, false}, {",1", 0, 0, false}, {",,,", 0, 0, false},
		{"2147483648,0", 0, 0, false}, {"-2147483648,0", -2147483648, 0, true}, {"+,1", 0, 0, false},
	} {
		u := make([]uint16, len(c.in))
		for i := range c.in {
			u[i] = uint16(c.in[i])
		}
		j, k, ok := parseCoordinates(u)
		if ok != c.ok || (ok && (j != c.j || k != c.k)) {
			t.Errorf("%q: %d,%d %v, want %d,%d %v", c.in, j, k, ok, c.j, c.k, c.ok)
		}
	}
}

// Lines org.json reads differently from JSON, and its error texts.
func TestReadLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{message:action,type:move}`, `{"message":"action","type":"move"}`},
		{`{'message':'action'}`, `{"message":"action"}`},
		{`{"a"=>1;"b"=2,}`, `{"a":1,"b":2}`},
		{`{"a":1} trailing`, `{"a":1}`},
		{`{"a":[1,,2],}`, `{"a":[1,null,2]}`},
		{`{"a":1.50,"b":TRUE,"c":null,"d":12345678901}`, `{"a":1.5,"b":true,"c":null,"d":12345678901}`},
		{`{1:2}`, `{"1":2}`},
		{`{"s":"\u0041\/"}`, `{"s":"A/"}`},
		{``, `error:A JSONObject text must begin with '{' at 1 [character 2 line 1]`},
		{`hello`, `error:A JSONObject text must begin with '{' at 1 [character 2 line 1]`},
		{`{"a":1,"a":2}`, `error:Duplicate key "a"`},
		{`{"a" 1}`, `error:Expected a ':' after a key at 6 [character 7 line 1]`},
		{`{"a":1 "b":2}`, `error:Expected a ',' or '}' at 8 [character 9 line 1]`},
		{`{"a":"x`, `error:Unterminated string at 8 [character 9 line 1]`},
		{`{"a":}`, `error:Missing value at 5 [character 6 line 1]`},
		{`{"a":"\q"}`, `error:Illegal escape. at 8 [character 9 line 1]`},
		{`{"a":"\uzzzz"}`, `dies`},
	} {
		var p jparser
		obj := p.parseObject(c.line)
		var got string
		switch p.failed {
		case parseSyntax:
			got = "error:" + string(p.errText)
		case parseReaderDies:
			got = "dies"
		default:
			got = string(p.appendJSON(nil, obj))
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.line, got, c.want)
		}
	}
}

func TestJavaDouble(t *testing.T) {
	for f, want := range map[float64]string{1: "1.0", 1.5: "1.5", 1e7: "1.0E7", 0.001: "0.001", 1e-4: "1.0E-4", -2.5e10: "-2.5E10", 123456.789: "123456.789"} {
		if got := string(appendJavaDouble(nil, f)); got != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
	}
}

func TestHandshake(t *testing.T) {
	for _, c := range []struct{ line, name, err string }{
		{`{"message":"connect","revision":1,"name":"alice"}`, "alice", ""},
		{`{message:connect,revision:"1",name:bob_1}`, "bob_1", ""},
		{`{"message":"connect","revision":1.9,"name":"alice"}`, "alice", ""},
		{`{"message":"connect","revision":true,"name":"alice"}`, "", `Invalid or incomplete packet: JSONObject["revision"] is not an int.`},
		{`{"message":"connect","revision":2,"name":"alice"}`, "", "Wrong protocol revision: supporting 1, but got 2"},
		{`{"message":"hello"}`, "", "Expected 'connect' handshake, but got 'hello' key"},
		{`{"message":"connect","revision":1,"name":"al"}`, "", "Username too short: needs to be 3 characters or longer."},
		{`{"message":"connect","revision":1,"name":"a b c"}`, "", "Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +."},
	} {
		name, err, ok := Handshake(c.line)
		if name != c.name || err != c.err || ok != (c.err == "") {
			t.Errorf("%s: %q %q %v, want %q %q", c.line, name, err, ok, c.name, c.err)
		}
	}
}

const tinyMap = "players 2\nsize 3\ndescription \"tiny test map\"\nS\nG G\n/R_\\ O G\n\nwrong length row\nG G\nS\n"

func TestParseMap(t *testing.T) {
	m, err := ParseMap([]byte(tinyMap))
	if err != nil {
		t.Fatal(err)
	}
	if m.Size != 3 || m.Players != 2 || m.Description != "tiny test map" {
		t.Fatalf("header %+v", m)
	}
	// Row r holds (r-i, i); then row q holds (D-1-i, q+i).
	want := map[[2]int]byte{{0, 0}: 'S', {1, 0}: 'G', {0, 1}: 'G', {2, 0}: 'R', {1, 1}: 'O', {0, 2}: 'G', {2, 1}: 'G', {1, 2}: 'G', {2, 2}: 'S'}
	for p, c := range want {
		if got := m.Tile(p[0], p[1]); got != c {
			t.Errorf("tile %v: %c, want %c", p, got, c)
		}
	}
	if got := m.Spawns(); len(got) != 2 || got[0] != 0 || got[1] != 8 {
		t.Errorf("spawns %v", got)
	}
	back, err := ParseMap(m.AppendFile(nil))
	if err != nil || string(back.Tiles) != string(m.Tiles) {
		t.Errorf("AppendFile round trip: %v %q", err, back.Tiles)
	}
}

func TestParseMapErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		line int
		want string
	}{
		{"players 2\n", 2, "missing header"},
		{"players two\nsize 3\ndescription \"x\"\n", 1, "not an integer"},
		{"players 2\nsize 300\ndescription \"x\"\n", 2, "out of range"},
		{"players 2\nsize 2\ndescription \"x\"\nS\nGX\n", 5, "unknown tile code"},
		{"players 2\nsize 2\ndescription \"x\"\nS\nGG\n", 6, "file ends"},
		{"players 2\nsize 2\ndescription x\n", 3, "shorter than"},
	} {
		_, err := ParseMap([]byte(c.in))
		var me *MapError
		if !errors.As(err, &me) || me.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want line %d %q", c.in, err, c.line, c.want)
		}
	}
	if _, err := ParseMap(make([]byte, MaxMapBytes+1)); !errors.Is(err, ErrMapTooLarge) {
		t.Errorf("huge file: %v", err)
	}
}

// The maps shipped with the vectors parse, when present.
func TestShippedMaps(t *testing.T) {
	dir := os.Getenv("REWIND_SKYPORT")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "skyport")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "maps", "*.skyportmap"))
	if len(files) == 0 {
		t.Skipf("no maps in %s (set REWIND_SKYPORT)", dir)
	}
	for _, f := range files {
		b := testutil.ReadFile(t, f)
		m, err := ParseMap(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, c := range m.Tiles {
			if TileIndex(c) < 0 {
				t.Errorf("%s: tile %q", f, c)
			}
		}
		if len(m.Spawns()) < 2 {
			t.Errorf("%s: %d spawns", f, len(m.Spawns()))
		}
	}
}

func TestGenerateMap(t *testing.T) {
	for n := 1; n <= MaxPlayers; n++ {
		a, b := GenerateMap(uint64(n)*77, n), GenerateMap(uint64(n)*77, n)
		if string(a.Tiles) != string(b.Tiles) {
			t.Fatalf("%d players: not deterministic", n)
		}
		if got := len(a.Spawns()); got != n {
			t.Fatalf("%d players: %d spawns", n, got)
		}
		// Every accessible tile reachable from every spawn's neighbours.
		D := a.Size
		seen := make([]bool, D*D)
		sp := a.Spawns()[0]
		q := []int{sp}
		seen[sp] = true
		for len(q) > 0 {
			c := q[0]
			q = q[1:]
			for d := Dir(0); d < NumDirs; d++ {
				if nj, nk, ok := a.Neighbor(c/D, c%D, d); ok && !seen[nj*D+nk] && accessible(a.Tiles[nj*D+nk]) {
					seen[nj*D+nk] = true
					q = append(q, nj*D+nk)
				}
			}
		}
		for i, c := range a.Tiles {
			if accessible(c) && !seen[i] {
				t.Fatalf("%d players: tile %d, %d unreachable", n, i/D, i%D)
			}
		}
		for _, s := range a.Spawns() {
			open := false
			for d := Dir(0); d < NumDirs; d++ {
				if nj, nk, ok := a.Neighbor(s/D, s%D, d); ok && accessible(a.Tiles[nj*D+nk]) {
					open = true
				}
			}
			if !open {
				t.Fatalf("%d players: spawn %d, %d is walled in", n, s/D, s%D)
			}
		}
	}
	if string(GenerateMap(1, 2).Tiles) == string(GenerateMap(2, 2).Tiles) {
		t.Error("seeds 1 and 2 give the same map")
	}
}

// A scripted game through the seam: loadout rounds, moves, shots, a
// kill, the skipped turn and the respawn, hashes and a restart from the
// saved setup.
func TestEngineGame(t *testing.T) {
	m, err := ParseMap([]byte("players 2\nsize 4\ndescription \"x\"\nS\nGG\nGGG\nGGGG\nGGG\nGG\nS\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGame(Setup{Map: m, Names: []string{"alice", "bob"}, Spawns: []int{0, 15}, Ring: []int{1, 0}, MaxTurns: 20})
	if err != nil {
		t.Fatal(err)
	}
	lo := func(a, b string) string {
		return `{"message":"loadout","primary-weapon":"` + a + `","secondary-weapon":"` + b + `"}`
	}
	act := func(s string) string { return `{"message":"action",` + s + `}` }
	var played [][][]string
	var hashes []uint64
	play := func(lines ...string) []engine.CommandError {
		cmds := make([][]string, 2)
		cmds[g.Active()] = lines
		played = append(played, cmds)
		errs := g.Round(cmds)
		hashes = append(hashes, g.Hash())
		return errs
	}
	if g.Active() != 0 {
		t.Fatalf("first loadout round for %d", g.Active())
	}
	if errs := play("garbage", lo("laser", "laser"), lo("laser", "mortar")); len(errs) != 2 || errs[0].Index != 0 || errs[1].Text != "Invalid loadout: Can't have the same weapon twice." {
		t.Fatalf("loadout errors %+v", errs)
	}
	play() // bob sends nothing: laser and mortar
	if p := g.State.Player(1); p.Primary != Laser || p.Secondary != Mortar {
		t.Fatalf("default loadout %v %v", p.Primary, p.Secondary)
	}
	if g.Active() != 0 || g.State.Turn() != 1 || g.Turn() != 2 {
		t.Fatalf("turn 1: active %d turn %d rounds %d, want ring[1] = 0 on turn 1 after 2 rounds", g.Active(), g.State.Turn(), g.Turn())
	}
	obs := string(g.AppendObservation(nil, 0))
	if !strings.Contains(obs, `"turn":1`) || !strings.Contains(obs, `"position":"0, 0"`) {
		t.Fatalf("observation %s", obs)
	}
	// alice steps down to 1, 1; her third line is a bad direction.
	errs := play(act(`"type":"move","direction":"right-down"`), act(`"type":"move","direction":"left-down"`), act(`"type":"move","direction":"north"`))
	if p := g.State.Player(0); p.J != 1 || p.K != 1 || p.Score != 0 {
		t.Fatalf("alice %+v", p)
	}
	if len(errs) != 1 || errs[0].Index != 2 || errs[0].Code != CodeRejected || errs[0].Text != "Invalid move packet: Invalid direction: 'north'" {
		t.Fatalf("errors %+v", errs)
	}
	// bob walks up to 2, 2.
	play(act(`"type":"move","direction":"up"`))
	if p := g.State.Player(1); p.J != 2 || p.K != 2 {
		t.Fatalf("bob %+v", p)
	}
	h1 := g.Hash()
	// alice lasers down at bob from slot 0: 22 damage, the turn ends.
	play(act(`"type":"laser","direction":"down"`), act(`"type":"move","direction":"up"`))
	l := g.State.Log()
	if len(l.Hits) != 1 || l.Hits[0].Amount != 22 || l.Lines[1].Status != NotReached || g.State.Player(0).Score != 22 {
		t.Fatalf("laser turn %+v", l)
	}
	if g.Hash() == h1 {
		t.Error("hash did not change")
	}
	evs := g.Events(nil)
	if len(evs) != 2 || evs[0].Kind != "laser" || evs[1].Kind != "hit" || evs[0].X != 3 || evs[0].Y != 3 {
		t.Errorf("events %+v", evs)
	}
	var b engine.Board
	g.Board(&b)
	if b.Topology != engine.HexAxial || b.Width != 4 || len(b.Entities) != 2 || len(b.Effects) != 2 || b.Effects[1].Kind != engine.Line || b.Cells[0].Badges != 1 {
		t.Errorf("board %+v", b)
	}
	// bob times out: his lines are not read, he pays for doing nothing.
	g.Fault(1, engine.FaultTimeout, "slow")
	if errs := play(act(`"type":"move","direction":"up"`)); len(errs) != 1 || errs[0].Index != -1 || errs[0].Code != CodeFault || errs[0].Text != "timeout: slow" {
		t.Fatalf("timeout errors %+v", errs)
	}
	if p := g.State.Player(1); p.J != 2 || p.K != 2 || p.Score != -10 {
		t.Fatalf("bob after a timeout %+v", p)
	}
	// alice crashes: she stays, without lines.
	g.Fault(0, engine.FaultCrash, "gone")
	play(act(`"type":"move","direction":"up"`))
	if p := g.State.Player(0); p.Connected || p.J != 1 || p.Score != 12 {
		t.Fatalf("alice after a crash %+v", p)
	}
	// A restart from the setup replays to the same hashes (faults
	// included).
	g2, err := Ruleset.NewFromSetup(g.Setup(), engine.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for i, cmds := range played {
		switch i {
		case 5:
			g2.Fault(1, engine.FaultTimeout, "slow")
		case 6:
			g2.Fault(0, engine.FaultCrash, "gone")
		}
		g2.Round(cmds)
		if g2.Hash() != hashes[i] {
			t.Fatalf("restored game: round %d hash %x, want %x", i, g2.Hash(), hashes[i])
		}
	}
}

// Random games through the seam are deterministic and end.
func TestEngineDeterminism(t *testing.T) {
	run := func(seed uint64) (uint64, int) {
		g, err := Ruleset.New(seed, engine.Settings{Players: 3, MaxTurns: 120})
		if err != nil {
			t.Fatal(err)
		}
		lines := []string{
			`{"message":"loadout","primary-weapon":"laser","secondary-weapon":"droid"}`,
			`{"message":"action","type":"move","direction":"up"}`,
			`{"message":"action","type":"move","direction":"down"}`,
			`{"message":"action","type":"laser","direction":"left-down"}`,
			`{"message":"action","type":"droid","sequence":["up","up","left-up"]}`,
			`{"message":"action","type":"mine"}`,
			`{"message":"action","type":"mortar","coordinates":"1,1"}`,
			`not json`,
		}
		var hashes uint64
		rounds := 0
		for !g.Over() {
			p := g.Active()
			cmds := make([][]string, 3)
			for i := 0; i < 3; i++ {
				cmds[p] = append(cmds[p], lines[(int(seed)+rounds*7+i*3)%len(lines)])
			}
			g.Round(cmds)
			hashes = hashes*31 + g.Hash()
			rounds++
			if rounds > 1000 {
				t.Fatal("game does not end")
			}
		}
		return hashes, rounds
	}
	for seed := uint64(0); seed < 4; seed++ {
		a, ra := run(seed)
		b, rb := run(seed)
		if a != b || ra != rb || ra != 120 {
			t.Errorf("seed %d: %x/%d vs %x/%d rounds", seed, a, ra, b, rb)
		}
	}
}

// A \u escape that is not hex throws out of the reference's reader
// thread: the player stays connected but is never read again.
func TestDeafPlayer(t *testing.T) {
	m := GenerateMap(8, 2)
	spawns, ring, err := Draw(m, 2, 8)
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(Setup{Map: m, Names: []string{"aaa", "bbb"}, Spawns: spawns, Ring: ring, MaxTurns: 10})
	if err != nil {
		t.Fatal(err)
	}
	st.FinishLoadout()
	st.Begin()
	p := st.Actor()
	move := `{"message":"action","type":"move","direction":"up"}`
	st.PlayTurn([]string{`{"message":"action","type":"mine","x":"\uXYZW"}`, move})
	l := st.Log()
	if len(l.Lines) != 2 || l.Lines[0].Status != NotQueued || l.Lines[1].Status != NotRead || !st.Player(p).Deaf || !st.Player(p).Connected {
		t.Fatalf("deaf turn: %+v, player %+v", l.Lines, st.Player(p))
	}
	if !l.NoValidAction || st.Player(p).Score > -10 {
		t.Errorf("no penalty: %+v", st.Player(p))
	}
	if !strings.Contains(string(st.AppendGamestate(nil, true)), `"alive":true`) {
		t.Error("a deaf player is still alive for the observer")
	}
	st.Disconnect(p)
	if !strings.Contains(string(st.AppendGamestate(nil, true)), `"alive":false`) {
		t.Error("a disconnected player shows alive")
	}
}

// The seam's metadata agrees with what games report, and CopyFrom
// copies the whole game.
func TestEngineMetadata(t *testing.T) {
	if Ruleset.ID() != "skyport" || Ruleset.Version() != 1 {
		t.Fatalf("id %s version %d", Ruleset.ID(), Ruleset.Version())
	}
	ms := Ruleset.Metrics()
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Name] || m.Name == "" {
			t.Errorf("metric %q repeated or empty", m.Name)
		}
		seen[m.Name] = true
	}
	if ms[Ruleset.ScoreMetric()].Name != "score" {
		t.Error("score metric")
	}
	kinds := map[string]bool{}
	for _, k := range Ruleset.EventKinds() {
		kinds[k.Name] = true
	}
	g, err := Ruleset.New(11, engine.Settings{Players: 2, MaxTurns: 200, Names: []string{"alice", "not valid!"}})
	if err != nil {
		t.Fatal(err)
	}
	sg := g.(*Game)
	if got := sg.Setting(); got[2][1] != "alice, player1" || sg.Setup() != nil {
		t.Errorf("setting %v, setup %q", got, sg.Setup())
	}
	// Both players stand still and mortar themselves: deaths, skipped
	// turns and respawns.
	lines := []string{
		`{"message":"loadout","primary-weapon":"mortar","secondary-weapon":"laser"}`,
	}
	var copyAt *State
	var copyHash uint64
	for r := 0; !g.Over(); r++ {
		p := sg.Active()
		cmds := make([][]string, 2)
		if sg.State.InLoadout() {
			cmds[p] = lines
		} else if sg.State.Tile(sg.State.PlayerRef(p).J, sg.State.PlayerRef(p).K) == Spawn {
			cmds[p] = []string{`{"message":"action","type":"move","direction":"up"}`, `{"message":"action","type":"move","direction":"down"}`,
				`{"message":"action","type":"move","direction":"left-up"}`}
		} else {
			cmds[p] = []string{`{"message":"action","type":"mortar","coordinates":"0,0"}`}
		}
		g.Round(cmds)
		if len(sg.Values(p, nil)) != len(ms) {
			t.Fatal("values and metrics differ in length")
		}
		for _, e := range g.Events(nil) {
			if !kinds[e.Kind] {
				t.Errorf("event kind %q not declared", e.Kind)
			}
		}
		if r == 50 {
			copyAt = &State{}
			copyAt.CopyFrom(sg.State)
			copyHash = sg.State.Hash()
		}
	}
	if sg.State.PlayerRef(0).Stats.Deaths == 0 {
		t.Error("nobody died")
	}
	if copyAt.Hash() != copyHash {
		t.Error("CopyFrom: hash differs")
	}
	if r := g.Ranking(); len(r) != 2 || sg.State.PlayerRef(r[0]).Score < sg.State.PlayerRef(r[1]).Score {
		t.Errorf("ranking %v", r)
	}
}

// Actor peeks at the ring without moving it: a body with has_to_pass is
// skipped, and the prediction matches Begin.
func TestActorPeek(t *testing.T) {
	m, err := ParseMap([]byte("players 3\nsize 4\ndescription \"x\"\nS\nGG\nGGS\nGGGG\nGGG\nGG\nS\n"))
	if err != nil {
		t.Fatal(err)
	}
	sp := m.Spawns()
	st, err := New(Setup{Map: m, Names: []string{"aaa", "bbb", "ccc"}, Spawns: sp, Ring: []int{0, 1, 2}, MaxTurns: 30})
	if err != nil {
		t.Fatal(err)
	}
	st.FinishLoadout()
	for i := 0; i < 20; i++ {
		if i%4 == 0 {
			// kill the player after next: it must be skipped.
			q := st.ring[(st.cur+2)%3]
			st.players[q].Health, st.players[q].HasToPass, st.players[q].NeedsRespawn = 0, true, true
		}
		want := st.Actor()
		st.Begin()
		if got := st.Actor(); got != want {
			t.Fatalf("turn %d: peeked %d, Begin gave %d", st.Turn(), want, got)
		}
		st.PlayTurn(nil)
	}
}

// A recording keeps Game.MaxTurns and replays with it as
// Settings.MaxTurns: that must give the same game.
func TestTurnLimitRoundTrip(t *testing.T) {
	for _, rounds := range []int{0, 50} {
		g1, err := Ruleset.New(5, engine.Settings{Players: 3, MaxTurns: rounds})
		if err != nil {
			t.Fatal(err)
		}
		if rounds != 0 && g1.MaxTurns() != rounds {
			t.Errorf("MaxTurns %d, settings %d", g1.MaxTurns(), rounds)
		}
		g2, err := Ruleset.New(5, engine.Settings{Players: 3, MaxTurns: g1.MaxTurns()})
		if err != nil {
			t.Fatal(err)
		}
		if g1.Hash() != g2.Hash() || g1.MaxTurns() != g2.MaxTurns() {
			t.Errorf("limit %d: a game restarted with MaxTurns %d differs", rounds, g1.MaxTurns())
		}
		setup, err := SetupFromMap(GenerateMap(9, 3).AppendFile(nil), 4, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := Ruleset
		g3, err := r.NewFromSetup(setup, engine.Settings{MaxTurns: rounds})
		if err != nil {
			t.Fatal(err)
		}
		g4, err := r.NewFromSetup(g3.Setup(), engine.Settings{MaxTurns: g3.MaxTurns()})
		if err != nil {
			t.Fatal(err)
		}
		if g3.Hash() != g4.Hash() || g3.Players() != 3 {
			t.Errorf("limit %d: restored setup differs (%d players)", rounds, g3.Players())
		}
	}
	if _, err := Ruleset.New(1, engine.Settings{Players: 4, MaxTurns: 4}); err == nil {
		t.Error("a limit with no player-turn accepted")
	}
}
