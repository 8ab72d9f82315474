package protocol

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/replay"
)

// maxBodyBytes bounds an RPC request body: configs and chat lines are a
// few hundred bytes.
const maxBodyBytes = 64 << 10

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /get_gameroom_list", s.handleList)
	mux.HandleFunc("POST /creategameroom", s.rpc(s.handleCreate))
	mux.HandleFunc("POST /restart", s.rpc(s.handleRestart))
	mux.HandleFunc("POST /start", s.rpc(s.handleStart))
	mux.HandleFunc("POST /deletegameroom", s.rpc(s.handleDelete))
	mux.HandleFunc("POST /send_chat", s.rpc(s.handleChat))
	mux.HandleFunc("POST /configadmin", s.rpc(s.handleConfigAdmin))
	mux.HandleFunc("POST /reset_leaderboard", s.rpc(s.handleResetLeaderboard))
	mux.HandleFunc("GET /gameroom/{id}/game_channel", s.gameChannel)
	mux.HandleFunc("GET /gameroom/{id}/action_channel", s.actionChannel)
	mux.HandleFunc("GET /gameroom/{id}/replay", s.handleReplay)
	s.mux = mux
}

// Handler returns the protocol's HTTP handler: the RPC routes, the two
// websockets of every room and the replay download (see docs/server.md).
// After Close it answers 503.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			http.Error(w, "server closed", http.StatusServiceUnavailable)
			return
		}
		s.mux.ServeHTTP(w, req)
	})
}

// request is an RPC request body: a JSON object, values kept raw.
type request map[string]json.RawMessage

// str returns field k as a string; present is false when it is absent,
// ok false when it is not a string.
func (q request) str(k string) (v string, present, ok bool) {
	raw, present := q[k]
	if !present {
		return "", false, false
	}
	if !isJSONString(raw) || json.Unmarshal(raw, &v) != nil {
		return "", true, false
	}
	return v, true, true
}

func writeReply(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

// crossOrigin refuses the requests a browser sends on behalf of another
// site (Sec-Fetch-Site, else Origin against Host): no web page the
// organizer visits can drive the server.
var crossOrigin = http.NewCrossOriginProtection()

// rpc decodes the request body (a JSON object of at most maxBodyBytes)
// and writes the handler's reply: success, or err_msg. A cross-site
// request gets 403 and a body that is not declared application/json gets
// 415 before anything is read, so that no HTML form or no-cors fetch can
// reach a handler.
func (s *Server) rpc(h func(*http.Request, request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		if err := crossOrigin.Check(req); err != nil {
			s.logf("%s from %s: cross-site request refused", req.URL.Path, rooms.RequestHost(req))
			writeReply(w, http.StatusForbidden, reply(false, "Cross-site requests are refused"))
			return
		}
		if mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			writeReply(w, http.StatusUnsupportedMediaType, reply(false, "The request body needs Content-Type: application/json"))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBodyBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeReply(w, http.StatusRequestEntityTooLarge, reply(false, "Request body is larger than "+strconv.Itoa(maxBodyBytes)+" bytes"))
				return
			}
			writeReply(w, http.StatusBadRequest, reply(false, "Cannot read the request body"))
			return
		}
		var q request
		if err := json.Unmarshal(body, &q); err != nil || q == nil {
			writeReply(w, http.StatusBadRequest, reply(false, "This is not a valid json"))
			return
		}
		if err := h(req, q); err != nil {
			var m errMsg
			if !errors.As(err, &m) {
				s.logf("%s: %v", req.URL.Path, err)
				m = "Server error"
			}
			writeReply(w, http.StatusOK, reply(false, string(m)))
			return
		}
		writeReply(w, http.StatusOK, reply(true, ""))
	}
}

