// Package jsn reads Skyport observer recordings (.jsn): what the
// observer port of a Skyport server sent during one game, one JSON
// message per line (PROTOCOL-SKYPORT §10) — the connect reply, every
// gamestate (with "alive" per player), endturn, every valid action as
// broadcast (with "from"; lasers with "start"/"stop"), endactions and
// subtitles — as the public recordings of pilsprog/skyport-logic hold it
// (ais/old/recorder.py).
//
// Open reads such a file as an engine.Stream of generic frames: the
// recorded gamestates shown as they are, never re-simulated (the public
// recordings come from servers older than Rev 1, whose rules differ:
// docs/skyport.md, "Recordings (.jsn)"). Frame 0 is the gamestate of turn
// 1 (everyone on their spawn); frame i is the gamestate of turn i+1, with
// the events of player-turn i: the actions the observer was sent and what
// the change between the two gamestates shows (hits, kills, respawns).
// Each frame's Board is drawn through the skyport engine's seam
// (skyport.FromView, Game.Board) plus the effects of the
// turn's actions.
//
// Players are numbered in the order of the turn-0 gamestate (the turn
// ring from its first element; the recording does not say in which order
// the players connected). Values follow skyport's metrics; those no
// recording can tell are reported as 0 and named in the Meta's
// "unknown" setting (Unknown). Commands are not known: the observer sees
// the valid actions only, which are reported as events and counted in
// the metrics; CommandsKnown is false.
//
// Every input is bounded (the Max constants, docs/limits.md); a damaged
// or cut file gives the frames before the damage, then an error naming
// the line and its byte offset. Nothing panics (FuzzJSN).
package jsn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/replay"
)

// Name is the format's name (StreamMeta.Format).
const Name = "skyport-jsn"

// Label is the StreamMeta.Label of every .jsn stream. A recording does
// not say which server made it; the public ones come from pre-Rev 1
// servers (docs/skyport.md).
const Label = "observer recording, shown as recorded and not re-simulated (the public .jsn recordings are from pre-Rev 1 servers)"

// Limits. A file beyond one is refused (or, past the first frame, ends
// with an error after the frames before).
const (
	// MaxLineBytes is the longest line (message): a gamestate of the
	// largest map (99×99) is about 60 KB.
	MaxLineBytes = 1 << 20
	// MaxTurns is the highest turn number (and so the most frames).
	MaxTurns = 100_000
	// MaxTurnLines is the most lines between two gamestates (endturn,
	// actions, endactions, subtitles); Rev 1 sends at most 3 actions.
	MaxTurnLines = 256
	// MaxSequence is the longest droid sequence read.
	MaxSequence = 64
	// MaxNameBytes is the longest player name (Rev 1 allows 16).
	MaxNameBytes = 64
	// MaxNumber bounds every number read (turn, health, score, level,
	// mortar offset) in absolute value.
	MaxNumber = 1_000_000_000
	// MaxDepth is the deepest JSON nesting of a line.
	MaxDepth = 32
	// MaxPlayers and MaxSize are the engine's (skyport.MaxPlayers,
	// skyport.MaxSize).
	MaxPlayers = skyport.MaxPlayers
	MaxSize    = skyport.MaxSize
)

// Unknown names the metrics no observer recording tells, each reported
// as 0: the resources held (the gamestate does not show them),
// the −10 penalties and the damage the position bonus added (invalid
// actions are never sent to the observer, so neither their number nor
// their position is known).
var Unknown = []string{"rubidium", "explosium", "scrap", "penalties", "bonus_damage"}

// Sniff reports whether prefix (a file's first bytes) starts an observer
// recording: its first line is a JSON object whose "message" is
// "connect" (with a "status") or "gamestate". A .rwd (magic "RWD1"), a
// .cfr (a JSON list or gzip) or any object without that first message
// is not.
func Sniff(prefix []byte) bool {
	line := bytes.TrimLeft(prefix, " \t\r\n")
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		var m struct {
			Message string          `json:"message"`
			Status  json.RawMessage `json:"status"`
			Turn    json.RawMessage `json:"turn"`
		}
		if json.Unmarshal(line[:i], &m) != nil {
			return false
		}
		return (m.Message == "connect" && m.Status != nil) || (m.Message == "gamestate" && m.Turn != nil)
	}
	// A first line longer than the prefix: a gamestate as the server
	// writes it (no spaces).
	return bytes.Contains(line, []byte(`"message":"gamestate"`)) && bytes.Contains(line, []byte(`"turn":`))
}

