// Package vectors plays the ColorFight v1 conformance vectors
// (../shared/colorfight1: vNN.input.json and vNN.states.json.gz, whose
// README describes them) on package rules and reports the first
// divergence from the reference: every answer, every poll digest and
// every column of every row after every poll and every command.
package vectors

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// The vectors' file endings and formats.
const (
	Input          = ".input.json"
	Expected       = ".states.json.gz"
	InputFormat    = "colorfight1-vector-input/1"
	ExpectedFormat = "colorfight1-vector-states/1"
)

// Vector is a parsed input file.
type Vector struct {
	Name  string
	Clock struct {
		T0   float64 `json:"t0"`
		Tick float64 `json:"tick"`
	} `json:"clock"`
	Seed        uint64          `json:"seed"`
	StartGame   json.RawMessage `json:"startgame"`
	GoldCells   []int           `json:"gold_cells"`
	EnergyCells []int           `json:"energy_cells"`
	Ticks       int             `json:"ticks"`
	Commands    []struct {
		K    int       `json:"k"`
		Cmds []Command `json:"cmds"`
	} `json:"commands"`
}

// Command is one request of a vector.
type Command struct {
	Ep    string          `json:"ep"`
	Body  json.RawMessage `json:"body"`
	Raw   *string         `json:"raw"`
	CType string          `json:"ctype"`
	Spawn *[2]int         `json:"spawn"`
}

// MaxTicks bounds a vector's ticks (docs/limits.md).
const MaxTicks = 1 << 20

