package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rewind-game/rewind/internal/rooms"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/replay"
)

const (
	// writeTimeout bounds one websocket write; a client that does not
	// read for that long loses its connection.
	writeTimeout = 10 * time.Second
	// subQueue bounds the state messages waiting for one subscriber; a
	// subscriber that falls behind skips to the latest state.
	subQueue = 8
)

var acceptOptions = &websocket.AcceptOptions{
	// A browser's upgrade carries its page's Origin: one whose host is
	// not the request's Host is refused (403), so that no other site's
	// page takes seats or chats; the official clients send none.
	// Every subscriber gets the same bytes: compressing them per
	// connection would cost more than the round itself.
	CompressionMode: websocket.CompressionDisabled,
}

// acquireConn counts a websocket of the request's remote address against
// MaxConnsPerIP.
func (s *Server) acquireConn(req *http.Request) (release func(), ok bool) {
	host := rooms.RequestHost(req)
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed || s.clients.Take(host) != nil {
		return nil, false
	}
	return func() { s.clients.Release(host) }, true
}

// subscriber is one game_channel socket's queue.
type subscriber struct {
	mu     sync.Mutex
	q      [][]byte
	notify chan struct{}
	done   chan struct{}
	once   sync.Once
}

func newSubscriber() *subscriber {
	return &subscriber{notify: make(chan struct{}, 1), done: make(chan struct{})}
}

// push queues msg without blocking; a full queue drops to the latest.
func (s *subscriber) push(msg []byte) {
	s.mu.Lock()
	if len(s.q) >= subQueue {
		clear(s.q)
		s.q = s.q[:0]
	}
	s.q = append(s.q, msg)
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

func (s *subscriber) take() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := append([][]byte(nil), s.q...)
	clear(s.q)
	s.q = s.q[:0]
	return q
}

func (s *subscriber) close() { s.once.Do(func() { close(s.done) }) }

func (r *room) subscribe(s *subscriber) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.subs[s] = struct{}{}
	s.push(r.msg)
	return true
}

func (r *room) unsubscribe(s *subscriber) {
	r.mu.Lock()
	delete(r.subs, s)
	r.mu.Unlock()
}

// acceptChannel opens the websocket of a channel of the room named in
// the request's path, under the per-client bound on connections. With ok
// false the refusal has been answered and there is nothing to undo;
// otherwise done closes the socket and frees its connection slot.
func (s *Server) acceptChannel(w http.ResponseWriter, req *http.Request) (r *room, c *websocket.Conn, done func(), ok bool) {
	r = s.room(req.PathValue("id"))
	if r == nil {
		http.Error(w, "No such room", http.StatusNotFound)
		return nil, nil, nil, false
	}
	release, ok := s.acquireConn(req)
	if !ok {
		http.Error(w, "Too many connections", http.StatusTooManyRequests)
		return nil, nil, nil, false
	}
	c, err := websocket.Accept(w, req, acceptOptions)
	if err != nil {
		release()
		return nil, nil, nil, false
	}
	return r, c, func() {
		c.CloseNow()
		release()
	}, true
}

// gameChannel serves /gameroom/{id}/game_channel: the full state on
// connect, on every change and every 30 s unchanged.
func (s *Server) gameChannel(w http.ResponseWriter, req *http.Request) {
	r, c, done, ok := s.acceptChannel(w, req)
	if !ok {
		return
	}
	defer done()
	// The channel is server -> client; reading only handles pings and
	// the close (a data message from the client closes it).
	ctx := c.CloseRead(context.Background())
	sub := newSubscriber()
	if !r.subscribe(sub) {
		c.Close(websocket.StatusGoingAway, "room closed")
		return
	}
	defer r.unsubscribe(sub)
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.done:
			c.Close(websocket.StatusGoingAway, "room closed")
			return
		case <-sub.notify:
		}
		for _, m := range sub.take() {
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.Write(wctx, websocket.MessageText, m)
			cancel()
			if err != nil {
				return
			}
		}
	}
}

