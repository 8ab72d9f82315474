// Package vectors replays the Skyport Rev 1 conformance vectors
// (/work/shared/skyport: sNN.input.json, sNN.states.json.gz,
// probes.json; their README describes the format) on package skyport
// and lists every divergence from the reference.
package vectors

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// Report is the outcome of one check.
type Report struct {
	Name string
	// Turns is the number of player-turns (or probes) compared.
	Turns int
	// Divergences lists every difference, "turn T, player P: field:
	// got X, want Y", in the order found.
	Divergences []string
	// Notes lists documented, accepted differences (the probes the
	// reference crashes on).
	Notes []string
}

// OK reports whether nothing diverged.
func (r *Report) OK() bool { return len(r.Divergences) == 0 }

// String summarises the report in one line: "s01: 300 turns, identical"
// or "s01: 300 turns, 4 divergences, first: …".
func (r *Report) String() string {
	if r.OK() {
		return fmt.Sprintf("%s: %d turns, identical", r.Name, r.Turns)
	}
	return fmt.Sprintf("%s: %d turns, %d divergences, first: %s", r.Name, r.Turns, len(r.Divergences), r.Divergences[0])
}

const maxDivergences = 200

func (r *Report) addf(format string, a ...any) {
	if len(r.Divergences) < maxDivergences {
		r.Divergences = append(r.Divergences, fmt.Sprintf(format, a...))
	} else if len(r.Divergences) == maxDivergences {
		r.Divergences = append(r.Divergences, "… (more divergences left out)")
	}
}

// Input is the schema of a vector's input file, NAME.input.json: the map,
// the players' handshakes, spawns and ring, the loadout lines in the
// order the reference read them, the disconnects and each turn's lines.
type Input struct {
	Format string `json:"format"`
	Name   string `json:"name"`
	Map    struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
	} `json:"map"`
	Players []struct {
		Name      string   `json:"name"`
		Handshake []string `json:"handshake"`
	} `json:"players"`
	Spawns       []string            `json:"spawns"`
	Ring         []int               `json:"ring"`
	LoadoutLines [][]json.RawMessage `json:"loadout_lines"`
	Disconnects  []struct {
		BeforeTurn int `json:"before_turn"`
		Player     int `json:"player"`
	} `json:"disconnects"`
	Turns []struct {
		Turn   int                 `json:"turn"`
		Lines  []string            `json:"lines"`
		Others [][]json.RawMessage `json:"others"`
	} `json:"turns"`
}

type action struct {
	Queued    bool           `json:"queued"`
	Status    string         `json:"status"`
	Slot      *int           `json:"slot"`
	Errors    []string       `json:"errors"`
	Broadcast map[string]any `json:"broadcast"`
}

type hit struct {
	Action       int  `json:"action"`
	Target       any  `json:"target"` // player number (vectors) or name (probes)
	By           any  `json:"by"`
	Amount       int  `json:"amount"`
	HealthBefore int  `json:"health_before"`
	HealthAfter  int  `json:"health_after"`
	Killed       bool `json:"killed"`
	Ignored      bool `json:"ignored"`
}

type after struct {
	Players   [][]any  `json:"players"`
	Resources [][3]int `json:"resources"`
}

type penalties struct {
	NoValidAction bool `json:"no_valid_action"`
	OnSpawn       bool `json:"on_spawn"`
}

type turnRec struct {
	Turn         int            `json:"turn"`
	Actor        int            `json:"actor"`
	Gamestate    map[string]any `json:"gamestate"`
	Actions      []action       `json:"actions"`
	ValidActions int            `json:"valid_actions"`
	Penalties    penalties      `json:"penalties"`
	Damage       []hit          `json:"damage"`
	After        after          `json:"after"`
	Others       []struct {
		Player int      `json:"player"`
		Queued bool     `json:"queued"`
		Errors []string `json:"errors"`
	} `json:"others"`
	Subtitles []string `json:"subtitles"`
}

