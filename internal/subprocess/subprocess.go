// Package subprocess runs bots as child processes: a player implemented by
// any program that speaks the JSON-lines protocol of docs/bot-protocol.md on
// its stdin and stdout. This package is the runner side's reference
// implementation of that protocol's transport, timing, limits, failures and
// logs, for any game: a game played through the seam is asked with Play
// (with the generic turn message, or the game's own: engine.Messenger); a
// caller that builds a game's own messages itself sends them with
// Exchange.
// It names no game: the built-in strategies and the games' messages live
// with their games.
//
// The operating-system part is small and lives in build-tagged files: on
// Unix a bot runs in its own process group, which is killed as a whole
// (Linux additionally makes the runner a child subreaper so orphaned
// grandchildren can be reaped); on Windows a bot runs in a Job Object
// created with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so terminating the job
// ends the whole process tree.
package subprocess

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
)

// ProtocolVersion is the version of the bot protocol sent in the start
// message ("protocol"). It changes only on incompatible changes.
const ProtocolVersion = 1

// Limits and defaults of subprocess bots.
const (
	// DefaultDeadline is the time a bot has to answer a turn message when
	// Options.Deadline is zero.
	DefaultDeadline = time.Second
	// DefaultStartupGrace is the extra time allowed for the first turn's
	// reply (process start-up, interpreter and library loading) when
	// Options.StartupGrace is zero.
	DefaultStartupGrace = 2 * time.Second
	// DefaultMaxLineBytes bounds a reply line when Options.MaxLineBytes is
	// zero.
	DefaultMaxLineBytes = 1 << 20
	// MaxCommands is the largest number of commands one reply may carry.
	MaxCommands = 10000
	// MaxCommandBytes is the longest command string a reply may carry.
	MaxCommandBytes = 1024
	// MaxStderrLogBytes bounds what is written to Options.StderrLog; the
	// rest of the bot's stderr is read and discarded.
	MaxStderrLogBytes = 16 << 20
	// closeGrace is how long Close waits after closing the bot's stdin
	// before killing its process tree.
	closeGrace = 100 * time.Millisecond
	// reapTimeout bounds how long the runner keeps killing and reaping a
	// dead bot's process tree.
	reapTimeout = 10 * time.Second
	// drainTimeout bounds how long, once the bot exited (or closed its
	// output), the runner still waits for the exit status and for output
	// it wrote before dying.
	drainTimeout = time.Second
)

// Sentinel errors of subprocess bots. Errors returned by Bot wrap exactly
// one of them (test with errors.Is) and add context: the turn, the limit, a
// short quoted excerpt of a bad line, the exit status.
//
// Each sentinel also says what kind of fault it is (a method Fault()
// engine.Fault, which a runner finds with errors.As without naming this
// package): ErrTimeout a timeout, ErrBotExited a crash, the others
// garbage.
var (
	// ErrTimeout: no reply within the deadline (or the bot did not read its
	// input in time). That round the bot sends no commands; its late reply
	// is discarded when it arrives. The bot stays usable.
	ErrTimeout error = &sentinel{"bot timed out", engine.FaultTimeout}
	// ErrBotExited: the process exited, crashed or closed its pipes. The
	// error is permanent: every later exchange returns the same error.
	ErrBotExited error = &sentinel{"bot exited", engine.FaultCrash}
	// ErrBadReply: the reply line is not a JSON object with a "cmd_list"
	// array of strings, or echoes a turn from the future. The bot stays
	// usable.
	ErrBadReply error = &sentinel{"bad bot reply", engine.FaultGarbage}
	// ErrFlood: the reply line is longer than MaxLineBytes, or carries more
	// than MaxCommands commands or a command longer than MaxCommandBytes.
	// The whole reply is rejected; the bot stays usable.
	ErrFlood error = &sentinel{"bot reply too large", engine.FaultGarbage}
)

// sentinel is a sentinel error with the kind of fault it is.
type sentinel struct {
	text  string
	fault engine.Fault
}

func (e *sentinel) Error() string { return e.text }

// Fault is the kind of fault the error is.
func (e *sentinel) Fault() engine.Fault { return e.fault }

