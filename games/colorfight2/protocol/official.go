package protocol

import (
	"context"
	"fmt"
	"log"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/spf13/pflag"
)

// Official is the official ColorfightII protocol as `rewind server` runs
// it (rooms.Mounted, rooms.Flagged, rooms.Described): one Server with
// the room of --room configured by --preset and the flags that override
// it, served on the viewer's address.
type Official struct{}

var (
	_ rooms.Mounted   = Official{}
	_ rooms.Flagged   = Official{}
	_ rooms.Described = Official{}
)

// presetNames are the presets' names, in the order the help lists them.
var presetNames = []string{"default", "official", "rank_2", "rank_4", "rank_8", "duel", "test-run", "constant-run"}

// DefaultAddr is the address of the official server's local runs.
func (Official) DefaultAddr() string { return "127.0.0.1:8080" }

// AddFlags declares the protocol's own flags (rooms.Flagged).
func (Official) AddFlags(fs *pflag.FlagSet) {
	fs.String("room", "public", "name of the room created at start ([0-9A-Za-z-_.])")
	fs.String("preset", "constant-run", "configuration of that room: "+strings.Join(presetNames[:len(presetNames)-1], ", ")+" or "+presetNames[len(presetNames)-1])
	fs.SetAnnotation("preset", rooms.FlagChoices, presetNames)
	fs.Int("wait-for", 0, "start the game as soon as this many official bots have joined, the --bot built-ins filling their seats then (0: as the preset's first round says)")
	fs.String("first-round-time", "", `how the first round starts: seconds of countdown 0..60, "full" (when every seat is taken) or "never" (admin /start) (default: the preset's)`)
	fs.SetAnnotation("first-round-time", rooms.FlagChoices, []string{"full", "never", "10"})
	fs.Float64("finish-time", 0, "seconds a finished game stays before the room restarts, 0..60; 0 keeps it (default: the preset's)")
	fs.String("replay", "", "when /gameroom/ROOM/replay serves the game as .cfr: always, end or never (default: the preset's)")
	fs.SetAnnotation("replay", rooms.FlagChoices, []string{"always", "end", "never"})
	fs.Int64("max-disk", DefaultMaxDiskBytes>>20, "MiB the recordings in --dir may take before a game starts (0: no bound); see --disk-full")
	fs.String("disk-full", "rotate", "when --max-disk is reached: rotate (remove the oldest finished recordings) or refuse (stop the room until an admin /restart)")
	fs.SetAnnotation("disk-full", rooms.FlagChoices, []string{"rotate", "refuse"})
	fs.Int("max-games-per-hour", DefaultMaxGamesPerHour, "games one room may start in any hour (0: no bound)")
	fs.Int("lockstep-misses", DefaultLockstepMisses, "lock-step rooms: rounds in a row a player may miss before it stops holding rounds (until it registers again), 1..100")
}

// Describe is the protocol's paragraph of `rewind server`'s help
// (rooms.Described).
func (Official) Describe() string {
	return `It speaks the official server protocol (docs/server.md), so every bot
written on the official Python or Java client plays against it unchanged:
point the client's URL at ws://HOST:PORT/gameroom/ROOM. It starts with one room (--room, default "public")
configured by --preset and the flags that override it (--max-turn,
--max-player, --round-time, --first-round-time, --finish-time, --replay);
bots create more rooms with /creategameroom as on the official server.
--bot seats built-in bots in that room: they fill the seats still free
when the game starts. --wait-for N starts the game as soon as N official
bots have joined; the log and the viewer's live list say whom a room
waits for. A lock-step player that misses --lockstep-misses rounds in a
row stops holding rounds until it registers again. Each game's map comes
from its game_id, and rooms play until stopped: --seed, --map and --games
do not apply. Admin actions (/start, /restart, /deletegameroom on the
default room or on a room created without a password, /configadmin, admin
rooms) need the master admin password; a room created with its own
password takes that password too, but lock-step, built-in bots and a
finish time under 5 s stay the master's; failed passwords back off;
admin requests must be application/json and not cross-site. A room starts
at most --max-games-per-hour games an hour; --max-disk and --disk-full
bound the recordings.`
}

