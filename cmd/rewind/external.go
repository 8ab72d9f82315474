package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/match"
)

// externalSeat starts an external bot for --bot spec; its stderr goes to
// LOGDIR/bot-<uid>.stderr.log (LOGDIR defaults to the replay's directory).
func externalSeat(spec string, uid int, opts *playOptions) (match.Seat, error) {
	dir := opts.logDir
	if dir == "" {
		dir = filepath.Dir(opts.out)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return match.Seat{}, err
	}
	log := filepath.Join(dir, fmt.Sprintf("bot-%d.stderr.log", uid))
	if opts.out != "" {
		log = filepath.Join(dir, fmt.Sprintf("%s.bot-%d.stderr.log", filepath.Base(opts.out), uid))
	}
	b, err := subprocess.New(spec, subprocess.Options{Deadline: opts.deadline, StderrLog: log, MaxTurn: opts.turns})
	if err != nil {
		return match.Seat{}, fmt.Errorf("--bot %q: %w", spec, err)
	}
	return match.Seat{Bot: b, Identity: spec, Name: fmt.Sprintf("%d_%s", uid, shortName(spec))}, nil
}

// shortName names an external bot by its last word's base name
// ("python3 bots/mybot.py" -> "mybot.py"), at most 64 bytes.
func shortName(spec string) string {
	f := strings.Fields(spec)
	n := spec
	if len(f) > 0 {
		n = filepath.Base(f[len(f)-1])
	}
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}