// Options configures a subprocess bot. The zero value is usable.
type Options struct {
	// Deadline is the time the bot has to answer each turn message,
	// counted from the moment it is asked for commands (writing the message
	// included). Zero means DefaultDeadline.
	Deadline time.Duration
	// StartupGrace is added to the deadline of the first turn only, to
	// cover process start-up. Zero means DefaultStartupGrace; a negative
	// value means no grace.
	StartupGrace time.Duration
	// StderrLog is the path of a file that receives the bot's stderr
	// (created or truncated by Start, at most MaxStderrLogBytes are kept).
	// Empty means no file. Either way, what the bot writes to stderr while
	// it is asked for a round's commands is kept for RoundLog.
	StderrLog string
	// LogBudget, when set, is shared with other bots (a tournament's):
	// what is written to StderrLog is taken from it, and once it is
	// spent the log is cut with a note saying so.
	LogBudget *LogBudget
	// MaxLineBytes bounds the length of one reply line (without its
	// newline). Zero means DefaultMaxLineBytes.
	MaxLineBytes int
	// Dir is the bot's working directory; empty means the runner's.
	Dir string
	// MaxTurn is the game's turn limit, sent to the bot as "max_turn" in
	// the start message. It is the caller's to give (a game's default is
	// its own); a Monad bot needs it.
	MaxTurn int
	// Game is the game the bot plays: a ruleset's id, played through
	// Play, named in the start message; its replies' commands may be any
	// JSON value. Empty is a game whose messages do not name it, and
	// whose commands are strings (ColorfightII's: engine.Messenger): its
	// start message has no "game" nor "player".
	Game string
}

// Bot is a player played by a subprocess speaking the JSON-lines protocol
// of docs/bot-protocol.md on its stdin and stdout. Player makes it a
// player of a game played through the seam (match.GamePlayer).
//
// Contracts:
//   - Start launches the process in its own process tree (a process group
//     on Unix, a Job Object on Windows) and sends the start message.
//     Each exchange (Play, Exchange) sends one turn message and waits at
//     most the deadline for one reply line. Close closes the bot's stdin,
//     waits 100ms, kills the whole process tree (SIGKILL to the group;
//     terminating the job), reaps it and releases every goroutine, pipe
//     and file. Close is idempotent.
//   - Failures are returned as errors wrapping ErrTimeout, ErrBadReply,
//     ErrFlood (the bot stays usable: next round is answered normally) or
//     ErrBotExited (permanent: every later exchange returns the same error
//     at once). A failing round always returns nil commands. Nothing
//     panics on any bot output.
//   - Replies are matched to turns: a reply that arrives after its
//     deadline is discarded, never used for a later turn (replies are
//     counted, and an optional "turn" echo is honoured).
//   - Memory is bounded by MaxLineBytes per line read; the bot's output is
//     read by one goroutine, its input written by another, its stderr
//     (when logged) copied by a third, and the process is waited for by a
//     fourth; all end by Close. A bot that does not read its input never
//     blocks the caller beyond the deadline.
//   - To reap grandchildren whose parent died, Start on Linux marks the
//     runner process as a child subreaper (prctl PR_SET_CHILD_SUBREAPER):
//     orphans of descendants are reparented to the runner instead of init.
//     On Linux a bot's descendants that leave its process group (setsid,
//     setpgid) are found by a random REWIND_BOT_TREE environment entry
//     they inherit, killed and reaped with the group; and the bot dies with
//     the runner (Pdeathsig). Elsewhere they escape.
//
// Like every bot, a Bot is not safe for concurrent use; the background
// goroutines are internal.
type Bot struct {
	command string
	argv    []string
	opts    Options

	started bool
	closed  bool
	uid     int
	turns   int // turn messages asked for
	// ownMessages is set when the game sends messages of its own
	// (engine.Messenger, Exchange): reply elements are then kept as
	// their JSON text, strings included.
	ownMessages bool

	cmd     *exec.Cmd
	tree    procTree // the OS handle on the bot's whole process tree
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File // read end of the stderr pipe, nil when discarded
	logFile *os.File
	owed    int    // replies owed by the bot for messages sent
	buf     []byte // encoding buffer; owned by writeLoop while writing
	writing bool   // a message was handed to writeLoop, its result is not consumed yet

	lines      chan lineEvent
	writes     chan []byte   // messages for writeLoop (at most one in flight)
	written    chan error    // writeLoop's result for each message
	stderrDone chan struct{} // closed when copyStderr has reached EOF
	done       chan struct{} // closed by Close: background goroutines stop
	exited     chan struct{} // closed once the process tree is reaped
	waitErr    error         // valid after exited is closed
	wg         sync.WaitGroup
	fatal      error // permanent error (process gone)

	// Round logs (RoundLog): copyStderr appends the bot's stderr to
	// pending (at most match.MaxRoundLog bytes kept, pendingTotal counted);
	// exchange empties it when it sends a turn message and takes it into
	// roundLog when the reply or the deadline comes. syncStderr makes
	// copyStderr read what the pipe holds first (syncSeq/syncAck).
	logMu        sync.Mutex
	pending      []byte
	pendingTotal int64
	roundLog     []byte
	logBuf       []byte // roundLog's storage, reused
	// Round marks (RoundMarks): copyStderr splits the lines that start
	// with match.MarkPrefix off the log (split) into pendingMarks (at
	// most engine.MaxBotMarks, the rest counted in marksDropped);
	// exchange takes them into roundMarks as it takes the log.
	split        markSplit
	pendingMarks [][]byte
	marksDropped int
	roundMarks   [][]byte
	roundDropped int
	syncSeq      atomic.Uint64
	syncAck      chan uint64

	// Time bounds of the clean-up, set by New from the constants above.
	// They only matter for pathological bots; tests raise them so that no
	// verdict depends on how fast a loaded machine schedules the runner.
	closeGrace, reapTimeout, drainTimeout time.Duration
}

