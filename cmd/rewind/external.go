package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/subprocess"
)

// botLogPath is where the stderr of the external bot of seat uid goes:
// LOGDIR/NAME.bot-<uid>.stderr.log, where LOGDIR defaults to the replay's
// directory and NAME is logName, or else the replay's base name (without
// either, LOGDIR/bot-<uid>.stderr.log). It makes the directory.
func botLogPath(uid int, opts *playOptions, logName string) (string, error) {
	dir := opts.logDir
	if dir == "" {
		dir = filepath.Dir(opts.out)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", plainError(err)
	}
	if logName == "" && opts.out != "" {
		logName = filepath.Base(opts.out)
	}
	if logName != "" {
		return filepath.Join(dir, fmt.Sprintf("%s.bot-%d.stderr.log", logName, uid)), nil
	}
	return filepath.Join(dir, fmt.Sprintf("bot-%d.stderr.log", uid)), nil
}

// watch remembers how an external bot fared: whether it ever answered,
// its first failure and whether it is gone for good (it failed to start
// or exited), so play can stop a match whose bot died before answering
// and say why. It is safe for concurrent use.
type watch struct {
	spec, log string

	mu       sync.Mutex
	answered bool  // some round was answered
	first    error // first failure (start or round)
	gone     bool  // failed to start or exited
}

// started notes the bot's start and its error.
func (w *watch) started(err error) error {
	if err != nil {
		w.mu.Lock()
		w.first, w.gone = fmt.Errorf("failed to start: %w", err), true
		w.mu.Unlock()
	}
	return err
}

// answer notes one answer of the bot and passes it on.
func (w *watch) answer(cmds []string, err error) ([]string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.answered = true
		return cmds, nil
	}
	if w.first == nil {
		w.first = err
	}
	if errors.Is(err, subprocess.ErrBotExited) {
		w.gone = true
	}
	return cmds, err
}

// watchedPlayer is an external bot of a match played through the
// external-bot protocol, watched (watch). It implements every optional
// interface of match.GamePlayer (match.Preparer, match.Logger,
// match.Marker) by passing it on; a new optional interface must be
// passed on here too (TestWrappersKeepOptionalInterfaces).
type watchedPlayer struct {
	*subprocess.Player
	*watch
}

var (
	_ match.Preparer = (*watchedPlayer)(nil)
	_ match.Logger   = (*watchedPlayer)(nil)
	_ match.Marker   = (*watchedPlayer)(nil)
)

func (w *watchedPlayer) Start(p int, seed uint64) error { return w.started(w.Player.Start(p, seed)) }

func (w *watchedPlayer) Commands(g engine.Game, p int) ([]string, error) {
	return w.answer(w.Player.Commands(g, p))
}

// Prepare passes on the bot's Prepare, watching its answer.
func (w *watchedPlayer) Prepare(g engine.Game, p int) func() ([]string, error) {
	wait := w.Player.Prepare(g, p)
	return func() ([]string, error) { return w.answer(wait()) }
}

// diedUnanswered reports whether the bot is gone without ever answering.
func (w *watch) diedUnanswered() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gone && !w.answered
}

func (w *watch) firstFault() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// stderrTail returns the last n lines of the bot's stderr log, or a note
// that it wrote nothing.
func (w *watch) stderrTail(n int) string {
	b, err := os.ReadFile(w.log)
	text := strings.TrimRight(string(b), "\n")
	if err != nil || strings.TrimSpace(text) == "" {
		return fmt.Sprintf("  (nothing on stderr; log %s)", w.log)
	}
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return fmt.Sprintf("  last lines of its stderr (%s):\n    %s", w.log, strings.Join(lines, "\n    "))
}