// States is the schema of a vector's expected file, NAME.states.json(.gz):
// what the reference answered to the handshakes and the loadout, each
// turn's gamestate, actions and outcome, and the final scores.
type States struct {
	Format string `json:"format"`
	Setup  struct {
		Handshake [][]struct {
			Accepted bool     `json:"accepted"`
			Errors   []string `json:"errors"`
		} `json:"handshake"`
		SpawnOrder []string `json:"spawn_order"`
	} `json:"setup"`
	Turn0 struct {
		Gamestate      map[string]any `json:"gamestate"`
		LoadoutResults []struct {
			Player   int      `json:"player"`
			Accepted bool     `json:"accepted"`
			Errors   []string `json:"errors"`
		} `json:"loadout_results"`
	} `json:"turn0"`
	Turns []turnRec `json:"turns"`
	Final struct {
		TurnsPlayed int     `json:"turns_played"`
		Scores      []int   `json:"scores"`
		WinnerText  string  `json:"winner_text"`
		Ranking     []int   `json:"ranking"`
		Players     [][]any `json:"players"`
	} `json:"final"`
	Next struct {
		Turn      int            `json:"turn"`
		Actor     int            `json:"actor"`
		Gamestate map[string]any `json:"gamestate"`
	} `json:"next"`
}

// Dir returns the vectors' folder: $REWIND_SKYPORT if set, else
// fallback.
func Dir(fallback string) string {
	if d := os.Getenv("REWIND_SKYPORT"); d != "" {
		return d
	}
	return fallback
}

// ParsePos parses the reference's "j, k".
func ParsePos(s string) (j, k int, err error) {
	a, b, ok := strings.Cut(s, ", ")
	if !ok {
		return 0, 0, fmt.Errorf("position %q is not \"j, k\"", s)
	}
	if j, err = strconv.Atoi(a); err != nil {
		return 0, 0, fmt.Errorf("position %q: %v", s, err)
	}
	if k, err = strconv.Atoi(b); err != nil {
		return 0, 0, fmt.Errorf("position %q: %v", s, err)
	}
	return j, k, nil
}

// LoadMap reads and parses a map file, checking its sha256 when want is
// not empty.
func LoadMap(path, want string) (*skyport.Map, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseMap(data, path, want)
}

func parseMap(data []byte, path, want string) (*skyport.Map, error) {
	if want != "" {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			return nil, fmt.Errorf("%s: sha256 %s, want %s", path, got, want)
		}
	}
	m, err := skyport.ParseMap(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.Name = strings.TrimSuffix(filepath.Base(path), ".skyportmap")
	return m, nil
}

// Game is a vector's starting point, for callers (the benchmark) that
// replay its turns themselves.
type Game struct {
	Setup skyport.Setup
	// Loadouts are the loadout lines, [player, line], in order.
	Loadouts []LoadoutLine
	// Turns are the actor's lines of each turn.
	Turns [][]string
	// Disconnects maps a turn number to the players whose connection
	// closes before it.
	Disconnects map[int][]int
}

// LoadoutLine is one line of the loadout phase.
type LoadoutLine struct {
	Player int
	Line   string
}

func readInput(dir, name string) (*Input, *Game, error) {
	raw, err := os.ReadFile(filepath.Join(dir, name+".input.json"))
	if err != nil {
		return nil, nil, err
	}
	return decodeInput(name, raw, func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	})
}