// lineEvent is one line of the bot's stdout.
type lineEvent struct {
	line  []byte
	flood bool // the line exceeded MaxLineBytes; line is an excerpt
}

// New prepares a bot running command, a command line split into words on
// spaces and tabs with simple quoting ('single quotes' keep everything
// literally, "double quotes" allow \" and \\, a backslash outside quotes
// escapes the next character). The program is run directly (no shell); a
// program name without a path separator is looked up in PATH. The process
// is started by Start. New fails on an empty or badly quoted command line
// or a program that cannot be found.
func New(command string, opts Options) (*Bot, error) {
	argv, err := splitCommand(command)
	if err != nil {
		return nil, fmt.Errorf("bot: command %q: %w", command, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("bot: empty command")
	}
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultDeadline
	}
	if opts.StartupGrace == 0 {
		opts.StartupGrace = DefaultStartupGrace
	} else if opts.StartupGrace < 0 {
		opts.StartupGrace = 0
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	switch opts.Game {
	case "":
		// A game with its own messages: the caller gives MaxTurn.
	default:
		if !validGameID(opts.Game) {
			return nil, fmt.Errorf("bot: unknown game %q", opts.Game)
		}
		// Any other ruleset is played through the seam (Play); its
		// MaxTurn is the game's, set by the caller.
	}
	if argv[0], err = findProgram(argv[0], opts.Dir); err != nil {
		return nil, fmt.Errorf("bot: command %q: %w", command, err)
	}
	return &Bot{command: command, argv: argv, opts: opts,
		closeGrace: closeGrace, reapTimeout: reapTimeout, drainTimeout: drainTimeout}, nil
}

// CheckCommand reports whether command can be run as New would run it
// (in the current directory): nil, or why not — a bad quoting, or a
// program not found (errors.Is exec.ErrNotFound or fs.ErrNotExist).
// Nothing is started.
func CheckCommand(command string) error {
	argv, err := splitCommand(command)
	if err != nil {
		return fmt.Errorf("bot: command %q: %w", command, err)
	}
	if len(argv) == 0 {
		return fmt.Errorf("bot: empty command")
	}
	if _, err := findProgram(argv[0], ""); err != nil {
		return fmt.Errorf("bot: command %q: %w", command, err)
	}
	return nil
}

// findProgram is the path of the program prog names: looked up in PATH
// when it has no path separator, else prog itself once it exists
// (relative to dir when dir is set).
func findProgram(prog, dir string) (string, error) {
	if !strings.ContainsRune(prog, '/') && !strings.ContainsRune(prog, filepath.Separator) {
		return exec.LookPath(prog)
	}
	p := prog
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return prog, nil
}

// splitCommand splits a command line into words (see New).
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// Name returns the command line the bot was created with.
func (b *Bot) Name() string { return b.command }

// Start launches the bot process and sends it the start message. It fails
// if called twice, after Close, or if the process cannot be started; on
// failure nothing is left running.
func (b *Bot) Start(uid int, seed uint64) (err error) {
	if b.closed {
		return fmt.Errorf("bot: Start after Close")
	}
	if b.started {
		return fmt.Errorf("bot: Start called twice")
	}
	b.started = true
	b.uid = uid

	var toClose []*os.File
	defer func() {
		for _, f := range toClose {
			f.Close()
		}
	}()
	inR, inW, err := os.Pipe()
	if err != nil {
		return b.startFailed(err)
	}
	toClose = append(toClose, inR)
	outR, outW, err := os.Pipe()
	if err != nil {
		inW.Close()
		return b.startFailed(err)
	}
	toClose = append(toClose, outW)
	b.stdin, b.stdout = inW, outR
	if b.opts.StderrLog != "" {
		b.logFile, err = os.OpenFile(b.opts.StderrLog, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
		if err != nil {
			b.releaseFiles()
			return b.startFailed(err)
		}
	}
	// stderr is always read: into the log file when there is one, and
	// per round for RoundLog.
	errR, errW, err := os.Pipe()
	if err != nil {
		b.releaseFiles()
		return b.startFailed(err)
	}
	toClose = append(toClose, errW)
	b.stderr = errR

	cmd := &exec.Cmd{
		Path:   b.argv[0],
		Args:   b.argv,
		Dir:    b.opts.Dir,
		Env:    append(os.Environ(), "PYTHONUNBUFFERED=1"),
		Stdin:  inR,
		Stdout: outW,
	}
	if errW != nil {
		cmd.Stderr = errW
	}
	if err := b.tree.prepare(cmd); err != nil {
		b.releaseFiles()
		return b.startFailed(err)
	}
	if err := cmd.Start(); err != nil {
		b.tree.release()
		b.releaseFiles()
		return b.startFailed(err)
	}
	if err := b.tree.attach(cmd.Process); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		b.tree.release()
		b.releaseFiles()
		return b.startFailed(err)
	}
	b.cmd = cmd

	b.lines = make(chan lineEvent)
	b.writes = make(chan []byte, 1)
	b.written = make(chan error, 1)
	b.done = make(chan struct{})
	b.exited = make(chan struct{})
	b.wg.Add(3)
	go b.readLines()
	go b.writeLoop()
	go b.wait()
	if b.stderr != nil {
		b.stderrDone = make(chan struct{})
		b.syncAck = make(chan uint64, 4)
		b.wg.Add(1)
		go b.copyStderr()
	}

	// The start message is written in the background like every message;
	// a bot that died at once or does not read is reported by the first
	// exchange, like any other round failure.
	b.send(appendStart(nil, uid, seed, b.opts))
	return nil
}

// appendStart appends the start message of a bot playing as uid
// (docs/bot-protocol.md, "start"): one line, with its newline. A bot
// created for a game (Options.Game) is also told the game and its 0-based
// player, uid-1.
func appendStart(b []byte, uid int, seed uint64, o Options) []byte {
	b = append(b, `{"type":"start","protocol":`...)
	b = strconv.AppendInt(b, ProtocolVersion, 10)
	if o.Game != "" {
		b = append(b, `,"game":`...)
		b = strconv.AppendQuote(b, o.Game)
	}
	b = append(b, `,"uid":`...)
	b = strconv.AppendInt(b, int64(uid), 10)
	if o.Game != "" {
		b = append(b, `,"player":`...)
		b = strconv.AppendInt(b, int64(uid-1), 10)
	}
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, seed, 10)
	b = append(b, `,"max_turn":`...)
	b = strconv.AppendInt(b, int64(o.MaxTurn), 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, o.Deadline.Milliseconds(), 10)
	return append(b, "}\n"...)
}

