package monadbot

import (
	"fmt"

	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/monad"
)

// Subprocess plays Monad through b, a bot outside the process created with
// Options.Game subprocess.GameMonad: the same process, transport,
// deadlines, limits and errors as every external bot; only the messages
// are Monad's (docs/bot-protocol.md, "Monad": monad.AppendBotTurn). Start(player,
// seed) starts the process with uid player+1. The bot it returns keeps
// round logs (bot.Logger) as b does.
func Subprocess(b *subprocess.Bot) Bot { return &subprocessBot{b: b} }

type subprocessBot struct {
	b      *subprocess.Bot
	player int
	msg    []byte
}

func (m *subprocessBot) Name() string { return m.b.Name() }

// RoundLog is the bot's stderr of the last turn it was asked (bot.Logger).
func (m *subprocessBot) RoundLog() []byte { return m.b.RoundLog() }
func (m *subprocessBot) Close() error     { return m.b.Close() }

func (m *subprocessBot) Start(player int, seed uint64) error {
	if m.b.Game() != subprocess.GameMonad {
		return fmt.Errorf("bot: %q was not created for monad (Options.Game)", m.b.Name())
	}
	m.player = player
	return m.b.Start(player+1, seed)
}

// Commands sends the turn message for s and returns the reply's command
// objects, each as its JSON text.
func (m *subprocessBot) Commands(s *monad.State) ([]string, error) {
	m.msg = monad.AppendBotTurn(m.msg[:0], s, m.player, m.b.Deadline().Milliseconds())
	return m.b.Exchange(s.Turn(), m.msg)
}