// Open reads a recording's start from r, up to the gamestate of turn 1,
// and returns the Stream of its frames. It fails when r is not an
// observer recording or ends or breaks before that gamestate.
func Open(r io.Reader) (engine.Stream, error) {
	d := &decoder{br: bufio.NewReaderSize(r, 64<<10)}
	if err := d.start(); err != nil {
		return nil, err
	}
	return d, nil
}

// snap is one gamestate.
type snap struct {
	turn    int
	line    int
	tiles   []byte
	players []skyport.ViewPlayer
	order   []int
}

type totals struct {
	dealt, taken, kills, deaths int64
	mined                       [3]int64
	moves, mines, upgrades      int64
	shots                       int64
}

// action is one broadcast action.
type action struct {
	line int
	typ  string
	dir  string
	// start, stop: a laser's; seq a droid's; dj, dk a mortar's offset;
	// weapon an upgrade's.
	start, stop  [2]int
	hasStartStop bool
	seq          []string
	dj, dk       int
	weapon       string
}

type decoder struct {
	br     *bufio.Reader
	line   int   // lines read
	off    int64 // offset of the next line
	lineAt int64 // offset of the line read last
	// unended: the line read last is the file's last and has no end
	// (a file cut inside it).
	unended bool
	meta    engine.StreamMeta
	n, d    int
	index   map[string]int
	ring    []int // player numbers in turn-0 order
	spawns  [][2]int
	cur     snap
	next    snap
	units   []uint8
	tot     []totals
	slot    map[string]int // metric name → index
	frames  int
	actor   int // the actor of the turn derive read last
	err     error
	acts    []action
	events  []engine.Event
	fx      []engine.Effect
	view    skyport.View
}

// errAt is an error at the line read last.
func (d *decoder) errAt(format string, a ...any) error {
	return fmt.Errorf("line %d (byte %d): %s", d.line, d.lineAt, fmt.Sprintf(format, a...))
}

// readLine returns the next non-empty line without its end, io.EOF at
// the end of the file.
func (d *decoder) readLine() ([]byte, error) {
	for {
		d.lineAt = d.off
		b, err := d.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: copied out before the
			// buffer is read again.
			long := bytes.Clone(b)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(long) > MaxLineBytes {
					d.line++
					return nil, d.errAt("a line longer than %d bytes (docs/limits.md)", MaxLineBytes)
				}
				b, err = d.br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if len(b) > MaxLineBytes+1 {
			d.line++
			return nil, d.errAt("a line longer than %d bytes (docs/limits.md)", MaxLineBytes)
		}
		d.off += int64(len(b))
		if len(b) == 0 && errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("line %d (byte %d): %w", d.line+1, d.lineAt, err)
		}
		d.line++
		d.unended = errors.Is(err, io.EOF)
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			continue
		}
		return b, nil
	}
}

// message is one line's fields, decoded on demand.
type message struct {
	kind   string
	fields map[string]json.RawMessage
}

func (d *decoder) readMessage() (*message, error) {
	b, err := d.readLine()
	if err != nil {
		return nil, err
	}
	if dep := depth(b); dep > MaxDepth {
		return nil, d.errAt("JSON nested %d deep, at most %d (docs/limits.md)", dep, MaxDepth)
	}
	m := &message{}
	if err := json.Unmarshal(b, &m.fields); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected end of JSON input") {
			if d.unended {
				// The file's last line, without its end: the file was
				// cut there, sound before it.
				return nil, fmt.Errorf("line %d (byte %d): the line is cut short (%v): %w", d.line, d.lineAt, err, replay.ErrTruncated)
			}
			return nil, d.errAt("the line is cut short (%v)", err)
		}
		return nil, d.errAt("not a JSON object: %v", err)
	}
	if m.fields == nil {
		return nil, d.errAt("not a JSON object")
	}
	if err := d.field(m, "message", &m.kind); err != nil {
		return nil, err
	}
	if m.kind == "" {
		return nil, d.errAt(`no "message"`)
	}
	return m, nil
}