func (b *Bot) startFailed(err error) error {
	b.closed = true
	return fmt.Errorf("bot: starting %q: %w", b.command, err)
}

// releaseFiles closes the runner's pipe ends and the log file.
func (b *Bot) releaseFiles() {
	for _, f := range []*os.File{b.stdin, b.stdout, b.stderr, b.logFile} {
		if f != nil {
			f.Close()
		}
	}
}

// send hands msg to writeLoop. Only one message is in flight at a time:
// call it only when b.writing is false.
func (b *Bot) send(msg []byte) {
	b.writing = true
	b.writes <- msg
}

// writeLoop writes the messages handed to it by send to the bot's stdin,
// reporting each write's result on b.written. A write blocks for as long as
// the bot does not read; an exchange waits for it no longer than its deadline,
// and the rest of the message is delivered before the next one. Close
// unblocks a pending write by closing the pipe.
func (b *Bot) writeLoop() {
	defer b.wg.Done()
	for {
		select {
		case msg := <-b.writes:
			_, err := b.stdin.Write(msg)
			b.written <- err // never blocks: one message in flight
		case <-b.done:
			return
		}
	}
}

// readLines reads the bot's stdout and sends it line by line on b.lines,
// until EOF, a read error or Close. A line longer than MaxLineBytes is
// reported once (as a flood event) as soon as it exceeds the limit, and the
// rest of it is read and dropped without being kept.
func (b *Bot) readLines() {
	defer b.wg.Done()
	defer close(b.lines)
	br := bufio.NewReaderSize(b.stdout, 64<<10)
	max := b.opts.MaxLineBytes
	var line []byte
	flooding := false
	send := func(ev lineEvent) bool {
		select {
		case b.lines <- ev:
			return true
		case <-b.done:
			return false
		}
	}
	for {
		chunk, err := br.ReadSlice('\n')
		complete := err == nil
		content := chunk
		if complete {
			content = chunk[:len(chunk)-1]
		}
		if !flooding {
			if len(line)+len(content) > max {
				flooding = true
				ex := append(line[:len(line):len(line)], content[:min(len(content), 64)]...)
				line = nil
				if !send(lineEvent{line: ex, flood: true}) {
					return
				}
			} else {
				line = append(line, content...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if complete || len(line) > 0 {
			if !flooding && !send(lineEvent{line: line}) {
				return
			}
		}
		line, flooding = nil, false
		if !complete {
			return // EOF, or the pipe was closed by Close
		}
	}
}

// copyStderr copies the bot's stderr into the log file (when there is
// one), up to MaxStderrLogBytes, and into the pending round log, and
// drains the rest. A read that fails on its deadline is syncStderr's
// request: it reads what the pipe holds without waiting, then answers.
func (b *Bot) copyStderr() {
	defer b.wg.Done()
	defer close(b.stderrDone)
	buf := make([]byte, 32<<10)
	written := 0
	cut := false
	use := func(p []byte) {
		if b.logFile != nil && !cut {
			want := min(len(p), MaxStderrLogBytes-written)
			k := b.opts.LogBudget.take(want)
			b.logFile.Write(p[:k])
			written += k
			switch {
			case written >= MaxStderrLogBytes:
				fmt.Fprintf(b.logFile, "\n[rewind: stderr log truncated at %d bytes]\n", MaxStderrLogBytes)
				cut = true
			case k < want:
				fmt.Fprintf(b.logFile, "\n[rewind: stderr log cut at %d bytes: the logs' budget of %d bytes is spent]\n", written, b.opts.LogBudget.size)
				cut = true
			}
		}
		b.logMu.Lock()
		b.split.split(p, b.logBytes, b.markLine)
		b.logMu.Unlock()
	}
	for {
		n, err := b.stderr.Read(buf)
		if n > 0 {
			use(buf[:n])
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				seq := b.syncSeq.Load()
				b.stderr.SetReadDeadline(time.Time{})
				readAvailable(b.stderr, buf, use)
				select {
				case b.syncAck <- seq:
				default:
				}
				continue
			}
			return
		}
	}
}

// logBytes adds p, stderr that is not a mark, to the pending round log
// (b.logMu held).
func (b *Bot) logBytes(p []byte) {
	if k := min(len(p), match.MaxRoundLog-len(b.pending)); k > 0 {
		b.pending = append(b.pending, p[:k]...)
	}
	b.pendingTotal += int64(len(p))
}

// markLine adds a mark's text (a stderr line after match.MarkPrefix) to
// the pending marks, or counts it past engine.MaxBotMarks (b.logMu
// held).
func (b *Bot) markLine(text []byte) {
	if len(b.pendingMarks) >= engine.MaxBotMarks {
		b.marksDropped++
		return
	}
	b.pendingMarks = append(b.pendingMarks, bytes.Clone(text))
}

// markSplit splits a bot's stderr into lines: those that start with
// match.MarkPrefix are marks (their text after it, the line's end and a
// carriage return before it left out, at most match.MaxMarkLine+1 bytes
// kept: one more says it was longer), the rest is the log, byte for
// byte.
type markSplit struct {
	mode splitMode
	head []byte // at a line's start: what of it was read, a prefix of match.MarkPrefix
	line []byte // in a mark: its text so far
}

type splitMode uint8

const (
	atLineStart splitMode = iota
	inLogLine
	inMarkLine
	skipMarkLine // the rest of a mark line cut by the round's end
)

// split sends p's bytes to log and each whole mark's text to mark.
func (s *markSplit) split(p []byte, log, mark func([]byte)) {
	for len(p) > 0 {
		switch s.mode {
		case atLineStart:
			if p[0] == match.MarkPrefix[len(s.head)] {
				s.head, p = append(s.head, p[0]), p[1:]
				if len(s.head) == len(match.MarkPrefix) {
					s.mode, s.head, s.line = inMarkLine, s.head[:0], s.line[:0]
				}
				continue
			}
			if len(s.head) > 0 {
				log(s.head)
				s.head = s.head[:0]
			}
			s.mode = inLogLine
		case inLogLine:
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				log(p)
				return
			}
			log(p[:i+1])
			p, s.mode = p[i+1:], atLineStart
		case inMarkLine, skipMarkLine:
			i := bytes.IndexByte(p, '\n')
			chunk := p
			if i >= 0 {
				chunk = p[:i]
			}
			if s.mode == inMarkLine {
				s.line = append(s.line, chunk[:min(len(chunk), match.MaxMarkLine+1-len(s.line))]...)
			}
			if i < 0 {
				return
			}
			if s.mode == inMarkLine {
				mark(bytes.TrimSuffix(s.line, []byte("\r")))
			}
			p, s.mode = p[i+1:], atLineStart
		}
	}
}

// roundEnd ends what the round's stderr began: a line's start that may
// have been a mark goes to log (the line goes on as a log line), a mark
// cut short is a mark (the rest of its line is dropped).
func (s *markSplit) roundEnd(log, mark func([]byte)) {
	switch s.mode {
	case atLineStart:
		if len(s.head) > 0 {
			log(s.head)
			s.head, s.mode = s.head[:0], inLogLine
		}
	case inMarkLine:
		mark(s.line)
		s.mode = skipMarkLine
	}
}

// syncStderr returns once copyStderr has taken everything the bot wrote
// to stderr before the call (what the pipe holds), so that a round's log
// holds exactly what the bot wrote before its reply. Where a pipe has no
// deadlines (Windows) it returns at once: the log is then what was read
// so far.
func (b *Bot) syncStderr() {
	if b.stderr == nil || b.stderrDone == nil {
		return
	}
	select {
	case <-b.stderrDone:
		return
	default:
	}
	seq := b.syncSeq.Add(1)
	if err := b.stderr.SetReadDeadline(time.Now()); err != nil {
		return
	}
	t := time.NewTimer(b.drainTimeout)
	defer t.Stop()
	for {
		select {
		case s := <-b.syncAck:
			if s >= seq {
				return
			}
		case <-b.stderrDone:
			return
		case <-t.C:
			return
		}
	}
}

// takeLog empties the pending round log into dst: what was kept, and when
// the bot wrote more than match.MaxRoundLog bytes, its head and a line
// "… [N bytes cut]", match.MaxRoundLog bytes in all. nil when the bot wrote
// nothing.
func (b *Bot) takeLog(dst []byte) []byte {
	b.logMu.Lock()
	defer b.logMu.Unlock()
	b.split.roundEnd(b.logBytes, b.markLine)
	dst = match.CutLog(dst[:0], b.pending, b.pendingTotal)
	b.pending, b.pendingTotal = b.pending[:0], 0
	b.roundMarks, b.roundDropped = append(b.roundMarks[:0], b.pendingMarks...), b.marksDropped
	clear(b.pendingMarks)
	b.pendingMarks, b.marksDropped = b.pendingMarks[:0], 0
	if len(dst) == 0 {
		return nil
	}
	return dst
}

// RoundLog returns what the bot wrote to stderr while it was last asked
// for commands — from the moment the exchange sent the turn message to
// the reply or the deadline —, cut past match.MaxRoundLog bytes: a longer log
// keeps its head and ends in a line "… [N bytes cut]". nil when it wrote
// nothing. It is valid until the next exchange.
func (b *Bot) RoundLog() []byte { return b.roundLog }

// RoundMarks returns the marks the bot drew while it was last asked for
// commands (match.Marker): the text after match.MarkPrefix of each
// stderr line that starts with it, written in the same span as RoundLog's
// (such lines are not in the log), at most engine.MaxBotMarks, and how
// many more it wrote. Valid until the next exchange.
func (b *Bot) RoundMarks() (lines [][]byte, dropped int) { return b.roundMarks, b.roundDropped }

// wait waits for the bot process, then kills and reaps what is left of its
// process tree, and closes b.exited.
func (b *Bot) wait() {
	defer b.wg.Done()
	err := b.cmd.Wait()
	b.tree.reap(b.reapTimeout)
	b.waitErr = err
	close(b.exited)
}

// exitError builds the permanent error once the process is gone (or waits
// a little for it to go); cause explains how it was noticed when the exit
// status is not available.
func (b *Bot) exitError(cause error) error {
	t := time.NewTimer(b.drainTimeout)
	defer t.Stop()
	select {
	case <-b.exited:
		status := "exit status 0"
		if b.waitErr != nil {
			status = b.waitErr.Error()
		}
		return fmt.Errorf("%w: %s", ErrBotExited, status)
	case <-t.C:
		return fmt.Errorf("%w: %v", ErrBotExited, cause)
	}
}

// exchange sends the turn message that encode appends to a buffer and
// waits for the reply to turn; what the bot writes to stderr meanwhile
// becomes the round log. See Bot for the error contract; on error the
// commands are nil.
func (b *Bot) exchange(turn int, encode func([]byte) []byte) ([]string, error) {
	b.syncStderr()
	b.logMu.Lock() // written between rounds: not this round's
	b.pending, b.pendingTotal = b.pending[:0], 0
	clear(b.pendingMarks)
	b.pendingMarks, b.marksDropped = b.pendingMarks[:0], 0
	b.logMu.Unlock()
	b.roundLog = nil
	b.roundMarks, b.roundDropped = b.roundMarks[:0], 0
	cmds, err := b.exchangeTurn(turn, encode)
	b.syncStderr()
	b.roundLog = b.takeLog(b.logBuf[:0])
	if b.roundLog != nil {
		b.logBuf = b.roundLog
	}
	return cmds, err
}

// exchangeTurn is exchange without the round log.
func (b *Bot) exchangeTurn(turn int, encode func([]byte) []byte) ([]string, error) {
	if b.fatal != nil {
		return nil, b.fatal
	}
	if b.closed {
		return nil, fmt.Errorf("%w: bot was closed", ErrBotExited)
	}
	if !b.started {
		return nil, fmt.Errorf("bot: asked for commands before Start")
	}
	d := b.opts.Deadline
	if b.turns == 0 {
		d += b.opts.StartupGrace
	}
	deadline := time.Now().Add(d)
	timer := time.NewTimer(d)
	defer timer.Stop()
	b.turns++

	// Drop what arrived since the last call: late replies (owed) and
	// unsolicited lines. A bot that keeps printing cannot hold us here
	// past the deadline.
	for drained := 0; ; drained++ {
		if drained%64 == 63 && time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: turn %d: bot keeps writing unrequested lines", ErrTimeout, turn)
		}
		select {
		case _, ok := <-b.lines:
			if !ok {
				return nil, b.die(errors.New("bot closed its standard output"))
			}
			if b.owed > 0 {
				b.owed--
			}
			continue
		case <-b.exited:
			return nil, b.die(nil)
		default:
		}
		break
	}

	// An earlier message may still be on its way to a bot that reads
	// slowly: it is delivered first, within this round's deadline, or this
	// round's message is not sent at all.
	if b.writing {
		select {
		case err := <-b.written:
			b.writing = false
			if err != nil {
				return nil, b.die(fmt.Errorf("writing to the bot: %w", err))
			}
		case <-b.exited:
			return nil, b.die(nil)
		case <-timer.C:
			return nil, fmt.Errorf("%w: turn %d: bot did not read its input within the deadline", ErrTimeout, turn)
		}
	}
	b.buf = encode(b.buf[:0])
	b.owed++
	b.send(b.buf)

	for {
		var written <-chan error
		if b.writing {
			written = b.written
		}
		select {
		case err := <-written:
			b.writing = false
			if err != nil {
				return nil, b.die(fmt.Errorf("writing turn %d: %w", turn, err))
			}
		case ev, ok := <-b.lines:
			if !ok {
				return nil, b.die(errors.New("bot closed its standard output"))
			}
			cmds, stale, err := b.handleLine(ev, turn)
			if stale {
				continue
			}
			return cmds, err
		case <-b.exited:
			// Use a reply the bot wrote before dying, then report the exit
			// on the next call.
			cmds, err := b.drainAfterExit(turn)
			if err == nil && cmds != nil {
				return cmds, nil
			}
			return nil, b.die(nil)
		case <-timer.C:
			if b.writing {
				return nil, fmt.Errorf("%w: turn %d: bot did not read its input within the deadline", ErrTimeout, turn)
			}
			return nil, fmt.Errorf("%w: no reply to turn %d within %v", ErrTimeout, turn, d)
		}
	}
}

