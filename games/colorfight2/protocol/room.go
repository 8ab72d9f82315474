package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/internal/rooms"

	"sync"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
)

// Phases of a game.
const (
	phaseWaiting = iota // turn 0: registration
	phasePlaying
	phaseOver
)

const (
	// waitingCountDown is the start_count_down the reference shows while
	// a room waits for "full" or "never".
	waitingCountDown = 9999
	// keepAlive: the state message is sent again after that long unchanged.
	keepAlive = 30 * time.Second
	// remoteIdentity is the bot identity recorded for a remote player.
	remoteIdentity = match.OfficialClient
	// maxUsernameRunes: the reference refuses len(username) >= 15.
	maxUsernameRunes = 14
)

// player is one registered player.
type player struct {
	uid      int
	name     string
	password string
	conns    int      // open action channels bound to the player
	pending  []string // the last command list, applied at the next round
	sent     bool     // a command message arrived this turn (lock-step)
	// misses counts the lock-step rounds in a row released at the
	// deadline without a command message from an open channel; at
	// LockstepMisses the player is dropped: it no longer holds rounds
	// until it registers again.
	misses  int
	dropped bool
}

// seat is one player of a started game, by uid-1.
type seat struct {
	p       *player // nil for a built-in bot
	name    string
	botName string   // built-in name, "" for a remote player
	snap    []string // the commands released for this round (remote)
	last    []string // the commands the engine applied last round
	// missed is set when a lock-step round was released at the deadline
	// without a command message from this remote player: the round is
	// recorded with a bot fault saying so (docs/server.md).
	missed string
}

// game is one game of a room (one game_id).
type game struct {
	id        string
	seed      uint64
	cfg       RoomConfig
	mode      int
	countSecs float64
	m         *colorfight2.Map
	spawns    []colorfight2.Point
	begun     time.Time // creation or restart
	phase     int
	players   []*player // registration order
	countDown int
	startReq  bool

	seats     []*seat // from the start on, by uid-1
	turn      int
	waiting   bool          // the match waits for round `turn` to be released
	release   chan struct{} // closed when round `turn` is released
	stopping  bool
	lastRound time.Time
	ended     time.Time
	cancel    context.CancelFunc
	matchDone chan struct{}
	live      *rooms.LiveRecord

	frame   colorfight2.Frame
	info    []byte
	errJSON []byte
}

// room is one game room.
type room struct {
	s             *Server
	id            string
	admin         bool
	adminPassword string
	joinKey       string
	// creator is the address that created the room with
	// /creategameroom, "" for an admin room or one created from Go
	// (Options.MaxRoomsPerAddr).
	creator string

	// ctl serializes game transitions (start, restart, close); it is
	// taken before mu, and never while a match callback holds mu.
	ctl sync.Mutex
	mu  sync.Mutex
	cfg RoomConfig
	g   *game
	// msg is the current state message, shared by every subscriber.
	msg        []byte
	lastSend   time.Time
	lastUpdate time.Time
	subs       map[*subscriber]struct{}
	conns      map[*actionConn]struct{}
	closed     bool
	// starts are the game starts of the last hour (MaxGamesPerHour).
	starts []time.Time
	// throttled is the game whose start the hourly bound holds (logged
	// once).
	throttled *game
	// stopped, when not "", says why the room plays no more games (its
	// recording failed: a full disk; or the disk budget refuses) until an
	// admin /restart.
	stopped string
	// lastState is the state last written to the log (logStateLocked).
	lastState string

	wake     chan struct{}
	quit     chan struct{}
	loopDone chan struct{}
}

func newRoom(s *Server, id string, cfg RoomConfig, adminPassword, joinKey string, admin bool) *room {
	r := &room{
		s: s, id: id, admin: admin, adminPassword: adminPassword, joinKey: joinKey,
		cfg:  cfg,
		subs: map[*subscriber]struct{}{}, conns: map[*actionConn]struct{}{},
		wake: make(chan struct{}, 1), quit: make(chan struct{}), loopDone: make(chan struct{}),
	}
	r.mu.Lock()
	r.g = r.newGameLocked(s.clk.Now())
	r.mu.Unlock()
	go r.loop()
	return r
}

