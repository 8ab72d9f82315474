package protocol

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/rewind-game/rewind/internal/rooms"
)

// Defaults of Options.
const (
	DefaultLockstepDeadline = 10 * time.Second
	// DefaultLockstepMisses is K: the lock-step rounds in a row a player
	// may miss before it is dropped.
	DefaultLockstepMisses = rooms.Misses
	DefaultMaxRooms       = 15
	// DefaultMaxRoomsPerAddr bounds the rooms one address may have
	// created with /creategameroom that are still open: 15 rooms need 5
	// addresses.
	DefaultMaxRoomsPerAddr = 3
	DefaultIdleRoomTimeout = 600 * time.Second
	// DefaultMaxMessageBytes bounds one action_channel message. A full
	// command list of a 30×30 game is at most a few thousand commands of
	// about 16 bytes (under 64 KiB); 1 MiB leaves ample room while
	// bounding the memory one connection can make the server hold.
	DefaultMaxMessageBytes = 1 << 20
	// DefaultMaxConnsPerIP bounds the websocket connections one remote
	// address may hold open (8 players with two sockets each, plus
	// spectators, fit easily).
	DefaultMaxConnsPerIP = 64
	// DefaultMaxGamesPerHour bounds the games one room starts in an
	// hour: a 200-round game at the fastest timed pace (0.2 s) lasts
	// 40 s, so only lock-step rooms of built-in bots come near it.
	DefaultMaxGamesPerHour = 60
	// DefaultMaxDiskBytes bounds the recordings in Options.Dir.
	DefaultMaxDiskBytes = 10 << 30
)

// Options configures a Server.
type Options struct {
	// Dir is the folder where every game is recorded as a .rwd (created
	// if missing); required.
	Dir string
	// Tool goes into replay headers, e.g. "rewind server 0.1.0".
	Tool string
	// AdminPassword is the master admin password (the reference's
	// ADMIN_PASSWORD); "" disables every master-admin action.
	AdminPassword string
	// LockstepDeadline is how long a lock-step room (round_time 0) waits
	// for a round's commands at most (default 10 s).
	LockstepDeadline time.Duration
	// LockstepMisses: a player with an open channel that sends nothing
	// for that many lock-step rounds in a row (default 3) no longer holds
	// rounds — a silent client costs at most that many deadlines — until
	// it registers again (same name and password).
	LockstepMisses int
	// MaxRooms bounds the rooms (default 15).
	MaxRooms int
	// MaxRoomsPerAddr bounds the rooms one remote address may have
	// created with /creategameroom (admin rooms aside) that are still
	// open (default 3).
	MaxRoomsPerAddr int
	// IdleRoomTimeout: a non-admin room whose game has not advanced for
	// that long is removed (default 600 s).
	IdleRoomTimeout time.Duration
	// MaxMessageBytes bounds one action_channel message (default 1 MiB);
	// a larger message closes the connection.
	MaxMessageBytes int64
	// MaxConnsPerIP bounds the websocket connections per remote address
	// (default 64); further upgrade requests get 429.
	MaxConnsPerIP int
	// MaxGamesPerHour bounds the games one room starts in any hour
	// (default 60; negative: no bound). A room at the bound stays at
	// turn 0 until its oldest start of the hour is an hour old.
	MaxGamesPerHour int
	// MaxDiskBytes bounds the recordings of Dir that the server wrote
	// (listed in rooms.ManifestFile, and the ROOM-GAMEID.rwd.partial
	// files being written; no other file is counted or removed): before
	// a game starts over it, DiskFull says what happens (default 10 GiB;
	// negative: no bound). The games being played may pass it by what
	// they record (docs/limits.md).
	MaxDiskBytes int64
	// DiskFull is "rotate" (default: the oldest finished recordings are
	// removed until the others fit) or "refuse" (the room stops, with a
	// message, until an admin /restart).
	DiskFull string
	// Logf, when set, receives one line per notable event (rooms, games,
	// closed connections). Passwords are never logged.
	Logf func(format string, args ...any)
	// Live, when set, is where the games are listed and followed (a
	// viewer's); its Finished is set to the last 100 and its rooms to
	// RoomStates. Nil: a Live of the server's own.
	Live *rooms.Live

	// clock replaces the wall clock in tests.
	clock rooms.Clock
	// create replaces os.Create for the recordings in tests.
	create func(name string) (recFile, error)
}

// ErrNoGame is returned by Recording for an unknown game id.
var ErrNoGame = errors.New("server: no such game")

// ErrClosed is returned by operations on a closed Server.
var ErrClosed = errors.New("server: closed")

