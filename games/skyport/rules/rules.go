package rules

import (
	"math"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
)

// Status is the fate of one line a player sent during its turn.
type Status uint8

// Line fates (the vectors' action record "status").
const (
	// NotQueued: not an action message (a parse or protocol error).
	NotQueued Status = iota + 1
	// Accepted: performed and valid.
	Accepted
	// Rejected: performed and invalid.
	Rejected
	// NotReached: queued but never performed (after a valid shot, or
	// beyond the third message).
	NotReached
	// NotRead: sent after a line that killed the player's reader (see
	// Player.Deaf); the reference never reads it.
	NotRead
)

var statusNames = [...]string{"", "not_queued", "accepted", "rejected", "not_reached", "not_read"}

// String returns the vectors' name of the status ("not_queued").
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status?"
}

type span struct{ s, e int32 }

// LineFate is what happened to one line of the last player-turn.
type LineFate struct {
	Status Status
	// Slot is 0, 1, 2 for a performed message (turnsLeft = 2 − Slot),
	// else -1.
	Slot int
	// Crash is set for a mortar whose coordinates are not two Java
	// integers: the reference's game loop dies on it (probes.json);
	// rewind rejects the action with an error instead.
	Crash bool
	// Upgraded is the weapon a valid upgrade raised (the observer's
	// subtitle "NAME upgrades his WEAPON").
	Upgraded Weapon
	// Cmd is the index of the string the line came from (a string with
	// embedded line ends holds several lines).
	Cmd int

	nerr                   uint8
	errs                   [2]span
	obj                    int32 // parsed object (for the broadcast)
	startJ, startK         int
	stopJ, stopK, droidLen int
}

// Hit is one hit on a player in the last player-turn.
type Hit struct {
	Line                      int // index of the line that caused it
	Target, By                int
	Amount                    int
	HealthBefore, HealthAfter int
	Killed, Ignored           bool
}

type effect struct {
	kind         engine.EffectKind
	name         string
	x, y, x2, y2 int
	radius       int
	p0, p1       int // points range in TurnLog.pts
	value        int64
}

// TurnLog is the record of the last player-turn (or loadout round).
type TurnLog struct {
	Turn, Actor int
	// Loadout is true for a loadout round.
	Loadout bool
	// Respawned is the player the ring respawned at the start of this
	// turn, or -1.
	Respawned int
	Lines     []LineFate
	Valid     int
	// NoValidAction and OnSpawn are the two −10 penalties.
	NoValidAction, OnSpawn bool
	Hits                   []Hit
	Events                 []engine.Event

	text    []byte
	effects []effect
	pts     []engine.Point
}

func (l *TurnLog) init(n int) {
	l.Lines = make([]LineFate, 0, 8)
	l.Hits = make([]Hit, 0, 16)
	l.Events = make([]engine.Event, 0, 16)
	l.text = make([]byte, 0, 256)
	l.effects = make([]effect, 0, 16)
	l.pts = make([]engine.Point, 0, 16)
}

func (l *TurnLog) reset(turn, actor int) {
	l.Turn, l.Actor, l.Loadout, l.Respawned = turn, actor, false, -1
	l.Lines = l.Lines[:0]
	l.Valid = 0
	l.NoValidAction, l.OnSpawn = false, false
	l.Hits = l.Hits[:0]
	l.Events = l.Events[:0]
	l.text = l.text[:0]
	l.effects = l.effects[:0]
	l.pts = l.pts[:0]
}

// Errors appends the error texts line i drew, in order, to dst.
func (l *TurnLog) Errors(i int, dst []string) []string {
	f := &l.Lines[i]
	for e := 0; e < int(f.nerr); e++ {
		dst = append(dst, string(l.text[f.errs[e].s:f.errs[e].e]))
	}
	return dst
}

// Log returns the record of the last player-turn or loadout round. It is
// valid until the next one.
func (s *State) Log() *TurnLog { return &s.log }

// errStart begins an error text for the current line; errEnd closes it.
func (s *State) errStart() int32 { return int32(len(s.log.text)) }

func (s *State) errEnd(start int32) {
	f := &s.log.Lines[s.errLine]
	if int(f.nerr) < len(f.errs) {
		f.errs[f.nerr] = span{start, int32(len(s.log.text))}
		f.nerr++
	}
}

