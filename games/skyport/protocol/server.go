// Package skyport is the Skyport Rev 1 TCP protocol server behind
// `rewind server --game skyport`: bots written for the reference server
// (pilsprog/skyport-logic, PROTOCOL-SKYPORT.md) connect unchanged to port
// P, an observer to port P+10, and every game is played on the rules of
// package games/skyport and recorded as a generic .rwd that `rewind
// verify` re-simulates.
//
// What the server sends is the reference's, message for message: the
// handshake reply, the turn-0 gamestate, the loadout phase ending with
// endturn, each turn's gamestate (players in turn order), the errors of a
// bot's own lines as they arrive, endturn, the actions' errors and
// broadcasts in processing order; the observer also gets gamestates with
// "alive", subtitles and endactions, and is waited for ("ready"). Where
// the reference waits forever, crashes or exits, this server does
// something bounded and documented (docs/skyport.md, "Server"):
//
//   - a game starts once Options.Players seats are filled by built-in
//     bots (Options.Bots) and players that completed their handshake;
//     the observer is optional and may come and go;
//   - a handshake must come within HandshakeTimeout, the loadout phase
//     lasts at most the lock-step deadline (players without a loadout
//     get laser and mortar), an observer that does not answer "ready"
//     within the deadline is no longer waited for;
//   - ThinkTime 0 is lock-step: a turn ends as soon as the active bot
//     sent three action messages or the line {"message":"endturn"}
//     (a control line: never answered with an error, never recorded),
//     at the latest after Options.Deadline;
//   - the game ends after the turn limit (the reference's ends on the
//     wall clock), players' connections are then closed;
//   - mortar coordinates the reference crashes on are rejected with an
//     error (games/skyport).
//
// Contracts: no panics on any input; every per-client cost is bounded
// (conn.go's constants, docs/limits.md); nothing is printed except
// through Options.Log.
package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	skyportbot "github.com/rewind-game/rewind/games/skyport/bots"
	sp "github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/internal/rooms"
)

// Defaults and protocol constants.
const (
	// DefaultAddr is where bots connect by default (the example bots'
	// port, loopback only).
	DefaultAddr = "127.0.0.1:54321"
	// ObserverOffset: the observer port is the player port + 10.
	ObserverOffset = 10
	// DefaultThinkTime is the reference's think time (Main.java:9,18).
	DefaultThinkTime = 3000 * time.Millisecond
	// DefaultDeadline bounds a lock-step turn, the loadout phase and the
	// wait for the observer's "ready" when Options.Deadline is 0.
	DefaultDeadline = 10 * time.Second
	// DefaultPlayers is the seats of a game when Options.Players is 0.
	DefaultPlayers = 2
	// MaxLinesPerTurn bounds the lines read from one player in one turn
	// (and in the loadout phase); later ones are dropped unread.
	MaxLinesPerTurn = 64
	// MaxLobbyLines bounds the lines kept from a player that handshook
	// before its game started (they are its first loadout attempts).
	MaxLobbyLines = 16
	// ObserverPassword is the reference's fixed observer password.
	ObserverPassword = "supersecretpassword"
	// maxThink bounds what the observer's "slower" can make the think
	// time.
	maxThink = 60 * time.Second
)

// Server is the Skyport Rev 1 protocol (rooms.Protocol).
type Server struct{}

var _ rooms.Protocol = Server{}

// DefaultAddr returns DefaultAddr.
func (Server) DefaultAddr() string { return DefaultAddr }

// config is Options with the defaults filled in.
type config struct {
	rooms.Options
	lockstep bool
}

