package match

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine"
)

// GamePlayer is a bot.
type GamePlayer interface {
	// Name is the bot's identity ("hunter", "python3 bot.py").
	Name() string
	// Start prepares the bot to play player p (0-based) with its own
	// seed; an error makes every round of the seat a crash fault.
	Start(p int, seed uint64) error
	// Commands returns player p's commands for the next Round of g. The
	// bot must not modify g or keep it past the call.
	Commands(g engine.Game, p int) ([]string, error)
	Close() error
}

// StrategyPlayer plays a built-in engine.Strategy.
func StrategyPlayer(s engine.Strategy) GamePlayer { return &strategyPlayer{s: s} }

type strategyPlayer struct {
	s   engine.Strategy
	buf []string
}

func (b *strategyPlayer) Name() string            { return b.s.Name }
func (b *strategyPlayer) Start(int, uint64) error { return nil }
func (b *strategyPlayer) Close() error            { return nil }
func (b *strategyPlayer) Commands(g engine.Game, p int) ([]string, error) {
	b.buf = b.s.Commands(g, p, b.buf[:0])
	return b.buf, nil
}

// BuiltinPlayer plays a built-in bot of a game, its strategy made by Start
// with the seed the runner gives it (RunGame's: BotSeed of the game's
// seed), so that a tournament's games seat bots of their own seeds.
func BuiltinPlayer(b engine.Builtin) GamePlayer { return &builtinPlayer{b: b} }

type builtinPlayer struct {
	b engine.Builtin
	strategyPlayer
}

func (b *builtinPlayer) Name() string { return b.b.Name }
func (b *builtinPlayer) Start(_ int, seed uint64) error {
	b.s = b.b.New(seed)
	return nil
}
func (b *builtinPlayer) Commands(g engine.Game, p int) ([]string, error) {
	if b.s.Commands == nil {
		return nil, errors.New("match: built-in asked before Start")
	}
	return b.strategyPlayer.Commands(g, p)
}

// Preparer is a GamePlayer that reads the game at once and waits for its
// answer later (a bot outside the process: subprocess.Player): the runner
// reads the game on its own goroutine only, and waits for such bots in
// parallel. Prepare reads player p's view of g now; the function it
// returns waits for the answer and may run on another goroutine. A
// wrapper around such a player must forward Prepare, or the runner asks
// it through Commands, one bot after the other.
type Preparer interface {
	Prepare(g engine.Game, p int) func() ([]string, error)
}

// Logger is a GamePlayer that keeps a debug log per round (a bot outside
// the process: its stderr). RoundLog returns what the bot logged while it
// was last asked, nil when nothing; the runner calls it after the bot
// answered, and the slice is valid until the bot is asked again. A log is
// not part of the game. A wrapper must forward it.
type Logger interface {
	RoundLog() []byte
}

// ReplyTimer is a GamePlayer that measures its own reply times (a live
// server's seat: from the round's start to the player's submission)
// instead of the runner. Timed reports whether the seat has reply times
// at all (a built-in's seat at a live table has none); ReplyTime is how
// long the bot took to answer when last asked, read after its answer,
// negative when it has no time for that round (it sent nothing). A
// wrapper must forward it.
//
// Any other bot is timed by the runner when it is a Preparer (a bot
// outside the process), from the moment it is asked (Prepare) to its
// answer; a bot in the process (a built-in) is not timed.
type ReplyTimer interface {
	Timed() bool
	ReplyTime() time.Duration
}

// timed reports whether the runner records reply times for bot.
func timed(bot GamePlayer) bool {
	if t, ok := bot.(ReplyTimer); ok {
		return t.Timed()
	}
	_, ok := bot.(Preparer)
	return ok
}

// GameSeat is one player of a match.
type GameSeat struct {
	Bot GamePlayer
	// Name defaults to "<player+1>_<bot name>"; Identity (what the replay
	// records as the bot) to Bot.Name().
	Name, Identity string
	// Seed, when set, is the seed the bot is started with (a built-in
	// asked again as it played: the seed its recording names); nil is
	// BotSeed of the match seed and the seat's uid.
	Seed *uint64
	// AskInPrefix makes RunGame ask the bot at each of the seat's rounds
	// of GameConfig.Prefix too, its answers unused, so that a bot whose
	// choices depend on what it was asked before (a built-in drawing
	// from its seed) stands at the first round it plays as it stood in
	// the recording the Prefix comes from. For bots in the process: a
	// bot outside it would be sent every message of the prefix.
	AskInPrefix bool
}