// newGameLocked makes a new game at turn 0 with the room's config.
func (r *room) newGameLocked(now time.Time) *game {
	id := r.s.newGameID(now)
	seed, _ := strconv.ParseUint(id, 10, 64)
	cfg := r.cfg
	cfg.Bots = append([]string(nil), cfg.Bots...)
	g := &game{id: id, seed: seed, cfg: cfg, begun: now}
	g.mode, g.countSecs, _ = cfg.firstRound()
	var err error
	g.m, g.spawns, err = colorfight2.GenerateMap(colorfight2.DefaultWidth, colorfight2.DefaultHeight, cfg.MaxPlayer, seed)
	if err != nil {
		panic(fmt.Sprintf("server: map generation of a validated config failed: %v", err))
	}
	g.countDown = g.currentCountDown(now)
	r.lastUpdate = now
	r.g = g
	r.refreshWaitingLocked()
	r.logStateLocked("new game " + id)
	return g
}

// currentCountDown is start_count_down at turn 0: whole seconds left
// (rounded up) for a countdown, 9999 while waiting for full or never.
func (g *game) currentCountDown(now time.Time) int {
	if g.mode != startCountdown {
		return waitingCountDown
	}
	left := g.countSecs - now.Sub(g.begun).Seconds()
	if left <= 0 {
		return 0
	}
	return int(math.Ceil(left))
}