// decodeInput decodes a vector's input; read gives the map file it names
// (a path relative to the vector's folder).
func decodeInput(name string, raw []byte, read func(rel string) ([]byte, error)) (*Input, *Game, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, nil, fmt.Errorf("%s.input.json: %w", name, err)
	}
	if in.Format != "skyport-vector-input/1" {
		return nil, nil, fmt.Errorf("%s.input.json: format %q, want skyport-vector-input/1", name, in.Format)
	}
	if len(in.Spawns) != len(in.Players) {
		return nil, nil, fmt.Errorf("%s.input.json: %d spawns for %d players", name, len(in.Spawns), len(in.Players))
	}
	data, err := read(in.Map.Path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: map: %w", name, err)
	}
	m, err := parseMap(data, in.Map.Path, in.Map.SHA256)
	if err != nil {
		return nil, nil, err
	}
	g := &Game{Disconnects: map[int][]int{}}
	g.Setup.Map = m
	g.Setup.Ring = in.Ring
	g.Setup.MaxTurns = len(in.Turns)
	for p, pl := range in.Players {
		g.Setup.Names = append(g.Setup.Names, pl.Name)
		j, k, err := ParsePos(in.Spawns[p])
		if err != nil {
			return nil, nil, fmt.Errorf("%s: spawn of player %d: %w", name, p, err)
		}
		g.Setup.Spawns = append(g.Setup.Spawns, j*m.Size+k)
	}
	for i, ll := range in.LoadoutLines {
		var p int
		var line string
		if len(ll) != 2 || json.Unmarshal(ll[0], &p) != nil || json.Unmarshal(ll[1], &line) != nil {
			return nil, nil, fmt.Errorf("%s: loadout_lines[%d] is not [player, line]", name, i)
		}
		g.Loadouts = append(g.Loadouts, LoadoutLine{p, line})
	}
	for _, t := range in.Turns {
		g.Turns = append(g.Turns, t.Lines)
	}
	for _, d := range in.Disconnects {
		g.Disconnects[d.BeforeTurn] = append(g.Disconnects[d.BeforeTurn], d.Player)
	}
	return &in, g, nil
}

// Load reads vector name's input from dir.
func Load(dir, name string) (*Game, error) {
	_, g, err := readInput(dir, name)
	return g, err
}

// Start returns g's state after the loadout phase, ready for turn 1.
func (g *Game) Start() (*skyport.State, error) {
	st, err := skyport.New(g.Setup)
	if err != nil {
		return nil, err
	}
	for _, l := range g.Loadouts {
		st.LoadoutLine(l.Player, l.Line)
	}
	st.FinishLoadout()
	return st, nil
}

// Check replays vector name (sNN) from dir and compares every field of
// every player-turn with the reference's: the handshakes, the turn-0
// gamestate and loadouts, then per turn the actor, the gamestate, each
// line's fate (status, slot, errors, broadcast), valid actions,
// penalties, damage in order, subtitles, the lines of other players and
// the state after the turn; then the final scores, winner text, ranking
// and the next gamestate. An error means the vector could not be read.
func Check(dir, name string) (*Report, error) {
	in, g, err := readInput(dir, name)
	if err != nil {
		return nil, err
	}
	zr, err := os.Open(filepath.Join(dir, name+".states.json.gz"))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	gz, err := gzip.NewReader(zr)
	if err != nil {
		return nil, fmt.Errorf("%s.states.json.gz: %w", name, err)
	}
	var want States
	if err := json.NewDecoder(gz).Decode(&want); err != nil {
		return nil, fmt.Errorf("%s.states.json.gz: %w", name, err)
	}
	return check(name, in, g, &want)
}

// Conform is Check on a vector's bytes, for `rewind conform`
// (engine.Vectors): input is NAME.input.json, expected the
// decompressed NAME.states.json, read gives the map the input names. It
// returns the number of player-turns compared and the first divergence
// ("" when every field matched).
func Conform(input, expected []byte, read func(rel string) ([]byte, error)) (rounds int, divergence string, err error) {
	in, g, err := decodeInput("vector", input, read)
	if err != nil {
		return 0, "", err
	}
	var want States
	if err := json.Unmarshal(expected, &want); err != nil {
		return 0, "", fmt.Errorf("states: %w", err)
	}
	if want.Format != "skyport-vector-states/1" {
		return 0, "", fmt.Errorf("states: format %q, want skyport-vector-states/1", want.Format)
	}
	r, err := check(in.Name, in, g, &want)
	if err != nil {
		return 0, "", err
	}
	if !r.OK() {
		return r.Turns, r.Divergences[0], nil
	}
	return r.Turns, "", nil
}