// actionConn is one action_channel socket, bound to a player once it
// registered.
type actionConn struct {
	c    *websocket.Conn
	addr string // remote address, for the back-off of failed secrets
	g    *game
	p    *player
	once sync.Once
}

func (a *actionConn) close() { a.once.Do(func() { a.c.CloseNow() }) }

// actionChannel serves /gameroom/{id}/action_channel: one reply per
// message, in order.
func (s *Server) actionChannel(w http.ResponseWriter, req *http.Request) {
	r, c, done, ok := s.acceptChannel(w, req)
	if !ok {
		return
	}
	defer done()
	c.SetReadLimit(s.opts.MaxMessageBytes)
	ac := &actionConn{c: c, addr: rooms.RequestHost(req)}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.conns[ac] = struct{}{}
	r.mu.Unlock()
	defer r.dropConn(ac)
	ctx := context.Background()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			c.Close(websocket.StatusUnsupportedData, "text messages only")
			return
		}
		reply := r.action(ac, data)
		wctx, cancel := context.WithTimeout(ctx, writeTimeout)
		err = c.Write(wctx, websocket.MessageText, reply)
		cancel()
		if err != nil {
			return
		}
	}
}

// dropConn forgets a closed action channel: a player whose last action
// channel closes during turn 0 leaves the game and frees its uid.
func (r *room) dropConn(ac *actionConn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.conns, ac)
	r.unbindLocked(ac)
}

func (r *room) unbindLocked(ac *actionConn) {
	p, g := ac.p, ac.g
	ac.p, ac.g = nil, nil
	if p == nil || g != r.g {
		return
	}
	p.conns--
	if p.conns > 0 {
		return
	}
	if g.phase == phaseWaiting {
		for i, q := range g.players {
			if q == p {
				g.players = append(g.players[:i], g.players[i+1:]...)
				break
			}
		}
		r.refreshWaitingLocked()
		r.logStateLocked(fmt.Sprintf("%q (uid %d) left", p.name, p.uid))
	}
	r.poke() // lock-step: a player without a channel no longer gates rounds
}

func reply(ok bool, errMsg string) []byte {
	if ok {
		return []byte(`{"success": true}`)
	}
	m, _ := json.Marshal(errMsg)
	return append(append([]byte(`{"success": false, "err_msg": `), m...), '}')
}

// action handles one action_channel message and returns the reply.
func (r *room) action(ac *actionConn, data []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		if json.Valid(data) {
			return reply(false, "You have to specify an action")
		}
		return reply(false, "This is not a valid json")
	}
	araw, ok := m["action"]
	if !ok {
		return reply(false, "You have to specify an action")
	}
	var action string
	if json.Unmarshal(araw, &action) != nil || (action != "register" && action != "command") {
		return reply(false, "Not a valid action")
	}
	if action == "register" {
		return r.register(ac, m)
	}
	return r.command(ac, m)
}

