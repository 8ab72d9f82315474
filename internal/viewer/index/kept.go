package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/rewind-game/rewind/internal/match"
)

// The library's unfiltered standings are kept in the index (the table
// standings, one row): the rating's running state of every game's table
// (match.Ratings), each bot's rating over time (a bounded sample,
// curve), the key of the last game counted (gameKey) and the number of
// games counted, encoded by encodeKept. Put and Delete keep it in their
// own transaction: games after the last counted are added (O(new
// games)); a change at or before it marks the state stale (and lowers the
// row's low, the lowest game changed since), and Recount computes it
// again from scratch, in the background when a request finds it stale.

// MaxCurvePoints bounds the points of a bot's rating over time kept per
// table: when full, every other point is dropped and the sampling stride
// doubles, so that the points stay spread over all its games and a bot's
// state is of fixed size however many games it plays.
const MaxCurvePoints = 200

// curvePoints is MaxCurvePoints (smaller in tests).
var curvePoints = MaxCurvePoints

// kept is the library's (unfiltered) standings as counted so far. Once
// installed (Index.cache) a kept is never changed: clone it first.
type kept struct {
	games  []string // standingsGames when counted from scratch
	tables []*table // tables[i] counts games[i]
	last   gameKey  // meaningful when n > 0
	n      int      // games counted
	seq    int64    // the row's seq this state was stored as
	out    []Standing
}

// table is one game's standings: the ratings, the number of games
// counted and each bot's rating over time.
type table struct {
	ratings match.Ratings
	played  int
	curves  map[string]*curve
}

// curve samples a bot's ratings over time: a point after each of its
// games whose number (1, 2, …) is a multiple of stride, at most
// curvePoints of them, and always the point after its latest game.
type curve struct {
	stride, seen int // seen counts games, not seats: at most the table's Games
	points       []RatingPoint
	latest       RatingPoint
}

func (k *kept) clone() *kept {
	c := &kept{games: k.games, last: k.last, n: k.n, tables: make([]*table, len(k.tables))}
	for i, t := range k.tables {
		nt := &table{ratings: *t.ratings.Clone(), played: t.played, curves: make(map[string]*curve, len(t.curves))}
		for b, cv := range t.curves {
			nc := *cv
			nc.points = slices.Clone(cv.points)
			nt.curves[b] = &nc
		}
		c.tables[i] = nt
	}
	return c
}

// emptyKept is the state of a library with no game counted.
func emptyKept() *kept {
	games := standingsGames()
	k := &kept{games: games, tables: make([]*table, len(games))}
	for i := range k.tables {
		k.tables[i] = &table{curves: map[string]*curve{}}
	}
	k.out = k.standings()
	return k
}

// add counts game g of table i (its path p, its key key) after those
// counted so far.
func (k *kept) add(i int, key gameKey, g match.GameResult) {
	k.last = key
	k.n++
	if i < 0 {
		return
	}
	t := k.tables[i]
	t.ratings.Add(g)
	t.played++
	for j, s := range g.Seats {
		if slices.ContainsFunc(g.Seats[:j], func(o match.SeatResult) bool { return o.Bot == s.Bot }) {
			continue // one point a game
		}
		st, _ := t.ratings.Entrant(s.Bot)
		c := t.curves[s.Bot]
		if c == nil {
			c = &curve{stride: 1}
			t.curves[s.Bot] = c
		}
		c.seen++
		c.latest = RatingPoint{Game: t.played, Path: key.path, Elo: st.Elo, Conservative: st.Conservative}
		if c.seen%c.stride != 0 {
			continue
		}
		if len(c.points) >= curvePoints {
			// Keep the points after games 2·stride, 4·stride, …
			kept := c.points[:0]
			for x := 1; x < len(c.points); x += 2 {
				kept = append(kept, c.points[x])
			}
			c.points = kept
			c.stride *= 2
			if c.seen%c.stride != 0 {
				continue
			}
		}
		c.points = append(c.points, c.latest)
	}
}

// standings lists k's standings, one table per game in k.games' order.
func (k *kept) standings() []Standing {
	var out []Standing
	for i, game := range k.games {
		for _, s := range k.tables[i].ratings.Standings() {
			out = append(out, Standing{Standing: s, Game: game})
		}
	}
	return out
}

// rating is bot's rating over time in the first table it plays in: its
// sampled points and the one after its latest game.
func (k *kept) rating(bot string) []RatingPoint {
	for _, t := range k.tables {
		if c := t.curves[bot]; c != nil {
			out := slices.Clone(c.points)
			if len(out) == 0 || out[len(out)-1].Game != c.latest.Game {
				out = append(out, c.latest)
			}
			return out
		}
	}
	return nil
}

// keptMagic starts an encoded kept state; keptVersion follows it.
const (
	keptMagic   = "RWKS"
	keptVersion = 1
)

// errKeptState is wrapped by decodeKept's errors.
var errKeptState = errors.New("kept standings state damaged")

