package rooms

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
)

// Seat is one seat of a Table: a built-in bot, or a player whose
// commands arrive through the protocol (Table.Submit).
type Seat struct {
	// Name is the seat's name in the game and its recording.
	Name string
	// Builtin, when set, plays the seat: it answers at once, and its
	// answer is handed over when the round is released, so that a table
	// of built-ins alone keeps the table's pace.
	Builtin *engine.Builtin
	// Identity is the bot the recording names for a player's seat (the
	// client it connected with; "" is OfficialClient).
	Identity string
	// Open marks a player's seat not yet taken: a player takes it at any
	// turn (Table.Claim), also mid-game; until then it sends nothing and
	// no round waits for it.
	Open bool
}

// Adapter is what a protocol implements to drive a Table: it is told of
// every round played so that it sends each player what it sees. The
// protocol sends; the table only plays, waits and records. Its methods
// are called on the table's goroutine, one at a time.
type Adapter interface {
	// Played is called once before the first round (rd nil) and after
	// every round is played and recorded, with the game after it. The
	// game and round are valid only during the call: what the protocol
	// sends is encoded there.
	Played(g engine.Game, rd *match.GameRound)
}

// TableConfig describes one game a Table plays.
type TableConfig struct {
	Ruleset engine.Ruleset
	// Seed draws the game; Setup, when set, starts it from a setup
	// instead (engine.Restorer); MaxTurns is its turn limit (0: the
	// ruleset's default).
	Seed     uint64
	Setup    []byte
	MaxTurns int
	Seats    []Seat
	// Tick is the pace: a round is played every Tick. 0 is lock-step: a
	// round is played as soon as every connected player (Connect) has
	// submitted, at the latest Deadline after the last round.
	Tick, Deadline time.Duration
	// Misses, in lock-step, is how many rounds in a row a connected
	// player may miss before no round waits for it (until it connects
	// again); 0: no bound.
	Misses int
	// Clock is the table's time (nil: WallClock).
	Clock Clock
	// Recordings is where the game is recorded, as Name.rwd; Tool goes
	// into its header.
	Recordings *Recordings
	Name, Tool string
	// Live, when set, is told of the game as it is recorded, as Game
	// (its ID, Room; the rest is filled in).
	Live *Live
	Game LiveGame
	// Adapter is the protocol (required).
	Adapter Adapter
	// Logf, when set, is told of players no longer waited for.
	Logf func(format string, args ...any)
}

// MissedText is the fault recorded for a player's seat that sent
// nothing for a lock-step round it was waited for.
const MissedText = "no commands by the lock-step deadline"

// Table plays one game of any engine.Game, round by round, at its pace
// (a tick, or lock-step with a deadline), with built-in bots answering
// beside the players a protocol connects, recording it to disk and to
// the live viewer. It is safe for concurrent use.
type Table struct {
	cfg   TableConfig
	clk   Clock
	rec   *Recording
	live  *LiveRecord
	names []string

	mu      sync.Mutex
	seats   []tableSeat
	release chan struct{} // closed when the round in wait is released
	last    time.Time     // when the last round was played
	turn    int
	over    bool
	stopped bool
	wake    chan struct{}
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
}

type tableSeat struct {
	open      bool // not taken yet
	connected bool
	sent      bool
	dropped   bool
	misses    int
	pending   []string // submitted for the next round
	snap      []string // released for the round in play
	missed    bool
	// pendingReply is when pending was submitted, from the start of the
	// round's wait; snapReply the released round's, -1 when the seat
	// sent nothing (its reply time: tablePlayer.ReplyTime).
	pendingReply, snapReply time.Duration
}

