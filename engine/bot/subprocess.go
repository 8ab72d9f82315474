package bot

import (
	"fmt"

	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/colorfight2"
)

// NewSubprocess prepares a ColorfightII bot played by command, a program
// outside the process speaking the protocol of docs/bot-protocol.md: the
// process, transport, deadlines, limits, errors and round logs of
// subprocess.New(command, opts); only the messages are ColorfightII's
// (colorfight2.AppendBotTurn) and its reply's commands are strings.
// opts.Game must be empty (ColorfightII's messages do not name the game);
// opts.MaxTurn zero means colorfight2.DefaultMaxTurn, the max_turn the bot
// is told at the start and in every turn message. The bot keeps round
// logs (Logger); its errors wrap subprocess's sentinels (ErrTimeout,
// ErrBadReply, ErrFlood, ErrBotExited) and nothing is started before
// Start.
func NewSubprocess(command string, opts subprocess.Options) (Bot, error) {
	if opts.Game != "" {
		return nil, fmt.Errorf("bot: a ColorfightII bot outside the process is created without Options.Game, not %q", opts.Game)
	}
	if opts.MaxTurn <= 0 {
		opts.MaxTurn = colorfight2.DefaultMaxTurn
	}
	b, err := subprocess.New(command, opts)
	if err != nil {
		return nil, err
	}
	return &subprocessBot{b: b, maxTurn: opts.MaxTurn}, nil
}

// subprocessBot is a ColorfightII Bot played through a subprocess.Bot.
type subprocessBot struct {
	b       *subprocess.Bot
	uid     int
	maxTurn int
	msg     []byte // the turn message, reused
}

var _ Logger = (*subprocessBot)(nil)

func (s *subprocessBot) Name() string { return s.b.Name() }

// Start starts the process and sends it the start message.
func (s *subprocessBot) Start(uid int, seed uint64) error {
	s.uid = uid
	return s.b.Start(uid, seed)
}

// Commands sends the turn message for f and returns the reply's commands.
func (s *subprocessBot) Commands(f *colorfight2.Frame) ([]string, error) {
	s.msg = colorfight2.AppendBotTurn(s.msg[:0], f, s.uid, s.maxTurn, s.b.Deadline().Milliseconds())
	return s.b.Exchange(f.Turn, s.msg)
}

// RoundLog is the bot's stderr of the last round it was asked (Logger).
func (s *subprocessBot) RoundLog() []byte { return s.b.RoundLog() }

func (s *subprocessBot) Close() error { return s.b.Close() }
