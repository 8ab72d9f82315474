package subprocess

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
)

// generic reports whether the bot plays a game through the seam: any
// game it was created for (Options.Game) but "", a game whose messages
// are its own and do not name it (ColorfightII's: engine.Messenger).
func (b *Bot) playsEngineGame() bool {
	switch b.opts.Game {
	case "":
		return false
	}
	return true
}

// validGameID accepts a ruleset id as Options.Game: 1 to 32 lower-case
// letters, digits, '-' and '_' (it is written into the start message).
// Whether the game is registered is the caller's to check (package
// rulesets, which imports the games' bots and so cannot be imported
// here).
func validGameID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Play sends player p the turn message of g, a game of the ruleset the
// bot was created for (Options.Game; see Prepare for a bot created for
// none), and returns its reply's commands:
// a string element as its text, any other JSON value as its JSON text
// (docs/bot-protocol.md, "Any game"). The state is the game's own
// observation (engine.Observer); a game without one sends none. The
// error contract is Bot's.
func (b *Bot) Play(g engine.Game, p int) ([]string, error) {
	return b.Prepare(g, p)()
}

// Prepare encodes player p's turn message of g now and returns the
// exchange that sends it and waits for the reply, which may run later
// and on another goroutine than g's (Play is Prepare then the exchange).
// It lets a runner read the game on one goroutine and wait for several
// bots at once.
//
// A bot created for no game (Options.Game "") plays only a game that
// sends messages of its own (engine.Messenger: ColorfightII's), its
// replies' commands being strings.
func (b *Bot) Prepare(g engine.Game, p int) func() ([]string, error) {
	own := engine.MessengerOf(g) != nil
	if !b.playsEngineGame() && !own {
		err := fmt.Errorf("bot: %q was created for no game, and this game has no messages of its own", b.command)
		return func() ([]string, error) { return nil, err }
	}
	msg := appendTurnMessage(nil, g, p, b.opts)
	b.ownMessages = own
	turn := g.Turn()
	return func() ([]string, error) {
		return b.exchange(turn, func(buf []byte) []byte { return append(buf, msg...) })
	}
}

// appendTurnMessage appends the turn message of g for player p (one line):
// the game's own (engine.Messenger) or the generic one.
func appendTurnMessage(b []byte, g engine.Game, p int, o Options) []byte {
	if m := engine.MessengerOf(g); m != nil {
		return m.AppendTurnMessage(b, p, o.Deadline.Milliseconds())
	}
	b = append(b, `{"type":"turn","game":"`...)
	b = append(b, o.Game...)
	b = append(b, `","turn":`...)
	b = strconv.AppendInt(b, int64(g.Turn()), 10)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(p), 10)
	b = append(b, `,"active":`...)
	b = strconv.AppendInt(b, int64(g.Active()), 10)
	b = append(b, `,"info":{"max_turn":`...)
	b = strconv.AppendInt(b, int64(g.MaxTurns()), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(g.Players()), 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, o.Deadline.Milliseconds(), 10)
	b = append(b, `},"state":`...)
	b = engine.AppendObservation(b, g, p)
	return append(b, "}\n"...)
}

// unquoteStrings turns each command that is a JSON string into its text,
// leaving any other JSON value as its JSON text (a game played through the
// seam takes both: docs/bot-protocol.md, "Any game"). A string that is not
// valid JSON is left as it is, for the game to reject.
func unquoteStrings(cmds []string) {
	for i, c := range cmds {
		if len(c) > 0 && c[0] == '"' {
			var s string
			if json.Unmarshal([]byte(c), &s) == nil {
				cmds[i] = s
			}
		}
	}
}

// Exchange sends msg, a turn message of the game's own (one line ending in
// a newline: ColorfightII's, docs/bot-protocol.md), and returns the
// commands of the bot's reply to turn, each kept as its JSON text, for a
// caller that builds the game's messages itself
// (colorfight2.AppendBotTurn). The error contract is Bot's; msg is not
// retained.
func (b *Bot) Exchange(turn int, msg []byte) ([]string, error) {
	b.ownMessages = true
	return b.exchange(turn, func(buf []byte) []byte { return append(buf, msg...) })
}

// Game returns the game the bot was created for (Options.Game; "" for a
// game whose messages do not name it).
func (b *Bot) Game() string { return b.opts.Game }

// Deadline returns the bot's answer deadline per turn (Options.Deadline,
// its default filled in).
func (b *Bot) Deadline() time.Duration { return b.opts.Deadline }

// Player returns b as a player of a game played through the seam (it has
// the methods of match.GamePlayer, and the optional ones the runner looks
// for: Prepare, RoundLog, RoundMarks): players are numbered from 0 there, so Start
// starts b as uid p+1.
func (b *Bot) Player() *Player { return &Player{b: b} }

// Player is a Bot as a player of a game played through the seam (see
// Bot.Player).
type Player struct{ b *Bot }

// Bot returns the Bot the player plays.
func (s *Player) Bot() *Bot { return s.b }

// Name is the bot's command line.
func (s *Player) Name() string { return s.b.Name() }

// Start starts the bot as player p (uid p+1).
func (s *Player) Start(p int, seed uint64) error { return s.b.Start(p+1, seed) }

// Commands is Play.
func (s *Player) Commands(g engine.Game, p int) ([]string, error) { return s.b.Play(g, p) }

// Prepare is the Bot's Prepare.
func (s *Player) Prepare(g engine.Game, p int) func() ([]string, error) { return s.b.Prepare(g, p) }

// RoundLog is the Bot's RoundLog.
func (s *Player) RoundLog() []byte { return s.b.RoundLog() }

// RoundMarks is the Bot's RoundMarks.
func (s *Player) RoundMarks() ([][]byte, int) { return s.b.RoundMarks() }

// Close closes the Bot.
func (s *Player) Close() error { return s.b.Close() }

var (
	_ match.Logger = (*Player)(nil)
	_ match.Marker = (*Player)(nil)
)