// ParseInput parses an input file.
func ParseInput(b []byte) (*Vector, error) {
	var head struct {
		Format string `json:"format"`
		Name   string `json:"name"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("colorfight1 vector input: %w", err)
	}
	if head.Format != InputFormat {
		return nil, fmt.Errorf("colorfight1 vector input: format %q, want %q", head.Format, InputFormat)
	}
	v := &Vector{Name: head.Name}
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("colorfight1 vector input %s: %w", head.Name, err)
	}
	if v.Ticks < 0 || v.Ticks > MaxTicks {
		return nil, fmt.Errorf("colorfight1 vector input %s: %d ticks, want 0..%d", v.Name, v.Ticks, MaxTicks)
	}
	last := -1
	for i, c := range v.Commands {
		if c.K <= last || c.K > v.Ticks {
			return nil, fmt.Errorf("colorfight1 vector input %s: commands[%d] at tick %d: ticks must rise within 0..%d", v.Name, i, c.K, v.Ticks)
		}
		last = c.K
	}
	return v, nil
}

// Config is the game the vector starts: its clock, seed, map and tick
// 0's /startgame (admin password "": RULES §12.2).
func (v *Vector) Config() (rules.Config, error) {
	c := rules.Config{T0: v.Clock.T0, Tick: v.Clock.Tick, Seed: v.Seed, GoldCells: v.GoldCells, EnergyCells: v.EnergyCells}
	b, err := rules.ParseBody(true, v.StartGame)
	if err != nil {
		return c, fmt.Errorf("startgame: %w", err)
	}
	if pw, _ := b.String(rules.FieldAdminPassword); pw != "" {
		return c, fmt.Errorf("startgame: admin password %q, want \"\"", pw)
	}
	c.LastTime, _ = b.Number(rules.FieldLastTime)
	c.JoinTime, _ = b.Number(rules.FieldJoinTime)
	empty := ""
	c.AdminPassword = &empty
	return c, nil
}

// JoinToken is the token the vectors' j-th /joingame gets (the
// reference's is random and never part of the state).
func JoinToken(j int) string { return fmt.Sprintf("rewind-join-%020d", j) }

// Request turns a command into a request; joins counts the /joingame
// commands before it.
func Request(c *Command, joins int) (rules.Request, error) {
	ep, ok := rules.EndpointOf(c.Ep)
	if !ok {
		return rules.Request{}, fmt.Errorf("unknown endpoint %q", c.Ep)
	}
	r := rules.Request{Endpoint: ep, Spawn: -1}
	var b rules.Body
	var err error
	if c.Raw != nil {
		b, err = rules.ParseBody(IsJSONType(c.CType), []byte(*c.Raw))
	} else {
		b, err = rules.ParseBody(true, c.Body)
	}
	if err != nil {
		r.BadJSON = err
	}
	if raw := b.Raw(rules.FieldToken); len(raw) > 0 && raw[0] == '{' {
		var ref struct {
			Join *int `json:"$join"`
		}
		if json.Unmarshal(raw, &ref) != nil || ref.Join == nil || *ref.Join < 0 {
			return r, fmt.Errorf("token %s is neither a string nor a {\"$join\": j}", raw)
		}
		tok, _ := json.Marshal(JoinToken(*ref.Join))
		b.Set(rules.FieldToken, tok)
	}
	r.Body = &b
	if ep == rules.JoinGame {
		r.Token = JoinToken(joins)
		if c.Spawn != nil {
			x, y := c.Spawn[0], c.Spawn[1]
			if x < 0 || x >= rules.Width || y < 0 || y >= rules.Height {
				return r, fmt.Errorf("spawn %v is off the map", *c.Spawn)
			}
			r.Spawn = x + rules.Width*y
		}
	}
	return r, nil
}

// IsJSONType reports whether a Content-Type is JSON as Flask's is_json
// finds it: application/json or application/…+json, parameters aside.
func IsJSONType(ctype string) bool {
	mt, _, _ := strings.Cut(ctype, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// states is a parsed states file.
type states struct {
	Format     string                     `json:"format"`
	Name       string                     `json:"name"`
	CellFields []string                   `json:"cell_fields"`
	UserFields []string                   `json:"user_fields"`
	InfoFields []string                   `json:"info_fields"`
	Start      snapshot                   `json:"start"`
	Ticks      []tickRec                  `json:"ticks"`
	FullPolls  map[string]json.RawMessage `json:"full_polls"`
	Final      snapshot                   `json:"final"`
	Pow        struct {
		X     []string `json:"x"`
		Glibc []string `json:"glibc"`
	} `json:"pow_exceptions"`
}

type snapshot struct {
	Response json.RawMessage     `json:"response"`
	Cells    [][]json.RawMessage `json:"cells"`
	Users    [][]json.RawMessage `json:"users"`
	Info     [][]json.RawMessage `json:"info"`
}

type tickRec struct {
	K    int                 `json:"k"`
	Poll []json.RawMessage   `json:"poll"`
	Upd  *delta              `json:"upd"`
	Cmds [][]json.RawMessage `json:"cmds"`
}

type delta struct {
	C      [][2]json.RawMessage         `json:"c"`
	UPlus  []map[string]json.RawMessage `json:"u+"`
	UMinus []int                        `json:"u-"`
	U      [][2]json.RawMessage         `json:"u"`
	I      [][2]json.RawMessage         `json:"i"`
}

// Pow2 returns the vector's 2 ** x: the correctly rounded one with its
// pow_exceptions.
func (st *states) Pow2() (*rules.Pow2, error) {
	if len(st.Pow.X) != len(st.Pow.Glibc) {
		return nil, fmt.Errorf("pow_exceptions: %d x, %d glibc", len(st.Pow.X), len(st.Pow.Glibc))
	}
	xs, ys := make([]float64, len(st.Pow.X)), make([]float64, len(st.Pow.X))
	for i := range xs {
		var err1, err2 error
		xs[i], err1 = strconv.ParseFloat(st.Pow.X[i], 64)
		ys[i], err2 = strconv.ParseFloat(st.Pow.Glibc[i], 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("pow_exceptions[%d]: %w", i, err)
		}
	}
	return rules.NewPow2(xs, ys), nil
}

// Conform plays a vector's bytes for `rewind conform`
// (engine.Vectors.Conform): the rounds are its ticks compared. An input
// of another game whose vectors have the same file endings (registered
// after this one) is played by that game's Conform.
func Conform(input, expected []byte, read func(rel string) ([]byte, error)) (rounds int, divergence string, err error) {
	v, err := ParseInput(input)
	if err != nil {
		return 0, "", &engine.VectorFileError{Err: err}
	}
	r, err := check(v, expected)
	if err != nil {
		return 0, "", err
	}
	if len(r.Divergences) > 0 {
		return r.Ticks, r.Divergences[0], nil
	}
	return r.Ticks, "", nil
}

// Report is the outcome of one vector.
type Report struct {
	Name string
	// Ticks is the number of ticks compared.
	Ticks int
	// Divergences are the differences found, in order, at most
	// maxDivergences: "tick K, WHERE: WHAT: got X, want Y".
	Divergences []string
	// Polls is the number of poll digests compared, FullPolls of whole
	// answers, Commands of commands.
	Polls, FullPolls, Commands int
}

const maxDivergences = 20

func (r *Report) addf(format string, a ...any) bool {
	if len(r.Divergences) < maxDivergences {
		r.Divergences = append(r.Divergences, fmt.Sprintf(format, a...))
	}
	return len(r.Divergences) >= maxDivergences
}

// Check plays vector v and compares it with its states file's bytes.
func Check(v *Vector, expected []byte) (*Report, error) { return check(v, expected) }

// withoutPowExceptions, set by a test, plays vectors with the correctly
// rounded 2^x alone.
var withoutPowExceptions bool

func check(v *Vector, expected []byte) (*Report, error) {
	var st states
	if err := json.Unmarshal(expected, &st); err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("colorfight1 vector states: %w", err)}
	}
	if st.Format != ExpectedFormat {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("colorfight1 vector states: format %q, want %q", st.Format, ExpectedFormat)}
	}
	if len(st.Ticks) != v.Ticks+1 {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("%d ticks recorded for an input of %d", len(st.Ticks), v.Ticks+1)}
	}
	pow, err := st.Pow2()
	if err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: err}
	}
	if withoutPowExceptions {
		pow = nil
	}
	cfg, err := v.Config()
	if err != nil {
		return nil, &engine.VectorFileError{Err: err}
	}
	s, err := rules.New(cfg, pow)
	if err != nil {
		return nil, &engine.VectorFileError{Err: err}
	}
	want, err := newModel(&st)
	if err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: err}
	}
	r := &Report{Name: v.Name}
	if r.compare(s, want, "tick 0, after /startgame") {
		return r, nil
	}
	var buf []byte
	joins, ci := 0, 0
	for k := 0; k <= v.Ticks; k++ {
		r.Ticks = k + 1
		tr := &st.Ticks[k]
		if tr.K != k {
			return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("ticks[%d] is tick %d", k, tr.K)}
		}
		if k > 0 {
			s.Advance()
			if err := want.apply(tr.Upd); err != nil {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("tick %d: upd: %w", k, err)}
			}
			if r.compare(s, want, fmt.Sprintf("tick %d, after the poll", k)) {
				return r, nil
			}
			buf = s.AppendPoll(buf[:0])
			if len(tr.Poll) != 2 {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("tick %d: poll %v", k, tr.Poll)}
			}
			sum := sha256.Sum256(buf)
			var digest string
			json.Unmarshal(tr.Poll[1], &digest)
			r.Polls++
			if got := hex.EncodeToString(sum[:8]); got != digest {
				if r.addf("tick %d, poll: digest %s, want %s%s", k, got, digest, firstCellDiff(st.FullPolls[strconv.Itoa(k)], buf)) {
					return r, nil
				}
			}
			if full, ok := st.FullPolls[strconv.Itoa(k)]; ok {
				r.FullPolls++
				canon, err := Canonical(full)
				if err != nil {
					return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("full_polls %d: %w", k, err)}
				}
				if s2 := sha256.Sum256(canon); hex.EncodeToString(s2[:8]) != digest {
					return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("full_polls %d does not have its tick's digest", k)}
				}
				if !bytes.Equal(canon, buf) {
					if r.addf("tick %d, poll answer:%s", k, firstCellDiff(full, buf)) {
						return r, nil
					}
				}
			}
		}
		var cmds []Command
		if ci < len(v.Commands) && v.Commands[ci].K == k {
			cmds = v.Commands[ci].Cmds
			ci++
		}
		if len(tr.Cmds) != len(cmds) {
			return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("tick %d: %d command records for %d commands", k, len(tr.Cmds), len(cmds))}
		}
		for i := range cmds {
			c := &cmds[i]
			req, err := Request(c, joins)
			if err != nil {
				return nil, &engine.VectorFileError{Err: fmt.Errorf("tick %d, command %d (%s): %w", k, i, c.Ep, err)}
			}
			if req.Endpoint == rules.JoinGame {
				joins++
			}
			resp := s.Do(req)
			r.Commands++
			rec := tr.Cmds[i]
			where := fmt.Sprintf("tick %d, command %d (%s)", k, i, c.Ep)
			if len(rec) != 3 {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("%s: a record of %d items", where, len(rec))}
			}
			var status int
			json.Unmarshal(rec[0], &status)
			if resp.Shape == rules.ShapeToken {
				resp.Token = "<token>"
			}
			got := string(resp.AppendJSON(nil))
			wantAns, err := Canonical(rec[1])
			if err != nil {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("%s: answer: %w", where, err)}
			}
			if resp.Status != status || got != string(wantAns) {
				if r.addf("%s: answer %d %s, want %d %s", where, resp.Status, got, status, wantAns) {
					return r, nil
				}
			}
			var d delta
			if err := json.Unmarshal(rec[2], &d); err != nil {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("%s: delta: %w", where, err)}
			}
			if err := want.apply(&d); err != nil {
				return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("%s: delta: %w", where, err)}
			}
			if r.compare(s, want, "after "+where) {
				return r, nil
			}
		}
	}
	final, err := newModel(&states{Start: st.Final, UserFields: st.UserFields, CellFields: st.CellFields, InfoFields: st.InfoFields})
	if err != nil {
		return nil, &engine.VectorFileError{Expected: true, Err: fmt.Errorf("final: %w", err)}
	}
	r.compare(s, final, "the final state")
	return r, nil
}

// firstCellDiff names the first cell or user whose poll object differs
// between the recorded answer full (nil when not recorded) and got.
func firstCellDiff(full json.RawMessage, got []byte) string {
	if full == nil {
		return ""
	}
	var w, g struct {
		Cells []json.RawMessage
		Users []json.RawMessage
		Info  json.RawMessage
	}
	if json.Unmarshal(full, &w) != nil || json.Unmarshal(got, &g) != nil {
		return ""
	}
	for i := range min(len(w.Cells), len(g.Cells)) {
		if c, _ := Canonical(w.Cells[i]); !bytes.Equal(c, g.Cells[i]) {
			return fmt.Sprintf(" cell %d: got %s, want %s", i, g.Cells[i], c)
		}
	}
	for i := range min(len(w.Users), len(g.Users)) {
		if c, _ := Canonical(w.Users[i]); !bytes.Equal(c, g.Users[i]) {
			return fmt.Sprintf(" user %d: got %s, want %s", i, g.Users[i], c)
		}
	}
	if c, _ := Canonical(w.Info); !bytes.Equal(c, g.Info) {
		return fmt.Sprintf(" info: got %s, want %s", g.Info, c)
	}
	return fmt.Sprintf(" %d cells and %d users, want %d and %d", len(g.Cells), len(g.Users), len(w.Cells), len(w.Users))
}

// Canonical re-writes a JSON value in the vectors' canonical form: keys
// sorted, no spaces, integers as integers, floats as Python writes them,
// strings ASCII (rules.AppendFloat, rules.AppendString).
func Canonical(raw []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return appendCanonical(nil, v)
}

func appendCanonical(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case string:
		return rules.AppendString(dst, v), nil
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return nil, err
			}
			return rules.AppendFloat(dst, f), nil
		}
		return append(dst, v...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendCanonical(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = rules.AppendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendCanonical(dst, v[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, fmt.Errorf("unexpected %T", v)
}

// model is the reference's tables as the states file gives them.
type model struct {
	cells [rules.NumCells]rules.Cell
	users []userRow // ascending id
	info  rules.Info
	cf    []string
	uf    []string
	inf   []string
}

type userRow struct {
	u          rules.User
	tokenEmpty bool
}

func newModel(st *states) (*model, error) {
	m := &model{cf: st.CellFields, uf: st.UserFields, inf: st.InfoFields}
	if len(st.Start.Cells) != rules.NumCells {
		return nil, fmt.Errorf("start: %d cells", len(st.Start.Cells))
	}
	for i, row := range st.Start.Cells {
		if len(row) != len(m.cf) {
			return nil, fmt.Errorf("start: cell row %d has %d columns, want %d", i, len(row), len(m.cf))
		}
		for j, col := range m.cf {
			if err := setCell(&m.cells[i], i, col, row[j]); err != nil {
				return nil, fmt.Errorf("start: cell %d: %w", i, err)
			}
		}
	}
	for i, row := range st.Start.Users {
		if len(row) != len(m.uf) {
			return nil, fmt.Errorf("start: user row %d has %d columns", i, len(row))
		}
		var u userRow
		for j, col := range m.uf {
			if err := setUser(&u, col, row[j]); err != nil {
				return nil, fmt.Errorf("start: user row %d: %w", i, err)
			}
		}
		m.users = append(m.users, u)
	}
	slices.SortFunc(m.users, func(a, b userRow) int { return a.u.ID - b.u.ID })
	if len(st.Start.Info) != 1 || len(st.Start.Info[0]) != len(m.inf) {
		return nil, fmt.Errorf("start: info rows %d", len(st.Start.Info))
	}
	for j, col := range m.inf {
		if err := setInfo(&m.info, col, st.Start.Info[0][j]); err != nil {
			return nil, fmt.Errorf("start: info: %w", err)
		}
	}
	return m, nil
}

func (m *model) apply(d *delta) error {
	if d == nil {
		return nil
	}
	for _, c := range d.C {
		var id int
		if err := json.Unmarshal(c[0], &id); err != nil || id < 0 || id >= rules.NumCells {
			return fmt.Errorf("cell id %s", c[0])
		}
		cols, err := columns(c[1])
		if err != nil {
			return fmt.Errorf("cell %d: %w", id, err)
		}
		for _, kv := range cols {
			if err := setCell(&m.cells[id], id, kv.k, kv.v); err != nil {
				return fmt.Errorf("cell %d: %w", id, err)
			}
		}
	}
	for _, uid := range d.UMinus {
		i := m.find(uid)
		if i < 0 {
			return fmt.Errorf("u-: no user %d", uid)
		}
		m.users = slices.Delete(m.users, i, i+1)
	}
	for _, obj := range d.UPlus {
		var u userRow
		for _, k := range sortedKeys(obj) {
			if err := setUser(&u, k, obj[k]); err != nil {
				return fmt.Errorf("u+: %w", err)
			}
		}
		if m.find(u.u.ID) >= 0 {
			return fmt.Errorf("u+: user %d exists", u.u.ID)
		}
		m.users = append(m.users, u)
		slices.SortFunc(m.users, func(a, b userRow) int { return a.u.ID - b.u.ID })
	}
	for _, c := range d.U {
		var uid int
		if err := json.Unmarshal(c[0], &uid); err != nil {
			return fmt.Errorf("user id %s", c[0])
		}
		i := m.find(uid)
		if i < 0 {
			return fmt.Errorf("u: no user %d", uid)
		}
		cols, err := columns(c[1])
		if err != nil {
			return fmt.Errorf("user %d: %w", uid, err)
		}
		for _, kv := range cols {
			if err := setUser(&m.users[i], kv.k, kv.v); err != nil {
				return fmt.Errorf("user %d: %w", uid, err)
			}
		}
	}
	for _, c := range d.I {
		cols, err := columns(c[1])
		if err != nil {
			return fmt.Errorf("info: %w", err)
		}
		for _, kv := range cols {
			if err := setInfo(&m.info, kv.k, kv.v); err != nil {
				return fmt.Errorf("info: %w", err)
			}
		}
	}
	return nil
}

func (m *model) find(uid int) int {
	for i := range m.users {
		if m.users[i].u.ID == uid {
			return i
		}
	}
	return -1
}

type column struct {
	k string
	v json.RawMessage
}

func columns(raw json.RawMessage) ([]column, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	var out []column
	for _, k := range sortedKeys(obj) {
		out = append(out, column{k, obj[k]})
	}
	return out, nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func num(raw json.RawMessage) (float64, error) {
	var f float64
	err := json.Unmarshal(raw, &f)
	return f, err
}

func integer(raw json.RawMessage) (int, error) {
	var i int
	err := json.Unmarshal(raw, &i)
	return i, err
}

func boolean(raw json.RawMessage) (bool, error) {
	var b bool
	err := json.Unmarshal(raw, &b)
	return b, err
}

func str(raw json.RawMessage) (string, error) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

func setCell(c *rules.Cell, id int, col string, raw json.RawMessage) error {
	var err error
	var i int
	var s string
	switch col {
	case "id":
		i, err = integer(raw)
		if err == nil && i != id {
			err = fmt.Errorf("id %d in row %d", i, id)
		}
	case "x":
		i, err = integer(raw)
		if err == nil && i != id%rules.Width {
			err = fmt.Errorf("x %d", i)
		}
	case "y":
		i, err = integer(raw)
		if err == nil && i != id/rules.Width {
			err = fmt.Errorf("y %d", i)
		}
	case "owner":
		i, err = integer(raw)
		c.Owner = int32(i)
	case "attacker":
		i, err = integer(raw)
		c.Attacker = int32(i)
	case "occupy_time":
		c.OccupyTime, err = num(raw)
	case "attack_time":
		c.AttackTime, err = num(raw)
	case "finish_time":
		c.FinishTime, err = num(raw)
	case "last_update":
		c.LastUpdate, err = num(raw)
	case "build_time":
		c.BuildTime, err = num(raw)
	case "is_taking":
		c.IsTaking, err = boolean(raw)
	case "build_finish":
		c.BuildFinish, err = boolean(raw)
	case "attack_type":
		s, err = str(raw)
		c.Blast = s == "blast"
		if err == nil && s != "blast" && s != "normal" {
			err = fmt.Errorf("attack_type %q", s)
		}
	case "build_type":
		s, err = str(raw)
		c.Base = s == "base"
		if err == nil && s != "base" && s != "empty" {
			err = fmt.Errorf("build_type %q", s)
		}
	case "cell_type":
		s, err = str(raw)
		switch s {
		case "normal":
			c.Type = rules.Normal
		case "gold":
			c.Type = rules.Gold
		case "energy":
			c.Type = rules.Energy
		default:
			if err == nil {
				err = fmt.Errorf("cell_type %q", s)
			}
		}
	default:
		err = fmt.Errorf("unknown column %q", col)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", col, err)
	}
	return nil
}

func setUser(r *userRow, col string, raw json.RawMessage) error {
	u := &r.u
	var err error
	switch col {
	case "id":
		u.ID, err = integer(raw)
	case "name":
		u.Name, err = str(raw)
	case "token_empty":
		r.tokenEmpty, err = boolean(raw)
	case "cd_time":
		u.CDTime, err = num(raw)
	case "build_cd_time":
		u.BuildCDTime, err = num(raw)
	case "cells":
		u.Cells, err = integer(raw)
	case "bases":
		u.Bases, err = integer(raw)
	case "energy_cells":
		u.EnergyCells, err = integer(raw)
	case "gold_cells":
		u.GoldCells, err = integer(raw)
	case "dirty":
		u.Dirty, err = boolean(raw)
	case "energy":
		u.Energy, err = num(raw)
	case "gold":
		u.Gold, err = num(raw)
	case "dead_time":
		u.DeadTime, err = num(raw)
	default:
		err = fmt.Errorf("unknown column %q", col)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", col, err)
	}
	return nil
}

func setInfo(in *rules.Info, col string, raw json.RawMessage) error {
	var err error
	var id int
	switch col {
	case "id":
		id, err = integer(raw)
		if err == nil && id != 0 {
			err = fmt.Errorf("info row %d", id)
		}
	case "width":
		in.Width, err = integer(raw)
	case "height":
		in.Height, err = integer(raw)
	case "max_id":
		in.MaxID, err = integer(raw)
	case "end_time":
		in.EndTime, err = num(raw)
	case "join_end_time":
		in.JoinEndTime, err = num(raw)
	case "ai_only":
		in.AIOnly, err = boolean(raw)
	case "last_update":
		in.LastUpdate, err = num(raw)
	case "game_id":
		in.GameID, err = integer(raw)
	case "plan_start_time":
		in.PlanStartTime, err = num(raw)
	default:
		err = fmt.Errorf("unknown column %q", col)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", col, err)
	}
	return nil
}

// compare adds the differences between s and m, at where; it reports
// whether the report is full.
func (r *Report) compare(s *rules.State, m *model, where string) bool {
	for id := range s.Cells {
		g, w := &s.Cells[id], &m.cells[id]
		if *g == *w && sameBits(g, w) {
			continue
		}
		for _, d := range cellDiffs(g, w) {
			if r.addf("%s: cell %d (%d,%d) %s", where, id, id%rules.Width, id/rules.Width, d) {
				return true
			}
		}
	}
	gi, wi := 0, 0
	for gi < len(s.Users) || wi < len(m.users) {
		switch {
		case wi >= len(m.users) || gi < len(s.Users) && s.Users[gi].ID < m.users[wi].u.ID:
			if r.addf("%s: user %d exists, want no such row", where, s.Users[gi].ID) {
				return true
			}
			gi++
		case gi >= len(s.Users) || s.Users[gi].ID > m.users[wi].u.ID:
			if r.addf("%s: no user %d, want a row", where, m.users[wi].u.ID) {
				return true
			}
			wi++
		default:
			for _, d := range userDiffs(&s.Users[gi], &m.users[wi]) {
				if r.addf("%s: user %d %s", where, s.Users[gi].ID, d) {
					return true
				}
			}
			gi++
			wi++
		}
	}
	for _, d := range infoDiffs(&s.Info, &m.info) {
		if r.addf("%s: info %s", where, d) {
			return true
		}
	}
	return false
}

func sameBits(a, b *rules.Cell) bool {
	return math.Float64bits(a.OccupyTime) == math.Float64bits(b.OccupyTime) &&
		math.Float64bits(a.AttackTime) == math.Float64bits(b.AttackTime) &&
		math.Float64bits(a.FinishTime) == math.Float64bits(b.FinishTime) &&
		math.Float64bits(a.LastUpdate) == math.Float64bits(b.LastUpdate) &&
		math.Float64bits(a.BuildTime) == math.Float64bits(b.BuildTime)
}

type diffs []string

func (d *diffs) f(name string, got, want float64) {
	if math.Float64bits(got) != math.Float64bits(want) {
		*d = append(*d, fmt.Sprintf("%s: got %s, want %s", name, rules.AppendFloat(nil, got), rules.AppendFloat(nil, want)))
	}
}

func (d *diffs) v(name string, got, want any) {
	if got != want {
		*d = append(*d, fmt.Sprintf("%s: got %v, want %v", name, got, want))
	}
}

func cellDiffs(g, w *rules.Cell) []string {
	var d diffs
	d.v("owner", g.Owner, w.Owner)
	d.f("occupy_time", g.OccupyTime, w.OccupyTime)
	d.v("is_taking", g.IsTaking, w.IsTaking)
	d.v("attacker", g.Attacker, w.Attacker)
	d.f("attack_time", g.AttackTime, w.AttackTime)
	d.v("attack_type blast", g.Blast, w.Blast)
	d.f("finish_time", g.FinishTime, w.FinishTime)
	d.f("last_update", g.LastUpdate, w.LastUpdate)
	d.v("cell_type", g.Type, w.Type)
	d.v("build_type base", g.Base, w.Base)
	d.v("build_finish", g.BuildFinish, w.BuildFinish)
	d.f("build_time", g.BuildTime, w.BuildTime)
	return d
}

func userDiffs(g *rules.User, w *userRow) []string {
	var d diffs
	d.v("name", g.Name, w.u.Name)
	d.v("token_empty", g.Token == "", w.tokenEmpty)
	d.f("cd_time", g.CDTime, w.u.CDTime)
	d.f("build_cd_time", g.BuildCDTime, w.u.BuildCDTime)
	d.v("cells", g.Cells, w.u.Cells)
	d.v("bases", g.Bases, w.u.Bases)
	d.v("energy_cells", g.EnergyCells, w.u.EnergyCells)
	d.v("gold_cells", g.GoldCells, w.u.GoldCells)
	d.v("dirty", g.Dirty, w.u.Dirty)
	d.f("energy", g.Energy, w.u.Energy)
	d.f("gold", g.Gold, w.u.Gold)
	d.f("dead_time", g.DeadTime, w.u.DeadTime)
	return d
}

func infoDiffs(g, w *rules.Info) []string {
	var d diffs
	d.v("width", g.Width, w.Width)
	d.v("height", g.Height, w.Height)
	d.v("max_id", g.MaxID, w.MaxID)
	d.f("end_time", g.EndTime, w.EndTime)
	d.f("join_end_time", g.JoinEndTime, w.JoinEndTime)
	d.v("ai_only", g.AIOnly, w.AIOnly)
	d.f("last_update", g.LastUpdate, w.LastUpdate)
	d.v("game_id", g.GameID, w.GameID)
	d.f("plan_start_time", g.PlanStartTime, w.PlanStartTime)
	return d
}