// depth is the deepest nesting of brackets in b outside strings.
func depth(b []byte) int {
	deepest, cur, in, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			cur++
			deepest = max(deepest, cur)
		case c == '}' || c == ']':
			cur--
		}
	}
	return deepest
}

// field decodes m's key into v; a missing key leaves v as it is.
func (d *decoder) field(m *message, key string, v any) error {
	raw, ok := m.fields[key]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return d.errAt("%s %q: %v", m.kind, key, err)
	}
	return nil
}

// number decodes m's key as an integer within ±MaxNumber; ok is false
// when the key is missing.
func (d *decoder) number(m *message, key string) (int, bool, error) {
	raw, ok := m.fields[key]
	if !ok {
		return 0, false, nil
	}
	v, err := num(raw)
	if err != nil {
		return 0, false, d.errAt("%s %q: %v", m.kind, key, err)
	}
	return v, true, nil
}

func num(raw json.RawMessage) (int, error) {
	var f json.Number
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("not a number: %.40s", raw)
	}
	v, err := strconv.ParseInt(f.String(), 10, 64)
	if err != nil || v > MaxNumber || v < -MaxNumber {
		return 0, fmt.Errorf("%.40s is not an integer within ±%d (docs/limits.md)", f, MaxNumber)
	}
	return int(v), nil
}

// start reads up to the gamestate of turn 1 and fills the meta.
func (d *decoder) start() error {
	var names []string
	for {
		m, err := d.readMessage()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("line %d: the recording ends before the gamestate of turn 1", d.line)
		}
		if err != nil {
			return err
		}
		switch m.kind {
		case "connect", "endturn", "endactions", "subtitle":
			continue
		case "gamestate":
		default:
			return d.errAt("a %q message before turn 1", m.kind)
		}
		turn, ok, err := d.number(m, "turn")
		if err != nil {
			return err
		}
		if !ok {
			return d.errAt(`a gamestate without "turn"`)
		}
		if turn == 0 {
			if names, err = d.names(m); err != nil {
				return err
			}
			continue
		}
		if turn != 1 {
			return d.errAt("the first gamestate with positions is of turn %d: the recording does not start at turn 1", turn)
		}
		if names == nil {
			// No turn-0 gamestate: the order of turn 1's, ring[1] first.
			if names, err = d.names(m); err != nil {
				return err
			}
		}
		d.setPlayers(names)
		if err := d.gamestate(m, &d.cur); err != nil {
			return err
		}
		break
	}
	d.spawns = make([][2]int, d.n)
	for p, vp := range d.cur.players {
		d.spawns[p] = [2]int{vp.J, vp.K}
		d.cur.players[p].SpawnJ, d.cur.players[p].SpawnK = vp.J, vp.K
	}
	d.units = make([]uint8, d.d*d.d)
	for i, c := range d.cur.tiles {
		if isResource(c) {
			d.units[i] = 2
		}
	}
	d.tot = make([]totals, d.n)
	d.meta = replay.MetaOf(skyport.Ruleset, d.n)
	d.meta.Format, d.meta.Label, d.meta.Sequential, d.meta.Resimulated = Name, Label, true, false
	for _, nm := range names {
		d.meta.Players = append(d.meta.Players, engine.StreamPlayer{Name: nm})
	}
	d.slot = map[string]int{}
	for i, mt := range d.meta.Metrics {
		d.slot[mt.Name] = i
	}
	d.meta.Settings = [][2]string{
		{"map", strconv.Itoa(d.d) + "×" + strconv.Itoa(d.d) + " (its name is not recorded)"},
		{"order", "players numbered in the turn-0 gamestate's order (the ring from its first player)"},
		{"server", "not recorded (the public .jsn recordings are pre-Rev 1)"},
		{"unknown", strings.Join(Unknown, ", ") + " (shown as 0)"},
		{"hits", "health lost between gamestates (a killing hit counts the health that was left)"},
	}
	return nil
}