// Server hosts game rooms over the official protocol. Create it with New,
// serve Handler, and Close it to end every game cleanly.
type Server struct {
	opts Options
	clk  rooms.Clock
	mux  *http.ServeMux

	mu          sync.Mutex
	rooms       map[string]*room
	order       []string // room ids in creation order
	maxRooms    int
	idle        time.Duration
	allowCreate bool
	closed      bool

	// idMu is a leaf, as live's lock is: taken under a room's mu, never
	// while taking another lock. (Lock order: Server.mu, then room.ctl,
	// then room.mu.)
	idMu       sync.Mutex
	lastGameID int64
	live       *rooms.Live // the games, oldest first

	cfrSlots chan struct{}     // bounds concurrent .cfr exports
	secrets  rooms.Secrets     // the checks of passwords and join keys
	clients  rooms.Clients     // open websockets per remote address
	disk     *rooms.Recordings // the recordings of Dir and their budget
}

// positiveOr returns v, or d when v is zero or negative: an Options
// bound left unset takes its default.
func positiveOr[T int | int64 | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// New returns a Server recording into opts.Dir (created if missing). The
// .partial recordings a crash left there are recovered first, up to their
// last whole round, and listed by Games (rooms.LiveGame.Recovered).
func New(opts Options) (*Server, error) {
	if opts.Dir == "" {
		return nil, errors.New("server: Options.Dir is required")
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	opts.LockstepDeadline = positiveOr(opts.LockstepDeadline, DefaultLockstepDeadline)
	opts.LockstepMisses = positiveOr(opts.LockstepMisses, DefaultLockstepMisses)
	opts.MaxRooms = positiveOr(opts.MaxRooms, DefaultMaxRooms)
	opts.MaxRoomsPerAddr = positiveOr(opts.MaxRoomsPerAddr, DefaultMaxRoomsPerAddr)
	opts.IdleRoomTimeout = positiveOr(opts.IdleRoomTimeout, DefaultIdleRoomTimeout)
	opts.MaxMessageBytes = positiveOr(opts.MaxMessageBytes, DefaultMaxMessageBytes)
	opts.MaxConnsPerIP = positiveOr(opts.MaxConnsPerIP, DefaultMaxConnsPerIP)
	if opts.MaxGamesPerHour == 0 {
		opts.MaxGamesPerHour = DefaultMaxGamesPerHour
	}
	if opts.MaxDiskBytes == 0 {
		opts.MaxDiskBytes = DefaultMaxDiskBytes
	}
	full, err := rooms.ParseDiskFull(opts.DiskFull)
	if err != nil {
		return nil, fmt.Errorf("server: Options.DiskFull %w", err)
	}
	opts.DiskFull = full
	s := &Server{
		opts: opts, clk: opts.clock,
		rooms:    map[string]*room{},
		maxRooms: opts.MaxRooms, idle: opts.IdleRoomTimeout, allowCreate: true,
		cfrSlots: make(chan struct{}, 2),
	}
	if s.clk == nil {
		s.clk = rooms.WallClock{}
	}
	s.secrets = rooms.Secrets{Clock: s.clk, Logf: s.logf}
	s.clients.PerAddr = opts.MaxConnsPerIP
	s.disk = &rooms.Recordings{Dir: opts.Dir, Own: ownRecording, Older: gameIDLess,
		MaxBytes: opts.MaxDiskBytes, Full: opts.DiskFull, Logf: s.logf, CreateFile: opts.create}
	s.live = opts.Live
	if s.live == nil {
		s.live = &rooms.Live{}
	}
	s.live.Finished = maxGames
	s.live.ShowRooms(s.RoomStates)
	for _, info := range s.disk.Recover(splitRecording) {
		s.live.List(info)
	}
	s.routes()
	return s, nil
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// newGameID returns a new game_id: the time in milliseconds, as the
// reference server does, made unique on this server. It also seeds the map.
func (s *Server) newGameID(now time.Time) string {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	id := now.UnixMilli()
	if id <= s.lastGameID {
		id = s.lastGameID + 1
	}
	s.lastGameID = id
	return strconv.FormatInt(id, 10)
}

// CreateRoom creates room id with cfg, as /creategameroom does (the id
// charset [0-9A-Za-z-_.], at most MaxRooms rooms, no duplicate id). An
// admin room is never removed when idle. The error text is the reply's
// err_msg.
func (s *Server) CreateRoom(id string, cfg RoomConfig, adminPassword, joinKey string, admin bool) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	return s.createRoom(id, cfg, adminPassword, joinKey, admin, "")
}

// createRoom creates room id; creator is the address asking, whose rooms
// open at once are bounded by MaxRoomsPerAddr ("": no bound).
func (s *Server) createRoom(id string, cfg RoomConfig, adminPassword, joinKey string, admin bool, creator string) error {
	if !validRoomID(id) {
		return errMsg("You have illegal special characters in you gameroom id")
	}
	s.cleanIdle()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.rooms[id] != nil:
		return errMsg("Same id exists")
	case len(s.rooms) >= s.maxRooms:
		return errMsg("Max room number reached")
	case creator != "" && s.roomsOfLocked(creator) >= s.opts.MaxRoomsPerAddr:
		return errMsg(fmt.Sprintf("Your address has %d rooms open, the most one address may create; delete one, or wait until one is idle for %v", s.opts.MaxRoomsPerAddr, s.idle))
	}
	r := newRoom(s, id, cfg, adminPassword, joinKey, admin)
	r.creator = creator
	s.rooms[id] = r
	s.order = append(s.order, id)
	s.logf("room %s created", id)
	return nil
}

// roomsOfLocked counts the rooms creator created that are still open.
func (s *Server) roomsOfLocked(creator string) int {
	n := 0
	for _, r := range s.rooms {
		if r.creator == creator {
			n++
		}
	}
	return n
}

// maxRoomID bounds a room id (it names files).
const maxRoomID = 100

func validRoomID(id string) bool {
	if id == "" || len(id) > maxRoomID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (s *Server) room(id string) *room {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[id]
}

// removeRoom removes and closes room id.
func (s *Server) removeRoom(id string) {
	s.mu.Lock()
	r := s.rooms[id]
	if r != nil {
		delete(s.rooms, id)
		for i, o := range s.order {
			if o == id {
				s.order = append(s.order[:i], s.order[i+1:]...)
				break
			}
		}
	}
	s.mu.Unlock()
	if r != nil {
		r.close()
		s.logf("room %s removed", id)
	}
}

// cleanIdle removes the non-admin rooms whose game has not advanced for
// IdleRoomTimeout.
func (s *Server) cleanIdle() {
	now := s.clk.Now()
	s.mu.Lock()
	idle := s.idle
	var stale []string
	for _, id := range s.order {
		r := s.rooms[id]
		r.mu.Lock()
		if !r.admin && now.Sub(r.lastUpdate) > idle {
			stale = append(stale, id)
		}
		r.mu.Unlock()
	}
	s.mu.Unlock()
	for _, id := range stale {
		s.removeRoom(id)
	}
}

// Close ends every room: each game being played is recorded up to its
// last whole round with a clean footer, and every socket is closed. The
// handler answers 503 afterwards.
// Done is nil: the rooms play until the server is closed (rooms.Mount).
func (s *Server) Done() <-chan struct{} { return nil }

func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	rooms := make([]*room, 0, len(s.rooms))
	for _, id := range s.order {
		rooms = append(rooms, s.rooms[id])
	}
	s.rooms, s.order = map[string]*room{}, nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.close()
		}()
	}
	wg.Wait()
	return nil
}

