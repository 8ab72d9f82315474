package engine

import (
	"strconv"
	"strings"
)

// Event is something notable that happened in the last round: a capture,
// an elimination, a shot, a blast. Kind names it (snake_case, one of the
// ruleset's EventKinds); fields a kind does not use are -1 (Player,
// Other, X, Y) or 0 (Value).
type Event struct {
	Kind   string
	Player int   // who did it (or to whom it happened)
	Other  int   // the other player involved, or a number of the kind's ({other_number})
	X, Y   int   // where, in Board coordinates
	Value  int64 // how much (the kind's doc says of what)
}

// EventKind documents one kind of event for analysis and the viewer.
type EventKind struct {
	Name string
	// Text is the sentence the shell shows (Sentence), with {player},
	// {other}, {x}, {y} and {value} replaced by the event's fields
	// (players by name), and {other_number} by Other as a number, for a
	// kind whose Other is not a player (ColorfightII's tax bracket).
	Text string
	// OtherNumber says Other is a number of the kind's (a level, a
	// bracket), not a player: a reader that renumbers players leaves it.
	OtherNumber bool
}

// Sentence is k's Text for event e, its placeholders replaced, players
// named by name (which is given -1 for no player). It is the one
// rendering of a declared event's sentence; the text is plain, not HTML.
func (k *EventKind) Sentence(e *Event, name func(p int) string) string {
	pairs := [...]string{
		"{player}", name(e.Player),
		"{other}", name(e.Other),
		"{x}", strconv.Itoa(e.X),
		"{y}", strconv.Itoa(e.Y),
		"{value}", strconv.FormatInt(e.Value, 10),
		"{other_number}", "",
	}
	n := len(pairs) - 2 // {other_number} only when used: it costs the others
	if strings.Contains(k.Text, "{other_number}") {
		pairs[n+1], n = strconv.Itoa(e.Other), len(pairs)
	}
	return strings.NewReplacer(pairs[:n]...).Replace(k.Text)
}
