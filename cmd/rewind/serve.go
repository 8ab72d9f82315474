package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/connlimit"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/rewind-game/rewind/internal/viewer/index"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	name      string // the command, for errors ("" is serve)
	dir       string
	addr      string
	maxUpload int64
	stdout    io.Writer
	stderr    io.Writer
	// ready, when set, receives the base URL once the server listens
	// (tests use it).
	ready chan<- string
	// anyPort lets the server take a free port when addr's is busy (the
	// demo should not fail because 8080 is taken).
	anyPort bool
	// memoryMiB is the viewer's memory budget in MiB (0: the default).
	memoryMiB int64
	// maxConns bounds the connections per remote address, totalConns
	// all of them (0: none).
	maxConns, totalConns int
	// bots are the bots "play on from here" may seat besides the
	// built-ins (--bot NAME|COMMAND).
	bots []string
	// pair, when set, is the two files of `view A B`: the server's
	// /compare shows them.
	pair *viewer.Pair
}

func newServeCmd() *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [DIR]",
		Short: "Serve a folder of replays to the browser",
		Long: `serve shows a library of replays in the browser: every replay under DIR
(default: the current folder) — .rwd files of any game and the games'
official files (` + strings.Join(source.StreamEndings(), ", ") + `, found by content) — picked up as they appear,
each with its game, players, winner, rounds, date and size; sort, filter
(such as "games my bot lost"), search, standings, a page per bot, and
upload by drag and drop. Each replay opens in the viewer: a board you scrub through turn by
turn, charts of every player, a cell inspector and the players' commands.

"Play on from here" plays a new game from the turn shown: each seat keeps
its bot, or the page picks another per seat among the built-ins and the
bots given with --bot (a built-in name or an external bot's command; the
page chooses among them, it never sends a command). An external bot's
stderr goes to a temporary folder; its round logs are in the new replay.

The library is kept in an index, DIR/.rewind/index.db (see rewind index):
pages, filters, search and standings are queries of it. A new or changed
file is indexed as the file system notifies it (within a second); the
whole folder is checked every 10 minutes besides, or every 2 s where the
file system sends no notifications.

The server listens on 127.0.0.1 by default; it only answers requests for
its own address. Stop it with Ctrl-C.`,
		Example: `  rewind serve tournament
  rewind serve replays --addr 127.0.0.1:9000 --bot greedy`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.dir = "."
			if len(args) == 1 {
				opts.dir = args[0]
			}
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runServe(ctx, opts)
		},
	}
	addServeFlags(cmd, opts)
	cmd.Flags().Int64Var(&opts.maxUpload, "max-upload", viewer.DefaultMaxUpload, "largest upload accepted, in bytes (0 turns uploads off)")
	cmd.Flags().StringArrayVar(&opts.bots, "bot", nil, "a bot \"play on from here\" may seat besides the built-ins: built-in name or external command (repeat)")
	return cmd
}

// runServe serves the library in opts.dir, kept in its index
// (DIR/.rewind/index.db, followed every followEvery), until ctx ends.
func runServe(ctx context.Context, opts *serveOptions) error {
	lib, err := viewer.OpenLibrary(opts.dir)
	if err != nil {
		return err
	}
	defer lib.Close()
	stderr := opts.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	warn, err := lib.OpenIndex()
	switch {
	case errors.Is(err, index.ErrNewerSchema):
		return err
	case err != nil:
		// A folder the index cannot be kept in (read-only) is still
		// served, listed by reading it as before.
		fmt.Fprintf(stderr, "note: no library index (%v); listing the folder by reading it\n", err)
		return serveLibrary(ctx, lib, opts, "/")
	case warn != nil:
		fmt.Fprintf(stderr, "warning: %v\n", warn)
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go lib.Follow(fctx, followEvery, followRescan, func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) })
	return serveLibrary(ctx, lib, opts, "/")
}

// serve follows the folder's file-system notifications, reading the
// files they name; followRescan is how often it also walks the whole
// folder (stat only, reading only new or changed files) for what the
// notifications missed, followEvery how often it walks it where there
// are no notifications (variables for the tests).
var (
	followRescan = 10 * time.Minute
	followEvery  = 2 * time.Second
)

func addServeFlags(cmd *cobra.Command, opts *serveOptions) {
	cmd.Flags().StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	addMemoryFlag(cmd, &opts.memoryMiB)
	cmd.Flags().IntVar(&opts.maxConns, "max-conns-per-ip", connlimit.DefaultPerIP, "connections one address may hold open (0: no bound)")
	addMaxConnsFlag(cmd, &opts.totalConns)
}

// addMaxConnsFlag adds --max-conns, the serving commands' bound on every
// connection open at once (connlimit.Serve).
func addMaxConnsFlag(cmd *cobra.Command, total *int) {
	cmd.Flags().IntVar(total, "max-conns", connlimit.DefaultTotal, "connections the server holds open at once, all addresses together; past it a new one closes the oldest not serving a request (0: no bound)")
}

// Memory budget of a serving command, in MiB: at least what one replay
// page reserves (viewer.StreamPeakBytes at the default limits, 216 MiB);
// a fork (344 MiB) or a Monad reference log (416 MiB) needs more, and
// past the budget is refused, not told to wait.
const (
	minMemoryMiB = 256
	maxMemoryMiB = 1 << 20
)