// OpenTable starts playing cfg's game: it creates the recording (after
// the disk budget: Recordings.MakeRoom) and returns once the game's
// first round is awaited. Stop ends it early; Done is closed when it
// has ended and its recording is in place.
func OpenTable(cfg TableConfig) (*Table, error) {
	if cfg.Adapter == nil || cfg.Recordings == nil || cfg.Ruleset == nil || len(cfg.Seats) == 0 {
		return nil, errors.New("rooms: a table needs a ruleset, seats, recordings and an adapter")
	}
	if cfg.Tick == 0 && cfg.Deadline <= 0 {
		return nil, errors.New("rooms: a lock-step table needs a deadline")
	}
	t := &Table{cfg: cfg, clk: cfg.Clock, seats: make([]tableSeat, len(cfg.Seats)),
		wake: make(chan struct{}, 1), done: make(chan struct{}), release: make(chan struct{})}
	if t.clk == nil {
		t.clk = WallClock{}
	}
	for i, s := range cfg.Seats {
		t.seats[i].open = s.Open && s.Builtin == nil
	}
	if err := cfg.Recordings.MakeRoom(); err != nil {
		return nil, err
	}
	rec, err := cfg.Recordings.Create(cfg.Name)
	if err != nil {
		return nil, err
	}
	t.rec = rec
	seats := make([]match.GameSeat, len(cfg.Seats))
	names := make([]string, len(cfg.Seats))
	for i, s := range cfg.Seats {
		names[i] = s.Name
		if s.Builtin != nil {
			seats[i] = match.GameSeat{Bot: &tableBuiltin{GamePlayer: match.BuiltinPlayer(*s.Builtin), t: t}, Name: s.Name, Identity: s.Builtin.Name}
			continue
		}
		id := s.Identity
		if id == "" {
			id = match.OfficialClient
		}
		seats[i] = match.GameSeat{Bot: &tablePlayer{t: t, seat: i, id: id}, Name: s.Name, Identity: id}
	}
	t.names = names
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	t.last = t.clk.Now()
	mcfg := match.GameConfig{Ruleset: cfg.Ruleset, Seed: cfg.Seed, Setup: cfg.Setup, MaxTurns: cfg.MaxTurns, Seats: seats,
		Recorder: &tableRecorder{t: t, rec: recording.NewRecorder(rec, t.last, cfg.Tool)}}
	go t.pace()
	go func() {
		_, err := match.RunGame(ctx, mcfg)
		t.finish(err)
	}()
	return t, nil
}

// finish puts the recording in place and ends the table.
func (t *Table) finish(err error) {
	if err == nil {
		err = t.rec.Commit()
	} else {
		t.rec.Abandon() // the .partial keeps its whole rounds
	}
	t.mu.Lock()
	turn := t.turn
	t.over, t.err = true, err
	t.mu.Unlock()
	if err != nil {
		t.live.Finish(turn, t.rec.Partial())
	} else {
		t.live.Finish(turn, t.rec.Path)
	}
	t.cancel()
	close(t.done)
	t.poke()
}

// Path is the recording's name once the game is over.
func (t *Table) Path() string { return t.rec.Path }

// Done is closed once the game has ended and its recording is closed.
func (t *Table) Done() <-chan struct{} { return t.done }

// Err is why the game ended early (a recording that failed), after Done.
func (t *Table) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Claim takes the first open seat for a player joining now, connected,
// and returns its number; false when none is open.
func (t *Table) Claim() (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range t.seats {
		if s := &t.seats[i]; s.open && !t.over {
			s.open, s.connected, s.dropped, s.misses = false, true, false, 0
			return i, true
		}
	}
	return 0, false
}

// Connect says whether seat's player has a connection open: a lock-step
// round waits only for connected players (who also connect again after
// missing Misses rounds).
func (t *Table) Connect(seat int, connected bool) {
	t.mu.Lock()
	if seat >= 0 && seat < len(t.seats) {
		s := &t.seats[seat]
		s.connected = connected
		if connected {
			s.dropped, s.misses = false, 0
		}
	}
	t.mu.Unlock()
	t.poke()
}

// Submit gives seat's commands for the next round, replacing any given
// before in the same round; in lock-step the seat is then ready.
func (t *Table) Submit(seat int, cmds []string) {
	t.mu.Lock()
	if seat >= 0 && seat < len(t.seats) && t.cfg.Seats[seat].Builtin == nil {
		s := &t.seats[seat]
		s.pending, s.sent = append([]string(nil), cmds...), true
		s.pendingReply = max(t.clk.Now().Sub(t.last), 0)
	}
	t.mu.Unlock()
	t.poke()
}