func configure(o rooms.Options) (config, error) {
	c := config{Options: o}
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.Dir == "" {
		return c, errors.New("skyport server: no folder to record games in (Options.Dir)")
	}
	if c.Players == 0 {
		c.Players = DefaultPlayers
		if len(c.Setup) > 0 {
			su, err := sp.UnmarshalSetup(c.Setup)
			if err != nil {
				return c, fmt.Errorf("skyport server: %w", err)
			}
			c.Players = len(su.Names)
		}
	}
	if c.Players < 1 || c.Players > sp.MaxPlayers {
		return c, fmt.Errorf("skyport server: %d players (1..%d)", c.Players, sp.MaxPlayers)
	}
	if len(c.Bots) > c.Players {
		return c, fmt.Errorf("skyport server: %d built-in bots for %d seats", len(c.Bots), c.Players)
	}
	for _, b := range c.Bots {
		if _, ok := skyportbot.New(b, 0); !ok {
			return c, fmt.Errorf("skyport server: no built-in bot %q (valid: %s)", b, strings.Join(skyportbot.Names, ", "))
		}
	}
	if c.ThinkTime < 0 {
		c.ThinkTime = DefaultThinkTime
	}
	c.lockstep = c.ThinkTime == 0
	if c.Deadline <= 0 {
		c.Deadline = DefaultDeadline
	}
	if c.Games < 0 {
		return c, fmt.Errorf("skyport server: %d games", c.Games)
	}
	return c, nil
}

// Serve runs the server (rooms.Protocol): it listens on Options.Addr
// for players and on its port + 10 for the observer (and, when the host
// is 127.0.0.1, on [::1] at the same ports if it can, for bots that
// connect to "localhost"), plays Options.Games games (0: until ctx ends)
// and returns. A game in progress when ctx ends is recorded up to its
// last whole turn.
func (Server) Serve(ctx context.Context, o rooms.Options) error {
	cfg, err := configure(o)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return fmt.Errorf("skyport server: %w", err)
	}
	lns, addrs, err := listen(cfg.Addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := &hub{cfg: cfg, ctx: ctx, events: make(chan event, 64), quit: make(chan struct{}),
		think: cfg.ThinkTime, clients: &rooms.Clients{PerAddr: cfg.MaxConnsPerIP, Total: MaxConns},
		conns: map[*conn]struct{}{}}
	h.disk = &rooms.Recordings{Dir: cfg.Dir, Own: ownRecording, Logf: h.logf}
	for _, g := range h.disk.Recover(nil) {
		cfg.Live.List(g)
	}
	h.baseSeed = cfg.Seed
	if h.baseSeed == 0 {
		h.baseSeed = uint64(time.Now().UnixNano())
	}
	var wg sync.WaitGroup
	for _, l := range lns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.accept(l.ln, l.observer, &wg)
		}()
	}
	h.logf("skyport: players on %s, observer on %s", addrs["players"], addrs["observer"])
	if cfg.Ready != nil {
		cfg.Ready(addrs)
	}
	err = h.run()
	cancel()
	close(h.quit)
	for _, l := range lns {
		l.ln.Close()
	}
	h.mu.Lock()
	for c := range h.conns {
		c.finish()
	}
	h.mu.Unlock()
	wg.Wait()
	return err
}

type listener struct {
	ln       net.Listener
	observer bool
}