// Games lists the games being played and the last 100 played since the
// server started (recovered ones included), newest first. A game's File
// is its .partial while it is played.
func (s *Server) Games() []rooms.LiveGame {
	games := s.live.Games()
	slices.Reverse(games)
	return games
}

// Recording returns the .rwd bytes of game id recorded so far — whole
// rounds only, a valid replay up to a truncation while the game is played
// (with its footer once Done) — with the game's info and a channel closed
// at its next round or at its end (nil once it is done). The bytes are
// read from the recording's file at each call (the server holds none);
// they are the caller's. The error is ErrNoGame for an unknown id, or the
// file's.
func (s *Server) Recording(id string) (data []byte, g rooms.LiveGame, changed <-chan struct{}, err error) {
	data, g, changed, err = s.live.Replay(id)
	if errors.Is(err, rooms.ErrNoLiveGame) {
		return nil, rooms.LiveGame{}, nil, ErrNoGame
	}
	return data, g, changed, err
}

// RoomStates says, for every room in creation order, what its game is
// doing and, at turn 0, who it waits for: "waiting for 2 more players
// (starts when all 4 seats are taken); 1 official bot joined, 1 built-in
// to seat, 4 seats; bots join at /gameroom/public", "playing turn 51 of
// 500 (4 players)". The same words go to the log at every change.
func (s *Server) RoomStates() []rooms.RoomState {
	s.mu.Lock()
	open := make([]*room, 0, len(s.order))
	for _, id := range s.order {
		open = append(open, s.rooms[id])
	}
	s.mu.Unlock()
	out := make([]rooms.RoomState, 0, len(open))
	for _, r := range open {
		r.mu.Lock()
		out = append(out, rooms.RoomState{Room: r.id, State: r.stateLocked()})
		r.mu.Unlock()
	}
	return out
}