func (s *State) addErr(parts ...string) {
	st := s.errStart()
	for _, p := range parts {
		s.log.text = append(s.log.text, p...)
	}
	s.errEnd(st)
}

// errMsg is a two-part error with a value in the middle; it avoids the
// variadic slice of addErr in hot-ish paths.
func (s *State) errUnits(pre string, u []uint16, post string) {
	st := s.errStart()
	s.log.text = append(s.log.text, pre...)
	s.log.text = appendUnits(s.log.text, u)
	s.log.text = append(s.log.text, post...)
	s.errEnd(st)
}

func (s *State) errJava(pre string, v int32, post string) {
	st := s.errStart()
	s.log.text = append(s.log.text, pre...)
	s.log.text = s.jp.appendJava(s.log.text, v)
	s.log.text = append(s.log.text, post...)
	s.errEnd(st)
}

// fate returns the record of the line being read or performed.
func (s *State) fate() *LineFate { return &s.log.Lines[s.errLine] }

// newLine appends a line record and makes it the current one.
func (s *State) newLine(f LineFate) {
	s.log.Lines = append(s.log.Lines, f)
	s.errLine = len(s.log.Lines) - 1
}

// readLine parses one line and returns its object, or -1 with the error
// recorded ("Invalid packet received: …"); a line that kills the reader
// makes the player deaf.
func (s *State) readLine(p int, line string) int32 {
	obj := s.jp.parseObject(line)
	switch s.jp.failed {
	case parseSyntax:
		st := s.errStart()
		s.log.text = append(s.log.text, "Invalid packet received: "...)
		s.log.text = append(s.log.text, s.jp.errText...)
		s.errEnd(st)
		return -1
	case parseReaderDies:
		s.players[p].Deaf = true
		return -1
	}
	return obj
}

// splitLine calls fn for each line of raw as BufferedReader.readLine
// would see it: "\n", "\r\n" or "\r" end a line; raw without any is one
// line (an empty string is an empty line).
func splitLine(raw string, fn func(string)) {
	if strings.IndexByte(raw, '\n') < 0 && strings.IndexByte(raw, '\r') < 0 {
		fn(raw)
		return
	}
	start := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '\n':
			fn(raw[start:i])
			start = i + 1
		case '\r':
			fn(raw[start:i])
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(raw) || start == 0 {
		fn(raw[start:])
	}
}

// Loadout plays the loadout round of the player Actor names (connection
// order): each line is a loadout attempt until one is valid
// (AIConnection.java:93-118); lines after it are what the reference
// makes of action-phase lines, which never matter (the inbox is emptied
// when the player's first turn begins). A player left without a loadout
// gets laser and mortar: the reference would wait forever. After the
// last player's round, turn 1 is next (Begin or PlayTurn advances the
// ring to it). It does nothing outside the loadout phase.
func (s *State) Loadout(lines []string) {
	if !s.InLoadout() {
		return
	}
	p := s.loadout
	s.jp.reset()
	s.log.reset(0, p)
	s.log.Loadout = true
	pl := &s.players[p]
	if pl.Connected && !s.timedOut[p] {
		for ci, raw := range lines {
			splitLine(raw, func(line string) {
				if pl.Deaf {
					s.newLine(LineFate{Status: NotRead, Slot: -1, Cmd: ci})
					return
				}
				s.newLine(LineFate{Status: NotQueued, Slot: -1, Cmd: ci})
				if pl.Loaded {
					s.actionLine(p, line)
					if s.fate().Status == 0 {
						s.fate().Status = NotQueued
					}
					return
				}
				if s.loadoutLine(p, line) {
					s.fate().Status = Accepted
				}
			})
		}
	}
	s.timedOut[p] = false
	if !pl.Loaded {
		pl.Primary, pl.Secondary, pl.Loaded = Laser, Mortar, true
	}
	s.loadout++
	if !s.InLoadout() {
		s.pending = true
	}
}

