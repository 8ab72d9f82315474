// Package vectors replays Monad's conformance vectors (recorded on the
// reference engine; format in testdata/monad/README.md) and compares
// every field of every turn. It reads no file itself: the caller gives
// the files' bytes (rewind conform through engine.Registration.Vectors).
package vectors

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// Format is the "format" of a Monad vector's NAME.commands.json.
const Format = "monad-vector/1"

// Vector is a parsed NAME.commands.json of a Monad vector (format in
// testdata/monad/README.md).
type Vector struct {
	Format   string `json:"format"`
	Name     string `json:"name"`
	Seed     int64  `json:"seed"`
	Players  int    `json:"players"`
	MaxTurns int    `json:"max_turns"`
	Uniform  bool   `json:"uniform"`
	Bots     struct {
		Names []string `json:"names"`
	} `json:"bots"`
	InitialMap struct {
		W             int       `json:"w"`
		H             int       `json:"h"`
		Resource      [][]int32 `json:"resource"`
		DensityFactor int       `json:"density_factor"`
		Uniform       bool      `json:"uniform"`
		Hives         [][]int   `json:"hives"`
		Units         [][]int   `json:"units"`
	} `json:"initial_map"`
	Turns []struct {
		Turn     int                          `json:"turn"`
		Commands map[string][]json.RawMessage `json:"commands"`
		TimedOut []int                        `json:"timed_out"`
	} `json:"turns"`
}

// States is a parsed NAME.states.json.gz: the reference's log and its
// per-turn frames and round facts.
type States struct {
	Format    string `json:"format"`
	Name      string `json:"name"`
	LogSHA256 string `json:"log_sha256"`
	Log       struct {
		W     int `json:"w"`
		H     int `json:"h"`
		Turns []struct {
			Map [][]struct {
				B *int  `json:"b"`
				R *int  `json:"r"`
				U *int  `json:"u"`
				P *int  `json:"p"`
				O *bool `json:"o"`
			} `json:"map"`
			Res []int64 `json:"res"`
			Cmd []struct {
				U int   `json:"u"`
				P int   `json:"p"`
				T int   `json:"t"`
				D *int  `json:"d"`
				N int64 `json:"n"`
			} `json:"cmd"`
		} `json:"turns"`
		RankedBots []struct {
			ID       string `json:"_id"`
			Crashed  bool   `json:"crashed"`
			TimedOut bool   `json:"timedOut"`
			Rank     int    `json:"rank"`
		} `json:"rankedBots"`
	} `json:"log"`
	Frames []struct {
		Turn     int     `json:"turn"`
		Units    [][]int `json:"units"`
		Hives    [][]int `json:"hives"`
		Resource [][]int `json:"resource"`
		Players  [][]any `json:"players"`
	} `json:"frames"`
	Rounds []struct {
		Turn       int     `json:"turn"`
		Rejected   [][]any `json:"rejected"`
		Builds     [][]any `json:"builds"`
		Collisions []struct {
			Amount int64 `json:"amount"`
			A      []int `json:"a"`
			B      []int `json:"b"`
		} `json:"collisions"`
		Fights []struct {
			X       int     `json:"x"`
			Y       int     `json:"y"`
			Pre     []int64 `json:"pre"`
			Post    []int64 `json:"post"`
			Hive    *int    `json:"hive"`
			Outcome *string `json:"outcome"`
		} `json:"fights"`
	} `json:"rounds"`
}

// IsVector reports whether b is a Monad vector's command file: a JSON
// object whose "format" is Format. It reads only up to the "format" key.
func IsVector(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == "format" {
			var s string
			if err := dec.Decode(&s); err != nil {
				return false
			}
			return s == Format
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}

// ParseVector parses a Monad vector's command file.
func ParseVector(b []byte) (*Vector, error) {
	path := "commands"
	var v Vector
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %w", path, err)
	}
	if v.Format != Format {
		return nil, fmt.Errorf("%s: format %q, want %q", path, v.Format, Format)
	}
	if v.Players < 1 || v.Players > monad.MaxPlayers || v.MaxTurns < 1 || v.MaxTurns > monad.MaxMaxTurns {
		return nil, fmt.Errorf("%s: players %d or max_turns %d out of range", path, v.Players, v.MaxTurns)
	}
	if len(v.Bots.Names) != v.Players {
		return nil, fmt.Errorf("%s: %d bot names for %d players", path, len(v.Bots.Names), v.Players)
	}
	for i, t := range v.Turns {
		if t.Turn != i {
			return nil, fmt.Errorf("%s: turns[%d] is turn %d", path, i, t.Turn)
		}
	}
	return &v, nil
}