// GameConfig describes a match.
type GameConfig struct {
	Ruleset engine.Ruleset
	// Seed draws the game (Ruleset.New) and, through BotSeed, each bot's
	// seed; Setup, when set, starts the game from it instead
	// (engine.Ruleset.NewFromSetup: a map file).
	Seed  uint64
	Setup []byte
	// MaxTurns is the turn limit (0: the ruleset's default).
	MaxTurns int
	Seats    []GameSeat
	// Recorder receives the match as it is played; nil records nothing.
	Recorder GameRecorder
	// Progress, if set, is called after every round with the turn reached.
	Progress func(turn int)
	// Prefix, when set, are the first rounds of the game as another
	// recording played them (a game played on from it: Setup its
	// beginning): Prefix[t] takes the game from turn t to t+1 with its
	// Commands, its Faults (reported to the game with their FaultText
	// before the round) and its bots' Logs, and is recorded with them
	// (Active is the game's). RunGame plays them, whatever ctx says,
	// before it asks any bot; their faults are not counted as the seats'.
	// Rounds an engine.Attendance game plays idle take nothing from theirs.
	Prefix []GameRound
}

// GameSetup is what a GameRecorder learns before the first round.
type GameSetup struct {
	Ruleset engine.Ruleset
	Seed    uint64
	// Setup is what the game was started from besides its seed
	// (engine.Game.Setup), nil when the seed is enough.
	Setup    []byte
	MaxTurns int
	// Players in player order (UID = player+1).
	Players []SetupPlayer
	// Logs is true when a seat's bot keeps round logs (Logger), or the
	// rounds played on from keep them.
	Logs bool
	// ReplyTimes is true when a seat's bot is timed (a bot outside the
	// process: Preparer, or a ReplyTimer with Timed), or the rounds
	// played on from have reply times.
	ReplyTimes bool
	// Marks is true when a seat's bot may draw marks (Marker; Logs is
	// then true too, for the notes of marks dropped), or the rounds
	// played on from have marks.
	Marks bool
	// Game is the game before its first round, for a recorder that
	// writes what its ruleset keeps of it (ColorfightII's map and
	// homes); it is only valid during Begin and must not be played.
	Game engine.Game
}

// GameRound is one round as the engine applied it.
type GameRound struct {
	// Active is the player who acted (engine.Game.Active), -1 when all
	// did.
	Active int
	// Commands[p] are player p's commands as sent.
	Commands [][]string
	// Faults[p] is the fault reported for player p before the round (0
	// none), FaultText[p] what happened.
	Faults    []engine.Fault
	FaultText []string
	// Logs[p] is what player p's bot logged while asked for the round
	// (Logger), after the notes of the marks it drew that were dropped,
	// at most MaxRoundLog bytes (CutLog); nil when nothing, all nil when
	// no bot logged anything.
	Logs [][]byte
	// ReplyTimes[p] is how long player p's bot took to answer for the
	// round (ReplyTimer), negative for a seat not timed; nil when no
	// seat was. Side data: it changes nothing of the game.
	ReplyTimes []time.Duration
	// Marks are what the bots drew for the round (Marker), in player
	// order, only those on the board and well formed (the others are
	// dropped with a note at the head of the seat's log); empty when none.
	// Side data, as the logs.
	Marks []engine.BotMark
}

// GameRecorder receives a match: Begin once,
// Round after every round with what the engine applied and the game
// after it, End once with the final game, also when the match is
// interrupted. The round and game are only valid during the call.
type GameRecorder interface {
	Begin(GameSetup) error
	Round(r *GameRound, g engine.Game) error
	End(g engine.Game) error
}

// Result is the outcome of a match.
type Result struct {
	Turn        int
	Interrupted bool
	// Ranking lists the players (0-based) best first.
	Ranking []int
	Players []PlayerResult
	Hash    uint64
	// Metrics name the values of each player's Values.
	Metrics []engine.Metric
}