// LoadoutLine checks one loadout attempt of player p as the reference
// does and, if valid, sets p's weapons; it is Loadout for one line,
// for callers (the vectors) that feed the loadout phase line by line
// across players. The errors are in Log(). A line of a deaf player, or
// for a player number out of range, is not read.
func (s *State) LoadoutLine(p int, line string) (accepted bool) {
	s.jp.reset()
	s.log.reset(0, p)
	s.log.Loadout = true
	if p < 0 || p >= len(s.players) || s.players[p].Deaf {
		s.newLine(LineFate{Status: NotRead, Slot: -1})
		return false
	}
	s.newLine(LineFate{Status: NotQueued, Slot: -1})
	if s.players[p].Loaded {
		s.actionLine(p, line)
		return false
	}
	ok := s.loadoutLine(p, line)
	if ok {
		s.fate().Status = Accepted
	}
	return ok
}

// FinishLoadout ends the loadout phase after LoadoutLine calls: players
// without a loadout get laser and mortar, and turn 1 is next.
func (s *State) FinishLoadout() {
	if !s.InLoadout() {
		return
	}
	for p := range s.players {
		pl := &s.players[p]
		if !pl.Loaded {
			pl.Primary, pl.Secondary, pl.Loaded = Laser, Mortar, true
		}
	}
	s.loadout = len(s.players)
	s.pending = true
}

func parseWeapon(u []uint16) Weapon {
	for w := Laser; w <= Droid; w++ {
		if unitsEqString(u, weaponNames[w]) {
			return w
		}
	}
	return NoWeapon
}

func (s *State) loadoutLine(p int, line string) bool {
	obj := s.readLine(p, line)
	if obj < 0 {
		return false
	}
	jp := &s.jp
	m := jp.get(obj, "message")
	if m < 0 {
		s.addErr(`Invalid or incomplete packet: JSONObject["message"] not found.`)
		return false
	}
	if !jp.strEq(m, "loadout") {
		s.errJava("Expected 'loadout', but got '", m, "' key")
		return false
	}
	var w [2]Weapon
	for i, key := range [2]string{"primary-weapon", "secondary-weapon"} {
		v := jp.get(obj, key)
		if v < 0 {
			s.addErr(`Invalid or incomplete packet: JSONObject["`, key, `"] not found.`)
			return false
		}
		if !jp.isString(v) {
			s.addErr(`Invalid or incomplete packet: JSONObject["`, key, `"] not a string.`)
			return false
		}
		w[i] = parseWeapon(jp.strUnits(v))
		if w[i] == NoWeapon {
			if i == 0 {
				s.errUnits("Invalid primary weapon: '", jp.strUnits(v), "'")
			} else {
				s.errUnits("Invalid secondary weapon: '", jp.strUnits(v), "'")
			}
			return false
		}
	}
	if w[0] == w[1] {
		s.addErr("Invalid loadout: Can't have the same weapon twice.")
		return false
	}
	pl := &s.players[p]
	pl.Primary, pl.Secondary, pl.Loaded = w[0], w[1], true
	return true
}

// actionLine is AIConnection.input after the loadout: it returns the
// object if the line is an action message (queued), else -1 with the
// error recorded.
func (s *State) actionLine(p int, line string) int32 {
	obj := s.readLine(p, line)
	if obj < 0 {
		return -1
	}
	jp := &s.jp
	m := jp.get(obj, "message")
	if m < 0 {
		s.addErr("Invalid or incomplete packet")
		return -1
	}
	if !jp.strEq(m, "action") {
		s.errJava("Unexpected message, got '", m, "' but expected 'action'")
		return -1
	}
	return obj
}

