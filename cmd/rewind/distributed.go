package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/queue"
)

// The environment variables that carry NATS credentials: never a flag, so
// that no password shows in a process list or a shell history.
const (
	natsUserEnv     = "REWIND_NATS_USER"
	natsPasswordEnv = "REWIND_NATS_PASSWORD"
)

// natsOptions say where the queue is.
type natsOptions struct {
	url      string
	creds    string // a NATS .creds file (JWT and nkey seed)
	replicas int
	// user and password of an embedded server (else the environment's),
	// and the server, connected to in process (no TCP).
	user, password string
	inProcess      nats.InProcessConnProvider
	// ackWait, when set, replaces the queue's default (a worker's
	// --ack-wait).
	ackWait time.Duration
}

func (o *natsOptions) flags(f *pflag.FlagSet) {
	f.StringVar(&o.url, "nats", "", "URL of the NATS JetStream server the games are queued on (default: an embedded server in this process)")
	f.StringVar(&o.creds, "nats-creds", "", "a NATS credentials file (else $"+natsUserEnv+" and $"+natsPasswordEnv+")")
	f.IntVar(&o.replicas, "replicas", 1, "copies of the queue's stream and buckets on a JetStream cluster (1 or 3)")
}

// connect connects to url with the credentials of the file or the
// environment.
func (o *natsOptions) connect(url string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("rewind"), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	switch {
	case o.user != "":
		opts = append(opts, nats.UserInfo(o.user, o.password))
		if o.inProcess != nil {
			opts = append(opts, nats.InProcessServer(o.inProcess))
		}
	case o.creds != "":
		opts = append(opts, nats.UserCredentials(o.creds))
	case os.Getenv(natsUserEnv) != "" || os.Getenv(natsPasswordEnv) != "":
		opts = append(opts, nats.UserInfo(os.Getenv(natsUserEnv), os.Getenv(natsPasswordEnv)))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", url, err)
	}
	return nc, nil
}

