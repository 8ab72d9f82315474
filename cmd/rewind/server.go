package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/rewind-game/rewind/internal/rooms"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	server "github.com/rewind-game/rewind/games/colorfight2/protocol"
	"github.com/rewind-game/rewind/internal/connlimit"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/spf13/cobra"
)

// adminPasswordEnv names the environment variable holding the master admin
// password of rewind server (the reference server's ADMIN_PASSWORD). It is
// read from the environment, never from a flag, so it does not show in
// process listings or shell history.
const adminPasswordEnv = "REWIND_ADMIN_PASSWORD"

type serverOptions struct {
	game     string // a game played through the seam: its protocol (internal/rooms)
	seed     uint64
	mapFile  string
	games    int
	addr     string
	dir      string
	room     string
	preset   string
	bots     []string
	waitFor  int
	maxTurn  int
	players  int
	round    string
	first    string
	finish   float64
	replay   string
	deadline time.Duration
	perHour  int
	misses   int
	maxConns int
	maxDisk  int64
	diskFull string
	memory   int64
	stdout   io.Writer
	stderr   io.Writer
	// ready, when set, receives the base URL once the server listens
	// (tests use it).
	ready chan<- string
	// http is --http: the viewer's address for a game played through
	// the seam ("" none); httpReady, when set, receives its base URL
	// once it listens (tests use it).
	http      string
	httpReady chan<- string
	// httpTimeout, when set, replaces the HTTP read-header, read and
	// write timeouts (tests use a short one).
	httpTimeout time.Duration
}

func newServerCmd() *cobra.Command { return serverCommand(&serverOptions{}) }

