package match

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ratingsMagic starts an encoded Ratings (MarshalBinary); the byte after
// it is the encoding's version, ratingsVersion.
const (
	ratingsMagic   = "RWRT"
	ratingsVersion = 1
)

// MaxRatingsEntrants bounds the entrants an encoded Ratings may hold
// (UnmarshalBinary refuses more).
const MaxRatingsEntrants = 1 << 20

// MaxEntrantBytes bounds an entrant's name in an encoded Ratings.
const MaxEntrantBytes = 4096

// MarshalBinary encodes r's state, O(entrants): ratingsMagic, the
// version, the number of entrants, then for each, in order of first
// appearance, its name (length-prefixed), games, wins and scored games
// (uvarints) and its Elo, μ, σ, μ − 3σ and sums of ranks, scores and
// measures (IEEE-754 bits, little-endian). Decoding it
// (UnmarshalBinary) gives a Ratings that counts on exactly as r does.
func (r *Ratings) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 16+len(r.st)*80)
	b = append(b, ratingsMagic...)
	b = append(b, ratingsVersion)
	b = binary.AppendUvarint(b, uint64(len(r.st)))
	for i, s := range r.st {
		b = binary.AppendUvarint(b, uint64(len(s.Bot)))
		b = append(b, s.Bot...)
		b = binary.AppendUvarint(b, uint64(s.Games))
		b = binary.AppendUvarint(b, uint64(s.Wins))
		b = binary.AppendUvarint(b, uint64(s.Scored))
		for _, f := range []float64{s.Elo, s.Mu, s.Sigma, s.Conservative, r.sumRank[i], r.sumScore[i], r.sumMeasure[i]} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	return b, nil
}

// ErrRatingsState is wrapped by every error of UnmarshalBinary: the
// bytes are not a Ratings state this rewind wrote.
var ErrRatingsState = errors.New("not a ratings state")

// UnmarshalBinary replaces r's state by the one data encodes
// (MarshalBinary). Damaged data — another magic or version, a truncated
// or over-long encoding, an entrant named twice, counts that cannot be
// (more wins or scored games than games), a rating that is not finite or
// a σ that is not positive — is refused with an error wrapping
// ErrRatingsState that says where; r is then unchanged.
func (r *Ratings) UnmarshalBinary(data []byte) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrRatingsState, fmt.Sprintf(format, args...))
	}
	if len(data) < len(ratingsMagic)+1 || string(data[:len(ratingsMagic)]) != ratingsMagic {
		return fail("no %q header", ratingsMagic)
	}
	if v := data[len(ratingsMagic)]; v != ratingsVersion {
		return fail("version %d, this rewind reads %d", v, ratingsVersion)
	}
	p := data[len(ratingsMagic)+1:]
	uv := func(what string, i int) (uint64, error) {
		x, n := binary.Uvarint(p)
		if n <= 0 || n != len(binary.AppendUvarint(nil, x)) {
			return 0, fail("entrant %d: %s truncated, too large or not minimal", i, what)
		}
		p = p[n:]
		return x, nil
	}
	n, err := uv("count", -1)
	if err != nil {
		return err
	}
	// Each entrant takes at least 1+3+7*8 bytes: a count the data cannot
	// hold is refused before anything is allocated for it.
	if n > MaxRatingsEntrants || n > uint64(len(p))/60 {
		return fail("%d entrants in %d bytes", n, len(p))
	}
	out := Ratings{idx: make(map[string]int, n)}
	for i := 0; i < int(n); i++ {
		l, err := uv("name length", i)
		if err != nil {
			return err
		}
		if l > MaxEntrantBytes || l > uint64(len(p)) {
			return fail("entrant %d: name of %d bytes", i, l)
		}
		name := string(p[:l])
		p = p[l:]
		if _, dup := out.idx[name]; dup {
			return fail("entrant %d: %q named twice", i, name)
		}
		var c [3]uint64
		for k, what := range []string{"games", "wins", "scored games"} {
			if c[k], err = uv(what, i); err != nil {
				return err
			}
		}
		if c[0] > math.MaxInt32 || c[1] > c[0] || c[2] > c[0] {
			return fail("entrant %d (%q): %d games, %d wins, %d scored", i, name, c[0], c[1], c[2])
		}
		if len(p) < 7*8 {
			return fail("entrant %d (%q): ratings truncated", i, name)
		}
		var f [7]float64
		for k := range f {
			f[k] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*k:]))
			if math.IsNaN(f[k]) || math.IsInf(f[k], 0) {
				return fail("entrant %d (%q): value %d is not finite", i, name, k)
			}
		}
		p = p[7*8:]
		if !(f[2] > 0) {
			return fail("entrant %d (%q): σ = %v", i, name, f[2])
		}
		out.idx[name] = i
		out.st = append(out.st, Standing{Bot: name, Games: int(c[0]), Wins: int(c[1]), Scored: int(c[2]), Elo: f[0], Mu: f[1], Sigma: f[2], Conservative: f[3]})
		out.sumRank = append(out.sumRank, f[4])
		out.sumScore = append(out.sumScore, f[5])
		out.sumMeasure = append(out.sumMeasure, f[6])
	}
	if len(p) != 0 {
		return fail("%d bytes after the last entrant", len(p))
	}
	*r = out
	return nil
}

// Entrant returns the standing of entrant b in the games added so far
// (its means computed as Standings computes them), false when it played
// none. O(1).
func (r *Ratings) Entrant(b string) (Standing, bool) {
	i, ok := r.idx[b]
	if !ok {
		return Standing{}, false
	}
	return r.standing(i), true
}

// Len is the number of entrants so far.
func (r *Ratings) Len() int { return len(r.st) }