// handleLine interprets one stdout line while waiting for the reply to turn.
// stale reports a line that answers an earlier turn (and is dropped).
func (b *Bot) handleLine(ev lineEvent, turn int) (cmds []string, stale bool, err error) {
	if ev.flood {
		if b.owed > 1 {
			b.owed--
			return nil, true, nil
		}
		b.owed = 0
		return nil, false, fmt.Errorf("%w: turn %d: reply line longer than %d bytes: %s",
			ErrFlood, turn, b.opts.MaxLineBytes, excerpt(ev.line))
	}
	if len(bytes.TrimSpace(ev.line)) == 0 {
		return nil, true, nil // blank lines are ignored
	}
	cmds, echo, err := parseReply(ev.line, b.opts.Game != "")
	if err == nil && b.playsEngineGame() && !b.ownMessages {
		unquoteStrings(cmds)
	}
	if echo >= 0 && err == nil {
		switch {
		case echo < turn:
			if b.owed > 1 {
				b.owed--
			}
			return nil, true, nil
		case echo > turn:
			b.owed = 0
			return nil, false, fmt.Errorf("%w: turn %d: reply is for turn %d", ErrBadReply, turn, echo)
		}
		b.owed = 0
		return cmds, false, nil
	}
	if b.owed > 1 {
		b.owed--
		return nil, true, nil
	}
	b.owed = 0
	if err != nil {
		return nil, false, fmt.Errorf("turn %d: %w", turn, err)
	}
	return cmds, false, nil
}