// ParseStates parses a Monad vector's states file (decompressed).
func ParseStates(b []byte) (*States, error) {
	path := "states"
	var s States
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %w", path, err)
	}
	if len(s.Frames) != len(s.Log.Turns) || len(s.Rounds)+1 != len(s.Frames) {
		return nil, fmt.Errorf("%s: %d frames, %d log turns, %d rounds", path, len(s.Frames), len(s.Log.Turns), len(s.Rounds))
	}
	return &s, nil
}

// Config returns the game configuration of the vector.
func (v *Vector) Config() monad.Config {
	return monad.Config{Players: v.Players, MaxTurns: v.MaxTurns, Seed: v.Seed, Uniform: v.Uniform}
}

// Commands parses the replies of turn t, indexed by player (nil for a
// player that sent nothing), and returns the players who timed out at t.
func (v *Vector) Commands(t int) ([][]monad.Command, []int) {
	if t < 0 || t >= len(v.Turns) {
		return nil, nil
	}
	cmds := make([][]monad.Command, v.Players)
	for p := 0; p < v.Players; p++ {
		for _, raw := range v.Turns[t].Commands[strconv.Itoa(p)] {
			cmds[p] = append(cmds[p], monad.ParseCommand(raw))
		}
	}
	return cmds, v.Turns[t].TimedOut
}

// Divergence is the first way the engine differed from a Monad
// vector.
type Divergence struct {
	Turn  int    // the log entry / frame, or the turn whose commands differ
	Field string // what differs, e.g. "frames.units[3]" or "log.turns.cmd[2]"
	Want  string
	Got   string
}

func (d *Divergence) String() string {
	return fmt.Sprintf("turn %d: %s: want %s, got %s", d.Turn, d.Field, d.Want, d.Got)
}

// Result is the outcome of one Monad vector.
type Result struct {
	Name       string
	Turns      int // turns played and compared
	Divergence *Divergence
}

// Pass reports whether the vector reproduced exactly.
func (r *Result) Pass() bool { return r.Divergence == nil }

// Conform replays the vector whose files' bytes are given (the states
// decompressed) and compares every field of every turn: the frame (units,
// hives with their counters, resources, the players' columns), the log
// entry (map cells with the reference's "r only when changed" rule, res,
// every executed command in order), the round facts (rejected commands
// with their execution index and reason, BUILD outcomes, collisions, cell
// fights, and the combat losses per player they imply), the game-over
// test before every turn, the ranking, and finally the sha256 of the
// whole log written as Python's json.dumps writes it. It returns the
// turns compared and the first divergence ("" when none); an error only
// when the files are not a Monad vector. It is engine.Registration.Vectors'
// Conform for Monad.
func Conform(commands, states []byte, _ func(string) ([]byte, error)) (int, string, error) {
	v, err := ParseVector(commands)
	if err != nil {
		return 0, "", err
	}
	st, err := ParseStates(states)
	if err != nil {
		return 0, "", err
	}
	res, err := Compare(v, st)
	if err != nil {
		return 0, "", err
	}
	if res.Divergence != nil {
		return res.Turns, res.Divergence.String(), nil
	}
	return res.Turns, "", nil
}

