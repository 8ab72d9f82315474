package rules

import "strconv"

// AppendBotTurn appends the turn message a Monad bot outside the process
// is sent for s, as player (docs/bot-protocol.md, "Monad"): one line,
// ending in a newline. deadlineMS is the bot's answer deadline.
func AppendBotTurn(b []byte, s *State, player int, deadlineMS int64) []byte {
	b = append(b, `{"type":"turn","game":"monad","turn":`...)
	b = strconv.AppendInt(b, int64(s.Turn()), 10)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(player), 10)
	b = append(b, `,"info":{"max_turn":`...)
	b = strconv.AppendInt(b, int64(s.MaxTurns()), 10)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, Width, 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, Height, 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, deadlineMS, 10)
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
	for y := 0; y < Height; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < Width; x++ {
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

// AppendTurnMessage is AppendBotTurn of the game's state
// (engine.Messenger).
func (g *Game) AppendTurnMessage(dst []byte, p int, deadlineMS int64) []byte {
	return AppendBotTurn(dst, g.State, p, deadlineMS)
}