// drainAfterExit reads the output the bot wrote before exiting, looking for
// the reply to turn. It returns (nil, nil) if there is none.
func (b *Bot) drainAfterExit(turn int) ([]string, error) {
	timer := time.NewTimer(b.drainTimeout)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-b.lines:
			if !ok {
				return nil, nil
			}
			cmds, stale, err := b.handleLine(ev, turn)
			if stale {
				continue
			}
			return cmds, err
		case <-timer.C:
			return nil, nil
		}
	}
}

// die records the permanent error of a dead or broken bot and returns it.
func (b *Bot) die(cause error) error {
	if cause == nil {
		cause = errors.New("process ended")
	}
	b.fatal = b.exitError(cause)
	return b.fatal
}

// reply is the shape of a reply line.
type reply struct {
	CmdList json.RawMessage `json:"cmd_list"`
	Turn    *int            `json:"turn"`
}

// parseReply decodes a reply line. echo is the "turn" field, or -1. Errors
// wrap ErrBadReply or ErrFlood.
//
// With objects set (a bot created for a game: Options.Game), the elements
// of cmd_list may be any JSON value: each element's JSON text is one
// command, for the ruleset's parser to accept or reject on its own.
// Without, every element must be a string, its text the command.
func parseReply(line []byte, objects bool) (cmds []string, echo int, err error) {
	echo = -1
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && ute.Field != "" {
			return nil, -1, fmt.Errorf("%w: field %q has the wrong type (%s): %s", ErrBadReply, ute.Field, ute.Value, excerpt(line))
		}
		return nil, -1, fmt.Errorf("%w: not a JSON object (%v): %s", ErrBadReply, err, excerpt(line))
	}
	if r.Turn != nil {
		echo = *r.Turn
	}
	if len(r.CmdList) == 0 {
		return nil, echo, fmt.Errorf("%w: no \"cmd_list\": %s", ErrBadReply, excerpt(line))
	}
	if r.CmdList[0] != '[' {
		return nil, echo, fmt.Errorf("%w: \"cmd_list\" is not an array of strings: %s", ErrBadReply, excerpt(line))
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(r.CmdList, &raw); err != nil {
		return nil, echo, fmt.Errorf("%w: \"cmd_list\" is not an array: %s", ErrBadReply, excerpt(line))
	}
	if len(raw) > MaxCommands {
		return nil, echo, fmt.Errorf("%w: %d commands, at most %d", ErrFlood, len(raw), MaxCommands)
	}
	cmds = make([]string, 0, len(raw))
	for i, m := range raw {
		if objects {
			if len(m) > MaxCommandBytes {
				return nil, echo, fmt.Errorf("%w: command %d is %d bytes long, at most %d", ErrFlood, i, len(m), MaxCommandBytes)
			}
			cmds = append(cmds, string(m))
			continue
		}
		if len(m) == 0 || m[0] != '"' {
			return nil, echo, fmt.Errorf("%w: command %d is not a string: %s", ErrBadReply, i, excerpt(m))
		}
		var s string
		if err := json.Unmarshal(m, &s); err != nil {
			return nil, echo, fmt.Errorf("%w: command %d: %v", ErrBadReply, i, err)
		}
		if len(s) > MaxCommandBytes {
			return nil, echo, fmt.Errorf("%w: command %d is %d bytes long, at most %d", ErrFlood, i, len(s), MaxCommandBytes)
		}
		cmds = append(cmds, s)
	}
	return cmds, echo, nil
}