// Compare replays v and compares it with st (see Conform).
func Compare(v *Vector, st *States) (*Result, error) {
	res := &Result{Name: v.Name}
	if d := CompareMap(v); d != nil {
		res.Divergence = d
		return res, nil
	}
	s, err := monad.New(v.Config())
	if err != nil {
		return nil, err
	}
	c := &compare{v: v, st: st, s: s, lastR: make([]int, monad.NumCells)}
	for i := range c.lastR {
		c.lastR[i] = -1
	}
	c.lw = newLogWriter()
	c.lw.printf(`{"w": %d, "h": %d, "turns": [`, monad.Width, monad.Height)
	T := len(st.Rounds)
	for t := 0; ; t++ {
		if d := c.frame(t); d != nil {
			res.Divergence = d
			return res, nil
		}
		over := s.Over()
		if t == T || over {
			if over != (t == T) {
				res.Divergence = &Divergence{Turn: t, Field: "game over", Want: strconv.FormatBool(t == T), Got: strconv.FormatBool(over)}
				return res, nil
			}
			break
		}
		if t >= len(v.Turns) {
			return nil, fmt.Errorf("%s: no commands for turn %d", v.Name, t)
		}
		cmds, timedOut := v.Commands(t)
		for p, list := range cmds {
			for k, cmd := range list {
				if cmd.Err != monad.ErrNone {
					res.Divergence = &Divergence{Turn: t, Field: fmt.Sprintf("command %d of player %d", k, p), Want: "accepted", Got: cmd.Err.String()}
					return res, nil
				}
			}
		}
		for _, p := range timedOut {
			s.SetTimedOut(p)
		}
		var lostBefore [monad.MaxPlayers]int64
		for p := 0; p < v.Players; p++ {
			lostBefore[p] = s.Stats(p).UnitsLost
		}
		s.Step(cmds)
		res.Turns++
		if d := c.round(t, lostBefore); d != nil {
			res.Divergence = d
			return res, nil
		}
	}
	if d := c.ranking(); d != nil {
		res.Divergence = d
		return res, nil
	}
	if got := c.lw.sum(); got != st.LogSHA256 {
		res.Divergence = &Divergence{Turn: s.Turn(), Field: "log_sha256 (the whole log as json.dumps)", Want: st.LogSHA256, Got: got}
	}
	return res, nil
}

// CompareMap checks the map GenerateMap draws from the vector's seed
// against its initial_map (every resource and the density factor).
func CompareMap(v *Vector) *Divergence {
	m := monad.GenerateMap(v.Seed, v.Uniform)
	im := v.InitialMap
	if im.W != monad.Width || im.H != monad.Height || len(im.Resource) != monad.Height {
		return &Divergence{Field: "initial_map size", Want: fmt.Sprintf("%dx%d", im.W, im.H), Got: fmt.Sprintf("%dx%d", monad.Width, monad.Height)}
	}
	if im.DensityFactor != m.DensityFactor {
		return &Divergence{Field: "initial_map.density_factor", Want: strconv.Itoa(im.DensityFactor), Got: strconv.Itoa(m.DensityFactor)}
	}
	for y, row := range im.Resource {
		if len(row) != monad.Width {
			return &Divergence{Field: fmt.Sprintf("initial_map.resource[%d]", y), Want: fmt.Sprintf("%d cells", len(row)), Got: "20 cells"}
		}
		for x, r := range row {
			if g := m.Resource[y*monad.Width+x]; g != r {
				return &Divergence{Field: fmt.Sprintf("initial_map.resource[%d][%d]", y, x), Want: strconv.Itoa(int(r)), Got: strconv.Itoa(int(g))}
			}
		}
	}
	return nil
}

type compare struct {
	v     *Vector
	st    *States
	s     *monad.State
	lastR []int // resource last written to the log per cell, -1 never
	lw    *logWriter
}

func div(t int, field string, want, got any) *Divergence {
	return &Divergence{Turn: t, Field: field, Want: fmt.Sprint(want), Got: fmt.Sprint(got)}
}