func check(name string, in *Input, g *Game, want *States) (*Report, error) {
	r := &Report{Name: name}
	m := g.Setup.Map

	// Spawn order (row-major).
	var order []string
	for _, i := range m.Spawns() {
		order = append(order, fmt.Sprintf("%d, %d", i/m.Size, i%m.Size))
	}
	if !reflect.DeepEqual(order, want.Setup.SpawnOrder) {
		r.addf("setup: spawn_order: got %v, want %v", order, want.Setup.SpawnOrder)
	}
	// Handshakes.
	for p, pl := range in.Players {
		for i, line := range pl.Handshake {
			name, errText, ok := skyport.Handshake(line)
			if p >= len(want.Setup.Handshake) || i >= len(want.Setup.Handshake[p]) {
				r.addf("setup: handshake %d of player %d: not in the vector", i, p)
				continue
			}
			w := want.Setup.Handshake[p][i]
			var errs []string
			if errText != "" {
				errs = append(errs, errText)
			}
			if ok != w.Accepted || !sameErrors(errs, w.Errors) {
				r.addf("setup: handshake %d of player %d: got accepted=%v errors=%q, want accepted=%v errors=%q", i, p, ok, errs, w.Accepted, w.Errors)
			}
			if ok && name != pl.Name {
				r.addf("setup: handshake of player %d: name %q, want %q", p, name, pl.Name)
			}
		}
	}

	st, err := skyport.New(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	compareGamestate(r, "turn 0", st, want.Turn0.Gamestate)
	for i, l := range g.Loadouts {
		ok := st.LoadoutLine(l.Player, l.Line)
		if i >= len(want.Turn0.LoadoutResults) {
			r.addf("turn 0: loadout line %d: not in the vector", i)
			continue
		}
		w := want.Turn0.LoadoutResults[i]
		errs := st.Log().Errors(0, nil)
		if ok != w.Accepted || w.Player != l.Player || !sameErrors(errs, w.Errors) {
			r.addf("turn 0: loadout line %d (player %d): got accepted=%v errors=%q, want accepted=%v errors=%q", i, l.Player, ok, errs, w.Accepted, w.Errors)
		}
	}
	st.FinishLoadout()

	for i, tw := range want.Turns {
		t := i + 1
		r.Turns++
		if i >= len(in.Turns) {
			r.addf("turn %d: not in the input", t)
			break
		}
		for _, p := range g.Disconnects[t] {
			st.Disconnect(p)
		}
		st.Begin()
		actor := st.Actor()
		where := fmt.Sprintf("turn %d, player %d", t, actor)
		if actor != tw.Actor || st.Turn() != tw.Turn {
			r.addf("%s: actor %d on turn %d, want actor %d on turn %d", where, actor, st.Turn(), tw.Actor, tw.Turn)
		}
		compareGamestate(r, where, st, tw.Gamestate)
		// Other players' lines during the think time.
		for oi, o := range in.Turns[i].Others {
			var p int
			var line string
			if len(o) != 2 || json.Unmarshal(o[0], &p) != nil || json.Unmarshal(o[1], &line) != nil {
				return nil, fmt.Errorf("%s: turn %d: others[%d] is not [player, line]", name, t, oi)
			}
			q := st.OffTurnLine(p, line)
			errs := st.Log().Errors(0, nil)
			if oi >= len(tw.Others) {
				r.addf("%s: others[%d]: not in the vector", where, oi)
				continue
			}
			w := tw.Others[oi]
			if w.Player != p || w.Queued != q || !sameErrors(errs, w.Errors) {
				r.addf("%s: others[%d] (player %d): got queued=%v errors=%q, want queued=%v errors=%q", where, oi, p, q, errs, w.Queued, w.Errors)
			}
		}
		st.PlayTurn(in.Turns[i].Lines)
		compareTurn(r, where, st, tw, true)
	}
	// The end.
	f := want.Final
	if st.Played() != f.TurnsPlayed {
		r.addf("final: turns_played %d, want %d", st.Played(), f.TurnsPlayed)
	}
	var scores []int
	for p := 0; p < st.Players(); p++ {
		scores = append(scores, st.Player(p).Score)
	}
	if !reflect.DeepEqual(scores, f.Scores) {
		r.addf("final: scores %v, want %v", scores, f.Scores)
	}
	if w := st.Winner(); w != f.WinnerText {
		r.addf("final: winner_text %q, want %q", w, f.WinnerText)
	}
	if rk := st.Ranking(); !reflect.DeepEqual(rk, f.Ranking) {
		r.addf("final: ranking %v, want %v", rk, f.Ranking)
	}
	comparePlayers(r, "final", st, f.Players)
	st.Advance()
	if st.Turn() != want.Next.Turn || currentRingHead(st) != want.Next.Actor {
		r.addf("next: turn %d actor %d, want turn %d actor %d", st.Turn(), currentRingHead(st), want.Next.Turn, want.Next.Actor)
	}
	compareGamestate(r, "next", st, want.Next.Gamestate)
	return r, nil
}

func currentRingHead(st *skyport.State) int { return st.Ring(nil)[0] }

// sameErrors compares error lists; org.json's own wording after
// "Invalid packet received: " is compared too (the port reproduces it).
func sameErrors(got, want []string) bool {
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	return reflect.DeepEqual(got, want)
}

func compareGamestate(r *Report, where string, st *skyport.State, want map[string]any) {
	var got map[string]any
	if err := json.Unmarshal(st.AppendGamestate(nil, false), &got); err != nil {
		r.addf("%s: gamestate is not JSON: %v", where, err)
		return
	}
	if reflect.DeepEqual(got, want) {
		return
	}
	for _, k := range []string{"message", "turn", "map"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			r.addf("%s: gamestate.%s: got %v, want %v", where, k, short(got[k]), short(want[k]))
		}
	}
	gp, _ := got["players"].([]any)
	wp, _ := want["players"].([]any)
	if len(gp) != len(wp) {
		r.addf("%s: gamestate.players: %d players, want %d", where, len(gp), len(wp))
		return
	}
	for i := range gp {
		g, _ := gp[i].(map[string]any)
		w, _ := wp[i].(map[string]any)
		for _, k := range union(g, w) {
			if !reflect.DeepEqual(g[k], w[k]) {
				r.addf("%s: gamestate.players[%d] (%v).%s: got %v, want %v", where, i, w["name"], k, short(g[k]), short(w[k]))
			}
		}
	}
}

