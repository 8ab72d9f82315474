package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	_ "github.com/rewind-game/rewind/games/all" // every game's protocol registers itself
	"github.com/rewind-game/rewind/internal/connlimit"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// serverOptions are the flags every game's protocol shares; each
// protocol's own flags (rooms.Flagged) stay in the command's flag set.
type serverOptions struct {
	game     string
	seed     uint64
	mapFile  string
	games    int
	addr     string
	dir      string
	bots     []string
	maxTurn  int
	players  int
	round    string
	deadline time.Duration
	maxConns int
	// totalConns is --max-conns: every connection of the viewer's
	// address (the protocol's too when it is served beside it).
	totalConns int
	memory     int64
	stdout     io.Writer
	stderr     io.Writer
	// ready, when set, receives the bots' address once the server
	// listens: the base URL of a protocol served beside the viewer, the
	// "players" address of another (tests use it).
	ready chan<- string
	// http is --http: the viewer's address for a protocol that is not
	// served beside it ("" none); httpReady, when set, receives its base
	// URL once it listens (tests use it).
	http      string
	httpReady chan<- string
	// httpTimeout, when set, replaces the viewer's HTTP read-header,
	// read and write timeouts (tests use a short one).
	httpTimeout time.Duration
	// owners are, by flag name, the games whose protocol declares it
	// (rooms.Flagged).
	owners map[string][]string
}

func newServerCmd() *cobra.Command { return serverCommand(&serverOptions{}) }