// stateLocked says in words what the room's game is doing and, at turn 0,
// who it waits for: shown on the viewer's live list (Server.RoomStates)
// and written to the log at every change.
func (r *room) stateLocked() string {
	g := r.g
	switch g.phase {
	case phasePlaying:
		return fmt.Sprintf("playing turn %d of %d (%d players)", g.turn, g.cfg.MaxTurn, len(g.seats))
	case phaseOver:
		return fmt.Sprintf("game over at turn %d of %d", g.turn, g.cfg.MaxTurn)
	}
	joined := len(g.players)
	who := fmt.Sprintf("%d official bot%s joined, %d built-in%s to seat, %d seats", joined, plural(joined), len(g.cfg.Bots), plural(len(g.cfg.Bots)), g.cfg.MaxPlayer)
	var wait string
	switch {
	case g.startReq || (g.cfg.WaitFor > 0 && joined >= g.cfg.WaitFor) || (g.cfg.WaitFor == 0 && g.mode == startFull && g.seated() >= g.cfg.MaxPlayer):
		wait = "starting"
	case g.cfg.WaitFor > 0:
		wait = fmt.Sprintf("waiting for %d more official bot%s (starts when %d have joined)", g.cfg.WaitFor-joined, plural(g.cfg.WaitFor-joined), g.cfg.WaitFor)
	case g.mode == startFull:
		n := g.cfg.MaxPlayer - g.seated()
		wait = fmt.Sprintf("waiting for %d more player%s (starts when all %d seats are taken)", n, plural(n), g.cfg.MaxPlayer)
	case g.mode == startNever:
		wait = "waiting for an admin's /start"
	case g.seated() == 0:
		wait = "waiting for a first player (then counts down again)"
	default:
		wait = fmt.Sprintf("starts in %d s", g.countDown)
	}
	return wait + "; " + who + "; bots join at " + "/gameroom/" + r.id
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// logStateLocked writes the room's state to the server log when it
// changed since the last time.
func (r *room) logStateLocked(why string) {
	st := r.stateLocked()
	if st == r.lastState && why == "" {
		return
	}
	r.lastState = st
	if why != "" {
		st = why + "; " + st
	}
	r.s.logf("room %s: %s", r.id, st)
}

// seated is the number of seats a start would fill now.
func (g *game) seated() int {
	return min(g.cfg.MaxPlayer, len(g.players)+len(g.cfg.Bots))
}

// refreshWaitingLocked rebuilds the turn-0 frame and message.
func (r *room) refreshWaitingLocked() {
	g := r.g
	g.m.Frame(&g.frame)
	g.frame.Users = g.frame.Users[:0]
	for _, p := range g.players {
		h := g.spawns[p.uid-1]
		c := &g.frame.Cells[h.Y*g.frame.Width+h.X]
		c.Owner = int64(p.uid)
		c.Building, c.Level = colorfight2.Home, 1
		c.AttackCost, c.ForceField, c.Gold, c.Energy = 1000, 0, 10, 10
		g.frame.Users = append(g.frame.Users, colorfight2.FrameUser{
			UID: int64(p.uid), Username: p.name, Energy: 1000, EnergySource: 10, GoldSource: 10,
			TechLevel: 1, CellNumber: 1,
		})
	}
	g.info = infoJSON(g.cfg, g.countDown, g.id)
	g.errJSON = nil
	r.publishLocked(nil)
}

// publishLocked encodes the current state message (with chat, once) and
// hands it to every subscriber.
func (r *room) publishLocked(chat []byte) {
	g := r.g
	msg := cfr.AppendStateMessage(make([]byte, 0, len(r.msg)+len(chat)+1024), &g.frame, g.info, chat, g.errJSON)
	r.msg = msg
	r.broadcastLocked()
}

func (r *room) broadcastLocked() {
	r.lastSend = r.s.clk.Now()
	for s := range r.subs {
		s.push(r.msg)
	}
}

func (r *room) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// loop drives the room's timing: countdown, start, rounds, restarts and
// the 30 s keep-alive. It never blocks on a socket.
func (r *room) loop() {
	defer close(r.loopDone)
	for {
		next := r.tick()
		var timer <-chan time.Time
		if next >= 0 {
			timer = r.s.clk.After(next)
		}
		select {
		case <-r.quit:
			return
		case <-r.wake:
		case <-timer:
		}
	}
}

// tick performs what is due and returns how long until something else
// may be (-1: nothing until woken).
func (r *room) tick() time.Duration {
	r.ctl.Lock()
	defer r.ctl.Unlock()
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return -1
	}
	if r.stopped != "" {
		r.mu.Unlock()
		return -1
	}
	now := r.s.clk.Now()
	next := time.Duration(-1)
	due := func(at time.Time) bool {
		if !now.Before(at) {
			return true
		}
		if d := at.Sub(now); next < 0 || d < next {
			next = d
		}
		return false
	}
	g := r.g
	restart := false
	switch g.phase {
	case phaseWaiting:
		start := g.startReq
		switch {
		case g.cfg.WaitFor > 0:
			start = start || len(g.players) >= g.cfg.WaitFor
		case g.mode == startFull:
			start = start || g.seated() >= g.cfg.MaxPlayer
		case g.mode == startCountdown:
			start = start || due(g.begun.Add(time.Duration(g.countSecs*float64(time.Second))))
		}
		if start && g.seated() == 0 {
			// Nobody to play: wait for someone, counting down again.
			start, g.startReq, g.begun = false, false, now
			if g.mode == startCountdown {
				due(g.begun.Add(time.Duration(g.countSecs * float64(time.Second))))
			}
		}
		if start && r.hourlyBoundLocked(now, due) {
			start = false
		}
		if start {
			r.starts = append(r.starts, now)
			if err := r.startLocked(now); err != nil {
				r.stopLocked(fmt.Sprintf("game %s cannot start: %v", g.id, err))
			}
			break
		}
		if cd := g.currentCountDown(now); cd != g.countDown {
			g.countDown = cd
			r.refreshWaitingLocked()
		}
		if g.mode == startCountdown && g.countDown > 0 {
			// next whole second of the countdown
			left := time.Duration(g.countSecs*float64(time.Second)) - now.Sub(g.begun)
			step := left - time.Duration(g.countDown-1)*time.Second
			due(now.Add(step))
		}
	case phasePlaying:
		if g.waiting {
			if g.cfg.RoundTime == 0 {
				if g.allReady() || due(g.lastRound.Add(r.s.opts.LockstepDeadline)) {
					g.releaseLocked(r.s.opts.LockstepMisses, r.s.logf)
				}
			} else if due(g.lastRound.Add(time.Duration(g.cfg.RoundTime * float64(time.Second)))) {
				g.releaseLocked(r.s.opts.LockstepMisses, r.s.logf)
			}
		}
	case phaseOver:
		if g.cfg.FinishTime > 0 && g.live != nil && g.live.Game().Done {
			restart = due(g.ended.Add(time.Duration(g.cfg.FinishTime * float64(time.Second))))
		}
	}
	if !restart && due(r.lastSend.Add(keepAlive)) {
		r.broadcastLocked()
		due(r.lastSend.Add(keepAlive))
	}
	r.mu.Unlock()
	if restart {
		r.restartCtl(nil)
		return 0
	}
	return next
}

