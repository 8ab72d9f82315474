package engine

// ViewBot is a bot written against one game's own view of its state (the
// ColorfightII frame, the Monad state) rather than the seam: the
// built-ins from before every game was played through the seam. Start is
// called once, before its first Commands, with the player number the
// game's bots are started with and a seed; Commands returns the bot's
// commands as text.
type ViewBot[V any] interface {
	Name() string
	Start(player int, seed uint64) error
	Commands(view V) ([]string, error)
}

// ViewBuiltin registers a ViewBot as a Builtin: newBot makes a fresh
// bot; view gives what it reads from game g for player p, and the player
// number it is started with, or ok false for a game of another ruleset
// (the bot then sends nothing). A bot that fails to start, or to answer,
// sends nothing that round.
func ViewBuiltin[V any](name, doc string, newBot func() ViewBot[V], view func(g Game, p int) (v V, player int, ok bool)) Builtin {
	return Builtin{Name: name, Doc: doc, New: func(seed uint64) Strategy {
		return &viewStrategy[V]{b: newBot(), seed: seed, view: view}
	}}
}

// viewStrategy plays a ViewBot through the seam.
type viewStrategy[V any] struct {
	b       ViewBot[V]
	seed    uint64
	view    func(Game, int) (V, int, bool)
	started bool
}

func (s *viewStrategy[V]) Name() string { return s.b.Name() }

func (s *viewStrategy[V]) Commands(g Game, p int, dst []string) []string {
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