// open connects to --nats, or starts an embedded server (its store in
// DIR/.nats, on loopback, with a password made for this run), and opens
// the queue. The returned function closes it all.
func (o *natsOptions) open(ctx context.Context, dir string) (*queue.Queue, func(), error) {
	if o.replicas == 0 {
		o.replicas = 1
	}
	if o.replicas != 1 && o.replicas != 3 {
		return nil, nil, usagef("--replicas %d: give 1 or 3", o.replicas)
	}
	url := o.url
	local := *o
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if url == "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, err
		}
		// A store of this run's own under DIR/.nats: the folder's replays
		// are what a run resumes from, and two tournaments writing into
		// one folder must not share a server's files.
		if err := os.MkdirAll(filepath.Join(dir, ".nats"), 0o755); err != nil {
			return nil, nil, err
		}
		store, err := os.MkdirTemp(filepath.Join(dir, ".nats"), "run-")
		if err != nil {
			return nil, nil, err
		}
		pw := randomHex(16)
		// Ephemeral: this server's files are removed when the run ends,
		// so syncing them buys nothing; what lasts is the folder's
		// replays, each synced before the game counts as done.
		s, err := queue.StartServer(queue.ServerOptions{StoreDir: store, User: "rewind", Password: pw, Ephemeral: true})
		if err != nil {
			os.RemoveAll(store)
			return nil, nil, err
		}
		closers = append(closers, func() { s.Shutdown(); s.WaitForShutdown(); os.RemoveAll(store) })
		url = s.ClientURL()
		local.user, local.password, local.inProcess = "rewind", pw, s
	}
	nc, err := local.connect(url)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	closers = append(closers, func() { nc.Drain(); nc.Close() })
	js, err := jetstream.New(nc)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	lim := queue.DefaultLimits
	if o.ackWait > 0 {
		lim.AckWait = o.ackWait
	}
	// The embedded server lives as long as this run: its queue is kept
	// in memory.
	lim.Memory = o.url == ""
	// A cluster that just started elects its leaders first: try again
	// for a while.
	var q *queue.Queue
	for try := 0; ; try++ {
		if q, err = queue.Open(ctx, js, o.replicas, lim); err == nil || try == 60 || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return q, closeAll, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

type workerOptions struct {
	nats     natsOptions
	parallel int
	bots     []string // NAME=COMMAND
	dir      string
	play     playOptions
	maxLogs  int64
}

func newWorkerCmd() *cobra.Command {
	opts := &workerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --nats URL [--parallel P] [--bot NAME=COMMAND]...",
		Short: "Play tournament games from a NATS JetStream queue",
		Long: `worker pulls the games of every tournament queued on the NATS server of
--nats (rewind tournament --nats URL), plays them and stores each replay and
result on the server before it acknowledges the game; a worker that dies
mid-game leaves its game to another. It plays the built-in bots by name;
--bot NAME=COMMAND says which command plays the entrant NAME on this
machine. A game with an entrant it has no bot for is left to other workers
(the tournament says so). The credentials come from $` + natsUserEnv + ` and
$` + natsPasswordEnv + ` or --nats-creds FILE. Ctrl-C stops it; a game it was
playing goes back to the queue.`,
		Example: `  rewind worker --nats nats://10.0.0.5:4222 --parallel 4
  rewind worker --nats nats://10.0.0.5:4222 --bot mybot="python3 examples/bots/python/bot.py"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.nats.url == "" {
				return errors.New("worker needs --nats URL")
			}
			if opts.parallel < 1 {
				return usagef("--parallel %d: give at least 1", opts.parallel)
			}
			if opts.nats.ackWait < time.Second {
				return usagef("--ack-wait %s: give at least 1s", opts.nats.ackWait)
			}
			if err := checkDeadlineFlag(opts.play.deadline); err != nil {
				return err
			}
			if opts.maxLogs < 0 {
				return usagef("--max-logs %d is negative (0: no bound)", opts.maxLogs)
			}
			commands := map[string]string{}
			for _, b := range opts.bots {
				name, command, ok := strings.Cut(b, "=")
				if !ok || name == "" || command == "" {
					return usagef("--bot %q: want NAME=COMMAND", b)
				}
				commands[name] = command
			}
			opts.play.stdout, opts.play.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runWorker(ctx, opts, commands)
		},
	}
	f := cmd.Flags()
	opts.nats.flags(f)
	f.IntVar(&opts.parallel, "parallel", 1, "games played at once (at least 1)")
	f.StringArrayVar(&opts.bots, "bot", nil, "NAME=COMMAND: the command that plays entrant NAME (repeat)")
	f.StringVar(&opts.dir, "dir", "", "scratch folder for the games being played and the bots' stderr logs (default: a temporary folder)")
	deadlineFlag(f, &opts.play.deadline)
	f.Int64Var(&opts.maxLogs, "max-logs", defaultMaxLogsMiB, "MiB of external bots' stderr logs this worker writes in all, after which each log is cut with a note (0: no bound)")
	f.DurationVar(&opts.nats.ackWait, "ack-wait", queue.DefaultLimits.AckWait, "how long a game may go without this worker's heartbeat before it goes to another worker (it sends one every third of it)")
	return cmd
}

func runWorker(ctx context.Context, opts *workerOptions, commands map[string]string) error {
	dir := opts.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "rewind-worker-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	opts.play.logDir = dir
	opts.play.logBudget = logBudget(opts.maxLogs)
	q, closeQueue, err := opts.nats.open(ctx, dir)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while it connected: nothing was taken
		}
		return err
	}
	defer closeQueue()
	resolve := func(name string) string {
		if c, ok := commands[name]; ok {
			return c
		}
		return name
	}
	w := &queue.Worker{Queue: q, Parallel: opts.parallel,
		CanRun: func(name string) bool {
			_, ok := commands[name]
			return ok || isBuiltin(name)
		},
		Play: func(ctx context.Context, j queue.Job) (match.GameResult, []byte, error) {
			return playJob(ctx, j, seatMaker(&opts.play, resolve))
		},
		Log: func(format string, args ...any) {
			fmt.Fprintf(opts.play.stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
		},
	}
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(opts.play.stderr, "rewind worker on %s, %d at a time; bots: the built-ins%s\n", opts.nats.url, opts.parallel, strings.Join(append([]string{""}, names...), ", "))
	err = w.Run(ctx)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

type natsServerOptions struct {
	listen, store string
	cluster, name string
	routes        []string
	maxStore      int64
	ready         chan<- string // tests: the client URL once listening
}

func newNATSCmd() *cobra.Command {
	opts := &natsServerOptions{}
	cmd := &cobra.Command{
		Use:   "nats [--listen 127.0.0.1:4222] [--store DIR]",
		Short: "Run a NATS JetStream server for tournaments on many machines",
		Long: `nats runs a NATS server with JetStream (the engine rewind's tournaments queue
their games on) for users who have none: every write is synced to disk
before it is acknowledged. Clients must give the user and password of
$` + natsUserEnv + ` and $` + natsPasswordEnv + ` (required unless it listens on
loopback). --cluster HOST:PORT, --name and --route nats-route://HOST:PORT
(repeat) join it to a JetStream cluster of three (docs/distributed.md).
Ctrl-C stops it.`,
		Example: `  rewind nats --store nats-store
  rewind nats --listen 0.0.0.0:4222 --store /var/lib/rewind-nats`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runNATS(ctx, cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.listen, "listen", "127.0.0.1:4222", "host:port for clients (port 0: a free one)")
	f.StringVar(&opts.store, "store", "nats-store", "folder of JetStream's files")
	f.StringVar(&opts.cluster, "cluster", "", "host:port for the routes of a JetStream cluster")
	f.StringVar(&opts.name, "name", "", "this server's name in the cluster")
	f.StringArrayVar(&opts.routes, "route", nil, "another cluster member's route URL, nats-route://HOST:PORT (repeat)")
	f.Int64Var(&opts.maxStore, "max-store", 0, "bytes of disk JetStream may use (0: the server's default)")
	return cmd
}

func runNATS(ctx context.Context, cmd *cobra.Command, opts *natsServerOptions) error {
	so := queue.ServerOptions{Listen: opts.listen, StoreDir: opts.store, User: os.Getenv(natsUserEnv), Password: os.Getenv(natsPasswordEnv),
		MaxStore: opts.maxStore, Routes: opts.routes}
	if opts.cluster != "" {
		so.Cluster, so.ClusterName, so.ServerName = opts.cluster, "rewind", opts.name
		if opts.name == "" {
			return errors.New("--cluster needs --name (each member's own)")
		}
	}
	if (so.User == "") != (so.Password == "") {
		return fmt.Errorf("give both $%s and $%s, or neither", natsUserEnv, natsPasswordEnv)
	}
	s, err := queue.StartServer(so)
	if err != nil {
		return err
	}
	defer func() { s.Shutdown(); s.WaitForShutdown() }()
	fmt.Fprintf(cmd.OutOrStdout(), "rewind nats at %s (JetStream in %s)\n", s.ClientURL(), opts.store)
	if opts.ready != nil {
		opts.ready <- s.ClientURL()
	}
	<-ctx.Done()
	return nil
}
