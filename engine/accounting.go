package engine

// Accounting is a Ruleset whose games have per-round figures beyond their
// Metrics that it computes from consecutive states of a game (and the
// round's applied commands when they are known): ColorfightII's
// accounting of gold, energy, captures and spending, its only user. It
// is a capability rather than more Metrics because the figures are
// computed from a game's frames, so that a stream of states (an official
// replay) gets them as a re-simulated recording does. A generic stream
// of such a game appends them to each player's values after those of
// Metrics (replay.MetaOf, replay.Figures). AccountingOf is the one check
// for it.
type Accounting interface {
	// AccountMetrics describes the figures of a game of players players,
	// in the order Accountant.Values reports them: some may exist once
	// per player (ColorfightII's cells captured from each other player),
	// so their number may depend on players, and only on it. Their names
	// are distinct from each other and from Metrics'. The caller may
	// keep the slice but must not modify it.
	AccountMetrics(players int) []Metric
	// NewAccountant returns the accountant of one game of players
	// players. commandsKnown says whether the game's rounds are played
	// from their commands (a recording re-simulated) or only shown (a
	// stream of states, such as an official replay); it is the same for
	// every round of the game. Without commands the figures whose Metric
	// has FromCommands are -1, unknown (0 where there is nothing to
	// count, as at frame 0).
	NewAccountant(players int, commandsKnown bool) *Accountant
	// AccountEventKinds declares the events Accountant.Events reports,
	// beside (and named apart from) the ruleset's EventKinds. The slice
	// must not be modified.
	AccountEventKinds() []EventKind
}

// AccountingOf returns r as an Accounting, nil for a ruleset without
// figures of its own.
func AccountingOf(r Ruleset) Accounting {
	a, _ := r.(Accounting)
	return a
}

// Accountant computes one game's figures (Accounting), frame by frame.
type Accountant struct {
	// Observe accounts for g as it is now. It is called once per frame of
	// one game, in order from frame 0 (the game before its first round),
	// with a Game of the ruleset that made the accountant showing that
	// frame; a figure of frame t may depend on every frame before it. An
	// error says why g cannot be accounted (a game of another ruleset,
	// a state the figures cannot follow) and leaves the figures of the
	// frame before.
	Observe func(g Game) error
	// Values appends player p's figures of the frame last observed, one
	// per AccountMetrics(players) in order, to dst and returns it (zeros
	// before the first Observe and for a player the game has not shown
	// yet).
	Values func(p int, dst []int64) []int64
	// Events appends the events of the round that led to the frame last
	// observed (none for frame 0), each of a kind of AccountEventKinds,
	// to dst in the order they happened and returns it.
	Events func(dst []Event) []Event
}
