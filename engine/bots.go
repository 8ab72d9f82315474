package engine

// Builtin is a built-in bot of a game as its Registration lists it: its
// name, one line saying how it plays, and how to make one for a seat,
// its choices drawn from seed.
type Builtin struct {
	Name string
	Doc  string
	New  func(seed uint64) Strategy
}

// Strategy is one built-in bot of a game, played in the process: Name is
// its registered name ("hunter"); Commands appends the commands player p
// sends for the next Round of g (a Game of the strategy's ruleset, which
// it may type-assert to its concrete type) to dst and returns it, and
// must not modify g.
type Strategy struct {
	Name     string
	Commands func(g Game, p int, dst []string) []string
}

// ViewBot is a bot written against one game's own view of its state (the
// ColorfightII frame, the Monad state) rather than against Game: Start is
// called once, before its first Commands, with the player number the
// game's bots are started with and a seed; Commands returns the bot's
// commands as text.
type ViewBot[V any] struct {
	Start    func(player int, seed uint64) error
	Commands func(view V) ([]string, error)
}

// ViewBuiltin registers a ViewBot as a Builtin: newBot makes a fresh
// bot; view gives what it reads from game g for player p, and the player
// number it is started with, or ok false for a game of another ruleset
// (the bot then sends nothing). A bot that fails to start, or to answer,
// sends nothing that round.
func ViewBuiltin[V any](name, doc string, newBot func() ViewBot[V], view func(g Game, p int) (v V, player int, ok bool)) Builtin {
	return Builtin{Name: name, Doc: doc, New: func(seed uint64) Strategy {
		s := &viewStrategy[V]{b: newBot(), seed: seed, view: view}
		return Strategy{Name: name, Commands: s.commands}
	}}
}

// viewStrategy plays a ViewBot as a Strategy.
type viewStrategy[V any] struct {
	b       ViewBot[V]
	seed    uint64
	view    func(Game, int) (V, int, bool)
	started bool
}

func (s *viewStrategy[V]) commands(g Game, p int, dst []string) []string {
	v, player, ok := s.view(g, p)
	if !ok {
		return dst
	}
	if !s.started {
		s.started = true
		if s.b.Start(player, s.seed) != nil {
			return dst
		}
	}
	cs, err := s.b.Commands(v)
	if err != nil {
		return dst
	}
	return append(dst, cs...)
}

// Messenger is a Game whose bots outside the process are sent a turn
// message of the game's own (its reference's protocol, which existing
// bots speak: ColorfightII's and Monad's) instead of the generic one of
// docs/bot-protocol.md: AppendTurnMessage appends player p's message for
// the next Round, one line ending in a newline, deadlineMS being the
// bot's answer deadline. MessengerOf is the one check for it.
type Messenger interface {
	AppendTurnMessage(dst []byte, p int, deadlineMS int64) []byte
}

// MessengerOf returns g as a Messenger, nil when its bots are sent the
// generic messages.
func MessengerOf(g Game) Messenger {
	m, _ := g.(Messenger)
	return m
}

// Observer is a Game that shows a bot outside the process the state as
// that player's bot sees it, in the generic turn message of
// docs/bot-protocol.md (Skyport's and the toy game's): AppendObservation
// appends one JSON object, the game's own bot message, to dst and
// returns it. A Game with a Messenger has no use for it.
type Observer interface {
	AppendObservation(dst []byte, p int) []byte
}

// AppendObservation appends what a generic turn message of g shows
// player p as the state: its Observer's object, or null for a Game
// without one.
func AppendObservation(dst []byte, g Game, p int) []byte {
	if o, ok := g.(Observer); ok {
		return o.AppendObservation(dst, p)
	}
	return append(dst, "null"...)
}

// Attendance is a Game whose players do not all take part in every
// round as they were seated. Idle reports that its next Round takes no
// commands at all (ColorfightII's round 0 -> 1, which only starts the
// game), so a runner plays it without asking any bot, reporting no fault
// and recording no log; Out reports that player p left the game for
// good (Monad's timed out and crashed players), so a runner neither asks
// its bot nor reports its faults; PlayerName returns the name player p
// goes by now, "" while it has none of its own: in a game whose players
// join in progress under a name of their own (ColorFight v1's
// `/joingame {"name":...}`, Registration.NamedInPlay) the name a
// recording's header gives a seat, written when the game opened, is a
// placeholder ("seat 2"). Idle, Out and PlayerName are the one check for
// it.
type Attendance interface {
	Idle() bool
	Out(p int) bool
	PlayerName(p int) string
}

// Idle reports whether g's next Round takes no commands at all (its
// Attendance's Idle); false for a Game without Attendance.
func Idle(g Game) bool {
	a, ok := g.(Attendance)
	return ok && a.Idle()
}

// Out reports whether player p has left g for good (its Attendance's
// Out); false for a Game without Attendance.
func Out(g Game, p int) bool {
	a, ok := g.(Attendance)
	return ok && a.Out(p)
}