// flags is o's command line, or the protocol's flags at their defaults
// when o has none.
func flags(o rooms.Options) *pflag.FlagSet {
	if o.Flags != nil {
		return o.Flags
	}
	fs := pflag.NewFlagSet("server", pflag.ContinueOnError)
	Official{}.AddFlags(fs)
	return fs
}

// config is what o asks for: the Server's options, the room's id and its
// configuration (the preset, with every setting o gives applied through
// the same checks as /restart). An error names the flag.
func config(o rooms.Options) (Options, string, RoomConfig, error) {
	fs := flags(o)
	room, _ := fs.GetString("room")
	preset, _ := fs.GetString("preset")
	waitFor, _ := fs.GetInt("wait-for")
	first, _ := fs.GetString("first-round-time")
	finish, _ := fs.GetFloat64("finish-time")
	replay, _ := fs.GetString("replay")
	maxDisk, _ := fs.GetInt64("max-disk")
	diskFull, _ := fs.GetString("disk-full")
	perHour, _ := fs.GetInt("max-games-per-hour")
	misses, _ := fs.GetInt("lockstep-misses")

	cfg, ok := Preset(preset)
	if !ok {
		return Options{}, "", cfg, fmt.Errorf("server: --preset %q is not a preset (want %s or %s)", preset,
			strings.Join(presetNames[:len(presetNames)-1], ", "), presetNames[len(presetNames)-1])
	}
	fail := func(format string, args ...any) (Options, string, RoomConfig, error) {
		return Options{}, "", cfg, fmt.Errorf("server: "+format, args...)
	}
	switch {
	case misses < 1 || misses > 100:
		return fail("--lockstep-misses %d outside 1..100", misses)
	case maxDisk < 0:
		return fail("--max-disk %d is negative (0: no bound)", maxDisk)
	case diskFull != "rotate" && diskFull != "refuse":
		return fail("--disk-full %q is neither rotate nor refuse", diskFull)
	case perHour < 0:
		return fail("--max-games-per-hour %d is negative (0: no bound)", perHour)
	}
	// A setting is given when its flag was set on the command line or,
	// without one, when o's field is not its zero.
	changed := func(flag string, given bool) bool {
		if o.Flags != nil && fs.Lookup(flag) != nil {
			return fs.Changed(flag)
		}
		return given
	}
	deadline := o.Deadline
	if deadline == 0 && !changed("lockstep-deadline", false) {
		deadline = DefaultLockstepDeadline
	}
	if deadline < time.Second || deadline > time.Hour {
		return fail("--lockstep-deadline %v outside 1s..1h", deadline)
	}
	// Each setting given replaces the preset's value and is checked on
	// its own, so the error names its flag.
	set := func(flag string, given bool, value any, apply func()) error {
		if !changed(flag, given) {
			return nil
		}
		apply()
		if err := cfg.Validate(); err != nil {
			return fmt.Errorf("server: --%s %v: %w", flag, value, err)
		}
		return nil
	}
	roundTime := o.ThinkTime.Seconds()
	for _, err := range []error{
		set("max-turn", o.MaxTurns != 0, o.MaxTurns, func() { cfg.MaxTurn = o.MaxTurns }),
		set("max-player", o.Players != 0, o.Players, func() { cfg.MaxPlayer = o.Players }),
		set("round-time", o.ThinkTime >= 0, strconv.FormatFloat(roundTime, 'g', -1, 64), func() { cfg.RoundTime = roundTime }),
		set("first-round-time", false, first, func() { cfg.FirstRoundTime = first }),
		set("finish-time", false, finish, func() { cfg.FinishTime = finish }),
		set("replay", false, replay, func() { cfg.ReplayEnable = replay }),
		set("bot", len(o.Bots) > 0, strings.Join(o.Bots, ","), func() { cfg.Bots = o.Bots }),
		set("wait-for", false, waitFor, func() { cfg.WaitFor = waitFor }),
	} {
		if err != nil {
			return Options{}, "", cfg, err
		}
	}
	if len(cfg.Bots) > cfg.MaxPlayer {
		return fail("%d --bot for %d seats (--max-player)", len(cfg.Bots), cfg.MaxPlayer)
	}
	if cfg.WaitFor > 0 && cfg.WaitFor+len(cfg.Bots) > cfg.MaxPlayer {
		return fail("--wait-for %d official bots and %d --bot need %d seats, the room has %d (--max-player)", cfg.WaitFor, len(cfg.Bots), cfg.WaitFor+len(cfg.Bots), cfg.MaxPlayer)
	}
	if err := cfg.Validate(); err != nil {
		return fail("room %s: %w", room, err)
	}
	if cfg.WaitFor == 0 && cfg.FirstRoundTime == "full" && len(cfg.Bots) > 0 && o.Log != nil {
		// Not an error (more bots may come), but say what "full" waits for.
		fmt.Fprintf(o.Log, "note: room %s starts when all %d seats are taken: %d --bot and %d official bots; --wait-for N starts it once N have joined\n",
			room, cfg.MaxPlayer, len(cfg.Bots), cfg.MaxPlayer-len(cfg.Bots))
	}
	so := Options{
		Dir:              o.Dir,
		Tool:             o.Tool,
		AdminPassword:    o.AdminPassword,
		LockstepDeadline: deadline,
		LockstepMisses:   misses,
		MaxGamesPerHour:  unbounded(perHour),
		MaxConnsPerIP:    o.MaxConnsPerIP,
		MaxDiskBytes:     maxDisk << 20,
		DiskFull:         diskFull,
		Live:             o.Live,
	}
	if so.MaxConnsPerIP == 0 {
		so.MaxConnsPerIP = math.MaxInt
	}
	if maxDisk == 0 {
		so.MaxDiskBytes = -1
	}
	if o.Log != nil {
		so.Logf = log.New(o.Log, "", log.LstdFlags).Printf
	}
	return so, room, cfg, nil
}