// frame compares the state before turn t with frames[t] and log.turns[t]
// (map and res) and writes the map and res to the log.
func (c *compare) frame(t int) *Divergence {
	s, f, lt := c.s, &c.st.Frames[t], &c.st.Log.Turns[t]
	if f.Turn != t {
		return div(t, "frames.turn", f.Turn, t)
	}
	var units, hives [][]int
	for y := 0; y < monad.Height; y++ {
		for x := 0; x < monad.Width; x++ {
			for p := 0; p < s.Players(); p++ {
				if u := s.UnitsAt(x, y, p); u != 0 {
					units = append(units, []int{x, y, p, u})
				}
			}
			if o, cnt, ok := s.Hive(x, y); ok {
				hives = append(hives, []int{x, y, o, cnt})
			}
		}
	}
	if d := compareList(t, "frames.units", f.Units, units); d != nil {
		return d
	}
	if d := compareList(t, "frames.hives", f.Hives, hives); d != nil {
		return d
	}
	if len(f.Resource) != monad.Height {
		return div(t, "frames.resource rows", len(f.Resource), monad.Height)
	}
	for y, row := range f.Resource {
		for x, r := range row {
			if g := s.Resource(x, y); g != r {
				return div(t, fmt.Sprintf("frames.resource[%d][%d]", y, x), r, g)
			}
		}
	}
	if len(f.Players) != s.Players() {
		return div(t, "frames.players count", len(f.Players), s.Players())
	}
	for p, row := range f.Players {
		ps := s.Stats(p)
		got := []any{ps.Resources, ps.UnitsProduced, ps.Units, ps.Hives, ps.TimedOut, ps.Crashed}
		if len(row) != len(got) {
			return div(t, fmt.Sprintf("frames.players[%d] columns", p), len(row), len(got))
		}
		for k := range row {
			if fmt.Sprint(row[k]) != fmt.Sprint(got[k]) {
				return div(t, fmt.Sprintf("frames.players[%d].%s", p, monadPlayerFields[k]), row[k], got[k])
			}
		}
	}
	// The log entry.
	if len(lt.Map) != monad.Height {
		return div(t, "log.turns.map rows", len(lt.Map), monad.Height)
	}
	if t > 0 {
		c.lw.printf(", ")
	}
	c.lw.printf(`{"map": [`)
	for y, row := range lt.Map {
		if len(row) != monad.Width {
			return div(t, fmt.Sprintf("log.turns.map[%d] cells", y), len(row), monad.Width)
		}
		if y > 0 {
			c.lw.printf(", ")
		}
		c.lw.printf("[")
		for x, w := range row {
			var gb, gr, gu, gp *int
			if o, _, ok := s.Hive(x, y); ok {
				gb = &o
			}
			if r := s.Resource(x, y); c.lastR[y*monad.Width+x] != r {
				c.lastR[y*monad.Width+x] = r
				gr = &r
			}
			if p, u := s.Occupant(x, y); p >= 0 {
				gu, gp = &u, &p
			}
			where := fmt.Sprintf("log.turns.map[%d][%d]", y, x)
			for _, e := range []struct {
				k         string
				want, got *int
			}{{"b", w.B, gb}, {"r", w.R, gr}, {"u", w.U, gu}, {"p", w.P, gp}} {
				if (e.want == nil) != (e.got == nil) || (e.want != nil && *e.want != *e.got) {
					return div(t, where+"."+e.k, optInt(e.want), optInt(e.got))
				}
			}
			if w.O != nil {
				return div(t, where+".o", *w.O, "absent")
			}
			if x > 0 {
				c.lw.printf(", ")
			}
			c.lw.printf("{")
			sep := ""
			for _, e := range []struct {
				k string
				v *int
			}{{"b", gb}, {"r", gr}, {"u", gu}, {"p", gp}} {
				if e.v != nil {
					c.lw.printf(`%s"%s": %d`, sep, e.k, *e.v)
					sep = ", "
				}
			}
			c.lw.printf("}")
		}
		c.lw.printf("]")
	}
	c.lw.printf(`], "res": [`)
	if len(lt.Res) != s.Players() {
		return div(t, "log.turns.res count", len(lt.Res), s.Players())
	}
	for p, r := range lt.Res {
		g := s.Stats(p).Resources
		if g != r {
			return div(t, fmt.Sprintf("log.turns.res[%d]", p), r, g)
		}
		if p > 0 {
			c.lw.printf(", ")
		}
		c.lw.printf("%d", g)
	}
	c.lw.printf(`], "cmd": [`)
	if t == len(c.st.Rounds) {
		c.lw.printf("]}")
		if len(lt.Cmd) != 0 {
			return div(t, "log.turns.cmd count (final entry)", len(lt.Cmd), 0)
		}
	}
	return nil
}

var monadPlayerFields = []string{"resources", "units_produced", "units", "hives", "timed_out", "crashed"}

func optInt(p *int) string {
	if p == nil {
		return "absent"
	}
	return strconv.Itoa(*p)
}

// compareList is the first divergence between the lists want and got of
// field at turn t (elements compared by their printed form), nil when
// they are the same.
func compareList[T any](t int, field string, want, got []T) *Divergence {
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(want):
			return div(t, fmt.Sprintf("%s[%d]", field, i), "absent", got[i])
		case i >= len(got):
			return div(t, fmt.Sprintf("%s[%d]", field, i), want[i], "absent")
		}
		if fmt.Sprint(want[i]) != fmt.Sprint(got[i]) {
			return div(t, fmt.Sprintf("%s[%d]", field, i), want[i], got[i])
		}
	}
	return nil
}