// PlayTurn plays the next player-turn with the lines the actor sent
// during its think time, in order (each string one line as read;
// embedded line ends split it as the reference's reader would): Begin
// if the turn has not begun, read the lines, perform the first three
// action messages, apply the penalties. Lines of a disconnected or
// timed-out actor are ignored; those of a deaf actor are recorded as
// NotRead. Every line is read and recorded (the reference reads them
// all; bounding a bot's output is the caller's business). It does nothing during the
// loadout phase or once the game is over.
func (s *State) PlayTurn(lines []string) {
	if s.InLoadout() || s.Over() {
		return
	}
	s.Begin()
	p := int(s.ring[s.cur])
	resp := s.respawned
	s.jp.reset()
	s.log.reset(s.turn, p)
	s.log.Respawned = resp
	if resp >= 0 {
		pl := &s.players[resp]
		s.log.Events = append(s.log.Events, engine.Event{Kind: "respawn", Player: resp, Other: -1, X: pl.J, Y: pl.K})
	}
	pl := &s.players[p]
	var queued [3]int32
	nq := 0
	if pl.Connected && !s.timedOut[p] {
		for ci, raw := range lines {
			s.splitInto(p, ci, raw, &queued, &nq)
		}
	}
	s.timedOut[p] = false
	// Perform the first three queued messages (GameThread.java:171-201).
	valid := 0
	offensive := false
	for slot := 0; slot < 3; slot++ {
		if slot >= nq {
			break
		}
		li := int(queued[slot])
		f := &s.log.Lines[li]
		f.Slot = slot
		s.errLine = li
		ok, off := s.perform(p, li, f.obj, 2-slot)
		f = &s.log.Lines[li]
		if ok {
			f.Status = Accepted
			valid++
			if off {
				offensive = true
				break
			}
		} else {
			f.Status = Rejected
		}
	}
	for i := range s.log.Lines {
		if s.log.Lines[i].Status == 0 {
			s.log.Lines[i].Status = NotReached
		}
	}
	s.log.Valid = valid
	if !offensive && valid == 0 {
		s.log.NoValidAction = true
		pl.Score -= penalty
		pl.Stats.Penalties++
		s.log.Events = append(s.log.Events, engine.Event{Kind: "penalty", Player: p, Other: -1, X: -1, Y: -1, Value: penalty})
	}
	if pl.J == pl.SpawnJ && pl.K == pl.SpawnK {
		s.log.OnSpawn = true
		pl.Score -= penalty
		pl.Stats.Penalties++
		s.log.Events = append(s.log.Events, engine.Event{Kind: "penalty", Player: p, Other: -1, X: pl.J, Y: pl.K, Value: penalty})
	}
	s.played++
	s.pending = true
	s.respawned = -1
}

func (s *State) splitInto(p, ci int, raw string, queued *[3]int32, nq *int) {
	one := func(line string) {
		if s.players[p].Deaf {
			s.newLine(LineFate{Status: NotRead, Slot: -1, Cmd: ci})
			return
		}
		s.newLine(LineFate{Slot: -1, Cmd: ci})
		obj := s.actionLine(p, line)
		f := s.fate()
		if obj < 0 {
			f.Status = NotQueued
			return
		}
		f.obj = obj
		if *nq < 3 {
			queued[*nq] = int32(len(s.log.Lines) - 1)
			*nq++
		}
	}
	splitLine(raw, one)
}

// perform is letPlayerPerformAction (GameThread.java:224-271): it
// reports whether the action was valid and whether it was a shot.
func (s *State) perform(p, li int, obj int32, turnsLeft int) (valid, shot bool) {
	jp := &s.jp
	t := jp.get(obj, "type")
	if !jp.isString(t) {
		return false, false
	}
	tu := jp.strUnits(t)
	pl := &s.players[p]
	onSpawn := s.tiles[pl.J*s.d+pl.K] == Spawn
	switch {
	case unitsEqString(tu, "move"):
		return s.doMove(p, obj), false
	case unitsEqString(tu, "laser"):
		if onSpawn {
			return false, false
		}
		ok := s.shootLaser(p, li, obj, turnsLeft)
		return ok, ok
	case unitsEqString(tu, "droid"):
		if onSpawn {
			return false, false
		}
		ok := s.shootDroid(p, li, obj, turnsLeft)
		return ok, ok
	case unitsEqString(tu, "mortar"):
		if onSpawn {
			return false, false
		}
		ok := s.shootMortar(p, li, obj, turnsLeft)
		return ok, ok
	case unitsEqString(tu, "mine"):
		i := pl.J*s.d + pl.K
		var r int
		switch s.tiles[i] {
		case Rubidium:
			r = 0
		case Explosium:
			r = 1
		case Scrap:
			r = 2
		default:
			s.addErr("Tried to mine while not on a resource tile!")
			return false, false
		}
		if s.units[i] == 0 {
			return false, false
		}
		s.units[i]--
		if s.units[i] == 0 {
			s.tiles[i] = Grass
		}
		switch r {
		case 0:
			pl.Rubidium++
		case 1:
			pl.Explosium++
		case 2:
			pl.Scrap++
		}
		pl.Stats.Mined[r]++
		pl.Stats.Mines++
		s.log.Events = append(s.log.Events, engine.Event{Kind: "mined", Player: p, Other: -1, X: pl.J, Y: pl.K, Value: int64(r)})
		return true, false
	case unitsEqString(tu, "upgrade"):
		w := jp.get(obj, "weapon")
		if !jp.isString(w) {
			return false, false
		}
		return s.upgrade(p, li, parseWeapon(jp.strUnits(w))), false
	}
	s.errUnits("Invalid action: ", tu, "")
	return false, false
}