// unbounded maps a flag's 0 (no bound) to Options' negative.
func unbounded(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// mount is an opened Official: a Server with its first room.
type mount struct {
	*Server
	handler http.Handler
	room    string
}

// Mount opens the Server o asks for, with its first room (rooms.Mounted).
func (Official) Mount(o rooms.Options) (rooms.Mount, error) {
	so, room, cfg, err := config(o)
	if err != nil {
		return nil, err
	}
	srv, err := New(so)
	if err != nil {
		return nil, err
	}
	if err := srv.CreateRoom(room, cfg, o.AdminPassword, "", true); err != nil {
		srv.Close()
		return nil, fmt.Errorf("server: room %s: %w", room, err)
	}
	return mount{srv, srv.Handler(), room}, nil
}

func (m mount) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.handler.ServeHTTP(w, r) }

// Banner says where bots connect (rooms.Mount).
func (m mount) Banner(base string) string {
	return fmt.Sprintf("  bots connect to ws://%s/gameroom/%s\n", strings.TrimPrefix(base, "http://"), m.room)
}

// Serve runs the protocol alone on o.Addr (rooms.Protocol), without a
// viewer, until ctx ends. Its listener bounds nothing beyond the
// Server's own bounds (websockets per address); `rewind server` serves
// the protocol through Mount, on the viewer's bounded listener.
func (p Official) Serve(ctx context.Context, o rooms.Options) error {
	m, err := p.Mount(o)
	if err != nil {
		return err
	}
	return rooms.ServeAlone(ctx, m, o, p.DefaultAddr(), &http.Server{ReadHeaderTimeout: 10 * time.Second}, nil)
}