// listen opens the player and observer ports (port 0: a free P whose
// P+10 is free too).
func listen(addr string) ([]listener, map[string]string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("skyport server: address %q: %w", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535-ObserverOffset {
		return nil, nil, fmt.Errorf("skyport server: address %q: the port must be 0..%d (the observer's is port + %d)", addr, 65535-ObserverOffset, ObserverOffset)
	}
	var pl, ob net.Listener
	for try := 0; ; try++ {
		pl, err = net.Listen("tcp", net.JoinHostPort(host, port))
		if err != nil {
			return nil, nil, fmt.Errorf("skyport server: player port: %w", err)
		}
		pp := pl.Addr().(*net.TCPAddr).Port
		ob, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(pp+ObserverOffset)))
		if err == nil {
			break
		}
		pl.Close()
		if p != 0 || try >= 20 {
			return nil, nil, fmt.Errorf("skyport server: observer port (player port + %d): %w", ObserverOffset, err)
		}
	}
	lns := []listener{{pl, false}, {ob, true}}
	addrs := map[string]string{"players": pl.Addr().String(), "observer": ob.Addr().String()}
	if host == "127.0.0.1" {
		pp := pl.Addr().(*net.TCPAddr).Port
		if l6, err := net.Listen("tcp6", net.JoinHostPort("::1", strconv.Itoa(pp))); err == nil {
			if o6, err := net.Listen("tcp6", net.JoinHostPort("::1", strconv.Itoa(pp+ObserverOffset))); err == nil {
				lns = append(lns, listener{l6, false}, listener{o6, true})
				addrs["players6"], addrs["observer6"] = l6.Addr().String(), o6.Addr().String()
			} else {
				l6.Close()
			}
		}
	}
	return lns, addrs, nil
}

// hub owns every connection's protocol state and the game; it runs on
// the goroutine that called Serve.
type hub struct {
	cfg      config
	ctx      context.Context
	events   chan event
	quit     chan struct{}
	clients  *rooms.Clients
	accepted atomic.Uint64 // connections accepted (conn.order)
	disk     *rooms.Recordings
	baseSeed uint64

	mu    sync.Mutex
	conns map[*conn]struct{}

	lobby    []*conn
	obs      *conn
	obsReady bool
	think    time.Duration
	g        *game
}

func (h *hub) logf(format string, a ...any) {
	if h.cfg.Log != nil {
		fmt.Fprintf(h.cfg.Log, format+"\n", a...)
	}
}

// accept takes connections until the listener closes.
func (h *hub) accept(ln net.Listener, observer bool, wg *sync.WaitGroup) {
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: try again shortly.
			select {
			case <-h.quit:
				return
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		ip := rooms.Host(nc.RemoteAddr())
		if err := h.take(ip); err != nil {
			go func() {
				nc.SetWriteDeadline(time.Now().Add(time.Second))
				nc.Write(errorMsg(err.Error()))
				nc.Write([]byte("\n"))
				nc.Close()
			}()
			continue
		}
		c := &conn{c: nc, observer: observer, ip: ip, order: h.accepted.Add(1), out: make(chan []byte, 1024), done: make(chan struct{}), finishing: make(chan struct{})}
		c.readTimeout.Store(int64(HandshakeTimeout))
		if observer {
			c.role = roleObsPending
		}
		h.mu.Lock()
		select {
		case <-h.quit:
			h.mu.Unlock()
			nc.Close()
			h.clients.Release(ip)
			return
		default:
		}
		h.conns[c] = struct{}{}
		h.mu.Unlock()
		wg.Add(2)
		go func() { defer wg.Done(); c.writer() }()
		go func() {
			defer wg.Done()
			c.reader(h.events, h.quit)
			h.mu.Lock()
			delete(h.conns, c)
			h.mu.Unlock()
			c.release(h.clients)
		}()
	}
}

// take counts a new connection from ip (rooms.Clients). Over a bound,
// the oldest connection that has not handshaken — of ip when ip is over
// its own bound, of anyone when the server is full — is closed to make
// room, so that silent connections cannot keep players out; with none
// to close, the refusal names the bound (rooms.ErrAddressFull,
// rooms.ErrServerFull).
func (h *hub) take(ip string) error {
	err := h.clients.Take(ip)
	if err == nil {
		return nil
	}
	h.mu.Lock()
	var oldest *conn
	for c := range h.conns {
		if c.greeted.Load() || (err == rooms.ErrAddressFull && c.ip != ip) {
			continue
		}
		if oldest == nil || c.order < oldest.order {
			oldest = c
		}
	}
	h.mu.Unlock()
	if oldest == nil {
		return err
	}
	h.logf("skyport: closed a connection from %s that sent no handshake, to make room for one from %s", oldest.ip, ip)
	oldest.release(h.clients)
	oldest.close()
	return h.clients.Take(ip)
}

