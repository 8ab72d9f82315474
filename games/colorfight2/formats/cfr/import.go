package cfr

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Violation is one way a replay breaks the rules: at Turn, in Where (a
// cell or a user), Field holds Found where the rules give Allowed.
// Explain, when set, says how the rules arrive at Allowed.
type Violation struct {
	Turn    int
	Where   string
	Field   string
	Found   string
	Allowed string
	Explain string
}

func (v Violation) String() string {
	s := fmt.Sprintf("turn %d, %s: %s %s, but the rules allow %s", v.Turn, v.Where, v.Field, v.Found, v.Allowed)
	if v.Explain != "" {
		s += " (" + v.Explain + ")"
	}
	return s
}

// Unexplained is a round the inference found no commands for while no
// rule proves the frame impossible: the replay may still be legal
// (docs/import.md). Closest is the first difference between the replay's
// frame and the closest round the inference found; Bounded says the
// search for hidden actions stopped at its bound.
type Unexplained struct {
	Turn    int
	Closest Violation
	Bounded bool
}

func (u Unexplained) String() string {
	s := fmt.Sprintf("turn %d: no commands found that explain this round; the file may still be legal (closest inferred round: %s %s: %s, the commands found give %s", u.Turn, u.Closest.Where, u.Closest.Field, u.Closest.Found, u.Closest.Allowed)
	if u.Bounded {
		s += "; the search for hidden actions stopped at its bound"
	}
	return s + ")"
}

// UnexplainedError is returned by cfrimport.Import for a replay with a
// round the inference does not explain and the rules do not refute:
// nothing proves the replay breaks the rules, but no .rwd can be written
// for it.
type UnexplainedError struct {
	Round Unexplained
}

func (e *UnexplainedError) Error() string { return e.Round.String() }

// AuditError is returned by cfrimport.Import for a replay no legal
// commands produce: the violations, in turn order.
type AuditError struct {
	Violations []Violation
}

func (e *AuditError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the replay breaks the rules (%d violation(s)); first: %s", len(e.Violations), e.Violations[0])
	return b.String()
}

// Step is one transition of a walked replay.
type Step struct {
	// Turn is the turn reached (the frame compared).
	Turn int
	// Commands played in the round Turn-1 -> Turn, indexed by uid-1 (nil
	// for round 0 -> 1).
	Commands [][]colorfight2.Command
	// State is the state after the round, as the rules give it; valid
	// during the callback only.
	State *colorfight2.State
	// Violations found in the replay's frame Turn: each is proved, a
	// condition every legal round meets and the frame does not.
	Violations []Violation
	// Unexplained is set when the inference found no commands that give
	// frame Turn and no violation is proved.
	Unexplained *Unexplained
}

// Game is what Walk learns of the game before its first round.
type Game struct {
	Header  Header
	Config  colorfight2.Config
	Map     *colorfight2.Map
	Players []colorfight2.Player
	// Ratings of the players in uid order, from their first frame.
	Verified []bool
	Ranking  []string
	// Frames is the number of frames read (set when Walk returns).
	Frames int
	// Truncated is the decoding error that ended a damaged replay early,
	// after its last whole frame; nil when the replay ended cleanly.
	Truncated error
}

// Walk reads an official replay and plays it by the rules: frame 0 gives
// the map, the first frame the players (colorfight2.PlayersFromFrame); then,
// for every later frame, the round's commands are inferred
// (colorfight2.InferCommands) and played, and the frame the rules give is
// compared with the replay's. step is called for every round with what was
// played and the violations found; a replay whose frames all follow has
// none. A frame the played round does not give is a violation only when
// a rule proves no commands give it (colorfight2.Impossible, or the
// frame's own checks); else the round is unexplained (Step.Unexplained).
// After either the walk goes on from the state the rules gave and from
// the replay's frame, so one tampered frame is reported once, at its turn.
//
// Walk holds two frames and one state at a time; its cost is bounded by
// the decoder's limits.
func Walk(r io.Reader, step func(*Game, *Step) error) (*Game, error) {
	d, err := NewDecoder(r)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	g := &Game{Header: d.Header()}
	var f0, prev, next, played colorfight2.Frame
	if err := d.Next(&f0); err != nil {
		return nil, fmt.Errorf("frame 0: %w", err)
	}
	if err := d.Next(&next); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the replay has no frame with players (it ends at frame 0)")
		}
		return nil, fmt.Errorf("frame 1: %w", err)
	}
	if len(next.Users) == 0 {
		return nil, errors.New("frame 1 has no players: rewind reads games whose players registered before turn 1")
	}
	g.Config = Playable(g.Header.Config(), len(next.Users))
	g.Map = colorfight2.MapFromFrame(&f0)
	if g.Players, err = colorfight2.PlayersFromFrame(&next); err != nil {
		return nil, err
	}
	g.Verified = make([]bool, len(g.Players))
	g.Ranking = make([]string, len(g.Players))
	for _, u := range next.Users {
		g.Verified[u.UID-1], g.Ranking[u.UID-1] = u.Verified, u.Ranking
	}
	st, err := colorfight2.New(g.Config, g.Map, g.Players)
	if err != nil {
		return nil, err
	}
	g.Frames = 2
	st.Step(nil)
	w := &walker{g: g}
	s := &Step{Turn: 1, State: st}
	diff, own := w.compare(&next, st, &played, nil)
	s.Violations = own
	if diff != nil {
		s.Violations = append([]Violation{*diff}, own...) // registration has no commands to find
	}
	if err := step(g, s); err != nil {
		return g, err
	}
	lastBad := len(s.Violations) > 0
	for {
		prev, next = next, prev
		err := d.Next(&next)
		if errors.Is(err, io.EOF) {
			return g, nil
		}
		if err != nil {
			g.Truncated = fmt.Errorf("frame %d: %w", g.Frames, err)
			return g, nil
		}
		g.Frames++
		s, after := w.playRound(st, &prev, &next, &played, lastBad)
		st = after
		lastBad = len(s.Violations) > 0 || s.Unexplained != nil
		if err := step(g, s); err != nil {
			return g, err
		}
	}
}