// serverCommand is the server command writing its flags into opts.
func serverCommand(opts *serverOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "server",
		Short:   "Host games for bots on a game's official protocol (" + defaultGameName() + " by default), record them",
		Long:    serverLong(),
		Example: serverExamples(),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runServer(ctx, cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.game, "game", engine.Default(), "the game whose official protocol to speak: "+strings.Join(rooms.Games(), ", "))
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the first game (each next game's from it)")
	f.StringVar(&opts.mapFile, "map", "", "a map file every game is played on")
	f.IntVar(&opts.games, "games", 0, "games to play before stopping (0: until Ctrl-C)")
	f.StringVar(&opts.addr, "addr", defaultProtocolAddr(), "address bots connect to (host:port; port 0 picks a free one; 0.0.0.0:PORT accepts bots from other machines); another --game's default is its protocol's")
	f.StringVar(&opts.dir, "dir", "replays", "folder where every game is recorded as a .rwd (created if missing)")
	f.StringVar(&opts.http, "http", "", "for a protocol not served beside the viewer: address of the viewer (host:port; port 0 picks a free one), the library of --dir and the live games (default: no viewer)")
	f.StringArrayVar(&opts.bots, "bot", nil, "built-in bot filling a free seat at start (repeatable): "+strings.Join(botNames(defaultInfo()), ", "))
	f.IntVar(&opts.maxTurn, "max-turn", 0, "rounds per game (default: the game's)")
	f.IntVar(&opts.players, "max-player", 0, "seats of a game (default: the game's)")
	f.StringVar(&opts.round, "round-time", "", "seconds a bot may think per round, 0..60, or 0 for lock-step (default: the game's)")
	addMemoryFlag(cmd, &opts.memory)
	f.IntVar(&opts.maxConns, "max-conns-per-ip", connlimit.DefaultPerIP, "connections one address may hold open: the protocol's, RPCs and browsers (0: no bound)")
	addMaxConnsFlag(cmd, &opts.totalConns)
	f.DurationVar(&opts.deadline, "lockstep-deadline", 10*time.Second, "lock-step: longest wait for a player's commands before the round runs without them (1s..1h)")
	opts.owners = addProtocolFlags(f)
	return cmd
}

// addProtocolFlags adds every registered protocol's own flags
// (rooms.Flagged) to fs, each one's usage led by its game's name, and
// returns by flag name the games declaring it. A name fs already has is
// the first declaration's (a shared flag, or an earlier game's).
func addProtocolFlags(fs *pflag.FlagSet) map[string][]string {
	owners := map[string][]string{}
	for _, id := range rooms.Games() {
		p, _ := rooms.Lookup(id)
		fp, ok := p.(rooms.Flagged)
		if !ok {
			continue
		}
		info, _ := engine.About(id)
		own := pflag.NewFlagSet(id, pflag.ContinueOnError)
		fp.AddFlags(own)
		own.VisitAll(func(fl *pflag.Flag) {
			if fs.Lookup(fl.Name) != nil && owners[fl.Name] == nil {
				return // a shared flag: the game reads it
			}
			owners[fl.Name] = append(owners[fl.Name], id)
			if fs.Lookup(fl.Name) == nil {
				fl.Usage = info.Name + ": " + fl.Usage
				fs.AddFlag(fl)
			}
		})
	}
	return owners
}

// defaultProtocolAddr is the default game's protocol's address ("" when
// the default game has none).
func defaultProtocolAddr() string {
	if p, ok := rooms.Lookup(engine.Default()); ok {
		return p.DefaultAddr()
	}
	return ""
}

// defaultGameName is the default game's display name.
func defaultGameName() string {
	if name := defaultInfo().Name; name != "" {
		return name
	}
	return "none"
}

// serverLong is the command's description: what every protocol shares,
// then each registered protocol's own paragraph (rooms.Described).
func serverLong() string {
	var b strings.Builder
	b.WriteString(`server hosts games for bots on a game's official network protocol, so
that bots written for the game's own server play unchanged, and records
every game as a .rwd in --dir as it is played (flushed every round).
--game picks the game; with none it is ` + defaultGame() + `.

The flags that apply to any game: --addr (where bots connect), --dir,
--bot (built-ins seated beside the bots that connect), --max-player,
--max-turn, --round-time (the think time; 0 is lock-step: a round runs as
soon as every seated player has answered, or at --lockstep-deadline),
--lockstep-deadline, --max-conns-per-ip, --seed, --map, --games and
--memory (the viewer's). A protocol spoken over HTTP serves the viewer on
its own address: the library of --dir and, under "Live", every game being
played, followed round by round; for the others --http ADDR serves it
(none without it). Each game's own flags, below, are led by its name and
refused with another --game.

Admin actions need the master admin password, read from $` + rooms.AdminPasswordEnv + `
(never a flag); unset, they are disabled. Stop the server with Ctrl-C:
every game in progress is ended at its last whole round and its replay
kept.`)
	for _, id := range rooms.Games() {
		p, _ := rooms.Lookup(id)
		info, _ := engine.About(id)
		fmt.Fprintf(&b, "\n\n%s (--game %s", info.Name, id)
		if id == engine.Default() {
			b.WriteString(", the default")
		}
		fmt.Fprintf(&b, "): bots connect to %s by default", p.DefaultAddr())
		if _, ok := p.(rooms.Mounted); ok {
			b.WriteString(", the viewer beside them")
		}
		b.WriteString(".\n")
		if d, ok := p.(rooms.Described); ok {
			b.WriteString(d.Describe())
		} else {
			b.WriteString("The game's document says its ports and messages.")
		}
	}
	return b.String()
}

// serverExamples are the command's examples: the default game's server,
// then a lock-step game of built-ins for each registered protocol.
func serverExamples() string {
	lines := []string{"  rewind server --dir replays"}
	for _, id := range rooms.Games() {
		p, _ := rooms.Lookup(id)
		info, _ := engine.About(id)
		line := "  rewind server"
		if id != engine.Default() {
			line += " --game " + id
		}
		line += " --round-time 0"
		for _, b := range botNames(info)[:min(2, len(info.Bots))] {
			line += " --bot " + b
		}
		if _, ok := p.(rooms.Mounted); !ok {
			line += " --http 127.0.0.1:8080"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// runServer checks the shared flags against the game and runs its
// protocol until ctx ends: beside the viewer on --addr (rooms.Mounted),
// or on its own with the viewer on --http.
func runServer(ctx context.Context, cmd *cobra.Command, opts *serverOptions) error {
	info, err := gameInfo(opts.game)
	if err != nil {
		return err
	}
	p, ok := rooms.Lookup(opts.game)
	if !ok {
		return fmt.Errorf("server: rewind speaks no official protocol of %s (games: %s)", info.Name, strings.Join(rooms.Games(), ", "))
	}
	fl := cmd.Flags()
	var names []string
	for name := range opts.owners {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if games := opts.owners[name]; fl.Changed(name) && !slices.Contains(games, opts.game) {
			var owners []string
			for _, g := range games {
				r, _ := engine.About(g)
				owners = append(owners, r.Name)
			}
			return usagef("server: --%s is a %s setting; %s has none", name, strings.Join(owners, " and "), info.Name)
		}
	}
	for _, b := range opts.bots {
		if _, ok := info.FindBot(b); !ok {
			return usagef("server: --bot %q: no such built-in bot of %s (valid: %s)", b, info.Name, strings.Join(botNames(info), ", "))
		}
	}
	o := rooms.Options{Dir: opts.dir, Bots: opts.bots, Players: opts.players, MaxTurns: opts.maxTurn, Seed: opts.seed,
		ThinkTime: -1, Deadline: opts.deadline, Games: opts.games, MaxConnsPerIP: opts.maxConns,
		AdminPassword: os.Getenv(rooms.AdminPasswordEnv), Flags: fl, Tool: "rewind " + version, Log: opts.stderr,
		Live: endedLogLive(opts.stderr)}
	if fl.Changed("addr") {
		o.Addr = opts.addr
	}
	if opts.players != 0 && (opts.players < info.MinPlayers || opts.players > info.MaxPlayers) {
		return outsideRange("--max-player", opts.players, info.MinPlayers, info.MaxPlayers, info.Name)
	}
	if opts.maxTurn != 0 && (opts.maxTurn < info.MinTurns || opts.maxTurn > info.MaxTurns) {
		return outsideRange("--max-turn", opts.maxTurn, info.MinTurns, info.MaxTurns, info.Name)
	}
	if fl.Changed("round-time") {
		secs, err := strconv.ParseFloat(strings.TrimSpace(opts.round), 64)
		if err != nil || !(secs >= 0 && secs <= 60) {
			return usagef("server: --round-time %q: give seconds, 0..60 (0: lock-step), such as --round-time 0.5", opts.round)
		}
		o.ThinkTime = time.Duration(math.Round(secs * float64(time.Second)))
	}
	if opts.games < 0 {
		return usagef("server: --games %d is negative (0: until Ctrl-C)", opts.games)
	}
	if opts.maxConns < 0 {
		return usagef("server: --max-conns-per-ip %d is negative (0: no bound)", opts.maxConns)
	}
	if opts.totalConns < 0 {
		return usagef("server: --max-conns %d is negative (0: no bound)", opts.totalConns)
	}
	if opts.mapFile != "" {
		po := playOptions{game: opts.game, mapFile: opts.mapFile, seed: opts.seed}
		players := opts.players
		if players == 0 {
			players = info.MinPlayers
		}
		setup, err := gameSetup(&po, players)
		if err != nil {
			return fmt.Errorf("server: %w", err)
		}
		o.Setup = setup
	}
	if opts.ready != nil {
		o.Ready = func(addrs map[string]string) { opts.ready <- addrs["players"] }
	}
	if mp, ok := p.(rooms.Mounted); ok {
		if fl.Changed("http") {
			return usagef("server: --http is for a protocol not served beside the viewer; %s's viewer is on --addr", info.Name)
		}
		return serveMounted(ctx, opts, info.Name, mp, o)
	}
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return plainError(err)
	}
	if opts.http != "" {
		v, err := openServerViewer(opts, info.Name, o.Live, opts.http, "server --http")
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.stdout, "viewer at %s/  (live games and the replays of %s)\n", v.base, opts.dir)
		go v.hs.Serve(v.bound(opts))
		if opts.httpReady != nil {
			opts.httpReady <- v.base
		}
		defer v.stop()
	}
	return p.Serve(ctx, o)
}

// endedLogLive is the Live of a server's games (the viewer follows
// them there): the end of each game is logged to w (gameEnded), whatever
// the game.
func endedLogLive(w io.Writer) *rooms.Live {
	if w == nil {
		w = io.Discard
	}
	logger := log.New(w, "", log.LstdFlags)
	return &rooms.Live{Ended: func(g rooms.LiveGame) { logger.Print(gameEnded(g)) }}
}

// gameEnded says that game g ended, after how many turns, who won (as
// its recording's summary ranks the players) and where its file is.
func gameEnded(g rooms.LiveGame) string {
	head := "game " + g.ID
	if g.Room != "" {
		head = "room " + g.Room + ": " + head
	}
	head += fmt.Sprintf(" ended after %d of %d turns", g.Turn, g.MaxTurn)
	if g.File == "" {
		return head + "; its recording could not be kept"
	}
	sum, err := summarizeFile(g.File)
	if err != nil {
		return fmt.Sprintf("%s (no winner read: %v); recorded in %s", head, err, g.File)
	}
	return fmt.Sprintf("%s: %s; recorded in %s", head, winnerOf(sum), g.File)
}

// summarizeFile is the summary of the replay at path (source.Summarize).
func summarizeFile(path string) (*source.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return source.Summarize(f)
}

// winnerOf names the player sum ranks first, with its score: "NAME won
// (UNIT SCORE)", or "NAME led (…)" for a recording cut short.
func winnerOf(sum *source.Summary) string {
	for _, p := range sum.Players {
		if p.UID != sum.Winner {
			continue
		}
		verb := "won"
		if !sum.Complete {
			verb = "led"
		}
		score := strconv.FormatInt(sum.WinnerScore, 10)
		if sum.Unit != "" {
			score = sum.Unit + " " + score
		}
		return fmt.Sprintf("%s %s (%s)", p.Name, verb, score)
	}
	return "no winner"
}

// serveMounted serves the protocol mp opens for o and the viewer on one
// address (o.Addr, or the protocol's default) until ctx ends: the
// requests the protocol owns go to it, all others to the viewer.
func serveMounted(ctx context.Context, opts *serverOptions, game string, mp rooms.Mounted, o rooms.Options) error {
	if _, err := memoryBudget(opts.memory); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	m, err := mp.Mount(o)
	if err != nil {
		return err
	}
	defer m.Close()
	if o.Games > 0 && m.Done() == nil {
		return usagef("server: --games is not for %s, whose rooms play until the server stops (Ctrl-C)", game)
	}
	addr := o.Addr
	if addr == "" {
		addr = mp.DefaultAddr()
	}
	v, err := openServerViewer(opts, game, o.Live, addr, "server")
	if err != nil {
		return err
	}
	defer v.lib.Close()
	// The viewer's read-header, read, write and idle timeouts hold for
	// the protocol's requests too (websockets are hijacked, which clears
	// the deadlines; live streams set their own), and so does its check
	// of the Host.
	v.hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.Owns(r) {
			v.view.ServeHTTP(w, r)
		} else if v.view.CheckHost(w, r) {
			m.ServeHTTP(w, r)
		}
	})
	fmt.Fprintf(opts.stdout, "rewind server at %s  (Ctrl-C stops)\n%s  live games and replays: %s/\n  recording to %s\n",
		v.base, m.Banner(v.base), v.base, opts.dir)
	if opts.ready != nil {
		opts.ready <- v.base
	}
	errc := make(chan error, 1)
	ln := v.bound(opts)
	go func() { errc <- v.hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	case <-m.Done(): // --games played
	}
	// The protocol first: its games end at the last whole round and
	// every connection is told, then the listener.
	cerr := m.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		v.hs.Close()
	}
	return cerr
}