// upgrade is AIConnection.upgradeWeapon (479-549).
func (s *State) upgrade(p, li int, w Weapon) bool {
	pl := &s.players[p]
	var lvl *int
	switch {
	case w == NoWeapon:
		return false
	case pl.Primary == w:
		lvl = &pl.PrimaryLevel
	case pl.Secondary == w:
		lvl = &pl.SecondaryLevel
	default:
		return false
	}
	cost := 4
	if *lvl == 2 {
		cost = 5
	}
	if *lvl == 3 {
		return false
	}
	var res *int
	switch w {
	case Laser:
		res = &pl.Rubidium
	case Mortar:
		res = &pl.Explosium
	default:
		res = &pl.Scrap
	}
	if *res < cost {
		return false
	}
	*res -= cost
	*lvl++
	pl.Stats.Upgrades++
	s.log.Lines[li].Upgraded = w
	s.log.Events = append(s.log.Events, engine.Event{Kind: "upgraded", Player: p, Other: -1, X: pl.J, Y: pl.K, Value: int64(*lvl)})
	return true
}

var tileTypeNames = map[byte]string{Void: "VOID", Rock: "ROCK", Spawn: "SPAWN"}

// doMove is AIConnection.doMove (216-326).
func (s *State) doMove(p int, obj int32) bool {
	jp := &s.jp
	v := jp.get(obj, "direction")
	if v < 0 {
		s.addErr(`Invalid move packet: JSONObject["direction"] not found.`)
		return false
	}
	if !jp.isString(v) {
		s.addErr(`Invalid move packet: JSONObject["direction"] not a string.`)
		return false
	}
	d, ok := parseDirUnits(jp.strUnits(v))
	if !ok {
		s.errUnits("Invalid move packet: Invalid direction: '", jp.strUnits(v), "'")
		return false
	}
	pl := &s.players[p]
	nj, nk, in := s.m.Neighbor(pl.J, pl.K, d)
	if !in {
		s.addErr("Invalid move packet: Invalid move: tile ", d.String(), " is not accessible (outside of map)")
		return false
	}
	ni := nj*s.d + nk
	if !accessible(s.tiles[ni]) {
		s.addErr("Invalid move packet: Invalid move: ", tileTypeNames[s.tiles[ni]], " tile is not accessible")
		return false
	}
	if o := s.occ[ni]; o >= 0 {
		s.addErr("Invalid move packet: Player ", s.players[o].Name, " is already on this tile.")
		return false
	}
	s.occ[pl.J*s.d+pl.K] = -1
	pl.J, pl.K = nj, nk
	s.occ[ni] = int8(p)
	pl.Stats.Moves++
	return true
}

func parseDirUnits(u []uint16) (Dir, bool) {
	for d := Dir(0); d < NumDirs; d++ {
		if unitsEqString(u, dirNames[d]) {
			return d, true
		}
	}
	return 0, false
}

// Damage by weapon, level (1..3) and turnsLeft (0..2), and splash by
// turnsLeft, computed once as the reference computes each shot.
var (
	laserDamage, mortarDamage, droidDamage [4][3]int
	mortarSplash, droidSplash              [3]int
)