// hourlyBoundLocked reports whether the room has started
// MaxGamesPerHour games in the hour before now; due is then told when the
// oldest of them leaves the hour.
func (r *room) hourlyBoundLocked(now time.Time, due func(time.Time) bool) bool {
	limit := r.s.opts.MaxGamesPerHour
	if limit < 0 {
		return false
	}
	kept := r.starts[:0]
	for _, t := range r.starts {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	r.starts = kept
	if len(r.starts) < limit {
		return false
	}
	due(r.starts[0].Add(time.Hour))
	if r.throttled != r.g {
		r.throttled = r.g
		r.s.logf("room %s: %d games started in the last hour (the bound); the next starts at %s", r.id, len(r.starts), r.starts[0].Add(time.Hour).Format(time.RFC3339))
	}
	return true
}

// allReady: every remote player with an open action channel, not dropped,
// has sent its commands for this turn (lock-step).
func (g *game) allReady() bool {
	for _, st := range g.seats {
		if st.p != nil && st.p.conns > 0 && !st.p.dropped && !st.p.sent {
			return false
		}
	}
	return true
}

// releaseLocked lets the match play round `turn` with the players'
// pending commands. In lock-step, a player with an open channel that
// missed misses rounds in a row is dropped (logf tells).
func (g *game) releaseLocked(misses int, logf func(format string, args ...any)) {
	if !g.waiting {
		return
	}
	for _, st := range g.seats {
		if st.p != nil {
			p := st.p
			st.missed = ""
			if g.cfg.RoundTime == 0 && !g.stopping {
				switch {
				case p.sent:
					p.misses = 0
				case p.conns == 0 || p.dropped:
					st.missed = "no commands this lock-step round: the player is disconnected"
				default:
					st.missed = "no commands by the lock-step deadline"
					if p.misses++; p.misses >= misses {
						p.dropped = true
						logf("game %s: %s missed %d lock-step rounds in a row: disconnected until it registers again", g.id, p.name, p.misses)
					}
				}
			}
			st.snap, p.pending, p.sent = p.pending, nil, false
		}
	}
	g.waiting = false
	close(g.release)
}

// startLocked seats the players and the built-in bots and starts the
// match.
func (r *room) startLocked(now time.Time) error {
	g := r.g
	taken := make([]bool, g.cfg.MaxPlayer+1)
	byUID := make([]*seat, g.cfg.MaxPlayer+1)
	names := map[string]bool{}
	for _, p := range g.players {
		taken[p.uid] = true
		byUID[p.uid] = &seat{p: p, name: p.name}
		names[p.name] = true
	}
	free := g.cfg.MaxPlayer - len(g.players)
	for _, b := range g.cfg.Bots {
		if free == 0 {
			break
		}
		uid := 1
		for taken[uid] {
			uid++
		}
		taken[uid] = true
		free--
		name := b
		for k := 2; names[name]; k++ {
			suffix := "_" + strconv.Itoa(k)
			name = b[:min(len(b), maxUsernameRunes-len(suffix))] + suffix
		}
		names[name] = true
		byUID[uid] = &seat{name: name, botName: b}
	}
	// Close the gaps left by players who left during turn 0: the engine
	// seats uids 1..n (docs/server.md).
	var seats []*seat
	for _, st := range byUID {
		if st != nil {
			seats = append(seats, st)
		}
	}
	for i, st := range seats {
		if st.p != nil {
			st.p.uid = i + 1
		}
	}

	if err := r.s.disk.MakeRoom(); err != nil {
		return err
	}
	f, err := r.s.disk.Create(r.id + "-" + g.id)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	path := f.Path
	mseats := make([]match.GameSeat, len(seats))
	players := make([]string, len(seats))
	setupPlayers := make([]colorfight2.Player, len(seats))
	info, _ := engine.About(colorfight2.Ruleset.ID())
	for i, st := range seats {
		players[i] = st.name
		setupPlayers[i] = colorfight2.Player{UID: i + 1, Name: st.name}
		if st.p != nil {
			mseats[i] = match.GameSeat{Bot: &remoteBot{r: r, g: g, st: st}, Name: st.name, Identity: remoteIdentity}
			continue
		}
		b, ok := info.FindBot(st.botName)
		if !ok {
			f.Abandon()
			os.Remove(f.Partial())
			return fmt.Errorf("server: unknown built-in %q", st.botName)
		}
		mseats[i] = match.GameSeat{Bot: &builtinBot{GamePlayer: match.BuiltinPlayer(b), r: r, g: g, st: st}, Name: st.name, Identity: st.botName}
	}
	seed := g.seed
	setup, err := colorfight2.MarshalSetup(colorfight2.Setup{
		Config:  colorfight2.Config{Width: colorfight2.DefaultWidth, Height: colorfight2.DefaultHeight, MaxTurn: g.cfg.MaxTurn, MaxPlayer: g.cfg.MaxPlayer},
		Seed:    &seed,
		Players: setupPlayers,
	})
	if err != nil {
		f.Abandon()
		os.Remove(f.Partial())
		return fmt.Errorf("server: %w", err)
	}
	// Live viewers read the recording through a file of their own, which
	// the rename at the end does not disturb.
	rf, err := os.Open(path + ".partial")
	if err != nil {
		f.Abandon()
		os.Remove(f.Partial())
		return fmt.Errorf("server: recording: %w", err)
	}
	g.seats = seats
	g.phase = phasePlaying
	g.countDown = 0
	g.info = infoJSON(g.cfg, 0, g.id)
	live := r.s.live.Start(rooms.LiveGame{ID: g.id, Room: r.id, MaxTurn: g.cfg.MaxTurn, Players: players, File: path + ".partial"}, rf)
	g.live = live
	rec := recording.NewRecorder(f, now, r.s.opts.Tool)
	rec.CFRInfo = infoJSON(g.cfg, g.firstCountDown(), g.id)
	ctx, cancel := context.WithCancel(context.Background())
	g.cancel = cancel
	g.matchDone = make(chan struct{})
	cfg := match.GameConfig{
		Ruleset:  colorfight2.Ruleset,
		Seed:     g.seed,
		Setup:    setup,
		Seats:    mseats,
		Recorder: &tee{r: r, g: g, rec: rec, live: live},
	}
	r.s.logf("room %s: game %s starts with %d players (%s)", r.id, g.id, len(seats), strings.Join(players, ", "))
	r.lastState = r.stateLocked()
	go func() {
		defer close(g.matchDone)
		defer cancel()
		_, err := match.RunGame(ctx, cfg)
		if err == nil {
			if err = f.Commit(); err != nil {
				err = fmt.Errorf("server: %w", err)
			}
		} else {
			// The .partial keeps the whole rounds it got.
			f.Abandon()
		}
		if err != nil {
			live.Finish(live.Game().Turn, path+".partial")
		} else {
			live.Finish(live.Game().Turn, path)
		}
		r.mu.Lock()
		if g.phase != phaseOver {
			g.phase, g.ended = phaseOver, r.s.clk.Now()
		}
		if err != nil {
			// A recording that fails (a full disk) would fail again: the
			// room stops instead of restarting into the same error.
			r.stopLocked(fmt.Sprintf("game %s: recording failed at turn %d: %v", g.id, g.turn, err))
		}
		r.mu.Unlock()
		r.poke()
	}()
	return nil
}

// stopLocked stops the room with reason (logged): no game starts or
// restarts until an admin /restart.
func (r *room) stopLocked(reason string) {
	if r.stopped != "" {
		return
	}
	r.stopped = reason
	r.s.logf("room %s stopped: %s; an admin /restart starts it again", r.id, reason)
}

// firstCountDown is the start_count_down of the game's first message.
func (g *game) firstCountDown() int {
	if g.mode != startCountdown {
		return waitingCountDown
	}
	return int(math.Ceil(g.countSecs))
}

// stopCtl ends the current game (recording its last whole round) and
// waits for its match. The caller holds ctl, not mu.
func (r *room) stopCtl() {
	r.mu.Lock()
	g := r.g
	done := g.matchDone
	if g.phase == phasePlaying {
		g.stopping = true
		g.cancel()
		g.releaseLocked(r.s.opts.LockstepMisses, r.s.logf)
	}
	r.mu.Unlock()
	if done != nil {
		<-done
	}
}

// restartCtl ends the current game and makes a new one (new map and
// game_id), with cfg when not nil; a stopped room plays again. The caller
// holds ctl.
func (r *room) restartCtl(cfg *RoomConfig) {
	r.stopCtl()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.stopped = ""
	if cfg != nil {
		r.cfg = *cfg
	}
	r.newGameLocked(r.s.clk.Now())
	r.poke()
}

// close ends the room: its game is recorded up to its last whole round,
// every socket is closed.
func (r *room) close() {
	r.ctl.Lock()
	r.stopCtl()
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		r.ctl.Unlock()
		return
	}
	r.closed = true
	subs, conns := r.subs, r.conns
	r.subs, r.conns = map[*subscriber]struct{}{}, map[*actionConn]struct{}{}
	r.mu.Unlock()
	r.ctl.Unlock()
	close(r.quit)
	<-r.loopDone
	for s := range subs {
		s.close()
	}
	for c := range conns {
		c.close()
	}
}