// PlayerResult is one player's final standing.
type PlayerResult struct {
	Player         int
	Name, Identity string
	// Values are the player's final values, one per Metrics.
	Values []int64
	// Faults counts the rounds its bot failed to answer; Errors the
	// commands the game rejected.
	Faults, Errors int
	// Out is the fault that took the player out of a game whose players
	// can leave it (engine.Attendance), 0 while it plays.
	Out engine.Fault
}

// Fault classifies a bot's error for Game.Fault: a bot that never
// started crashed; an error that says what fault it is (a method Fault()
// engine.Fault anywhere in its chain, as package subprocess's sentinels
// have: a timeout, an exit) is that fault; anything else is garbage.
func Fault(err error, started bool) engine.Fault {
	var f interface{ Fault() engine.Fault }
	switch {
	case !started:
		return engine.FaultCrash
	case errors.As(err, &f):
		return f.Fault()
	}
	return engine.FaultGarbage
}

// FaultMessage is the description of a bot's error a replay records
// with its fault: the error's text, cut to 200 bytes.
func FaultMessage(err error) string {
	msg := err.Error()
	if len(msg) > maxFaultText {
		msg = msg[:maxFaultText]
	}
	return msg
}

// RunGame plays cfg's match, of any ruleset, through its engine.Game
// to its end, or until ctx is done (the recording then ends
// cleanly at the last whole round). Bots are asked each round (only the
// active player in a game whose players act in turn (engine.Game.Active); none while an engine.Attendance
// game is idle); their answers are applied in player order, so the
// result depends only on what they answered. A bot that fails to answer
// is reported to the game with Game.Fault before the round (timeout,
// crash or garbage) and recorded with it. RunGame closes every bot
// before it returns.
func RunGame(ctx context.Context, cfg GameConfig) (*Result, error) {
	n := len(cfg.Seats)
	defer func() {
		for _, s := range cfg.Seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
	}()
	if cfg.Ruleset == nil {
		return nil, errors.New("match: no ruleset")
	}
	if n == 0 {
		return nil, errors.New("match: no players")
	}
	settings := engine.Settings{Players: n, MaxTurns: cfg.MaxTurns}
	res := &Result{Metrics: cfg.Ruleset.Metrics()}
	for i, s := range cfg.Seats {
		if s.Bot == nil {
			return nil, fmt.Errorf("match: seat %d has no bot", i+1)
		}
		p := PlayerResult{Player: i, Name: s.Name, Identity: s.Identity}
		if p.Identity == "" {
			p.Identity = s.Bot.Name()
		}
		if p.Name == "" {
			p.Name = SeatName(i+1, p.Identity)
		}
		res.Players = append(res.Players, p)
		settings.Names = append(settings.Names, p.Name)
	}
	var g engine.Game
	var err error
	if len(cfg.Setup) > 0 {
		g, err = cfg.Ruleset.NewFromSetup(cfg.Setup, settings)
		if errors.Is(err, engine.ErrSeedOnly) {
			return nil, fmt.Errorf("match: %s games start from a seed only", cfg.Ruleset.ID())
		}
	} else {
		g, err = cfg.Ruleset.New(cfg.Seed, settings)
	}
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	setup := GameSetup{Ruleset: cfg.Ruleset, Seed: cfg.Seed, MaxTurns: g.MaxTurns(), Game: g, Setup: g.Setup()}
	if len(cfg.Prefix) > g.MaxTurns() {
		return nil, fmt.Errorf("match: %d rounds to replay in a game of %d", len(cfg.Prefix), g.MaxTurns())
	}
	seeds := make([]uint64, n)
	for i, s := range cfg.Seats {
		seeds[i] = BotSeed(cfg.Seed, i+1)
		if s.Seed != nil {
			seeds[i] = *s.Seed
		}
	}
	for i, p := range res.Players {
		setup.Players = append(setup.Players, SetupPlayer{UID: i + 1, Name: p.Name, Identity: p.Identity, BotSeed: &seeds[i]})
		if _, ok := cfg.Seats[i].Bot.(Logger); ok {
			setup.Logs = true
		}
		setup.ReplyTimes = setup.ReplyTimes || timed(cfg.Seats[i].Bot)
		if _, ok := cfg.Seats[i].Bot.(Marker); ok {
			// A dropped mark is noted in the seat's log.
			setup.Marks, setup.Logs = true, true
		}
	}
	for k := range cfg.Prefix {
		if len(cfg.Prefix[k].Logs) > 0 {
			setup.Logs = true
		}
		if len(cfg.Prefix[k].ReplyTimes) > 0 {
			setup.ReplyTimes = true
		}
		if len(cfg.Prefix[k].Marks) > 0 {
			setup.Marks = true
		}
	}
	w := cfg.Recorder
	if w != nil {
		err := w.Begin(setup)
		setup.Game = nil
		if err != nil {
			return nil, fmt.Errorf("match: recording: %w", err)
		}
	}
	// A bot that cannot start plays every round it is asked as a crash.
	started := make([]bool, n)
	startErr := make([]error, n)
	for i, s := range cfg.Seats {
		if err := s.Bot.Start(i, seeds[i]); err != nil {
			startErr[i] = fmt.Errorf("bot failed to start: %w", err)
		} else {
			started[i] = true
		}
	}
	r := GameRound{Commands: make([][]string, n), Faults: make([]engine.Fault, n), FaultText: make([]string, n), Logs: make([][]byte, n)}
	answers := make([]answer, n)
	replies := make([]time.Duration, n)
	var board markBoard
	for played := 0; !g.Over(); played++ {
		r.Active = g.Active()
		idle := engine.Idle(g)
		if played < len(cfg.Prefix) {
			if !idle {
				askInPrefix(cfg.Seats, g, r.Active, started)
			}
			replayRound(g, &r, &cfg.Prefix[played], idle)
			if err := playRound(g, &r, res, w, cfg.Progress); err != nil {
				return nil, err
			}
			continue
		}
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		for i := range replies {
			replies[i] = -1
		}
		if !idle {
			askPlayers(cfg.Seats, g, r.Active, answers, startErr, replies)
		}
		r.ReplyTimes = nil
		for _, d := range replies {
			if d >= 0 {
				r.ReplyTimes = replies
			}
		}
		some := false
		r.Marks = r.Marks[:0]
		for i := range r.Commands {
			r.Commands[i], r.Faults[i], r.FaultText[i], r.Logs[i] = r.Commands[i][:0], 0, "", nil
			if idle || r.Active >= 0 && i != r.Active || engine.Out(g, i) {
				continue
			}
			if l, ok := cfg.Seats[i].Bot.(Logger); ok && started[i] {
				r.Logs[i] = l.RoundLog()
				some = some || len(r.Logs[i]) > 0
			}
			if notes := board.marks(&r, g, cfg.Seats[i].Bot, i, started[i]); len(notes) > 0 {
				r.Logs[i], some = withNotes(notes, r.Logs[i]), true
			}
			a := &answers[i]
			if a.err != nil {
				res.Players[i].Faults++
				msg := FaultMessage(a.err)
				r.Faults[i], r.FaultText[i] = Fault(a.err, started[i]), msg
				g.Fault(i, r.Faults[i], msg)
				if r.Faults[i] != engine.FaultGarbage {
					res.Players[i].Out = r.Faults[i] // kept only if the game retires the player
				}
				continue
			}
			r.Commands[i] = append(r.Commands[i], a.cmds...)
		}
		if !some {
			clear(r.Logs)
		}
		if err := playRound(g, &r, res, w, cfg.Progress); err != nil {
			return nil, err
		}
	}
	if w != nil {
		if err := w.End(g); err != nil {
			return nil, fmt.Errorf("match: recording: %w", err)
		}
	}
	for i := range res.Players {
		res.Players[i].Values = g.Values(i, nil)
		if !engine.Out(g, i) {
			res.Players[i].Out = 0
		}
	}
	res.Turn, res.Ranking, res.Hash = g.Turn(), g.Ranking(), g.Hash()
	return res, nil
}