// run plays games until Options.Games are played or ctx ends.
func (h *hub) run() error {
	need := h.cfg.Players - len(h.cfg.Bots)
	for n := 0; h.cfg.Games == 0 || n < h.cfg.Games; n++ {
		for len(h.lobby) < need {
			if !h.step(time.Time{}) {
				return nil
			}
		}
		seated := append([]*conn(nil), h.lobby[:need]...)
		h.lobby = append(h.lobby[:0], h.lobby[need:]...)
		if err := h.play(n, seated); err != nil {
			return err
		}
		if h.ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// step handles one event, or returns at deadline (zero: none); false
// once ctx ended.
func (h *hub) step(deadline time.Time) bool {
	var tc <-chan time.Time
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			return h.ctx.Err() == nil
		}
		t := time.NewTimer(d)
		defer t.Stop()
		tc = t.C
	}
	select {
	case <-h.ctx.Done():
		return false
	case <-tc:
		return true
	case e := <-h.events:
		h.handle(e)
		return true
	}
}

// drain handles the events already queued, without waiting.
func (h *hub) drain() {
	for {
		select {
		case e := <-h.events:
			h.handle(e)
		default:
			return
		}
	}
}

// waitResult is how a wait ended.
type waitResult uint8

const (
	waitDone waitResult = iota
	waitTimeout
	waitCancelled
)

// wait handles events until cond holds, deadline passes or ctx ends.
func (h *hub) wait(deadline time.Time, cond func() bool) waitResult {
	for !cond() {
		if h.ctx.Err() != nil {
			return waitCancelled
		}
		if !time.Now().Before(deadline) {
			return waitTimeout
		}
		if !h.step(deadline) {
			return waitCancelled
		}
	}
	return waitDone
}

// handle applies one event from a reader.
func (h *hub) handle(e event) {
	c := e.c
	if e.closed {
		if c.gone {
			return
		}
		c.gone = true
		switch c.role {
		case roleLobby:
			for i, l := range h.lobby {
				if l == c {
					h.lobby = append(h.lobby[:i], h.lobby[i+1:]...)
					break
				}
			}
			h.logf("skyport: %s left before its game", c.name)
		case roleSeated:
			if h.g != nil {
				h.g.disconnect(c.seat)
			}
		case roleObserver:
			h.obs = nil
			h.logf("skyport: the observer left")
		}
		c.role = roleDone
		return
	}
	if c.deaf || c.role == roleDone {
		return
	}
	if e.tooBig {
		c.send(errorMsg(tooLongText))
		return
	}
	switch c.role {
	case rolePending:
		h.handshake(c, e.line)
	case roleLobby:
		if len(c.lobby) < MaxLobbyLines {
			c.lobby = append(c.lobby, e.line)
		}
	case roleSeated:
		if h.g != nil {
			h.g.line(c.seat, e.line)
		}
	case roleObsPending:
		h.observerHandshake(c, e.line)
	case roleObserver:
		h.observerLine(c, e.line)
	}
}

var connectOK = []byte(`{"message":"connect","status":true}`)

func (h *hub) handshake(c *conn, line string) {
	name, errText, ok := sp.Handshake(line)
	switch {
	case ok:
		c.name, c.role = name, roleLobby
		c.greeted.Store(true)
		c.readTimeout.Store(0)
		c.send(connectOK)
		h.lobby = append(h.lobby, c)
		h.logf("skyport: player %s joined from %s", name, c.ip)
	case errText == "":
		// The line kills the reference's reader thread: nothing more is
		// read; HandshakeTimeout closes the connection.
		c.deaf = true
	default:
		c.send(errorMsg(errText))
	}
}