// bonusDamage is (int)Math.round(base + 0.2*turnsLeft*base) with Java
// double arithmetic (Laser.java:32, Mortar.java:29,87, Droid.java:66-67):
// 0.2*turnsLeft first, then times base, then base plus that; Math.round
// is floor(x+0.5). The explicit float64 conversions keep Go from fusing
// the multiply and add (an FMA would round differently).
func bonusDamage(base, turnsLeft int) int {
	t := float64(0.2 * float64(turnsLeft))
	u := float64(t * float64(base))
	x := float64(float64(base) + u)
	return int(math.Floor(float64(x + 0.5)))
}

func init() {
	lb := [4]int{0, 16, 18, 22}
	mb := [4]int{0, 20, 20, 25}
	db := [4]int{0, 22, 24, 26}
	for l := 1; l <= 3; l++ {
		for t := 0; t < 3; t++ {
			laserDamage[l][t] = bonusDamage(lb[l], t)
			mortarDamage[l][t] = bonusDamage(mb[l], t)
			droidDamage[l][t] = bonusDamage(db[l], t)
		}
	}
	for t := 0; t < 3; t++ {
		mortarSplash[t] = bonusDamage(18, t)
		droidSplash[t] = bonusDamage(10, t)
	}
}

// hitTile is Tile.damageTile (Tile.java:90-103).
func (s *State) hitTile(j, k, amount, base, by, li int) {
	i := j*s.d + k
	o := s.occ[i]
	if o < 0 || s.tiles[i] == Spawn {
		return
	}
	s.damagePlayer(int(o), amount, base, by, li)
}

// damagePlayer is AIConnection.damagePlayer (457-478).
func (s *State) damagePlayer(t, amount, base, by, li int) {
	v := &s.players[t]
	h := Hit{Line: li, Target: t, By: by, Amount: amount, HealthBefore: v.Health}
	if v.Health <= 0 {
		h.Ignored = true
		h.HealthAfter = v.Health
		s.log.Hits = append(s.log.Hits, h)
		return
	}
	n := len(s.players)
	sh := &s.players[by]
	v.Health -= amount
	v.Stats.DamageTaken += amount
	other := !s.sameName[t*n+by]
	if other {
		sh.Score += amount
		sh.Stats.DamageDealt += amount
		sh.Stats.Bonus += amount - base
	}
	s.log.Events = append(s.log.Events, engine.Event{Kind: "hit", Player: by, Other: t, X: v.J, Y: v.K, Value: int64(amount)})
	s.log.effects = append(s.log.effects, effect{kind: engine.Mark, name: "damage", x: v.J, y: v.K, value: int64(amount)})
	if v.Health <= 0 {
		if other {
			sh.Score += 20
		}
		sh.Stats.Kills++
		v.Stats.Deaths++
		v.Score -= 40
		v.Health = 0
		v.HasToPass, v.NeedsRespawn = true, true
		h.Killed = true
		s.log.Events = append(s.log.Events, engine.Event{Kind: "kill", Player: by, Other: t, X: v.J, Y: v.K, Value: 0})
	}
	h.HealthAfter = v.Health
	s.log.Hits = append(s.log.Hits, h)
}

// shootLaser is AIConnection.shootLaser (335-364) and Laser.performShot.
func (s *State) shootLaser(p, li int, obj int32, turnsLeft int) bool {
	pl := &s.players[p]
	lvl := pl.Level(Laser)
	if lvl == 0 {
		return false
	}
	jp := &s.jp
	v := jp.get(obj, "direction")
	if !jp.isString(v) {
		s.addErr("Invalid shot: lacks a direction key")
		return false
	}
	d, ok := parseDirUnits(jp.strUnits(v))
	if !ok {
		s.errUnits("Invalid shot: unknown direction '", jp.strUnits(v), "'")
		return false
	}
	rng := [4]int{0, 5, 6, 7}[lvl]
	dmg := laserDamage[lvl][turnsLeft]
	j, k := pl.J, pl.K
	ev := len(s.log.Events) // the shot's event comes before its hits
	s.log.Events = append(s.log.Events, engine.Event{Kind: "laser", Player: p, Other: -1, Value: int64(lvl)})
	for i := 0; i < rng; i++ {
		nj, nk, in := s.m.Neighbor(j, k, d)
		if !in || s.tiles[nj*s.d+nk] == Rock {
			break
		}
		j, k = nj, nk
		s.hitTile(j, k, dmg, laserDamage[lvl][0], p, li)
	}
	f := &s.log.Lines[li]
	f.stopJ, f.stopK = j, k
	f.startJ, f.startK = pl.J, pl.K
	pl.Stats.Lasers++
	s.log.Events[ev].X, s.log.Events[ev].Y = j, k
	s.log.effects = append(s.log.effects, effect{kind: engine.Line, name: "laser", x: pl.J, y: pl.K, x2: j, y2: k, value: int64(dmg)})
	return true
}