// names reads the names of a gamestate's players and checks them.
func (d *decoder) names(m *message) ([]string, error) {
	var ps []map[string]json.RawMessage
	if err := d.field(m, "players", &ps); err != nil {
		return nil, err
	}
	if len(ps) < 1 || len(ps) > MaxPlayers {
		return nil, d.errAt("%d players, want 1 to %d (docs/limits.md)", len(ps), MaxPlayers)
	}
	var names []string
	seen := map[string]bool{}
	for i, p := range ps {
		var nm string
		if err := json.Unmarshal(p["name"], &nm); err != nil || nm == "" {
			return nil, d.errAt("player %d of the gamestate has no name", i)
		}
		if len(nm) > MaxNameBytes {
			return nil, d.errAt("a player name of %d bytes, at most %d (docs/limits.md)", len(nm), MaxNameBytes)
		}
		if seen[nm] {
			return nil, d.errAt("two players named %q: the recording cannot tell them apart", nm)
		}
		seen[nm] = true
		names = append(names, nm)
	}
	return names, nil
}

func (d *decoder) setPlayers(names []string) {
	d.n = len(names)
	d.index = map[string]int{}
	for i, nm := range names {
		d.index[nm] = i
		d.ring = append(d.ring, i)
	}
}

func isResource(c byte) bool {
	return c == skyport.Rubidium || c == skyport.Explosium || c == skyport.Scrap
}

// gsPlayer is one player of a full gamestate.
type gsPlayer struct {
	Name     string          `json:"name"`
	Position string          `json:"position"`
	Health   json.RawMessage `json:"health"`
	Score    json.RawMessage `json:"score"`
	Alive    *bool           `json:"alive"`
	Primary  *gsWeapon       `json:"primary-weapon"`
	Second   *gsWeapon       `json:"secondary-weapon"`
}

type gsWeapon struct {
	Name  string          `json:"name"`
	Level json.RawMessage `json:"level"`
}

type gsMap struct {
	J    json.RawMessage `json:"j-length"`
	K    json.RawMessage `json:"k-length"`
	Data [][]string      `json:"data"`
}

// gamestate reads a full gamestate into s (reusing its storage).
func (d *decoder) gamestate(m *message, s *snap) error {
	turn, _, err := d.number(m, "turn")
	if err != nil {
		return err
	}
	s.turn, s.line = turn, d.line
	if turn < 0 || turn > MaxTurns {
		return d.errAt("turn %d, want 0 to %d (docs/limits.md)", turn, MaxTurns)
	}
	var mp gsMap
	if err := d.field(m, "map", &mp); err != nil {
		return err
	}
	D := len(mp.Data)
	if D < 1 || D > MaxSize {
		return d.errAt("a map of %d rows, want 1 to %d (docs/limits.md)", D, MaxSize)
	}
	for _, l := range []json.RawMessage{mp.J, mp.K} {
		if l == nil {
			continue
		}
		if v, err := num(l); err != nil || v != D {
			return d.errAt("the map's j-length or k-length %.20s is not its %d rows", l, D)
		}
	}
	if d.d == 0 {
		d.d = D
	} else if D != d.d {
		return d.errAt("the map is %d×%d, it was %d×%d", D, D, d.d, d.d)
	}
	s.tiles = s.tiles[:0]
	for j, row := range mp.Data {
		if len(row) != D {
			return d.errAt("map row %d has %d tiles, want %d", j, len(row), D)
		}
		for k, t := range row {
			if len(t) != 1 || skyport.TileIndex(t[0]) < 0 {
				return d.errAt("tile %d, %d is %q, not one of G V S O R E C", j, k, t)
			}
			s.tiles = append(s.tiles, t[0])
		}
	}
	var ps []gsPlayer
	if err := d.field(m, "players", &ps); err != nil {
		return err
	}
	if len(ps) != d.n {
		return d.errAt("%d players, the recording has %d", len(ps), d.n)
	}
	if cap(s.players) < d.n {
		s.players = make([]skyport.ViewPlayer, d.n)
	}
	s.players = s.players[:d.n]
	s.order = s.order[:0]
	for i := range ps {
		gp := &ps[i]
		p, ok := d.index[gp.Name]
		if !ok {
			return d.errAt("player %q is not one of the recording's", gp.Name)
		}
		for _, o := range s.order {
			if o == p {
				return d.errAt("player %q is listed twice", gp.Name)
			}
		}
		s.order = append(s.order, p)
		vp := skyport.ViewPlayer{Name: gp.Name, Connected: gp.Alive == nil || *gp.Alive, SpawnJ: -1, SpawnK: -1}
		if d.spawns != nil {
			vp.SpawnJ, vp.SpawnK = d.spawns[p][0], d.spawns[p][1]
		}
		if vp.J, vp.K, err = d.position(gp.Position, gp.Name); err != nil {
			return err
		}
		if vp.Health, err = d.stat(gp.Health, gp.Name, "health"); err != nil {
			return err
		}
		if vp.Score, err = d.stat(gp.Score, gp.Name, "score"); err != nil {
			return err
		}
		if vp.Primary, vp.PrimaryLevel, err = d.weapon(gp.Primary, gp.Name); err != nil {
			return err
		}
		if vp.Secondary, vp.SecondaryLevel, err = d.weapon(gp.Second, gp.Name); err != nil {
			return err
		}
		s.players[p] = vp
	}
	// The list is the ring read from the actor on (RULES §2).
	first := -1
	for i, p := range d.ring {
		if p == s.order[0] {
			first = i
		}
	}
	for i, p := range s.order {
		if d.ring[(first+i)%d.n] != p {
			return d.errAt("the players of turn %d are not in the turn ring's order", turn)
		}
	}
	return nil
}