// observerHandshake checks the observer's handshake: message and revision
// as the player handshake (the same error texts), then the password. The
// password is read with encoding/json (a line only org.json reads is
// refused with "Wrong password!").
func (h *hub) observerHandshake(c *conn, line string) {
	_, errText, ok := sp.Handshake(line)
	passed := ok || strings.HasPrefix(errText, "Username") || strings.Contains(errText, `JSONObject["name"]`)
	if !passed {
		if errText == "" {
			c.deaf = true
			return
		}
		c.send(errorMsg(errText))
		return
	}
	var m map[string]any
	if json.Unmarshal([]byte(line), &m) != nil || m["password"] != ObserverPassword {
		c.send(errorMsg("Wrong password!"))
		return
	}
	if h.obs != nil {
		c.send(errorMsg("An observer is already connected"))
		c.role = roleDone
		c.finish()
		return
	}
	c.greeted.Store(true)
	c.role = roleObserver
	c.readTimeout.Store(0)
	c.send(connectOK)
	h.obs = c
	h.logf("skyport: observer joined from %s", c.ip)
}

func (h *hub) observerLine(c *conn, line string) {
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		c.send(errorMsg("Invalid packet received: " + err.Error()))
		return
	}
	msg, _ := m["message"].(string)
	switch msg {
	case "ready":
		h.obsReady = true
		c.unresp = false
	case "faster":
		if h.think >= 200*time.Millisecond {
			h.think -= 100 * time.Millisecond
			h.subtitle("Delay changed to " + strconv.FormatInt(h.think.Milliseconds(), 10))
		} else {
			h.subtitle("Can't go faster")
		}
	case "slower":
		h.think = min(h.think+100*time.Millisecond, maxThink)
		h.subtitle("Delay changed to " + strconv.FormatInt(h.think.Milliseconds(), 10))
	default:
		v, _ := json.Marshal(m["message"])
		c.send(errorMsg("Unexpected message, got '" + strings.Trim(string(v), `"`) + "' but expected 'ready', 'faster' or 'slower'"))
	}
}

// subtitle sends the observer a subtitle.
func (h *hub) subtitle(text string) {
	if h.obs != nil {
		b := append([]byte(`{"message":"subtitle","text":`), jsonString(text)...)
		h.obs.send(append(b, '}'))
	}
}

// toObserver sends msg to the observer, if any.
func (h *hub) toObserver(msg []byte) {
	if h.obs != nil {
		h.obs.send(msg)
	}
}

// waitReady sends the observer endactions and waits for its "ready", at
// most the deadline; an observer that misses it is not waited for again
// until it sends "ready".
func (h *hub) waitReady() waitResult {
	o := h.obs
	if o == nil {
		return waitDone
	}
	h.obsReady = false
	o.send([]byte(`{"message":"endactions"}`))
	if o.unresp {
		return waitDone
	}
	r := h.wait(time.Now().Add(h.cfg.Deadline), func() bool { return h.obsReady || h.obs != o })
	if r == waitTimeout {
		o.unresp = true
		h.logf("skyport: the observer did not answer ready within %v; not waiting for it any more", h.cfg.Deadline)
	}
	return r
}

func errorMsg(text string) []byte {
	b := append([]byte(`{"error":`), jsonString(text)...)
	return append(b, '}')
}

// jsonString quotes s as JSON without HTML escaping.
func jsonString(s string) []byte {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return []byte(strings.TrimSuffix(sb.String(), "\n"))
}

// recordingPrefix begins the name of every recording of the server
// (skyport-DATE-N.rwd).
const recordingPrefix = "skyport-"

// ownRecording reports whether name is a recording of the server's
// naming.
func ownRecording(name string) bool {
	return strings.HasPrefix(name, recordingPrefix) && strings.HasSuffix(name, ".rwd")
}

// recordingName is the name (without .rwd) of game n started at start.
func recordingName(start time.Time, n int) string {
	return fmt.Sprintf("%s%s-%d", recordingPrefix, start.UTC().Format("20060102-150405"), n+1)
}
