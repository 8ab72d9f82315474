package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	_ "github.com/rewind-game/rewind/games/all" // every game's protocol registers itself
	"github.com/rewind-game/rewind/internal/connlimit"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/spf13/cobra"
)

// protocolGames lists the games rewind server speaks the protocol of:
// ColorfightII and every game of internal/rooms.
func protocolGames() string {
	return strings.Join(append([]string{engine.Default()}, rooms.Games()...), ", ")
}

// protocolList names the games other than ColorfightII whose protocol
// rewind server speaks, with their default addresses.
func protocolList() string {
	var parts []string
	for _, g := range rooms.Games() {
		p, _ := rooms.Lookup(g)
		parts = append(parts, fmt.Sprintf("%s, bots on %s by default", g, p.DefaultAddr()))
	}
	if len(parts) == 0 {
		return "none registered"
	}
	return strings.Join(parts, "; ")
}

// runProtocolServer runs the protocol server of a game played through the
// seam (internal/rooms), with the flags that apply to any game: --addr
// (when given), --dir, --bot, --max-player, --max-turn, --round-time (the
// think time, 0 lock-step), --lockstep-deadline, --max-conns-per-ip,
// --seed, --map and --games, and --http: the viewer, following the
// games live (serveProtocolViewer). ColorfightII's other flags are
// refused.
func runProtocolServer(ctx context.Context, cmd *cobra.Command, opts *serverOptions) error {
	info, err := gameInfo(opts.game)
	if err != nil {
		return err
	}
	p, ok := rooms.Lookup(opts.game)
	if !ok {
		return fmt.Errorf("server: rewind speaks no official protocol of %s (games: %s)", info.Name, protocolGames())
	}
	fl := cmd.Flags()
	for _, name := range []string{"room", "preset", "wait-for", "first-round-time", "finish-time", "replay", "max-games-per-hour", "lockstep-misses", "max-disk", "disk-full"} {
		if fl.Changed(name) {
			return fmt.Errorf("server: --%s is a ColorfightII setting; %s has none", name, info.Name)
		}
	}
	for _, b := range opts.bots {
		if _, ok := info.FindBot(b); !ok {
			return fmt.Errorf("server: --bot %q: no such built-in bot of %s (valid: %s)", b, info.Name, strings.Join(botNames(info), ", "))
		}
	}
	o := rooms.Options{Dir: opts.dir, Bots: opts.bots, Players: opts.players, MaxTurns: opts.maxTurn, Seed: opts.seed,
		ThinkTime: -1, Deadline: opts.deadline, Games: opts.games, MaxConnsPerIP: opts.maxConns, Tool: "rewind " + version, Log: opts.stderr}
	if fl.Changed("addr") {
		o.Addr = opts.addr
	}
	if opts.players != 0 && (opts.players < info.MinPlayers || opts.players > info.MaxPlayers) {
		return fmt.Errorf("server: --max-player %d is outside %d..%d for %s", opts.players, info.MinPlayers, info.MaxPlayers, info.Name)
	}
	if opts.maxTurn != 0 && (opts.maxTurn < info.MinTurns || opts.maxTurn > info.MaxTurns) {
		return fmt.Errorf("server: --max-turn %d is outside %d..%d for %s", opts.maxTurn, info.MinTurns, info.MaxTurns, info.Name)
	}
	if fl.Changed("round-time") {
		secs := parseSeconds(opts.round)
		if !(secs >= 0 && secs <= 60) {
			return fmt.Errorf("server: --round-time %q: give seconds, 0..60 (0: lock-step)", opts.round)
		}
		o.ThinkTime = time.Duration(secs * float64(time.Second))
	}
	if opts.games < 0 {
		return fmt.Errorf("server: --games %d is negative (0: until Ctrl-C)", opts.games)
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
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return plainError(err)
	}
	if opts.ready != nil {
		o.Ready = func(addrs map[string]string) { opts.ready <- addrs["players"] }
	}
	if opts.http != "" {
		o.Live = &rooms.Live{}
		stop, err := serveProtocolViewer(opts, info.Name, o.Live)
		if err != nil {
			return err
		}
		defer stop()
	}
	return p.Serve(ctx, o)
}

// serveProtocolViewer serves the viewer on --http for a game played
// through the seam: the library of --dir and live's games, with
// ColorfightII's server viewer's timeouts, memory budget (--memory) and
// connections per address (--max-conns-per-ip). It prints the viewer's
// URL; stop shuts it down (its event streams first, then at most 5 s for
// the requests in flight).
func serveProtocolViewer(opts *serverOptions, game string, live *rooms.Live) (stop func(), err error) {
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
	ln, err := listen("server --http", opts.http, false)
	if err != nil {
		lib.Close()
		return nil, err
	}
	view := viewer.NewServer(lib, viewer.Options{
		Addr:         ln.Addr().String(),
		MaxUpload:    -1,
		ErrorLog:     logger.Printf,
		Tool:         "rewind " + version,
		Live:         protocolLive{live, game},
		OpenStream:   openStreamFile,
		MemoryBudget: budget,
	})
	hs := view.HTTPServer()
	hs.ErrorLog = logger
	if opts.httpTimeout > 0 {
		hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout = opts.httpTimeout, opts.httpTimeout, opts.httpTimeout
	}
	ln = connlimit.Listener(ln, opts.maxConns)
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(opts.stdout, "viewer at %s/  (live games and the replays of %s)\n", base, opts.dir)
	go hs.Serve(ln)
	if opts.httpReady != nil {
		opts.httpReady <- base
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			hs.Close()
		}
		lib.Close()
	}, nil
}

// protocolLive shows a protocol server's games (rooms.Live) to the
// viewer; room is the game's name, shown as each game's room.
type protocolLive struct {
	l    *rooms.Live
	room string
}

func (p protocolLive) LiveGames() []viewer.LiveGame {
	var out []viewer.LiveGame
	for _, g := range p.l.Games() {
		out = append(out, p.game(g))
	}
	return out
}

func (p protocolLive) LiveReplay(id string) ([]byte, viewer.LiveGame, <-chan struct{}, error) {
	data, g, changed, err := p.l.Replay(id)
	return data, p.game(g), changed, err
}

func (p protocolLive) game(g rooms.LiveGame) viewer.LiveGame {
	return viewer.LiveGame{ID: g.ID, Room: p.room, Turn: g.Turn, MaxTurn: g.MaxTurn, Players: g.Players, Done: g.Done, File: g.File}
}