// excerpt quotes the start of b for an error message.
func excerpt(b []byte) string {
	const n = 60
	if len(b) <= n {
		return strconv.Quote(string(b))
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strconv.Quote(string(b[:cut])) + "..."
}

// Close ends the bot: it closes the bot's stdin (the signal to exit), waits
// up to 100ms, kills the whole process tree, reaps it, stops the background
// goroutines and closes the pipes and the stderr log. A bot that has not
// read all of its input is killed at once. Later calls do
// nothing and return nil. Close returns an error only if the stderr log
// could not be closed.
func (b *Bot) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.started || b.cmd == nil {
		return nil
	}
	if b.writing {
		select {
		case <-b.written:
			b.writing = false
		default:
			// A message is still being written: the bot is not reading its
			// input, so it would not see end-of-file either. Kill it first,
			// so that closing the pipe never waits for the blocked write
			// (on Windows pipes are synchronous).
			b.tree.kill()
		}
	}
	b.stdin.Close()
	grace := time.NewTimer(b.closeGrace)
	select {
	case <-b.exited:
	case <-grace.C:
		b.tree.kill()
		<-b.exited
	}
	grace.Stop()
	// The whole tree is gone, so the stderr pipe reaches EOF once its
	// content is copied, unless a process that escaped the tree holds it.
	if b.stderr != nil {
		drain := time.NewTimer(b.drainTimeout)
		select {
		case <-b.stderrDone:
		case <-drain.C:
		}
		drain.Stop()
	}
	close(b.done)
	b.stdout.Close()
	if b.stderr != nil {
		b.stderr.Close()
	}
	b.wg.Wait()
	if b.logFile != nil {
		return b.logFile.Close()
	}
	return nil
}

// LogBudget is a number of bytes of stderr logs that many bots share
// (Options.LogBudget), so that the logs of many games (a tournament's)
// stay within a disk budget. It is safe for concurrent use.
type LogBudget struct {
	size int64
	left atomic.Int64
}

// NewLogBudget returns a budget of size bytes.
func NewLogBudget(size int64) *LogBudget {
	b := &LogBudget{size: size}
	b.left.Store(size)
	return b
}

// take takes up to n bytes from the budget and returns how many it took
// (all of n from a nil budget).
func (b *LogBudget) take(n int) int {
	if b == nil {
		return n
	}
	for {
		left := b.left.Load()
		k := min(int64(n), max(left, 0))
		if b.left.CompareAndSwap(left, left-k) {
			return int(k)
		}
	}
}