// encodeKept encodes k: keptMagic, keptVersion, the last key (created
// as a zigzag varint, path), the games counted, then per table its game's
// name, its games, its ratings (match.Ratings.MarshalBinary,
// length-prefixed) and its curves in the order of the bots' names (name,
// stride, games seen, points, the latest point). Strings and byte
// strings are uvarint length-prefixed; a point is its game number
// (uvarint), path, Elo and μ − 3σ (IEEE-754 bits, little-endian).
func encodeKept(k *kept) ([]byte, error) {
	b := append([]byte(keptMagic), keptVersion)
	b = binary.AppendVarint(b, k.last.created)
	b = appendString(b, k.last.path)
	b = binary.AppendUvarint(b, uint64(k.n))
	b = binary.AppendUvarint(b, uint64(len(k.tables)))
	for i, t := range k.tables {
		b = appendString(b, k.games[i])
		b = binary.AppendUvarint(b, uint64(t.played))
		rb, err := t.ratings.MarshalBinary()
		if err != nil {
			return nil, err
		}
		b = appendString(b, string(rb))
		b = binary.AppendUvarint(b, uint64(len(t.curves)))
		for _, bot := range slices.Sorted(maps.Keys(t.curves)) {
			c := t.curves[bot]
			b = appendString(b, bot)
			b = binary.AppendUvarint(b, uint64(c.stride))
			b = binary.AppendUvarint(b, uint64(c.seen))
			b = binary.AppendUvarint(b, uint64(len(c.points)))
			for _, p := range c.points {
				b = appendPoint(b, p)
			}
			b = appendPoint(b, c.latest)
		}
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendPoint(b []byte, p RatingPoint) []byte {
	b = binary.AppendUvarint(b, uint64(p.Game))
	b = appendString(b, p.Path)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Elo))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Conservative))
}

// keptReader reads an encoded kept state, failing with where it is.
type keptReader struct {
	b   []byte
	off int
	err error
}

func (r *keptReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at byte %d", errKeptState, what, r.off)
	}
}

func (r *keptReader) uvarint(what string, max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 || x > max {
		r.fail(what + " truncated or out of range")
		return 0
	}
	r.off += n
	return x
}

func (r *keptReader) varint(what string) int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail(what + " truncated")
		return 0
	}
	r.off += n
	return x
}

func (r *keptReader) string(what string) string {
	n := r.uvarint(what+" length", math.MaxInt32)
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.fail(what + " longer than the state")
	}
	if r.err != nil {
		return ""
	}
	s := string(r.b[r.off : r.off+int(n)])
	r.off += int(n)
	return s
}

func (r *keptReader) float(what string) float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b)-r.off < 8 {
		r.fail(what + " truncated")
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.off:]))
	r.off += 8
	if math.IsNaN(f) || math.IsInf(f, 0) {
		r.fail(what + " not finite")
	}
	return f
}

func (r *keptReader) point(played int) RatingPoint {
	var p RatingPoint
	p.Game = int(r.uvarint("point's game", uint64(played)))
	p.Path = r.string("point's path")
	p.Elo = r.float("point's Elo")
	p.Conservative = r.float("point's μ − 3σ")
	return p
}

// decodeKept decodes encodeKept's bytes; damaged bytes (another magic or
// version, truncated, counts that cannot be, a curve of a bot the table
// does not rate) are refused with an error wrapping errKeptState that
// says where. The tables are matched to today's games (standingsGames)
// by name: a game no longer registered is dropped, a new one starts
// empty.
func decodeKept(b []byte) (*kept, error) {
	if len(b) < len(keptMagic)+1 || string(b[:len(keptMagic)]) != keptMagic {
		return nil, fmt.Errorf("%w: no %q header", errKeptState, keptMagic)
	}
	if v := b[len(keptMagic)]; v != keptVersion {
		return nil, fmt.Errorf("%w: version %d, this rewind reads %d", errKeptState, v, keptVersion)
	}
	r := &keptReader{b: b, off: len(keptMagic) + 1}
	k := emptyKept()
	k.last.created = r.varint("last game's time")
	k.last.path = r.string("last game's path")
	k.n = int(r.uvarint("games counted", math.MaxInt32))
	nt := r.uvarint("tables", 1024)
	seen := map[string]bool{}
	total := 0
	for range nt {
		game := r.string("game")
		played := int(r.uvarint("games of "+game, uint64(k.n)))
		rb := r.string("ratings of " + game)
		if r.err != nil {
			return nil, r.err
		}
		if seen[game] {
			r.fail("game " + game + " twice")
			return nil, r.err
		}
		seen[game] = true
		total += played
		t := &table{played: played, curves: map[string]*curve{}}
		if err := t.ratings.UnmarshalBinary([]byte(rb)); err != nil {
			return nil, fmt.Errorf("%w: table %s: %v", errKeptState, game, err)
		}
		nc := r.uvarint("curves of "+game, uint64(t.ratings.Len()))
		for range nc {
			bot := r.string("bot")
			c := &curve{}
			c.stride = int(r.uvarint("stride", 1<<31))
			c.seen = int(r.uvarint("games seen", uint64(played)))
			np := r.uvarint("points", uint64(MaxCurvePoints))
			for range np {
				c.points = append(c.points, r.point(played))
			}
			c.latest = r.point(played)
			if r.err != nil {
				return nil, r.err
			}
			st, ok := t.ratings.Entrant(bot)
			if !ok || t.curves[bot] != nil || c.stride < 1 || c.seen < 1 || c.seen > st.Games {
				r.fail("curve of " + bot + " does not match its table")
				return nil, r.err
			}
			t.curves[bot] = c
		}
		if r.err == nil && len(t.curves) != t.ratings.Len() {
			r.fail("a bot of " + game + " without a curve")
		}
		if r.err != nil {
			return nil, r.err
		}
		if i := slices.Index(k.games, game); i >= 0 {
			k.tables[i] = t
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if total > k.n || k.n > 0 && k.last.path == "" {
		return nil, fmt.Errorf("%w: %d games counted, %d in tables, last %q", errKeptState, k.n, total, k.last.path)
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("%w: %d bytes after the state", errKeptState, len(b)-r.off)
	}
	k.out = k.standings()
	return k, nil
}
