package cfr

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// MaxUnexplained is how many rounds the rules do not explain an
// Inference tolerates before it stops inferring: every later round has no
// commands. Such a replay breaks the rules all the time, and each
// unexplained round costs the inference's whole search.
const MaxUnexplained = 32

// Inference infers the commands of an official replay's rounds, frame by
// frame, as rewind import infers them (docs/import.md), for a reader
// that shows a replay with its commands rather than importing it: it is
// given every frame of the replay in turn (Round) and, for each frame the
// rules explain, gives commands that the rules turn from the previous
// frame into this one, and the errors they draw. The commands' order and
// energies are the canonical ones (colorfight2.InferCommands), not
// necessarily the players'.
//
// Unlike Walk, it proves nothing: a round whose frame no legal commands
// produce simply has none, and the inference goes on from the replay's
// own frame; after such a round the next is tried first from the state
// the rules gave instead, so a frame tampered on its own costs that round
// only. After MaxUnexplained such rounds it stops.
//
// It keeps two engine states, three frames and the inference's working
// storage, whatever the replay's length. Its zero value is not ready: use
// NewInference.
type Inference struct {
	header colorfight2.Config
	cfg    colorfight2.Config
	m      *colorfight2.Map
	// cur is the state at the last frame given (valid when ready): the
	// rules' or, after a round they do not explain, the frame's. After
	// such a round, alt (when altOK) is the state the rules gave instead:
	// the next round is tried from it first.
	states   [2]colorfight2.State
	cur, alt *colorfight2.State
	ready    bool
	altOK    bool
	// from and altFrom are cur's and alt's frames with the replay's
	// ratings; played is a working frame.
	from, altFrom, played colorfight2.Frame
	sorted                []colorfight2.FrameUser
	in                    colorfight2.Inferrer
	n                     int // frames given
	bad                   int // rounds not explained
}

// NewInference returns the inference of a replay whose header gives the
// configuration cfg (Header.Config).
func NewInference(cfg colorfight2.Config) *Inference {
	in := &Inference{header: cfg}
	in.cur, in.alt = &in.states[0], &in.states[1]
	return in
}

// Round takes the replay's next frame f — frame 0 first, then every
// frame in order — and infers the round that led to it. ok is false for
// frame 0, for a frame the rules do not explain and for every frame
// after MaxUnexplained such rounds; else cmds are the round's commands,
// indexed by uid-1 (none for the registration round 0 -> 1), and errs
// the errors the rules give them. cmds and errs are valid until the next
// call. f is not modified, nor kept.
func (in *Inference) Round(f *colorfight2.Frame) (cmds [][]colorfight2.Command, errs []colorfight2.CommandError, ok bool) {
	in.n++
	switch {
	case in.n == 1:
		in.m = colorfight2.MapFromFrame(f)
	case len(f.Users) == 0 || in.bad >= MaxUnexplained:
	case in.n == 2:
		return nil, nil, in.first(f)
	case !in.ready:
		in.load(f)
	default:
		return in.next(f)
	}
	return nil, nil, false
}

// first plays the registration round: the players of frame 1 on the map
// of frame 0, with no commands.
func (in *Inference) first(f *colorfight2.Frame) bool {
	in.cfg = Playable(in.header, len(f.Users))
	players, err := colorfight2.PlayersFromFrame(f)
	if err != nil || in.m.Width != f.Width || in.m.Height != f.Height {
		in.unexplained(f)
		return false
	}
	st, err := colorfight2.New(in.cfg, in.m, players)
	if err != nil {
		in.unexplained(f)
		return false
	}
	in.cur.CopyFrom(st)
	in.cur.Step(nil)
	if !in.matches(in.cur, f) {
		in.unexplained(f)
		return false
	}
	in.ready = true
	return true
}

// next infers the round that leads to the replay's frame f.
func (in *Inference) next(f *colorfight2.Frame) ([][]colorfight2.Command, []colorfight2.CommandError, bool) {
	nf := f.ByUID(&in.sorted)
	if in.altOK {
		in.altOK = false
		if cmds, ok, _ := in.play(in.alt, &in.altFrom, nf, f); ok {
			in.cur, in.alt = in.alt, in.cur
			return cmds, in.cur.Errors(), true
		}
	}
	cmds, ok, stepped := in.play(in.cur, &in.from, nf, f)
	if ok {
		return cmds, in.cur.Errors(), true
	}
	if stepped {
		// Keep what the rules gave; go on from the frame as well.
		in.cur, in.alt = in.alt, in.cur
		in.altFrom, in.played = in.played, in.altFrom
		in.altOK = true
	}
	in.unexplained(f)
	return nil, nil, false
}

// play infers the round from st (whose frame is from) to nf (f in uid
// order), plays it on st and compares; stepped says st was played.
func (in *Inference) play(st *colorfight2.State, from, nf, f *colorfight2.Frame) (cmds [][]colorfight2.Command, ok, stepped bool) {
	cmds, err := in.in.Infer(st, from, nf)
	if err != nil {
		return nil, false, false
	}
	st.Step(cmds)
	return cmds, in.matches(st, f), true
}

// matches compares st with the replay's frame f; when they agree, st's
// frame becomes from, the start of the next round (else it is left in
// played).
func (in *Inference) matches(st *colorfight2.State, f *colorfight2.Frame) bool {
	st.Frame(&in.played)
	in.played.CopyRatings(f)
	if colorfight2.Diff(f, &in.played) != nil {
		return false
	}
	in.from, in.played = in.played, in.from
	return true
}

// unexplained counts a round the rules do not explain and goes on from the
// replay's own frame.
func (in *Inference) unexplained(f *colorfight2.Frame) {
	in.bad++
	in.load(f)
}

// load makes the replay's frame f the start of the next round.
func (in *Inference) load(f *colorfight2.Frame) {
	if in.cfg.Width == 0 {
		in.cfg = colorfight2.Config{Width: f.Width, Height: f.Height, MaxTurn: colorfight2.DefaultMaxTurn}
	}
	in.cfg.MaxPlayer = max(in.cfg.MaxPlayer, len(f.Users))
	in.ready = in.cur.LoadFrameUnchecked(in.cfg, f.ByUID(&in.sorted)) == nil
	if in.ready {
		in.cur.Frame(&in.from)
		in.from.CopyRatings(f)
	}
}