// shootDroid is AIConnection.shootDroid (366-411) and Droid.
func (s *State) shootDroid(p, li int, obj int32, turnsLeft int) bool {
	pl := &s.players[p]
	lvl := pl.Level(Droid)
	if lvl == 0 {
		return false
	}
	jp := &s.jp
	seq := jp.get(obj, "sequence")
	if seq < 0 || jp.nodes[seq].kind != jArray {
		s.addErr("Invalid shot: lacks a direction key")
		return false
	}
	steps := [4]int{0, 3, 4, 5}[lvl]
	n := int(jp.nodes[seq].count)
	if n > steps {
		st := s.errStart()
		b := append(s.log.text, "Got "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " commands for the droid, but your droids level ("...)
		b = strconv.AppendInt(b, int64(lvl), 10)
		b = append(b, ") only supports "...)
		b = strconv.AppendInt(b, int64(steps), 10)
		s.log.text = append(b, " steps."...)
		s.errEnd(st)
	}
	for c := jp.nodes[seq].first; c >= 0; c = jp.nodes[c].next {
		if !jp.isString(c) {
			s.addErr("Invalid shot: unknown direction in droid sequence")
			return false
		}
		if _, ok := parseDirUnits(jp.strUnits(c)); !ok {
			s.addErr("Invalid shot: unknown direction in droid sequence")
			return false
		}
	}
	j, k := pl.J, pl.K
	taken := 0
	p0 := len(s.log.pts)
	s.log.pts = append(s.log.pts, engine.Point{X: j, Y: k})
	for c := jp.nodes[seq].first; c >= 0 && taken < steps; c = jp.nodes[c].next {
		d, _ := parseDirUnits(jp.strUnits(c))
		nj, nk, in := s.m.Neighbor(j, k, d)
		if !in {
			break
		}
		t := s.tiles[nj*s.d+nk]
		if t == Spawn || t == Rock || t == Void {
			break
		}
		j, k = nj, nk
		taken++
		s.log.pts = append(s.log.pts, engine.Point{X: j, Y: k})
	}
	s.log.Lines[li].droidLen = taken
	s.log.effects = append(s.log.effects, effect{kind: engine.Path, name: "droid", x: pl.J, y: pl.K, x2: j, y2: k, p0: p0, p1: len(s.log.pts)})
	s.log.effects = append(s.log.effects, effect{kind: engine.Area, name: "droid_blast", x: j, y: k, radius: 1, value: int64(droidDamage[lvl][turnsLeft])})
	pl.Stats.Droids++
	s.log.Events = append(s.log.Events, engine.Event{Kind: "droid", Player: p, Other: -1, X: j, Y: k, Value: int64(lvl)})
	s.blast(j, k, droidDamage[lvl][turnsLeft], droidDamage[lvl][0], droidSplash[turnsLeft], droidSplash[0], p, li)
	return true
}

// blast is the main hit on (j, k) and the splash on its neighbours in
// the order up, down, right-down, right-up, left-down, left-up.
func (s *State) blast(j, k, main, mainBase, splash, splashBase, p, li int) {
	s.hitTile(j, k, main, mainBase, p, li)
	for d := Dir(0); d < NumDirs; d++ {
		if nj, nk, in := s.m.Neighbor(j, k, d); in {
			s.hitTile(nj, nk, splash, splashBase, p, li)
		}
	}
}