// walker holds Walk's working states, reused every round.
type walker struct {
	g           *Game
	inf         colorfight2.Inferrer
	check, file colorfight2.State
	before      colorfight2.State
	buf         [2]colorfight2.State
	from        colorfight2.Frame
	flip        int
	// users of the replay's frames put in uid order (Frame.ByUID)
	sortPrev, sortNext []colorfight2.FrameUser
}

// playRound plays the round to the replay's frame next from the state st
// the rules reached. After a round with violations (lastBad) the replay's
// own previous frame, prev, is tried as well: a frame tampered on its own
// is then reported once (the rules' state goes on to match the next
// frame), and a replay that went its own way from some turn on is
// followed from its frames (reported once, where it left the rules). The
// state returned is valid until the next call.
//
// When no start explains next, the verdict is the rules' state's: a
// violation when a rule proves that no commands give next from it
// (colorfight2.Impossible, or the frame's own checks), else an
// unexplained round.
func (w *walker) playRound(st *colorfight2.State, prev, next, played *colorfight2.Frame, lastBad bool) (*Step, *colorfight2.State) {
	starts := []*colorfight2.State{st}
	if lastBad && w.file.LoadFrameUnchecked(w.g.Config, prev.ByUID(&w.sortPrev)) == nil {
		starts = append(starts, &w.file)
	}
	var first *Step
	for k, start := range starts {
		from := &w.from
		start.Frame(from)
		from.CopyRatings(prev)
		w.before.CopyFrom(start)
		nf := next.ByUID(&w.sortNext)
		cmds, err := w.inf.Infer(start, from, nf)
		if err != nil {
			cmds = nil // next is not a frame of this game; compare says why
		}
		// Play into the buffer st is not in.
		after := &w.buf[w.flip]
		if after == st {
			after = &w.buf[1-w.flip]
		}
		after.CopyFrom(start)
		after.Step(cmds)
		s := &Step{Turn: next.Turn, Commands: cmds, State: after}
		diff, own := w.compare(next, after, played, &w.before)
		if diff == nil && len(own) == 0 {
			return s, after
		}
		if k == 0 {
			// The verdict, from the rules' state (start, unplayed, is
			// still st's copy in w.before).
			if d := colorfight2.Impossible(&w.before, nf); d != nil {
				s.Violations = append(s.Violations, violation(d))
			}
			for _, v := range own {
				if len(s.Violations) == 0 || s.Violations[0].Where != v.Where || s.Violations[0].Field != v.Field {
					s.Violations = append(s.Violations, v)
				}
			}
			if len(s.Violations) == 0 {
				s.Unexplained = &Unexplained{Turn: next.Turn, Closest: *diff, Bounded: w.inf.Bounded()}
			}
		}
		if k == len(starts)-1 {
			if first != nil {
				// Neither start explains next: report it as seen from the
				// rules' state, go on from the replay's.
				first.State = after
				s = first
			}
			return s, after
		}
		first = s
	}
	return first, st
}