func (r *room) register(ac *actionConn, m map[string]json.RawMessage) []byte {
	uraw, ok := m["username"]
	if !ok {
		return reply(false, "username is missing")
	}
	praw, ok := m["password"]
	if !ok {
		return reply(false, "password is missing")
	}
	var name, password string
	if json.Unmarshal(uraw, &name) != nil || json.Unmarshal(praw, &password) != nil || !isJSONString(uraw) || !isJSONString(praw) {
		return reply(false, "Username and Password needs to be strings")
	}
	if utf8.RuneCountInString(name) > 4*maxUsernameRunes {
		// NFKC may shorten a name, but never by that much
		return reply(false, "Username can't exceed 15 characters.")
	}
	written := name
	name, err := rooms.NormalizeName(written)
	if err != nil {
		return reply(false, err.Error())
	}
	if utf8.RuneCountInString(name) > maxUsernameRunes {
		return reply(false, "Username can't exceed 15 characters.")
	}
	if name == "" {
		return reply(false, "Username has to be at least 1 characters")
	}
	key := ""
	if kraw, ok := m["join_key"]; ok {
		if !isJSONString(kraw) || json.Unmarshal(kraw, &key) != nil {
			return reply(false, "You need the correct join key for the room")
		}
	}
	if r.joinKey != "" || key != "" {
		if err := r.s.guess(ac.addr, r.id, "join key", func() bool { return rooms.SameSecret(key, r.joinKey) }); err != nil {
			return reply(false, wrongSecret(err, "You need the correct join key for the room").Error())
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return reply(false, "No such room")
	}
	g := r.g
	var found *player
	if g.phase == phaseWaiting {
		for _, p := range g.players {
			if rooms.SameName(p.name, written) {
				found = p
			}
		}
	} else {
		for _, st := range g.seats {
			if rooms.SameName(st.name, written) {
				if st.p == nil {
					return reply(false, "Username exists")
				}
				found = st.p
			}
		}
	}
	if found != nil {
		err := r.s.guess(ac.addr, r.id, "player password for "+strconv.Quote(found.name), func() bool { return rooms.SameSecret(password, found.password) })
		if err != nil {
			return reply(false, wrongSecret(err, "Username exists").Error())
		}
		r.bindLocked(ac, found)
		return registered(found.uid)
	}
	if g.phase != phaseWaiting {
		// The reference's words first (clients may look for them), then
		// why, for the bot's author, who reads it in the client's error.
		why := fmt.Sprintf("You are not allowed to join after the game starts: game %s of room %s is at turn %d of %d (%s); rewind server seats players during turn 0 only — join the next game, or have the room wait for you (rewind server --wait-for N)",
			g.id, r.id, g.turn, g.cfg.MaxTurn, r.stateLocked())
		r.s.logf("room %s: refused %q, who came after the start: %s", r.id, name, why)
		return reply(false, why)
	}
	if len(g.players) >= g.cfg.MaxPlayer {
		return reply(false, "Map is full")
	}
	uid := 1
	for taken := true; taken; {
		taken = false
		for _, p := range g.players {
			if p.uid == uid {
				taken = true
				uid++
				break
			}
		}
	}
	p := &player{uid: uid, name: name, password: password}
	g.players = append(g.players, p)
	r.bindLocked(ac, p)
	r.refreshWaitingLocked()
	r.logStateLocked(fmt.Sprintf("%q joined as uid %d", name, uid))
	r.poke() // "full" may start now
	return registered(uid)
}

func registered(uid int) []byte {
	return []byte(`{"success": true, "uid": ` + strconv.Itoa(uid) + `}`)
}

func (r *room) bindLocked(ac *actionConn, p *player) {
	if p.dropped {
		// A dropped player that registers again takes its seat back.
		p.dropped, p.misses = false, 0
		r.s.logf("game %s: %s registered again: back in the lock-step", r.g.id, p.name)
	}
	if ac.p == p && ac.g == r.g {
		return
	}
	if ac.p != nil {
		r.unbindLocked(ac)
	}
	ac.p, ac.g = p, r.g
	p.conns++
}

func isJSONString(v json.RawMessage) bool {
	for _, c := range v {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '"'
	}
	return false
}

func (r *room) command(ac *actionConn, m map[string]json.RawMessage) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.g
	if ac.p == nil || ac.g != g {
		return reply(false, "You need to join the game first")
	}
	craw, ok := m["cmd_list"]
	if !ok {
		return reply(false, "cmd_list is missing")
	}
	if g.phase != phasePlaying || g.turn == 0 || g.turn >= g.cfg.MaxTurn {
		return reply(false, "The game has not started or it ended already.")
	}
	var items []json.RawMessage
	if json.Unmarshal(craw, &items) != nil || items == nil {
		return reply(false, "Wrong type")
	}
	if len(items) > replay.MaxCommandsPerRound {
		return reply(false, "Too many commands, at most "+strconv.Itoa(replay.MaxCommandsPerRound))
	}
	cmds := make([]string, len(items))
	for i, it := range items {
		if json.Unmarshal(it, &cmds[i]) != nil || !isJSONString(it) {
			// Not a string: it fails as a command, named by its JSON text.
			cmds[i] = string(it)
		}
	}
	ac.p.pending = cmds
	ac.p.sent = true
	if g.cfg.RoundTime == 0 {
		r.poke()
	}
	return reply(true, "")
}