// Turn is the number of rounds played.
func (t *Table) Turn() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.turn
}

// Stop ends the game at its last whole round and waits until its
// recording is in place.
func (t *Table) Stop() {
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
	t.cancel()
	t.releaseAll()
	<-t.done
}

func (t *Table) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// pace releases each round when it is due: at the tick, or in
// lock-step when every connected player has submitted or at the
// deadline.
func (t *Table) pace() {
	for {
		t.mu.Lock()
		if t.over {
			t.mu.Unlock()
			return
		}
		now := t.clk.Now()
		var wait time.Duration
		if t.cfg.Tick > 0 {
			wait = t.last.Add(t.cfg.Tick).Sub(now)
		} else if t.readyLocked() {
			wait = 0
		} else {
			wait = t.last.Add(t.cfg.Deadline).Sub(now)
		}
		if wait <= 0 {
			t.releaseLocked(t.cfg.Tick == 0 && !t.readyLocked())
			wait = -1
		}
		var timer <-chan time.Time
		if wait > 0 {
			// Armed under the lock: once the game is over, no timer is.
			timer = t.clk.After(wait)
		}
		t.mu.Unlock()
		select {
		case <-t.done:
			return
		case <-t.wake:
		case <-timer:
		}
	}
}

// readyLocked: every connected player waited for has submitted.
func (t *Table) readyLocked() bool {
	for i, s := range t.seats {
		if t.cfg.Seats[i].Builtin == nil && !s.open && s.connected && !s.dropped && !s.sent {
			return false
		}
	}
	return true
}

// releaseLocked releases the round in wait (once) with what each player
// submitted; atDeadline marks the connected players that sent nothing.
func (t *Table) releaseLocked(atDeadline bool) {
	select {
	case <-t.release:
		return // released, the next round not yet awaited
	default:
	}
	for i := range t.seats {
		s := &t.seats[i]
		s.missed = false
		if t.cfg.Seats[i].Builtin != nil {
			continue
		}
		if t.cfg.Tick == 0 && !t.stopped && !s.open {
			switch {
			case s.sent:
				s.misses = 0
			case s.connected && !s.dropped && atDeadline:
				s.missed = true
				if s.misses++; t.cfg.Misses > 0 && s.misses >= t.cfg.Misses {
					s.dropped = true
					if t.cfg.Logf != nil {
						t.cfg.Logf("%s missed %d lock-step rounds in a row: no round waits for it until it connects again", t.cfg.Seats[i].Name, s.misses)
					}
				}
			}
		}
		s.snapReply = -1
		if s.sent {
			s.snapReply = s.pendingReply
		}
		s.snap, s.pending, s.sent = s.pending, nil, false
	}
	close(t.release)
}

func (t *Table) releaseAll() {
	t.mu.Lock()
	t.releaseLocked(false)
	t.mu.Unlock()
}

// round is called by the recorder after each round: the next one is
// awaited.
func (t *Table) round(turn int, over bool) {
	t.mu.Lock()
	t.turn, t.last = turn, t.clk.Now()
	t.release = make(chan struct{})
	stopped := t.stopped
	t.mu.Unlock()
	if over || stopped {
		t.releaseAll()
	}
	t.poke()
}

// waitRound returns the channel of the round in wait.
func (t *Table) waitRound() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.release
}

// missedError is the fault of a seat that missed a lock-step round.
type missedError struct{}

func (missedError) Error() string       { return MissedText }
func (missedError) Fault() engine.Fault { return engine.FaultTimeout }

// tablePlayer plays a player's seat: its answer is what the player
// submitted when the round is released.
type tablePlayer struct {
	t    *Table
	seat int
	id   string
}

func (b *tablePlayer) Name() string            { return b.id }
func (b *tablePlayer) Start(int, uint64) error { return nil }
func (b *tablePlayer) Close() error            { return nil }
func (b *tablePlayer) Commands(g engine.Game, p int) ([]string, error) {
	return b.Prepare(g, p)()
}