// stat reads a player's health or score.
func (d *decoder) stat(raw json.RawMessage, who, key string) (int, error) {
	if raw == nil {
		return 0, d.errAt("player %q has no %s", who, key)
	}
	v, err := num(raw)
	if err != nil {
		return 0, d.errAt("player %q's %s: %v", who, key, err)
	}
	return v, nil
}

// position reads "j, k" on the map.
func (d *decoder) position(s, who string) (j, k int, err error) {
	a, b, ok := strings.Cut(s, ",")
	j, err1 := strconv.Atoi(strings.TrimSpace(a))
	k, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || j < 0 || k < 0 || j >= d.d || k >= d.d {
		return 0, 0, d.errAt("%s's position %.40q is not \"j, k\" on the %d×%d map", who, s, d.d, d.d)
	}
	return j, k, nil
}

func (d *decoder) weapon(w *gsWeapon, who string) (skyport.Weapon, int, error) {
	if w == nil {
		return skyport.NoWeapon, 0, nil
	}
	var kind skyport.Weapon
	switch w.Name {
	case "laser":
		kind = skyport.Laser
	case "mortar":
		kind = skyport.Mortar
	case "droid":
		kind = skyport.Droid
	default:
		return 0, 0, d.errAt("%s's weapon %.20q is not laser, mortar or droid", who, w.Name)
	}
	lvl, err := num(w.Level)
	if err != nil || lvl < 1 || lvl > 3 {
		return 0, 0, d.errAt("%s's %s has level %.20s, want 1 to 3", who, w.Name, w.Level)
	}
	return kind, lvl, nil
}

func (d *decoder) Meta() *engine.StreamMeta { return &d.meta }

func (d *decoder) Close() error { return nil }

// SkipCommandText is ignored (engine.Stream): a .jsn holds states, not command text.
func (*decoder) SkipCommandText() {}

// Next fills f with the next frame (see the package doc); io.EOF after
// the last gamestate. A damaged line gives an error naming it, for this
// call and every later one.
func (d *decoder) Next(f *engine.Frame) error {
	if d.err != nil {
		return d.err
	}
	if d.frames > 0 {
		if err := d.turn(); err != nil {
			d.err = err
			return err
		}
	}
	if err := d.fill(f); err != nil {
		d.err = err
		return err
	}
	d.frames++
	return nil
}