var rejectReason = map[monad.ErrCode]string{
	monad.ErrTargetOffMap: "target_off_map",
	monad.ErrNoUnits:      "no_units_there",
	monad.ErrTooManyUnits: "too_many_units",
}

var fightOutcome = map[int]string{
	monad.FightDestroyed: "destroyed",
	monad.FightDefended:  "defended",
	monad.FightPartial:   "partial",
}

var buildOutcome = map[monad.ErrCode]string{
	monad.ErrNone:               "built",
	monad.ErrOwnHive:            "own_hive",
	monad.ErrEnemyHive:          "enemy_hive",
	monad.ErrNotEnoughResources: "no_resources",
	monad.ErrNoUnitHere:         "no_units_here",
}

// round compares what the engine executed in turn t with log.turns[t].cmd,
// rounds[t].rejected and rounds[t].builds, the combat losses with
// rounds[t].collisions and fights, and writes the commands to the log.
func (c *compare) round(t int, lostBefore [monad.MaxPlayers]int64) *Divergence {
	s, lt, rd := c.s, &c.st.Log.Turns[t], &c.st.Rounds[t]
	if rd.Turn != t {
		return div(t, "rounds.turn", rd.Turn, t)
	}
	var logged, rejected, builds []string
	for k, e := range s.Executed() {
		tx, ty := monad.Neighbor(e.X, e.Y, e.Dir)
		d := "null"
		if e.Dir != monad.DirImplicit {
			d = strconv.Itoa(int(e.Dir))
		}
		if e.Code.Logged() {
			logged = append(logged, fmt.Sprintf(`{"u": %d, "p": %d, "t": %d, "d": %s, "n": %d}`, e.Player, e.X*monad.Width+e.Y, tx*monad.Width+ty, d, e.Count))
		} else {
			rejected = append(rejected, fmt.Sprintf("[%d %d %d %d %s %s %d %s]", k, e.Player, e.X, e.Y, e.Kind, strings.Replace(d, "null", "<nil>", 1), e.Count, rejectReason[e.Code]))
		}
		if e.Kind == monad.KindBuild && e.Code.Logged() {
			builds = append(builds, fmt.Sprintf("[%d %d %d %s]", e.Player, e.X, e.Y, buildOutcome[e.Code]))
		}
	}
	var want []string
	for _, m := range lt.Cmd {
		d := "null"
		if m.D != nil {
			d = strconv.Itoa(*m.D)
		}
		want = append(want, fmt.Sprintf(`{"u": %d, "p": %d, "t": %d, "d": %s, "n": %d}`, m.U, m.P, m.T, d, m.N))
	}
	if d := compareList(t, "log.turns.cmd", want, logged); d != nil {
		return d
	}
	want = want[:0]
	for _, r := range rd.Rejected {
		want = append(want, fmt.Sprint(r))
	}
	if d := compareList(t, "rounds.rejected", want, rejected); d != nil {
		return d
	}
	want = want[:0]
	for _, b := range rd.Builds {
		want = append(want, fmt.Sprint(b))
	}
	if d := compareList(t, "rounds.builds", want, builds); d != nil {
		return d
	}
	want = want[:0]
	var got []string
	for _, col := range rd.Collisions {
		want = append(want, fmt.Sprintf("amount %d a %v b %v", col.Amount, col.A, col.B))
	}
	for _, col := range s.Collisions() {
		got = append(got, fmt.Sprintf("amount %d a [%d %d %d %d] b [%d %d %d %d]", col.Amount,
			col.A.Player, col.A.X, col.A.Y, col.A.Removed, col.B.Player, col.B.X, col.B.Y, col.B.Removed))
	}
	if d := compareList(t, "rounds.collisions", want, got); d != nil {
		return d
	}
	want, got = want[:0], got[:0]
	for _, fi := range rd.Fights {
		hive, outcome := "null", "-"
		if fi.Hive != nil {
			hive = strconv.Itoa(*fi.Hive)
		}
		if fi.Outcome != nil {
			outcome = *fi.Outcome
		}
		want = append(want, fmt.Sprintf("(%d, %d) pre %v post %v hive %s outcome %s", fi.X, fi.Y, fi.Pre, fi.Post, hive, outcome))
	}
	for _, fi := range s.Fights() {
		hive, outcome := "null", "-"
		if fi.Hive >= 0 {
			hive = strconv.Itoa(fi.Hive)
			outcome = fightOutcome[fi.Outcome]
		}
		got = append(got, fmt.Sprintf("(%d, %d) pre %v post %v hive %s outcome %s", fi.X, fi.Y, fi.Pre[:s.Players()], fi.Post[:s.Players()], hive, outcome))
	}
	if d := compareList(t, "rounds.fights", want, got); d != nil {
		return d
	}
	// Combat losses: collisions' removed counts plus the fights' losses
	// (post minus this turn's production for a surviving hive's owner).
	var lost [monad.MaxPlayers]int64
	for _, col := range rd.Collisions {
		if len(col.A) == 4 && len(col.B) == 4 {
			lost[col.A[0]] += int64(col.A[3])
			lost[col.B[0]] += int64(col.B[3])
		}
	}
	f := &c.st.Frames[t+1]
	for _, fi := range rd.Fights {
		for p := range fi.Pre {
			post := fi.Post[p]
			if fi.Hive != nil && *fi.Hive == p {
				if o, cnt, ok := hiveIn(f.Hives, fi.X, fi.Y); ok && o == p && cnt == 1 && c.produced(t, fi.X, fi.Y) {
					post-- // the unit produced in this update
				}
			}
			if d := fi.Pre[p] - post; d > 0 {
				lost[p] += d
			}
		}
	}
	for p := 0; p < s.Players(); p++ {
		if got := s.Stats(p).UnitsLost - lostBefore[p]; got != lost[p] {
			return div(t, fmt.Sprintf("units lost in combat by player %d (rounds.collisions, rounds.fights)", p), lost[p], got)
		}
	}
	c.lw.printf("%s]}", strings.Join(logged, ", "))
	return nil
}