// Prepare reads nothing of the game (the protocol sent it) and returns
// the wait for the round's release.
func (b *tablePlayer) Prepare(engine.Game, int) func() ([]string, error) {
	ch := b.t.waitRound()
	return func() ([]string, error) {
		<-ch
		b.t.mu.Lock()
		s := &b.t.seats[b.seat]
		cmds, missed := s.snap, s.missed
		s.snap = nil
		b.t.mu.Unlock()
		if missed {
			return cmds, missedError{}
		}
		return cmds, nil
	}
}

// Timed is true: a player's seat has reply times.
func (b *tablePlayer) Timed() bool { return true }

// ReplyTime is how long the player took to submit its commands of the
// round last released, from the start of the round's wait (the table's
// clock); -1 when it submitted none.
func (b *tablePlayer) ReplyTime() time.Duration {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	return b.t.seats[b.seat].snapReply
}

// tableBuiltin plays a built-in's seat at the table's pace: asked at
// once, answered at the release.
type tableBuiltin struct {
	match.GamePlayer
	t *Table
}

func (b *tableBuiltin) Commands(g engine.Game, p int) ([]string, error) {
	return b.Prepare(g, p)()
}

func (b *tableBuiltin) Prepare(g engine.Game, p int) func() ([]string, error) {
	ch := b.t.waitRound()
	cmds, err := b.GamePlayer.Commands(g, p)
	cmds = append([]string(nil), cmds...)
	return func() ([]string, error) {
		<-ch
		return cmds, err
	}
}

// Timed is false: a built-in is not timed (its answer waits for the
// release, not for itself).
func (b *tableBuiltin) Timed() bool { return false }

// ReplyTime is -1: not timed.
func (b *tableBuiltin) ReplyTime() time.Duration { return -1 }

var (
	_ match.Preparer   = (*tablePlayer)(nil)
	_ match.Preparer   = (*tableBuiltin)(nil)
	_ match.ReplyTimer = (*tablePlayer)(nil)
	_ match.ReplyTimer = (*tableBuiltin)(nil)
)

// tableRecorder records each round, tells the live viewer and the
// adapter, and awaits the next round.
type tableRecorder struct {
	t   *Table
	rec *recording.Recorder
}

func (r *tableRecorder) Begin(s match.GameSetup) error {
	if err := r.rec.Begin(s); err != nil {
		return fmt.Errorf("rooms: recording: %w", err)
	}
	if t := r.t; t.cfg.Live != nil {
		// The viewer reads the recording through a file of its own, which
		// the rename at the end does not disturb.
		if rf, err := openRead(t.rec.Partial()); err == nil {
			g := t.cfg.Game
			g.Players, g.File, g.MaxTurn = t.names, t.rec.Partial(), s.MaxTurns
			t.live = t.cfg.Live.Start(g, rf)
		}
	}
	r.t.live.Round(0)
	r.t.cfg.Adapter.Played(s.Game, nil)
	return nil
}

func (r *tableRecorder) Round(rd *match.GameRound, g engine.Game) error {
	if err := r.rec.Round(rd, g); err != nil {
		return fmt.Errorf("rooms: recording: %w", err)
	}
	// The recording has the round before any player hears of it.
	r.t.live.Round(g.Turn())
	r.t.cfg.Adapter.Played(g, rd)
	r.t.round(g.Turn(), g.Over())
	return nil
}

func (r *tableRecorder) End(g engine.Game) error { return r.rec.End(g) }

// SeatName makes name unique among taken by a suffix _2, _3…, cut to
// max bytes (0: no bound); it adds the result to taken.
func SeatName(name string, taken map[string]bool, max int) string {
	out := name
	for k := 2; taken[out]; k++ {
		suffix := fmt.Sprintf("_%d", k)
		cut := name
		if max > 0 && len(cut) > max-len(suffix) {
			cut = strings.ToValidUTF8(cut[:max-len(suffix)], "")
		}
		out = cut + suffix
	}
	taken[out] = true
	return out
}