func addMemoryFlag(cmd *cobra.Command, mib *int64) {
	cmd.Flags().Int64Var(mib, "memory", viewer.DefaultMemoryBudget>>20,
		fmt.Sprintf("memory budget in MiB, %d..%d: what the replays packed at once may take (each reserves its estimated peak); past it a request is answered 503 with Retry-After (docs/viewer.md)", minMemoryMiB, maxMemoryMiB))
}

// memoryBudget checks the --memory flag and returns it in bytes. It also
// sets the Go runtime's soft memory limit to the budget (unless GOMEMLIMIT
// says otherwise), so garbage is collected before the process grows past
// what the viewer accounts for.
func memoryBudget(mib int64) (int64, error) {
	if mib < minMemoryMiB || mib > maxMemoryMiB {
		return 0, usagef("--memory %d outside %d..%d (MiB)", mib, minMemoryMiB, maxMemoryMiB)
	}
	b := mib << 20
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(b)
	}
	return b, nil
}

// listen listens on addr for command cmd. A busy port is said in words,
// with the way out (--addr 127.0.0.1:0 takes a free port, and the
// command prints its URL); with anyPort a busy port is replaced by a free
// one on the same host (demo).
func listen(cmd, addr string, anyPort bool) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil && errors.Is(err, syscall.EADDRINUSE) {
		host, _, herr := net.SplitHostPort(addr)
		if anyPort && herr == nil {
			if ln, err = net.Listen("tcp", net.JoinHostPort(host, "0")); err == nil {
				return ln, nil
			}
		}
		if herr != nil || host == "" {
			host = "127.0.0.1"
		}
		return nil, fmt.Errorf("%s: %s is busy (another program listens on that port); choose another with --addr, or --addr %s to take a free one (its address is printed)", cmd, addr, net.JoinHostPort(host, "0"))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return ln, nil
}

// forkBotStarter starts the external bots of serve --bot for the viewer's
// forks; their stderr goes to logDir (a temporary folder).
type forkBotStarter struct{ logDir string }

// serveForkBots checks serve's --bot values (a built-in or a command) and
// returns the starter of the external ones (nil when there are none).
func serveForkBots(specs []string) (*forkBotStarter, error) {
	external := false
	info, _ := engine.About(engine.Default())
	for _, s := range specs {
		if _, ok := info.FindBot(s); ok {
			continue
		}
		if err := checkBotSpec(s, botNames(info)); err != nil {
			return nil, err
		}
		external = true
	}
	if !external {
		return nil, nil
	}
	dir, err := os.MkdirTemp("", "rewind-serve-bots-")
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return &forkBotStarter{logDir: dir}, nil
}

// newBot starts the external bot spec for seat uid of a fork of the
// default game.
func (f *forkBotStarter) newBot(spec string, uid int) (match.GamePlayer, error) {
	opts := &playOptions{game: engine.Default(), deadline: time.Second, logDir: f.logDir}
	seat, _, err := watchedSeat(spec, uid-1, opts, "fork-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err != nil {
		return nil, err
	}
	return seat.Bot, nil
}

// serveLibrary serves lib on opts.addr until ctx ends, printing the URL of
// page.
func serveLibrary(ctx context.Context, lib *viewer.Library, opts *serveOptions, page string) error {
	budget := int64(0)
	if opts.memoryMiB != 0 {
		var err error
		if budget, err = memoryBudget(opts.memoryMiB); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	forkBots, err := serveForkBots(opts.bots)
	if err != nil {
		return err
	}
	name := opts.name
	if name == "" {
		name = "serve"
	}
	ln, err := listen(name, opts.addr, opts.anyPort)
	if err != nil {
		return err
	}
	if opts.maxConns < 0 {
		ln.Close()
		return fmt.Errorf("serve: --max-conns-per-ip %d is negative (0: no bound)", opts.maxConns)
	}
	if opts.totalConns < 0 {
		ln.Close()
		return fmt.Errorf("serve: --max-conns %d is negative (0: no bound)", opts.totalConns)
	}
	maxUpload := opts.maxUpload
	if maxUpload == 0 {
		maxUpload = -1
	}
	stderr := opts.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	logger := log.New(stderr, "", log.LstdFlags)
	vo := viewer.Options{Addr: ln.Addr().String(), MaxUpload: maxUpload, ErrorLog: logger.Printf, Tool: "rewind " + version, MemoryBudget: budget, ForkBots: opts.bots,
		OpenStream: openStreamFile, Pair: opts.pair}
	if forkBots != nil {
		vo.NewForkBot = forkBots.newBot
		defer os.RemoveAll(forkBots.logDir)
	}
	srv := viewer.NewServer(lib, vo)
	hs := srv.HTTPServer()
	hs.ErrorLog = logger
	ln = connlimit.Serve(hs, ln, opts.maxConns, opts.totalConns)
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(opts.stdout, "Serving %s at %s%s  (Ctrl-C stops)\n", lib.Dir(), base, page)
	if opts.ready != nil {
		opts.ready <- base
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Requests in progress get a few seconds to finish; then the
	// connections are closed: stopping is what the user asked for.
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		hs.Close()
	} else if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// openStreamFile is viewer.Options.OpenStream: any replay, a .cfr with
// its commands inferred (source.NewInferredStream); the stream owns f.
func openStreamFile(f *os.File) (engine.Stream, error) { return source.NewInferredStream(f, f) }