// shootMortar is AIConnection.shootMortar (413-437) and Mortar.
func (s *State) shootMortar(p, li int, obj int32, turnsLeft int) bool {
	pl := &s.players[p]
	lvl := pl.Level(Mortar)
	if lvl == 0 {
		return false
	}
	jp := &s.jp
	v := jp.get(obj, "coordinates")
	if !jp.isString(v) {
		s.addErr("Invalid shot: lacks 'coordinates' key")
		return false
	}
	dj, dk, ok := parseCoordinates(jp.strUnits(v))
	if !ok {
		s.log.Lines[li].Crash = true
		s.errUnits("Invalid shot: coordinates '", jp.strUnits(v), "' are not two integers j,k")
		return false
	}
	rng := [4]int{0, 2, 3, 4}[lvl]
	if !mortarInRange(dj, dk, rng) {
		return false
	}
	// Landing (Mortar.java:39-78): |dj| steps along j, then |dk| along
	// k, each stopping at the edge: the coordinates clamped.
	j := clampI64(int64(pl.J)+int64(dj), s.d)
	k := clampI64(int64(pl.K)+int64(dk), s.d)
	if dj == math.MinInt32 { // -j overflows: the loop takes no step
		j = pl.J
	}
	if dk == math.MinInt32 {
		k = pl.K
	}
	pl.Stats.Mortars++
	s.log.Events = append(s.log.Events, engine.Event{Kind: "mortar", Player: p, Other: -1, X: j, Y: k, Value: int64(lvl)})
	t := s.tiles[j*s.d+k]
	if t == Rock || t == Void || t == Spawn {
		s.log.effects = append(s.log.effects, effect{kind: engine.Area, name: "mortar_dud", x: j, y: k, radius: 0})
		return true
	}
	s.log.effects = append(s.log.effects, effect{kind: engine.Area, name: "mortar", x: j, y: k, radius: 1, value: int64(mortarDamage[lvl][turnsLeft])})
	s.blast(j, k, mortarDamage[lvl][turnsLeft], mortarDamage[lvl][0], mortarSplash[turnsLeft], mortarSplash[0], p, li)
	return true
}

func clampI64(v int64, d int) int {
	if v < 0 {
		return 0
	}
	if v > int64(d-1) {
		return d - 1
	}
	return int(v)
}

// mortarInRange is Mortar.isTileInRange (102-111):
// (int)Math.ceil(Math.sqrt(Math.pow(j,2) + Math.pow(k,2) - 2*j*k*0.5))
// <= range, 2*j*k in wrapping 32-bit ints, the rest in doubles.
// Math.pow(x, 2) is x*x correctly rounded; the explicit conversions keep
// Go from fusing operations.
func mortarInRange(j, k int32, rng int) bool {
	fj, fk := float64(j), float64(k)
	prod := int32(uint32(2) * uint32(j) * uint32(k))
	x := float64(float64(fj*fj)+float64(fk*fk)) - float64(float64(prod)*0.5)
	return int(javaD2I(math.Ceil(math.Sqrt(x)))) <= rng
}

// parseCoordinates is new Coordinate(s) (Coordinate.java:8-12):
// s.split(",") (trailing empty pieces dropped), Integer.parseInt of the
// first two pieces. ok is false where the reference throws.
func parseCoordinates(u []uint16) (j, k int32, ok bool) {
	// pieces
	var ps [2][]uint16
	n := 0
	start := 0
	// Count pieces, dropping trailing empty ones: find the last
	// non-empty piece's end first.
	end := len(u)
	for end > 0 && u[end-1] == ',' {
		end--
	}
	if end == 0 {
		// every piece empty: split gives [""] for "" and [] for ",,,";
		// either way tokens[0] or tokens[1] fails.
		return 0, 0, false
	}
	for i := 0; i <= end && n < 2; i++ {
		if i == end || u[i] == ',' {
			ps[n] = u[start:i]
			n++
			start = i + 1
		}
	}
	if n < 2 {
		return 0, 0, false
	}
	a, ok1 := parseInt32Units(ps[0])
	b, ok2 := parseInt32Units(ps[1])
	return a, b, ok1 && ok2
}

// parseInt32Units is parseJavaInt over UTF-16 code units.
func parseInt32Units(u []uint16) (int32, bool) {
	if len(u) == 0 || len(u) > 12 {
		return 0, false
	}
	var buf [12]byte
	b := buf[:0]
	for _, c := range u {
		if c >= 0x80 {
			return 0, false
		}
		b = append(b, byte(c))
	}
	return parseJavaInt(b)
}