// serverViewer is the viewer of a protocol server: the library of --dir
// and the games of a rooms.Live, with the memory budget of --memory, on a
// listener it bounds once its handler is final (bound).
type serverViewer struct {
	view *viewer.Server
	lib  *viewer.Library
	ln   net.Listener
	hs   *http.Server
	base string
}

// openServerViewer opens the viewer of game's server on addr (cmd names
// the flag in a listening error); it does not serve yet.
func openServerViewer(opts *serverOptions, game string, live *rooms.Live, addr, cmd string) (*serverViewer, error) {
	stderr := opts.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	logger := log.New(stderr, "", log.LstdFlags)
	budget, err := memoryBudget(opts.memory)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	lib, err := viewer.OpenLibrary(opts.dir)
	if err != nil {
		return nil, err
	}
	ln, err := listen(cmd, addr, false)
	if err != nil {
		lib.Close()
		return nil, err
	}
	view := viewer.NewServer(lib, viewer.Options{
		Addr:       ln.Addr().String(),
		MaxUpload:  -1,
		ErrorLog:   logger.Printf,
		Tool:       "rewind " + version,
		Live:       liveSource{live, game},
		OpenStream: openStreamFile,
		// The games' own memory is small (a round's commands and one
		// state each); the budget is the viewer's decodes and cache.
		MemoryBudget: budget,
	})
	hs := view.HTTPServer()
	hs.ErrorLog = logger
	if opts.httpTimeout > 0 {
		hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout = opts.httpTimeout, opts.httpTimeout, opts.httpTimeout
	}
	return &serverViewer{view: view, lib: lib, ln: ln, hs: hs, base: "http://" + ln.Addr().String()}, nil
}

