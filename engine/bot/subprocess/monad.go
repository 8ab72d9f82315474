package subprocess

import (
	"fmt"
	"strconv"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/monad"
)

// Monad plays Monad through b, a Bot created with Options.Game GameMonad:
// the same process, transport, deadlines, limits and errors as for
// ColorfightII; only the messages differ (docs/bot-protocol.md, "Monad").
// Start(player, seed) starts the process with uid player+1. The bot it
// returns keeps round logs (bot.Logger) as b does.
func Monad(b *Bot) monadbot.Bot { return monadBot{b} }

type monadBot struct{ b *Bot }

func (m monadBot) Name() string { return m.b.Name() }

// RoundLog is the bot's stderr of the last turn it was asked (bot.Logger).
func (m monadBot) RoundLog() []byte { return m.b.RoundLog() }
func (m monadBot) Close() error     { return m.b.Close() }

func (m monadBot) Start(player int, seed uint64) error {
	if m.b.opts.Game != GameMonad {
		return fmt.Errorf("bot: %q was not created for monad (Options.Game)", m.b.command)
	}
	return m.b.Start(player+1, seed)
}

// Commands sends the turn message for s and returns the reply's command
// objects, each as its JSON text.
func (m monadBot) Commands(s *monad.State) ([]string, error) {
	return m.b.exchange(s.Turn(), func(buf []byte) []byte { return appendMonadTurn(buf, s, m.b.uid-1, m.b.opts) })
}

// appendMonadTurn appends Monad's turn message for s (one line).
func appendMonadTurn(b []byte, s *monad.State, player int, o Options) []byte {
	b = append(b, `{"type":"turn","game":"monad","turn":`...)
	b = strconv.AppendInt(b, int64(s.Turn()), 10)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(player), 10)
	b = append(b, `,"info":{"max_turn":`...)
	b = strconv.AppendInt(b, int64(s.MaxTurns()), 10)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, monad.Width, 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, monad.Height, 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, o.Deadline.Milliseconds(), 10)
	b = append(b, `},"players":[`...)
	for p := 0; p < s.Players(); p++ {
		st := s.Stats(p)
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"player":`...)
		b = strconv.AppendInt(b, int64(p), 10)
		b = append(b, `,"resources":`...)
		b = strconv.AppendInt(b, st.Resources, 10)
		b = append(b, `,"units":`...)
		b = strconv.AppendInt(b, st.Units, 10)
		b = append(b, `,"hives":`...)
		b = strconv.AppendInt(b, int64(st.Hives), 10)
		b = append(b, `,"timed_out":`...)
		b = strconv.AppendBool(b, st.TimedOut)
		b = append(b, `,"crashed":`...)
		b = strconv.AppendBool(b, st.Crashed)
		b = append(b, '}')
	}
	b = append(b, `],"cells":[`...)
	for y := 0; y < monad.Height; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < monad.Width; x++ {
			if x > 0 {
				b = append(b, ',')
			}
			owner, units := s.Occupant(x, y)
			hive, counter, ok := s.Hive(x, y)
			if !ok {
				hive, counter = -1, 0
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.Resource(x, y)), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(owner), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(units), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(hive), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(counter), 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, "]}\n"...)
}