// violation is a proof of colorfight2.Impossible as a Violation.
func violation(d *colorfight2.Divergence) Violation {
	return Violation{Turn: d.Turn, Where: d.Where, Field: d.Field, Found: d.Got, Allowed: d.Want}
}

// compare lists how the replay's frame want differs from state st (which
// got receives): diff, the first difference (nil when none), and own,
// what the frame breaks on its own (the checks of a single frame, which
// prove a violation); before is the state before the round, for
// explanations.
func (w *walker) compare(want *colorfight2.Frame, st *colorfight2.State, got *colorfight2.Frame, before *colorfight2.State) (diff *Violation, own []Violation) {
	st.Frame(got)
	got.CopyRatings(want)
	wf := want.ByUID(&w.sortNext)
	if d := colorfight2.Diff(wf, got); d != nil {
		v := Violation{Turn: want.Turn, Where: d.Where, Field: d.Field, Found: d.Want, Allowed: d.Got}
		if before != nil && strings.HasPrefix(d.Where, "user ") && (d.Field == "gold" || d.Field == "energy") {
			v.Explain = explain(d, before, st)
		}
		diff = &v
	}
	// The frame on its own: what a single frame must satisfy.
	if err := w.check.LoadFrame(st.Config(), wf); err != nil {
		v := Violation{Turn: want.Turn, Where: "frame", Field: "players", Found: err.Error(), Allowed: "a frame of this game"}
		var d *colorfight2.Divergence
		if errors.As(err, &d) {
			v = Violation{Turn: want.Turn, Where: d.Where, Field: d.Field, Found: d.Got, Allowed: d.Want}
		}
		own = append(own, v)
	}
	return diff, own
}

// explain says how the rules reach a user's gold or energy.
func explain(d *colorfight2.Divergence, before, after *colorfight2.State) string {
	uid, err := strconv.Atoi(strings.TrimPrefix(d.Where, "user "))
	if err != nil {
		return ""
	}
	var b, a colorfight2.Frame
	before.Frame(&b)
	after.Frame(&a)
	var ub, ua *colorfight2.FrameUser
	for k := range b.Users {
		if int(b.Users[k].UID) == uid {
			ub = &b.Users[k]
		}
	}
	for k := range a.Users {
		if int(a.Users[k].UID) == uid {
			ua = &a.Users[k]
		}
	}
	if ub == nil || ua == nil {
		return ""
	}
	if d.Field == "gold" {
		rest := ua.Gold - ub.Gold - ua.GoldSource + ua.TaxAmount
		return fmt.Sprintf("gold %d at turn %d, income %d, tax %d, bought and captured %+d", ub.Gold, b.Turn, ua.GoldSource, ua.TaxAmount, rest)
	}
	rest := ua.Energy - ub.Energy - ua.EnergySource + ua.TaxAmount
	return fmt.Sprintf("energy %d at turn %d, income %d, tax %d, attacks and upgrades %+d", ub.Energy, b.Turn, ua.EnergySource, ua.TaxAmount, rest)
}

// SHA256 returns the hex SHA-256 of everything r yields.
func SHA256(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// AuditResult is the outcome of Audit.
type AuditResult struct {
	Game       *Game
	Rounds     int
	Violations []Violation
	// Unexplained lists the rounds the inference found no commands for
	// and no rule refutes (at most the limit, like Violations).
	Unexplained []Unexplained
	// More is true when violations or unexplained rounds beyond the limit
	// were left out.
	More bool
}

// MaxAuditViolations bounds the violations an audit keeps whatever limit
// it is given (a round gives at most two, so a real 2000-round game gives
// at most 4000): an official replay that breaks the rules every round for
// millions of rounds is listed up to here, with More set.
const MaxAuditViolations = 100000

// Audit plays an official replay by the rules (Walk) and collects every
// violation and every unexplained round, at most limit of each (0: no
// limit but MaxAuditViolations).
func Audit(r io.Reader, limit int) (*AuditResult, error) {
	if limit <= 0 || limit > MaxAuditViolations {
		limit = MaxAuditViolations
	}
	res := &AuditResult{}
	g, err := Walk(r, func(g *Game, s *Step) error {
		res.Rounds = s.Turn
		for _, v := range s.Violations {
			if len(res.Violations) >= limit {
				res.More = true
				return nil
			}
			res.Violations = append(res.Violations, v)
		}
		if u := s.Unexplained; u != nil {
			if len(res.Unexplained) >= limit {
				res.More = true
				return nil
			}
			res.Unexplained = append(res.Unexplained, *u)
		}
		return nil
	})
	res.Game = g
	return res, err
}