// serverCommand is the server command writing its flags into opts.
func serverCommand(opts *serverOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Host games for bots on a game's official protocol (ColorfightII by default), record them",
		Long: `server speaks the official ColorfightII server protocol (docs/server.md), so
every bot written on the official Python or Java client plays against it
unchanged: point the client's URL at ws://HOST:PORT/gameroom/ROOM.

It starts with one room (--room, default "public") configured by --preset
and the flags below; bots create more rooms with /creategameroom as on the
official server. --bot seats rewind's built-in bots in that room: they fill
the seats still free when the game starts. --round-time 0 plays in
lock-step: a round runs as soon as every seated player has sent its
commands (or at --lockstep-deadline), so a game of fast bots runs at their
speed instead of one round a second; a lock-step player that misses
--lockstep-misses rounds in a row stops holding rounds until it registers
again. --wait-for N starts the game as soon as N official bots have
joined; the log and the viewer's live list say whom a room waits for.

Every game is recorded as a .rwd in --dir as it is played (flushed every
round), and the same address serves the viewer: the library of --dir and,
under "Live", every game being played, followed round by round.

With --game ID it speaks another game's official protocol instead
(` + protocolList() + `; each game's document says its ports and
messages), with the flags that apply to any game: --addr, --dir, --bot, --max-player, --max-turn,
--round-time (the think time; 0 is lock-step), --lockstep-deadline,
--max-conns-per-ip, --seed, --map and --games. Its bots' port is --addr;
--http ADDR serves the viewer there too (none without it): the library
of --dir and, under "Live", every game being played, followed turn by
turn on the replay page.

Admin actions (/start, /restart, /deletegameroom on the default room or on
a room created without a password, /configadmin, admin rooms) need the
master admin password, read from $` + adminPasswordEnv + `; unset, they are
disabled on every room. A room created with its own password takes that
password too, but lock-step, built-in bots and a finish time under 5 s
stay the master's; failed passwords back off; admin requests must be
application/json and not cross-site. A room starts at most --max-games-per-hour games an hour.
Stop the server with Ctrl-C: every game in progress is ended at its last
whole round and its replay kept.`,
		Example: `  rewind server --dir replays
  rewind server --round-time 0 --bot greedy --bot economist --wait-for 1
  rewind server --game skyport --round-time 0 --http 127.0.0.1:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if opts.game != "" && opts.game != engine.Default() {
				ctx, stop := interruptContext(cmd.Context())
				defer stop()
				return runProtocolServer(ctx, cmd, opts)
			}
			if cmd.Flags().Changed("http") {
				return fmt.Errorf("server: --http is for another game than ColorfightII (--game ID); ColorfightII's viewer is on --addr")
			}
			cfg, err := opts.roomConfig(cmd)
			if err != nil {
				return err
			}
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runServer(ctx, opts, cfg, os.Getenv(adminPasswordEnv))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.game, "game", engine.Default(), "the game whose official protocol to speak: "+protocolGames())
	f.Uint64Var(&opts.seed, "seed", 1, "another game than ColorfightII: seed of the first game (each next game's from it)")
	f.StringVar(&opts.mapFile, "map", "", "another game than ColorfightII: a map file every game is played on")
	f.IntVar(&opts.games, "games", 0, "another game than ColorfightII: games to play before stopping (0: until Ctrl-C)")
	f.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one; 0.0.0.0:PORT accepts bots from other machines)")
	f.StringVar(&opts.dir, "dir", "replays", "folder where every game is recorded as a .rwd (created if missing)")
	f.StringVar(&opts.http, "http", "", "another game than ColorfightII: address of the viewer (host:port; port 0 picks a free one), the library of --dir and the live games (default: no viewer)")
	f.StringVar(&opts.room, "room", "public", "name of the room created at start ([0-9A-Za-z-_.])")
	f.StringVar(&opts.preset, "preset", "constant-run", "configuration of that room: default, official, rank_2, rank_4, rank_8, duel, test-run or constant-run")
	f.StringArrayVar(&opts.bots, "bot", nil, "built-in bot filling a free seat at start (repeatable): "+strings.Join(botNames(defaultInfo()), ", "))
	f.IntVar(&opts.waitFor, "wait-for", 0, "start the game as soon as this many official bots have joined, the --bot built-ins filling their seats then (0: as the preset's first round says)")
	f.IntVar(&opts.maxTurn, "max-turn", 0, "rounds per game, 200..2000 (default: the preset's)")
	f.IntVar(&opts.players, "max-player", 0, "seats: 2, 4 or 8 (default: the preset's)")
	f.StringVar(&opts.round, "round-time", "", "seconds per round, 0.2..20, or 0 for lock-step (default: the preset's)")
	f.StringVar(&opts.first, "first-round-time", "", `how the first round starts: seconds of countdown 0..60, "full" (when every seat is taken) or "never" (admin /start) (default: the preset's)`)
	f.Float64Var(&opts.finish, "finish-time", 0, "seconds a finished game stays before the room restarts, 0..60; 0 keeps it (default: the preset's)")
	f.StringVar(&opts.replay, "replay", "", "when /gameroom/ROOM/replay serves the game as .cfr: always, end or never (default: the preset's)")
	addMemoryFlag(cmd, &opts.memory)
	f.IntVar(&opts.maxConns, "max-conns-per-ip", connlimit.DefaultPerIP, "connections one address may hold open: websockets (two per official bot), RPCs and browsers (0: no bound)")
	f.Int64Var(&opts.maxDisk, "max-disk", server.DefaultMaxDiskBytes>>20, "MiB the recordings in --dir may take before a game starts (0: no bound); see --disk-full")
	f.StringVar(&opts.diskFull, "disk-full", "rotate", "when --max-disk is reached: rotate (remove the oldest finished recordings) or refuse (stop the room until an admin /restart)")
	f.IntVar(&opts.perHour, "max-games-per-hour", server.DefaultMaxGamesPerHour, "games one room may start in any hour (0: no bound)")
	f.IntVar(&opts.misses, "lockstep-misses", server.DefaultLockstepMisses, "lock-step rooms: rounds in a row a player may miss before it stops holding rounds (until it registers again), 1..100")
	f.DurationVar(&opts.deadline, "lockstep-deadline", 10*time.Second, "lock-step rooms: longest wait for a player's commands before the round runs without them (1s..1h)")
	return cmd
}

// roomConfig is the default room's configuration: the preset, with every
// flag the user set applied through the same checks as /restart.
func (o *serverOptions) roomConfig(cmd *cobra.Command) (server.RoomConfig, error) {
	cfg, ok := server.Preset(o.preset)
	if !ok {
		return cfg, fmt.Errorf("server: --preset %q is not a preset (want default, official, rank_2, rank_4, rank_8, duel, test-run or constant-run)", o.preset)
	}
	if o.misses < 1 || o.misses > 100 {
		return cfg, fmt.Errorf("server: --lockstep-misses %d outside 1..100", o.misses)
	}
	if o.maxDisk < 0 {
		return cfg, fmt.Errorf("server: --max-disk %d is negative (0: no bound)", o.maxDisk)
	}
	if o.diskFull != "rotate" && o.diskFull != "refuse" {
		return cfg, fmt.Errorf("server: --disk-full %q is neither rotate nor refuse", o.diskFull)
	}
	if o.maxConns < 0 {
		return cfg, fmt.Errorf("server: --max-conns-per-ip %d is negative (0: no bound)", o.maxConns)
	}
	if o.perHour < 0 {
		return cfg, fmt.Errorf("server: --max-games-per-hour %d is negative (0: no bound)", o.perHour)
	}
	if o.deadline < time.Second || o.deadline > time.Hour {
		return cfg, fmt.Errorf("server: --lockstep-deadline %v outside 1s..1h", o.deadline)
	}
	for _, name := range o.bots {
		if _, ok := defaultInfo().FindBot(name); !ok {
			return cfg, fmt.Errorf("server: --bot: unknown built-in %q (valid: %s)", name, strings.Join(botNames(defaultInfo()), ", "))
		}
	}
	fl := cmd.Flags()
	// Each flag the user set replaces the preset's value and is checked
	// on its own, so the error names the flag.
	set := func(flag string, apply func()) error {
		if !fl.Changed(flag) {
			return nil
		}
		apply()
		if err := cfg.Validate(); err != nil {
			return fmt.Errorf("server: --%s %s: %w", flag, fl.Lookup(flag).Value, err)
		}
		return nil
	}
	var bad error
	for _, e := range []error{
		set("max-turn", func() { cfg.MaxTurn = o.maxTurn }),
		set("max-player", func() { cfg.MaxPlayer = o.players }),
		set("round-time", func() { cfg.RoundTime = parseSeconds(o.round) }),
		set("first-round-time", func() { cfg.FirstRoundTime = o.first }),
		set("finish-time", func() { cfg.FinishTime = o.finish }),
		set("replay", func() { cfg.ReplayEnable = o.replay }),
		set("bot", func() { cfg.Bots = o.bots }),
		set("wait-for", func() { cfg.WaitFor = o.waitFor }),
	} {
		if e != nil && bad == nil {
			bad = e
		}
	}
	if bad != nil {
		return cfg, bad
	}
	if len(cfg.Bots) > cfg.MaxPlayer {
		return cfg, fmt.Errorf("server: %d --bot for %d seats (--max-player)", len(cfg.Bots), cfg.MaxPlayer)
	}
	if cfg.WaitFor > 0 && cfg.WaitFor+len(cfg.Bots) > cfg.MaxPlayer {
		return cfg, fmt.Errorf("server: --wait-for %d official bots and %d --bot need %d seats, the room has %d (--max-player)", cfg.WaitFor, len(cfg.Bots), cfg.WaitFor+len(cfg.Bots), cfg.MaxPlayer)
	}
	if cfg.WaitFor == 0 && cfg.FirstRoundTime == "full" && len(cfg.Bots) > 0 {
		// Not an error (more bots may come), but say what "full" waits for.
		if o.stderr != nil {
			fmt.Fprintf(o.stderr, "note: room %s starts when all %d seats are taken: %d --bot and %d official bots; --wait-for N starts it once N have joined\n",
				o.room, cfg.MaxPlayer, len(cfg.Bots), cfg.MaxPlayer-len(cfg.Bots))
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("server: room %s: %w", o.room, err)
	}
	return cfg, nil
}

// parseSeconds reads a number of seconds; text that is not a number gives
// NaN, which every range check refuses.
func parseSeconds(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// runServer serves the protocol and the viewer on opts.addr until ctx ends.
func runServer(ctx context.Context, opts *serverOptions, cfg server.RoomConfig, adminPassword string) error {
	stderr := opts.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	logger := log.New(stderr, "", log.LstdFlags)
	budget, err := memoryBudget(opts.memory)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return fmt.Errorf("server: replay folder: %w", err)
	}
	srv, err := server.New(server.Options{
		Dir:              opts.dir,
		Tool:             "rewind " + version,
		AdminPassword:    adminPassword,
		LockstepDeadline: opts.deadline,
		LockstepMisses:   opts.misses,
		MaxGamesPerHour:  gamesPerHour(opts.perHour),
		MaxConnsPerIP:    connsPerIP(opts.maxConns),
		MaxDiskBytes:     diskBytes(opts.maxDisk),
		DiskFull:         opts.diskFull,
		Logf:             logger.Printf,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.CreateRoom(opts.room, cfg, adminPassword, "", true); err != nil {
		return fmt.Errorf("server: room %s: %w", opts.room, err)
	}
	lib, err := viewer.OpenLibrary(opts.dir)
	if err != nil {
		return err
	}
	defer lib.Close()

	ln, err := listen("server", opts.addr, false)
	if err != nil {
		return err
	}
	view := viewer.NewServer(lib, viewer.Options{
		Addr:       ln.Addr().String(),
		MaxUpload:  -1,
		ErrorLog:   logger.Printf,
		Tool:       "rewind " + version,
		Live:       liveGames{srv},
		OpenStream: openStreamFile,
		// The games' own memory is small (a round's commands and one
		// state each); the budget is the viewer's decodes and cache.
		MemoryBudget: budget,
	})
	// The viewer's HTTP server: its read-header, read, write and idle
	// timeouts hold for the protocol's requests too (websockets are
	// hijacked, which clears the deadlines; live streams set their own).
	hs := view.HTTPServer()
	hs.Handler = protocolOrViewer(srv, view)
	hs.ErrorLog = logger
	if opts.httpTimeout > 0 {
		hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout = opts.httpTimeout, opts.httpTimeout, opts.httpTimeout
	}
	ln = connlimit.Listener(ln, opts.maxConns)
	base := "http://" + ln.Addr().String()
	ws := "ws://" + ln.Addr().String()
	fmt.Fprintf(opts.stdout, "rewind server at %s  (Ctrl-C stops)\n  bots connect to %s/gameroom/%s\n  live games and replays: %s/\n  recording to %s\n",
		base, ws, opts.room, base, opts.dir)
	if opts.ready != nil {
		opts.ready <- base
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	// Rooms first: their games end at the last whole round and every
	// socket is told, then the listener.
	cerr := srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		hs.Close()
	}
	return cerr
}

// gamesPerHour maps --max-games-per-hour (0: no bound) to
// Options.MaxGamesPerHour (negative: no bound).
func gamesPerHour(flag int) int {
	if flag == 0 {
		return -1
	}
	return flag
}

// diskBytes maps --max-disk (MiB, 0: no bound) to Options.MaxDiskBytes
// (negative: no bound).
func diskBytes(mib int64) int64 {
	if mib == 0 {
		return -1
	}
	return mib << 20
}

// connsPerIP maps --max-conns-per-ip (0: no bound) to
// Options.MaxConnsPerIP (0 there is the default).
func connsPerIP(flag int) int {
	if flag == 0 {
		return math.MaxInt
	}
	return flag
}

// protocolOrViewer routes the official protocol's paths to the game server
// and everything else to the viewer.
func protocolOrViewer(srv *server.Server, view http.Handler) http.Handler {
	protocol := srv.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if srv.Owns(r) {
			protocol.ServeHTTP(w, r)
			return
		}
		view.ServeHTTP(w, r)
	})
}

// liveGames shows the server's games to the viewer.
type liveGames struct{ s *server.Server }

func (l liveGames) LiveGames() []viewer.LiveGame {
	var out []viewer.LiveGame
	for _, g := range l.s.Games() {
		out = append(out, liveGame(g))
	}
	return out
}

// LiveRooms says what each room is doing (viewer.LiveRooms): who it waits
// for at turn 0.
func (l liveGames) LiveRooms() []viewer.LiveRoom {
	var out []viewer.LiveRoom
	for _, r := range l.s.RoomStates() {
		out = append(out, viewer.LiveRoom{Room: r.Room, State: r.State})
	}
	return out
}

func (l liveGames) LiveReplay(id string) ([]byte, viewer.LiveGame, <-chan struct{}, error) {
	data, g, changed, err := l.s.Recording(id)
	return data, liveGame(g), changed, err
}

func liveGame(g rooms.LiveGame) viewer.LiveGame {
	// File is the recording as the OS names it; the viewer links it as the
	// finished replay once it lies in its library folder under its final
	// name.
	lg := viewer.LiveGame{ID: g.ID, Room: g.Room, Turn: g.Turn, MaxTurn: g.MaxTurn, Players: g.Players, Done: g.Done, File: g.File}
	return lg
}