// remoteBot plays a remote player's seat: its answer waits for the
// round's release and is the player's pending list. It is a
// match.Preparer, so the runner waits for every seat at once.
type remoteBot struct {
	r  *room
	g  *game
	st *seat
}

func (b *remoteBot) Name() string            { return remoteIdentity }
func (b *remoteBot) Start(int, uint64) error { return nil }
func (b *remoteBot) Close() error            { return nil }
func (b *remoteBot) Commands(g engine.Game, p int) ([]string, error) {
	return b.Prepare(g, p)()
}

// Prepare reads nothing of the game (the player read its state from the
// room) and returns the wait for the round's release.
func (b *remoteBot) Prepare(engine.Game, int) func() ([]string, error) {
	b.r.mu.Lock()
	ch := b.g.release
	b.r.mu.Unlock()
	return func() ([]string, error) {
		<-ch
		b.r.mu.Lock()
		cmds, missed := b.st.snap, b.st.missed
		b.st.snap = nil
		b.st.last = cmds
		b.r.mu.Unlock()
		if missed != "" {
			// The pending list (if any, sent for an earlier turn) still
			// plays; the fault only records that this round had no
			// message.
			return cmds, errors.New(missed)
		}
		return cmds, nil
	}
}

// builtinBot plays a built-in bot's seat at the room's pace: it answers
// at once (Prepare, on the runner's goroutine) but hands its commands
// over only when the round is released (timed rooms: every round_time;
// lock-step: when the remote players are ready — built-ins always are),
// so a room of built-ins alone keeps the round timing too. It keeps what
// it answered, for the error messages.
type builtinBot struct {
	match.GamePlayer
	r  *room
	g  *game
	st *seat
}