// playRound plays round r (its faults already reported), counts the
// commands g rejected as their players' errors, records the round and
// reports the turn reached.
func playRound(g engine.Game, r *GameRound, res *Result, w GameRecorder, progress func(int)) error {
	for _, e := range g.Round(r.Commands) {
		if e.Player >= 0 && e.Player < len(res.Players) {
			res.Players[e.Player].Errors++
		}
	}
	if w != nil {
		if err := w.Round(r, g); err != nil {
			return fmt.Errorf("match: recording: %w", err)
		}
	}
	if progress != nil {
		progress(g.Turn())
	}
	return nil
}

// replayRound makes r round p of a GameConfig's Prefix, reporting its
// faults to g; an idle round keeps nothing of it. r keeps storage of its
// own for what a live round writes in place (commands, marks), so p is
// never written.
func replayRound(g engine.Game, r *GameRound, p *GameRound, idle bool) {
	some := false
	for i := range r.Commands {
		r.Commands[i], r.Faults[i], r.FaultText[i], r.Logs[i] = r.Commands[i][:0], 0, "", nil
		if idle {
			continue
		}
		if i < len(p.Commands) {
			r.Commands[i] = append(r.Commands[i], p.Commands[i]...)
		}
		if i < len(p.Faults) && p.Faults[i] != 0 {
			r.Faults[i] = p.Faults[i]
			if i < len(p.FaultText) {
				r.FaultText[i] = p.FaultText[i]
			}
			g.Fault(i, r.Faults[i], r.FaultText[i])
		}
		if i < len(p.Logs) {
			r.Logs[i] = p.Logs[i]
			some = some || len(r.Logs[i]) > 0
		}
	}
	if !some {
		clear(r.Logs)
	}
	r.ReplyTimes, r.Marks = nil, r.Marks[:0]
	if !idle && len(p.ReplyTimes) > 0 {
		r.ReplyTimes = p.ReplyTimes
	}
	if !idle {
		r.Marks = append(r.Marks, p.Marks...)
	}
}