// union returns the keys of a and b, sorted (so reports come in a fixed
// order).
func union(a, b map[string]any) []string {
	var u []string
	for k := range a {
		u = append(u, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			u = append(u, k)
		}
	}
	sort.Strings(u)
	return u
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

// compareTurn compares the log and the state after a turn. byName: the
// damage records name players (probes) instead of numbering them.
func compareTurn(r *Report, where string, st *skyport.State, tw turnRec, byName bool) {
	l := st.Log()
	if len(l.Lines) != len(tw.Actions) {
		r.addf("%s: %d line records, want %d", where, len(l.Lines), len(tw.Actions))
	}
	for i := 0; i < len(l.Lines) && i < len(tw.Actions); i++ {
		f := l.Lines[i]
		w := tw.Actions[i]
		if got := f.Status.String(); got != w.Status {
			r.addf("%s: line %d: status %s, want %s", where, i, got, w.Status)
		}
		queued := f.Status != skyport.NotQueued && f.Status != skyport.NotRead
		if queued != w.Queued {
			r.addf("%s: line %d: queued %v, want %v", where, i, queued, w.Queued)
		}
		ws := -1
		if w.Slot != nil {
			ws = *w.Slot
		}
		if f.Slot != ws {
			r.addf("%s: line %d: slot %d, want %d", where, i, f.Slot, ws)
		}
		if errs := l.Errors(i, nil); !sameErrors(errs, w.Errors) {
			r.addf("%s: line %d: errors %q, want %q", where, i, errs, w.Errors)
		}
		b := st.AppendBroadcast(nil, i)
		var gb map[string]any
		if len(b) > 0 {
			if err := json.Unmarshal(b, &gb); err != nil {
				r.addf("%s: line %d: broadcast %s is not JSON: %v", where, i, b, err)
			}
		}
		if !reflect.DeepEqual(gb, w.Broadcast) {
			r.addf("%s: line %d: broadcast %s, want %s", where, i, short(gb), short(w.Broadcast))
		}
	}
	if l.Valid != tw.ValidActions {
		r.addf("%s: valid_actions %d, want %d", where, l.Valid, tw.ValidActions)
	}
	if l.NoValidAction != tw.Penalties.NoValidAction || l.OnSpawn != tw.Penalties.OnSpawn {
		r.addf("%s: penalties no_valid_action=%v on_spawn=%v, want %v %v", where, l.NoValidAction, l.OnSpawn, tw.Penalties.NoValidAction, tw.Penalties.OnSpawn)
	}
	if len(l.Hits) != len(tw.Damage) {
		r.addf("%s: %d hits, want %d", where, len(l.Hits), len(tw.Damage))
	}
	for i := 0; i < len(l.Hits) && i < len(tw.Damage); i++ {
		h := l.Hits[i]
		w := tw.Damage[i]
		var tgt, by any = float64(h.Target), float64(h.By)
		if byName {
			tgt, by = st.Player(h.Target).Name, st.Player(h.By).Name
		}
		if h.Line != w.Action || !reflect.DeepEqual(tgt, w.Target) || !reflect.DeepEqual(by, w.By) || h.Amount != w.Amount ||
			h.HealthBefore != w.HealthBefore || h.HealthAfter != w.HealthAfter || h.Killed != w.Killed || h.Ignored != w.Ignored {
			r.addf("%s: hit %d: got %+v, want %+v", where, i, h, w)
		}
	}
	var subs []string
	for _, f := range l.Lines {
		if f.Status == skyport.Accepted && f.Upgraded != skyport.NoWeapon {
			subs = append(subs, st.Player(l.Actor).Name+" upgrades his "+f.Upgraded.String())
		}
	}
	if !sameErrors(subs, tw.Subtitles) {
		r.addf("%s: subtitles %q, want %q", where, subs, tw.Subtitles)
	}
	comparePlayers(r, where+": after", st, tw.After.Players)
	if tw.After.Players != nil || tw.After.Resources != nil {
		res := st.Resources(nil)
		if !(len(res) == 0 && len(tw.After.Resources) == 0) && !reflect.DeepEqual(res, tw.After.Resources) {
			r.addf("%s: after.resources: got %v, want %v", where, res, tw.After.Resources)
		}
	}
}

// Row returns player p's row in the vectors' player_fields order.
func Row(st *skyport.State, p int) []any {
	pl := st.Player(p)
	return []any{pl.Name, float64(pl.Health), float64(pl.Score), fmt.Sprintf("%d, %d", pl.J, pl.K),
		pl.Primary.String(), float64(pl.PrimaryLevel), pl.Secondary.String(), float64(pl.SecondaryLevel),
		float64(pl.Rubidium), float64(pl.Explosium), float64(pl.Scrap), pl.HasToPass, pl.NeedsRespawn, pl.Connected}
}

var fields = []string{"name", "health", "score", "position", "primary", "primary_level", "secondary", "secondary_level", "rubidium", "explosium", "scrap", "has_to_pass", "needs_respawn", "connected"}

func comparePlayers(r *Report, where string, st *skyport.State, want [][]any) {
	if want == nil {
		return
	}
	if len(want) != st.Players() {
		r.addf("%s: %d player rows, want %d", where, st.Players(), len(want))
		return
	}
	for p := range want {
		got := Row(st, p)
		for f := range got {
			if f >= len(want[p]) || !reflect.DeepEqual(got[f], want[p][f]) {
				var w any
				if f < len(want[p]) {
					w = want[p][f]
				}
				r.addf("%s: player %d: %s: got %v, want %v", where, p, fields[f], got[f], w)
			}
		}
	}
}

// Sniff reports whether head, the start of an input file, is a Skyport
// vector's: its format comes first (engine.Vectors.Sniff; ColorFight v1's
// vectors have the same file endings).
func Sniff(head []byte) bool { return bytes.Contains(head, []byte(`"skyport-vector-input/`)) }