// roomEntry is one room of /get_gameroom_list.
type roomEntry struct {
	Name         string `json:"name"`
	PlayerNumber int    `json:"player_number"`
	MaxPlayer    int    `json:"max_player"`
	Turn         int    `json:"turn"`
	MaxTurn      int    `json:"max_turn"`
	Rank         bool   `json:"rank"`
	// Stopped (rewind) says why a room plays no more games.
	Stopped string `json:"stopped,omitempty"`
}

func (s *Server) handleList(w http.ResponseWriter, req *http.Request) {
	s.cleanIdle()
	s.mu.Lock()
	rooms := make([]*room, 0, len(s.order))
	for _, id := range s.order {
		rooms = append(rooms, s.rooms[id])
	}
	s.mu.Unlock()
	list := make([]roomEntry, 0, len(rooms))
	for _, r := range rooms {
		r.mu.Lock()
		g := r.g
		n := len(g.players)
		if g.phase != phaseWaiting {
			n = len(g.seats)
		}
		list = append(list, roomEntry{Name: r.id, PlayerNumber: n, MaxPlayer: g.cfg.MaxPlayer, Turn: g.turn, MaxTurn: g.cfg.MaxTurn, Stopped: r.stopped})
		r.mu.Unlock()
	}
	b, _ := json.Marshal(list)
	writeReply(w, http.StatusOK, b)
}

func (s *Server) handleCreate(req *http.Request, q request) error {
	s.mu.Lock()
	allowed := s.allowCreate
	s.mu.Unlock()
	if !allowed {
		return errMsg("Creating room is disabled now")
	}
	id, present, ok := q.str("gameroom_id")
	if !present {
		return errMsg("You need to specify room id")
	}
	if !ok || !validRoomID(id) {
		return errMsg("You have illegal special characters in you gameroom id")
	}
	preset := "default"
	if p, present, ok := q.str("config"); present && ok {
		preset = p
	}
	cfg, ok := Preset(preset)
	if !ok {
		cfg, _ = Preset("default")
	}
	password, pwPresent, ok := q.str("admin_password")
	if pwPresent && !ok {
		return errMsg("admin_password needs to be a string")
	}
	if preset == "official" && !pwPresent {
		return errMsg("You need to set a password for official game!")
	}
	admin := false
	if v := req.URL.Query().Get("admin"); v != "" && (v == "true" || v == "True" || v == "TRUE") {
		master, _, _ := q.str("master_admin_password")
		if err := s.guess(rooms.RequestHost(req), "", "master password", func() bool { return rooms.CheckPassword(master, s.opts.AdminPassword) }); err != nil {
			return wrongSecret(err, "To create an admin room, you need admin")
		}
		admin = true
		if !pwPresent {
			password = randomPassword()
		}
	}
	joinKey, present, ok := q.str("join_key")
	if present && !ok {
		return errMsg("join_key needs to be a string")
	}
	creator := ""
	if !admin {
		creator = rooms.RequestHost(req)
	}
	return s.createRoom(id, cfg, password, joinKey, admin, creator)
}

// randomPassword is an admin room's password when none is given (ten
// letters, as the reference's).
func randomPassword() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b [10]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b[:])
}

// roomFor finds the request's room and checks its admin password (the
// room's or the master's); master says the master password was given.
func (s *Server) roomFor(req *http.Request, q request, needConfig bool) (r *room, master bool, err error) {
	id, present, _ := q.str("gameroom_id")
	if !present {
		return nil, false, errMsg("You need to specify room id")
	}
	if _, ok := q["config"]; needConfig && !ok {
		return nil, false, errMsg("You need to specify config")
	}
	password, _, _ := q.str("admin_password")
	r = s.room(id)
	if r == nil {
		return nil, false, errMsg("No such room")
	}
	err = s.guess(rooms.RequestHost(req), r.id, "admin password", func() bool {
		master = rooms.CheckPassword(password, s.opts.AdminPassword)
		return master || rooms.CheckPassword(password, r.adminPassword)
	})
	if err != nil {
		return nil, false, wrongSecret(err, "You are not allowed to do this")
	}
	return r, master, nil
}