// askInPrefix asks the bots of the seats marked AskInPrefix that act in
// a round of the prefix (every player, or only active ≥ 0) for their
// commands, and drops them.
func askInPrefix(seats []GameSeat, g engine.Game, active int, started []bool) {
	for i, s := range seats {
		if !s.AskInPrefix || !started[i] || active >= 0 && i != active || engine.Out(g, i) {
			continue
		}
		s.Bot.Commands(g, i)
	}
}

// askPlayers collects the answers of the players who act this round (every
// player, or only active ≥ 0), and the reply time of each timed one in
// replies (ReplyTimer; left as it is for any other). The game is read on
// this goroutine only: bots in the process are asked in turn, bots
// outside it are sent their message in turn and waited for in parallel.
func askPlayers(seats []GameSeat, g engine.Game, active int, answers []answer, startErr []error, replies []time.Duration) {
	var wg sync.WaitGroup
	for i := range seats {
		answers[i] = answer{cmds: answers[i].cmds[:0]}
		if active >= 0 && i != active || engine.Out(g, i) {
			continue
		}
		if startErr[i] != nil {
			answers[i].err = startErr[i]
			continue
		}
		rt, own := seats[i].Bot.(ReplyTimer)
		if pr, ok := seats[i].Bot.(Preparer); ok {
			asked := time.Now()
			wait := pr.Prepare(g, i)
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				cmds, err := wait()
				answers[i] = answer{cmds: append(answers[i].cmds[:0], cmds...), err: err}
				switch {
				case own && rt.Timed():
					replies[i] = rt.ReplyTime()
				case !own:
					replies[i] = time.Since(asked)
				}
			}(i)
			continue
		}
		cmds, err := seats[i].Bot.Commands(g, i)
		answers[i] = answer{cmds: append(answers[i].cmds[:0], cmds...), err: err}
		if own && rt.Timed() {
			replies[i] = rt.ReplyTime()
		}
	}
	wg.Wait()
}

// MaxBotNameBytes bounds a BotName.
const MaxBotNameBytes = 64

// BotName is what every command calls a bot (play, tournament, a
// worker's games, a fork): a built-in by its name ("greedy"), an external
// command by the base name of its last word, unquoted
// ("python3 bots/mybot.py" -> "mybot.py"); at most MaxBotNameBytes.
func BotName(identity string) string {
	n := identity
	if f := strings.Fields(identity); len(f) > 0 {
		n = filepath.Base(strings.Trim(f[len(f)-1], `"'`))
	}
	if len(n) > MaxBotNameBytes {
		n = n[:MaxBotNameBytes]
	}
	return n
}

// SeatName is the name of the player a bot plays in seat (from 1):
// the seat and the BotName, "2_mybot.py", in every command.
func SeatName(seat int, identity string) string {
	return fmt.Sprintf("%d_%s", seat, BotName(identity))
}