// turn reads the messages of the turn of d.cur up to the next
// gamestate, then derives the turn's events and swaps the states.
func (d *decoder) turn() error {
	d.acts = d.acts[:0]
	ended := false
	for lines := 0; ; lines++ {
		if lines > MaxTurnLines {
			return d.errAt("more than %d lines in turn %d (docs/limits.md)", MaxTurnLines, d.cur.turn)
		}
		m, err := d.readMessage()
		if err != nil {
			return err
		}
		switch m.kind {
		case "endturn":
			ended = true
			continue
		case "endactions", "subtitle", "connect":
			continue
		case "action":
			if !ended {
				return d.errAt("an action of turn %d before its endturn", d.cur.turn)
			}
			a, err := d.action(m)
			if err != nil {
				return err
			}
			if a.typ != "" {
				d.acts = append(d.acts, a)
			}
			continue
		case "gamestate":
		default:
			return d.errAt("an unknown message %.40q", m.kind)
		}
		if err := d.gamestate(m, &d.next); err != nil {
			return err
		}
		if d.next.turn != d.cur.turn+1 {
			return d.errAt("the gamestate of turn %d follows that of turn %d", d.next.turn, d.cur.turn)
		}
		break
	}
	d.derive()
	d.cur, d.next = d.next, d.cur
	return nil
}

// action reads one broadcast; from must be the actor.
func (d *decoder) action(m *message) (action, error) {
	a := action{line: d.line}
	var from string
	if err := d.field(m, "from", &from); err != nil {
		return a, err
	}
	if actor := d.cur.players[d.cur.order[0]].Name; from != actor {
		return a, d.errAt("an action from %.40q in %s's turn", from, actor)
	}
	if err := d.field(m, "type", &a.typ); err != nil {
		return a, err
	}
	switch a.typ {
	case "move", "laser":
		if err := d.field(m, "direction", &a.dir); err != nil {
			return a, err
		}
		if _, ok := skyport.ParseDir(a.dir); !ok && (a.typ == "move" || m.fields["start"] == nil) {
			return a, d.errAt("%s direction %.20q", a.typ, a.dir)
		}
		if a.typ == "laser" && m.fields["start"] != nil {
			var st, sp string
			if err := d.field(m, "start", &st); err != nil {
				return a, err
			}
			if err := d.field(m, "stop", &sp); err != nil {
				return a, err
			}
			var err error
			if a.start[0], a.start[1], err = d.position(st, "the laser start"); err != nil {
				return a, err
			}
			if a.stop[0], a.stop[1], err = d.position(sp, "the laser stop"); err != nil {
				return a, err
			}
			a.hasStartStop = true
		}
	case "mortar":
		var c string
		if err := d.field(m, "coordinates", &c); err != nil {
			return a, err
		}
		parts := strings.Split(c, ",")
		if len(parts) < 2 {
			return a, d.errAt("mortar coordinates %.40q are not \"dj,dk\"", c)
		}
		for i, dst := range []*int{&a.dj, &a.dk} {
			v, err := strconv.Atoi(parts[i])
			if err != nil || v > MaxNumber || v < -MaxNumber {
				return a, d.errAt("mortar coordinates %.40q are not \"dj,dk\" within ±%d", c, MaxNumber)
			}
			*dst = v
		}
	case "droid":
		raw := m.fields["sequence"]
		if n := bytes.Count(raw, []byte(",")); n >= MaxSequence {
			return a, d.errAt("a droid sequence of more than %d steps (docs/limits.md)", MaxSequence)
		}
		if err := d.field(m, "sequence", &a.seq); err != nil {
			return a, err
		}
		for _, s := range a.seq {
			if _, ok := skyport.ParseDir(s); !ok {
				return a, d.errAt("droid direction %.20q", s)
			}
		}
	case "upgrade":
		if err := d.field(m, "weapon", &a.weapon); err != nil {
			return a, err
		}
	case "mine":
	default:
		// No Rev 1 server broadcasts another type; it is skipped.
		a.typ = ""
	}
	return a, nil
}