// produced reports whether the hive at (x, y) produced a unit in turn t's
// update: it existed before the turn with counter 5.
func (c *compare) produced(t, x, y int) bool {
	_, cnt, ok := hiveIn(c.st.Frames[t].Hives, x, y)
	return ok && cnt >= monad.UnitCost
}

func hiveIn(hives [][]int, x, y int) (owner, counter int, ok bool) {
	for _, h := range hives {
		if len(h) == 4 && h[0] == x && h[1] == y {
			return h[2], h[3], true
		}
	}
	return 0, 0, false
}

func (c *compare) ranking() *Divergence {
	s, want := c.s, c.st.Log.RankedBots
	got := s.Ranking()
	c.lw.printf(`], "rankedBots": [`)
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(want):
			return div(s.Turn(), fmt.Sprintf("log.rankedBots[%d]", i), "absent", got[i])
		case i >= len(got):
			return div(s.Turn(), fmt.Sprintf("log.rankedBots[%d]", i), want[i], "absent")
		}
		ps := s.Stats(got[i].Player)
		name := c.v.Bots.Names[got[i].Player]
		g := fmt.Sprintf("%s crashed=%t timedOut=%t rank=%d", name, ps.Crashed, ps.TimedOut, got[i].Rank)
		w := fmt.Sprintf("%s crashed=%t timedOut=%t rank=%d", want[i].ID, want[i].Crashed, want[i].TimedOut, want[i].Rank)
		if g != w {
			return div(s.Turn(), fmt.Sprintf("log.rankedBots[%d]", i), w, g)
		}
		if i > 0 {
			c.lw.printf(", ")
		}
		c.lw.printf(`{"_id": %s, "crashed": %t, "timedOut": %t, "rank": %d}`, pyString(name), ps.Crashed, ps.TimedOut, got[i].Rank)
	}
	c.lw.printf("]}")
	return nil
}

// pyString writes s as Python's json.dumps does (ensure_ascii).
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r >= 0x7f:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// logWriter hashes the log text as it is produced.
type logWriter struct {
	h   hashWriter
	err error
}

type hashWriter interface {
	io.Writer
	Sum([]byte) []byte
}

func newLogWriter() *logWriter { return &logWriter{h: sha256.New()} }

func (l *logWriter) printf(format string, a ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.h, format, a...)
	}
}

func (l *logWriter) sum() string {
	if l.err != nil {
		return "error: " + l.err.Error()
	}
	return hex.EncodeToString(l.h.Sum(nil))
}