func (s *Server) handleRestart(req *http.Request, q request) error {
	r, master, err := s.roomFor(req, q, true)
	if err != nil {
		return err
	}
	r.ctl.Lock()
	defer r.ctl.Unlock()
	r.mu.Lock()
	cfg := r.cfg
	r.mu.Unlock()
	old := cfg
	if err := cfg.applyJSON(q["config"]); err != nil {
		return err
	}
	if !master {
		if err := cfg.masterOnly(old); err != nil {
			return err
		}
	}
	r.restartCtl(&cfg)
	s.logf("room %s restarted", r.id)
	return nil
}

func (s *Server) handleStart(req *http.Request, q request) error {
	r, _, err := s.roomFor(req, q, false)
	if err != nil {
		return err
	}
	r.mu.Lock()
	if stopped := r.stopped; stopped != "" {
		r.mu.Unlock()
		return errMsg("The room is stopped: " + stopped + "; /restart starts it again")
	}
	r.g.startReq = true
	r.mu.Unlock()
	// Start now, as the reference does, so that the game exists when the
	// reply arrives; the loop then takes over its timing.
	r.tick()
	r.poke()
	return nil
}

// namedRoom is the room the request's gameroom_id names, or the client's
// error saying the id is missing or names no room.
func (s *Server) namedRoom(q request) (*room, error) {
	id, present, _ := q.str("gameroom_id")
	if !present {
		return nil, errMsg("You need to specify room id")
	}
	r := s.room(id)
	if r == nil {
		return nil, errMsg("No such room")
	}
	return r, nil
}

func (s *Server) handleDelete(req *http.Request, q request) error {
	r, err := s.namedRoom(q)
	if err != nil {
		return err
	}
	password, _, _ := q.str("admin_password")
	err = s.guess(rooms.RequestHost(req), r.id, "admin password", func() bool {
		return (!r.admin && rooms.CheckPassword(password, r.adminPassword)) || rooms.CheckPassword(password, s.opts.AdminPassword)
	})
	if err != nil {
		return wrongSecret(err, "Wrong password")
	}
	s.removeRoom(r.id)
	return nil
}

func (s *Server) handleChat(req *http.Request, q request) error {
	r, err := s.namedRoom(q)
	if err != nil {
		return err
	}
	user, okU := q["user"]
	msg, okM := q["msg"]
	if !okU || !okM {
		return errMsg("Need both user and msg")
	}
	var b bytes.Buffer
	b.WriteString(`[{"user":`)
	json.Compact(&b, user)
	b.WriteString(`,"msg":`)
	json.Compact(&b, msg)
	b.WriteString(`}]`)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errMsg("No such room")
	}
	// The entry goes out once, in the next state message (sent now).
	r.publishLocked(b.Bytes())
	r.publishLocked(nil) // later messages carry no chat
	return nil
}

func (s *Server) checkMaster(req *http.Request, q request) error {
	password, present, _ := q.str("admin_password")
	if !present {
		return errMsg("You need admin password")
	}
	err := s.guess(rooms.RequestHost(req), "", "master password", func() bool { return rooms.CheckPassword(password, s.opts.AdminPassword) })
	if err != nil {
		return wrongSecret(err, "Admin password is wrong")
	}
	return nil
}

// wrongSecret is the reply to a failed guess: the route's own wording for
// a wrong secret, or the back-off's.
func wrongSecret(err error, wording string) error {
	if err == errWrongSecret {
		return errMsg(wording)
	}
	return err
}