func (b *builtinBot) Commands(g engine.Game, p int) ([]string, error) {
	return b.Prepare(g, p)()
}

// Prepare asks the built-in now and returns the wait for the round's
// release.
func (b *builtinBot) Prepare(g engine.Game, p int) func() ([]string, error) {
	b.r.mu.Lock()
	ch := b.g.release
	b.r.mu.Unlock()
	cmds, err := b.GamePlayer.Commands(g, p)
	cmds = append([]string(nil), cmds...)
	return func() ([]string, error) {
		<-ch
		b.r.mu.Lock()
		b.st.last = append(b.st.last[:0], cmds...)
		b.r.mu.Unlock()
		return cmds, err
	}
}

var (
	_ match.Preparer = (*remoteBot)(nil)
	_ match.Preparer = (*builtinBot)(nil)
)

// tee is the match's recorder: it writes the .rwd (recording.Recorder
// over the live buffer and the file) and publishes every round to the
// room's subscribers and to live viewers.
type tee struct {
	r    *room
	g    *game
	rec  *recording.Recorder
	live *rooms.LiveRecord
}

func (t *tee) Begin(s match.GameSetup) error {
	if err := t.rec.Begin(s); err != nil {
		return err
	}
	t.live.Round(0)
	return nil
}

func (t *tee) Round(rd *match.GameRound, eg engine.Game) error {
	cg, ok := eg.(*colorfight2.Game)
	if !ok {
		return fmt.Errorf("server: a %T in a ColorfightII room", eg)
	}
	if err := t.rec.Round(rd, eg); err != nil {
		return err
	}
	st := cg.State
	// The recording has the round before any client hears of it, so a
	// client that reads the new turn finds it in Recording too.
	t.live.Round(st.Turn())
	r, g := t.r, t.g
	r.mu.Lock()
	now := r.s.clk.Now()
	g.turn = st.Turn()
	st.Frame(&g.frame)
	g.errJSON = appendErrors(g.errJSON[:0:0], &g.frame, g.seats, cg.Applied(), st.Errors())
	r.publishLocked(nil)
	g.lastRound = now
	r.lastUpdate = now
	if st.Over() {
		g.phase, g.ended = phaseOver, now
	} else {
		g.waiting = true
		g.release = make(chan struct{})
		if g.stopping {
			g.releaseLocked(r.s.opts.LockstepMisses, r.s.logf)
		}
	}
	r.mu.Unlock()
	r.poke()
	return nil
}

func (t *tee) End(g engine.Game) error {
	return t.rec.End(g)
}

// appendErrors writes the "error" object: every player's failed commands
// of the round, in the reference's wording, keyed by uid.
func appendErrors(b []byte, f *colorfight2.Frame, seats []*seat, cmds [][]colorfight2.Command, errs []colorfight2.CommandError) []byte {
	b = append(b, '{')
	for i := range f.Users {
		uid := int(f.Users[i].UID)
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(uid), 10)
		b = append(b, `":[`...)
		n := 0
		// A recorded fault (a missed lock-step round) comes first in the
		// player's list, before the commands it sent.
		off := 0
		if uid-1 < len(cmds) && len(cmds[uid-1]) > 0 && cmds[uid-1][0].Err == colorfight2.ErrBotFault {
			off = 1
		}
		for _, e := range errs {
			if e.UID != uid || uid-1 >= len(cmds) || e.Index >= len(cmds[uid-1]) {
				continue
			}
			c := cmds[uid-1][e.Index]
			raw := c.String()
			if st, j := seats[uid-1], e.Index-off; j >= 0 && j < len(st.last) {
				raw = st.last[j]
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			text, _ := json.Marshal(commandError(raw, c, e.Code))
			b = append(b, text...)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