// bound is the viewer's listener bounded per address
// (--max-conns-per-ip) and in all (--max-conns), for its HTTP server's
// final handler (connlimit.Serve).
func (v *serverViewer) bound(opts *serverOptions) net.Listener {
	return connlimit.Serve(v.hs, v.ln, opts.maxConns, opts.totalConns)
}

// stop shuts the viewer down: its event streams first, then at most 5 s
// for the requests in flight.
func (v *serverViewer) stop() {
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.hs.Shutdown(sctx); err != nil {
		v.hs.Close()
	}
	v.lib.Close()
}

// liveSource shows a protocol server's games (rooms.Live) to the viewer,
// newest first; a game without a room shows the game's name as its room.
type liveSource struct {
	l    *rooms.Live
	game string
}

func (s liveSource) LiveGames() []viewer.LiveGame {
	games := s.l.Games()
	out := make([]viewer.LiveGame, 0, len(games))
	for _, g := range slices.Backward(games) {
		out = append(out, s.liveGame(g))
	}
	return out
}

// LiveRooms says what each room is doing (viewer.LiveRooms).
func (s liveSource) LiveRooms() []viewer.LiveRoom {
	var out []viewer.LiveRoom
	for _, r := range s.l.Rooms() {
		out = append(out, viewer.LiveRoom{Room: r.Room, State: r.State})
	}
	return out
}

func (s liveSource) LiveReplay(id string) ([]byte, viewer.LiveGame, <-chan struct{}, error) {
	data, g, changed, err := s.l.Replay(id)
	return data, s.liveGame(g), changed, err
}

// liveGame is g as the viewer lists it. File is the recording as the OS
// names it; the viewer links it as the finished replay once it lies in
// its library folder under its final name.
func (s liveSource) liveGame(g rooms.LiveGame) viewer.LiveGame {
	room := g.Room
	if room == "" {
		room = s.game
	}
	return viewer.LiveGame{ID: g.ID, Room: room, Turn: g.Turn, MaxTurn: g.MaxTurn, Players: g.Players, Done: g.Done, File: g.File}
}