func (s *Server) handleConfigAdmin(req *http.Request, q request) error {
	if err := s.checkMaster(req, q); err != nil {
		return err
	}
	var maxRooms, idle int64
	var allow bool
	var err error
	if v, ok := q["max_gameroom_number"]; ok {
		if maxRooms, err = strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 32); err != nil || maxRooms < 0 {
			return errMsg("Wrong config, max_gameroom_number needs to be an integer")
		}
	}
	if v, ok := q["idle_clear_time"]; ok {
		if idle, err = strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 32); err != nil || idle < 0 {
			return errMsg("Wrong config, idle_clear_time needs to be an integer")
		}
	}
	if v, ok := q["allow_create_room"]; ok {
		if json.Unmarshal(v, &allow) != nil {
			return errMsg("Wrong config, allow_create_room needs to be a boolean")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := q["max_gameroom_number"]; ok {
		s.maxRooms = int(maxRooms)
	}
	if _, ok := q["idle_clear_time"]; ok {
		s.idle = secondsDuration(float64(idle))
	}
	if _, ok := q["allow_create_room"]; ok {
		s.allowCreate = allow
	}
	return nil
}

// handleResetLeaderboard: rewind keeps no leaderboard; the master admin
// gets success, as the reference would give after clearing its.
func (s *Server) handleResetLeaderboard(req *http.Request, q request) error {
	return s.checkMaster(req, q)
}

// handleReplay serves the room's game as an official .cfr (gzip'd JSON):
// 400 unless replay_enable is "always", or "end" and the game finished.
func (s *Server) handleReplay(w http.ResponseWriter, req *http.Request) {
	r := s.room(req.PathValue("id"))
	if r == nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	g := r.g
	enable, phase, live := g.cfg.ReplayEnable, g.phase, g.live
	info := infoJSON(g.cfg, g.firstCountDown(), g.id)
	var frame colorfight2.Frame
	g.m.Frame(&frame)
	r.mu.Unlock()
	if !(enable == "always" || (enable == "end" && phase == phaseOver)) {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	select {
	case s.cfrSlots <- struct{}{}:
		defer func() { <-s.cfrSlots }()
	case <-req.Context().Done():
		return
	}
	var out bytes.Buffer
	var err error
	if live == nil {
		// Turn 0: the replay so far is the map.
		err = writeMapCFR(&out, info, &frame)
	} else {
		if phase == phaseOver {
			// The footer follows the last round at once; wait for it.
			for {
				_, gi, ch, err := live.Replay()
				if err != nil || gi.Done || ch == nil {
					break
				}
				select {
				case <-ch:
				case <-req.Context().Done():
					return
				}
			}
		}
		var data []byte
		if data, _, _, err = live.Replay(); err == nil {
			if len(data) == 0 {
				// The game starts: its header is not written yet.
				err = writeMapCFR(&out, info, &frame)
			} else {
				err = writeCFR(&out, data)
			}
		}
	}
	if err != nil {
		s.logf("room %s: replay: %v", r.id, err)
		http.Error(w, "cannot export the replay", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(out.Len()))
	w.Write(out.Bytes())
}

func writeMapCFR(w io.Writer, info []byte, f *colorfight2.Frame) error {
	enc, err := cfr.NewEncoder(w, cfr.Header{Info: info})
	if err != nil {
		return err
	}
	if err := enc.WriteFrame(f); err != nil {
		return err
	}
	return enc.Close()
}

// writeCFR exports the recording in data as a .cfr: every whole round of
// a game still being played, every round of a finished one.
func writeCFR(w io.Writer, data []byte) error {
	src, err := cfrimport.OpenFrames(bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer src.Close()
	enc, err := cfr.NewEncoder(w, cfr.Header{Info: src.Info})
	if err != nil {
		return err
	}
	var f colorfight2.Frame
	for {
		err := src.Next(&f)
		if err != nil {
			// io.EOF at the footer; a game still being played ends at a
			// truncation after its last whole round.
			if !errors.Is(err, io.EOF) && !errors.Is(err, replay.ErrTruncated) {
				return err
			}
			break
		}
		if err := enc.WriteFrame(&f); err != nil {
			return err
		}
	}
	return enc.Close()
}
