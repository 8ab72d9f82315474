package bot

// External bots: a player implemented by a subprocess speaking JSON lines.
// The protocol is specified in docs/bot-protocol.md; this file is its
// reference implementation on the runner side.

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
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// ProtocolVersion is the version of the external bot protocol sent in the
// start message ("protocol"). It changes only on incompatible changes.
const ProtocolVersion = 1

// Limits and defaults of external bots.
const (
	// DefaultDeadline is the time a bot has to answer a turn message when
	// ExternalOptions.Deadline is zero.
	DefaultDeadline = time.Second
	// DefaultStartupGrace is the extra time allowed for the first turn's
	// reply (process start-up, interpreter and library loading) when
	// ExternalOptions.StartupGrace is zero.
	DefaultStartupGrace = 2 * time.Second
	// DefaultMaxLineBytes bounds a reply line when
	// ExternalOptions.MaxLineBytes is zero.
	DefaultMaxLineBytes = 1 << 20
	// MaxCommands is the largest number of commands one reply may carry.
	MaxCommands = 10000
	// MaxCommandBytes is the longest command string a reply may carry.
	MaxCommandBytes = 1024
	// MaxStderrLogBytes bounds what is written to ExternalOptions.StderrLog;
	// the rest of the bot's stderr is read and discarded.
	MaxStderrLogBytes = 16 << 20
	// closeGrace is how long Close waits after closing the bot's stdin
	// before killing its process group.
	closeGrace = 100 * time.Millisecond
	// reapTimeout bounds how long the runner keeps killing and reaping a
	// dead bot's process group.
	reapTimeout = 2 * time.Second
	// drainTimeout bounds how long, once the bot exited, the runner still
	// waits for output it wrote before dying.
	drainTimeout = time.Second
)

// Sentinel errors of external bots. Errors returned by External wrap
// exactly one of them (test with errors.Is) and add context: the turn, the
// limit, a short quoted excerpt of a bad line, the exit status.
var (
	// ErrTimeout: no reply within the deadline (or the bot did not read its
	// input in time). That round the bot sends no commands; its late reply
	// is discarded when it arrives. The bot stays usable.
	ErrTimeout = errors.New("bot timed out")
	// ErrBotExited: the process exited, crashed or closed its pipes. The
	// error is permanent: every later Commands call returns the same error.
	ErrBotExited = errors.New("bot exited")
	// ErrBadReply: the reply line is not a JSON object with a "cmd_list"
	// array of strings, or echoes a turn from the future. The bot stays
	// usable.
	ErrBadReply = errors.New("bad bot reply")
	// ErrFlood: the reply line is longer than MaxLineBytes, or carries more
	// than MaxCommands commands or a command longer than MaxCommandBytes.
	// The whole reply is rejected; the bot stays usable.
	ErrFlood = errors.New("bot reply too large")
)

// ExternalOptions configures an external bot. The zero value is usable.
type ExternalOptions struct {
	// Deadline is the time the bot has to answer each turn message,
	// counted from the moment Commands is called (writing the message
	// included). Zero means DefaultDeadline.
	Deadline time.Duration
	// StartupGrace is added to the deadline of the first turn only, to
	// cover process start-up. Zero means DefaultStartupGrace; a negative
	// value means no grace.
	StartupGrace time.Duration
	// StderrLog is the path of a file that receives the bot's stderr
	// (created or truncated by Start, at most MaxStderrLogBytes are kept).
	// Empty means stderr is discarded.
	StderrLog string
	// MaxLineBytes bounds the length of one reply line (without its
	// newline). Zero means DefaultMaxLineBytes.
	MaxLineBytes int
	// Dir is the bot's working directory; empty means the runner's.
	Dir string
	// MaxTurn is the game's max_turn, sent to the bot in "info". Zero
	// means colorfight2.DefaultMaxTurn.
	MaxTurn int
}

// External is a Bot played by a subprocess speaking the JSON-lines protocol
// of docs/bot-protocol.md on its stdin and stdout.
//
// Contracts:
//   - Start launches the process in its own process group and sends the
//     start message. Commands sends one turn message and waits at most the
//     deadline for one reply line. Close closes the bot's stdin, waits
//     100ms, kills the whole process group with SIGKILL, reaps it and
//     releases every goroutine, pipe and file. Close is idempotent.
//   - Failures are returned as errors wrapping ErrTimeout, ErrBadReply,
//     ErrFlood (the bot stays usable: next round is answered normally) or
//     ErrBotExited (permanent: every later Commands returns the same error
//     at once). A failing round always returns nil commands. Nothing
//     panics on any bot output.
//   - Replies are matched to turns: a reply that arrives after its
//     deadline is discarded, never used for a later turn (replies are
//     counted, and an optional "turn" echo is honoured).
//   - Memory is bounded by MaxLineBytes per line read; the bot's output is
//     read by one goroutine, its stderr (when logged) by another, and the
//     process is waited for by a third; all end by Close.
//   - To reap grandchildren whose parent died, Start marks the runner
//     process as a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER):
//     orphans of descendants are reparented to the runner instead of init.
//     A bot that leaves its process group (setsid, setpgid) escapes this.
//
// Like every Bot, an External is not safe for concurrent use; the
// background goroutines are internal.
type External struct {
	command string
	argv    []string
	opts    ExternalOptions

	started bool
	closed  bool
	uid     int
	turns   int // turn messages sent

	cmd     *exec.Cmd
	pgid    int
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File // read end of the stderr pipe, nil when discarded
	logFile *os.File
	pending []byte // unwritten rest of a turn message
	owed    int    // replies owed by the bot for messages sent
	buf     []byte // encoding buffer

	lines   chan lineEvent
	done    chan struct{} // closed by Close: background goroutines stop
	exited  chan struct{} // closed once the process is reaped
	waitErr error         // valid after exited is closed
	wg      sync.WaitGroup
	fatal   error // permanent error (process gone)
}

// lineEvent is one line of the bot's stdout.
type lineEvent struct {
	line  []byte
	flood bool // the line exceeded MaxLineBytes; line is an excerpt
}

var _ Bot = (*External)(nil)

// NewExternal prepares an external bot running command, a command line
// split into words on spaces and tabs with simple quoting ('single quotes'
// keep everything literally, "double quotes" allow \" and \\, a backslash
// outside quotes escapes the next character). The program is run directly
// (no shell); a program name without a slash is looked up in PATH. The
// process is started by Start. NewExternal fails on an empty or badly
// quoted command line or a program that cannot be found.
func NewExternal(command string, opts ExternalOptions) (*External, error) {
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
	if opts.MaxTurn <= 0 {
		opts.MaxTurn = colorfight2.DefaultMaxTurn
	}
	prog := argv[0]
	if !strings.Contains(prog, "/") {
		p, err := exec.LookPath(prog)
		if err != nil {
			return nil, fmt.Errorf("bot: command %q: %w", command, err)
		}
		argv[0] = p
	} else {
		p := prog
		if !filepath.IsAbs(p) && opts.Dir != "" {
			p = filepath.Join(opts.Dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("bot: command %q: %w", command, err)
		}
	}
	return &External{command: command, argv: argv, opts: opts}, nil
}

// splitCommand splits a command line into words (see NewExternal).
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
func (e *External) Name() string { return e.command }

var subreaperOnce sync.Once

// becomeSubreaper makes orphaned descendants children of this process, so
// that a bot's grandchildren can be reaped after the bot dies.
func becomeSubreaper() {
	subreaperOnce.Do(setSubreaper)
}

// Start launches the bot process and sends it the start message. It fails
// if called twice, after Close, or if the process cannot be started; on
// failure nothing is left running.
func (e *External) Start(uid int, seed uint64) (err error) {
	if e.closed {
		return fmt.Errorf("bot: Start after Close")
	}
	if e.started {
		return fmt.Errorf("bot: Start called twice")
	}
	e.started = true
	e.uid = uid
	becomeSubreaper()

	var toClose []*os.File
	defer func() {
		for _, f := range toClose {
			f.Close()
		}
	}()
	inR, inW, err := os.Pipe()
	if err != nil {
		return e.startFailed(err)
	}
	toClose = append(toClose, inR)
	outR, outW, err := os.Pipe()
	if err != nil {
		inW.Close()
		return e.startFailed(err)
	}
	toClose = append(toClose, outW)
	e.stdin, e.stdout = inW, outR
	var errW *os.File
	if e.opts.StderrLog != "" {
		e.logFile, err = os.OpenFile(e.opts.StderrLog, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
		if err != nil {
			e.releaseFiles()
			return e.startFailed(err)
		}
		var errR *os.File
		errR, errW, err = os.Pipe()
		if err != nil {
			e.releaseFiles()
			return e.startFailed(err)
		}
		toClose = append(toClose, errW)
		e.stderr = errR
	}

	cmd := &exec.Cmd{
		Path:        e.argv[0],
		Args:        e.argv,
		Dir:         e.opts.Dir,
		Env:         append(os.Environ(), "PYTHONUNBUFFERED=1"),
		Stdin:       inR,
		Stdout:      outW,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	if errW != nil {
		cmd.Stderr = errW
	}
	if err := cmd.Start(); err != nil {
		e.releaseFiles()
		return e.startFailed(err)
	}
	e.cmd = cmd
	e.pgid = cmd.Process.Pid

	e.lines = make(chan lineEvent)
	e.done = make(chan struct{})
	e.exited = make(chan struct{})
	e.wg.Add(2)
	go e.readLines()
	go e.wait()
	if e.stderr != nil {
		e.wg.Add(1)
		go e.copyStderr()
	}

	msg := fmt.Appendf(nil, `{"type":"start","protocol":%d,"uid":%d,"seed":%d,"max_turn":%d,"deadline_ms":%d}`+"\n",
		ProtocolVersion, uid, seed, e.opts.MaxTurn, e.opts.Deadline.Milliseconds())
	e.stdin.SetWriteDeadline(time.Now().Add(e.opts.Deadline))
	if _, err := e.stdin.Write(msg); err != nil {
		// The bot died at once or does not read: report it on the first
		// Commands call rather than here, like any other round failure,
		// unless the process is already gone.
		if errors.Is(err, syscall.EPIPE) {
			e.fatal = e.exitError(fmt.Errorf("writing start message: %w", err))
		}
	}
	return nil
}

func (e *External) startFailed(err error) error {
	e.closed = true
	return fmt.Errorf("bot: starting %q: %w", e.command, err)
}

// releaseFiles closes the runner's pipe ends and the log file.
func (e *External) releaseFiles() {
	for _, f := range []*os.File{e.stdin, e.stdout, e.stderr, e.logFile} {
		if f != nil {
			f.Close()
		}
	}
}

// readLines reads the bot's stdout and sends it line by line on e.lines,
// until EOF, a read error or Close. A line longer than MaxLineBytes is
// reported once (as a flood event) as soon as it exceeds the limit, and the
// rest of it is read and dropped without being kept.
func (e *External) readLines() {
	defer e.wg.Done()
	defer close(e.lines)
	br := bufio.NewReaderSize(e.stdout, 64<<10)
	max := e.opts.MaxLineBytes
	var line []byte
	flooding := false
	send := func(ev lineEvent) bool {
		select {
		case e.lines <- ev:
			return true
		case <-e.done:
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

// copyStderr copies the bot's stderr into the log file, up to
// MaxStderrLogBytes, and drains the rest.
func (e *External) copyStderr() {
	defer e.wg.Done()
	buf := make([]byte, 32<<10)
	written := 0
	for {
		n, err := e.stderr.Read(buf)
		if n > 0 && written < MaxStderrLogBytes {
			k := min(n, MaxStderrLogBytes-written)
			e.logFile.Write(buf[:k])
			written += k
			if written >= MaxStderrLogBytes {
				fmt.Fprintf(e.logFile, "\n[rewind: stderr log truncated at %d bytes]\n", MaxStderrLogBytes)
			}
		}
		if err != nil {
			return
		}
	}
}

// wait waits for the bot process, then kills and reaps what is left of its
// process group, and closes e.exited.
func (e *External) wait() {
	defer e.wg.Done()
	err := e.cmd.Wait()
	syscall.Kill(-e.pgid, syscall.SIGKILL)
	reapGroup(e.pgid)
	e.waitErr = err
	close(e.exited)
}

// reapGroup kills and reaps the members of process group pgid that are
// children of this process (orphans reparented to it as subreaper), until
// the group is empty or reapTimeout passes. Call it only after the group
// leader has been waited for.
func reapGroup(pgid int) {
	limit := time.Now().Add(reapTimeout)
	for {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil || pid <= 0 {
				break
			}
		}
		if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH || time.Now().After(limit) {
			return
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		time.Sleep(2 * time.Millisecond)
	}
}

// exitError builds the permanent error once the process is gone (or waits
// a little for it to go); cause explains how it was noticed when the exit
// status is not available.
func (e *External) exitError(cause error) error {
	select {
	case <-e.exited:
		status := "exit status 0"
		if e.waitErr != nil {
			status = e.waitErr.Error()
		}
		return fmt.Errorf("%w: %s", ErrBotExited, status)
	case <-time.After(drainTimeout):
		return fmt.Errorf("%w: %v", ErrBotExited, cause)
	}
}

// Commands sends the turn message for frame f and returns the commands of
// the bot's reply. See External for the error contract; on error the
// commands are nil. f is encoded before Commands returns and not retained.
func (e *External) Commands(f *colorfight2.Frame) ([]string, error) {
	if e.fatal != nil {
		return nil, e.fatal
	}
	if e.closed {
		return nil, fmt.Errorf("%w: bot was closed", ErrBotExited)
	}
	if !e.started {
		return nil, fmt.Errorf("bot: Commands before Start")
	}
	d := e.opts.Deadline
	if e.turns == 0 {
		d += e.opts.StartupGrace
	}
	deadline := time.Now().Add(d)
	e.turns++

	// Drop what arrived since the last call: late replies (owed) and
	// unsolicited lines. A bot that keeps printing cannot hold us here
	// past the deadline.
	for drained := 0; ; drained++ {
		if drained%64 == 63 && time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: turn %d: bot keeps writing unrequested lines", ErrTimeout, f.Turn)
		}
		select {
		case _, ok := <-e.lines:
			if !ok {
				return nil, e.die(errors.New("bot closed its standard output"))
			}
			if e.owed > 0 {
				e.owed--
			}
			continue
		case <-e.exited:
			return nil, e.die(nil)
		default:
		}
		break
	}

	// Send the turn message (after the rest of an earlier one, if the bot
	// had not read it all).
	e.stdin.SetWriteDeadline(deadline)
	if len(e.pending) > 0 {
		n, err := e.stdin.Write(e.pending)
		e.pending = e.pending[n:]
		if err != nil {
			return nil, e.writeFailed(f.Turn, err)
		}
	}
	e.buf = appendTurn(e.buf[:0], f, e.uid, e.opts)
	e.owed++
	n, err := e.stdin.Write(e.buf)
	if err != nil {
		if n == 0 {
			e.owed-- // nothing of this message was sent: it is dropped
		} else {
			e.pending = append(e.pending[:0], e.buf[n:]...)
		}
		return nil, e.writeFailed(f.Turn, err)
	}

	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-e.lines:
			if !ok {
				return nil, e.die(errors.New("bot closed its standard output"))
			}
			cmds, stale, err := e.handleLine(ev, f.Turn)
			if stale {
				continue
			}
			return cmds, err
		case <-e.exited:
			// Use a reply the bot wrote before dying, then report the exit
			// on the next call.
			cmds, err := e.drainAfterExit(f.Turn)
			if err == nil && cmds != nil {
				return cmds, nil
			}
			return nil, e.die(nil)
		case <-timer.C:
			return nil, fmt.Errorf("%w: no reply to turn %d within %v", ErrTimeout, f.Turn, d)
		}
	}
}

// handleLine interprets one stdout line while waiting for the reply to turn.
// stale reports a line that answers an earlier turn (and is dropped).
func (e *External) handleLine(ev lineEvent, turn int) (cmds []string, stale bool, err error) {
	if ev.flood {
		if e.owed > 1 {
			e.owed--
			return nil, true, nil
		}
		e.owed = 0
		return nil, false, fmt.Errorf("%w: turn %d: reply line longer than %d bytes: %s",
			ErrFlood, turn, e.opts.MaxLineBytes, excerpt(ev.line))
	}
	if len(bytes.TrimSpace(ev.line)) == 0 {
		return nil, true, nil // blank lines are ignored
	}
	cmds, echo, err := parseReply(ev.line)
	if echo >= 0 && err == nil {
		switch {
		case echo < turn:
			if e.owed > 1 {
				e.owed--
			}
			return nil, true, nil
		case echo > turn:
			e.owed = 0
			return nil, false, fmt.Errorf("%w: turn %d: reply is for turn %d", ErrBadReply, turn, echo)
		}
		e.owed = 0
		return cmds, false, nil
	}
	if e.owed > 1 {
		e.owed--
		return nil, true, nil
	}
	e.owed = 0
	if err != nil {
		return nil, false, fmt.Errorf("turn %d: %w", turn, err)
	}
	return cmds, false, nil
}

// drainAfterExit reads the output the bot wrote before exiting, looking for
// the reply to turn. It returns (nil, nil) if there is none.
func (e *External) drainAfterExit(turn int) ([]string, error) {
	timer := time.NewTimer(drainTimeout)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-e.lines:
			if !ok {
				return nil, nil
			}
			cmds, stale, err := e.handleLine(ev, turn)
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
func (e *External) die(cause error) error {
	if cause == nil {
		cause = errors.New("process ended")
	}
	e.fatal = e.exitError(cause)
	return e.fatal
}

// writeFailed turns a failed write of the turn message into an error.
func (e *External) writeFailed(turn int, err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: turn %d: bot did not read its input within the deadline", ErrTimeout, turn)
	}
	return e.die(fmt.Errorf("writing turn %d: %w", turn, err))
}

// reply is the shape of a reply line.
type reply struct {
	CmdList json.RawMessage `json:"cmd_list"`
	Turn    *int            `json:"turn"`
}

// parseReply decodes a reply line. echo is the "turn" field, or -1. Errors
// wrap ErrBadReply or ErrFlood.
func parseReply(line []byte) (cmds []string, echo int, err error) {
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

// appendTurn appends the turn message for f (one line, with its newline).
func appendTurn(b []byte, f *colorfight2.Frame, uid int, o ExternalOptions) []byte {
	b = append(b, `{"type":"turn","turn":`...)
	b = strconv.AppendInt(b, int64(f.Turn), 10)
	b = append(b, `,"uid":`...)
	b = strconv.AppendInt(b, int64(uid), 10)
	b = append(b, `,"info":{"max_turn":`...)
	b = strconv.AppendInt(b, int64(o.MaxTurn), 10)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(f.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(f.Height), 10)
	b = append(b, `,"deadline_ms":`...)
	b = strconv.AppendInt(b, o.Deadline.Milliseconds(), 10)
	b = append(b, `},"users":{`...)
	for i := range f.Users {
		u := &f.Users[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, u.UID, 10)
		b = append(b, `":{"uid":`...)
		b = strconv.AppendInt(b, u.UID, 10)
		b = append(b, `,"username":`...)
		name, _ := json.Marshal(u.Username) // cannot fail for a string
		b = append(b, name...)
		b = append(b, `,"energy":`...)
		b = strconv.AppendInt(b, u.Energy, 10)
		b = append(b, `,"gold":`...)
		b = strconv.AppendInt(b, u.Gold, 10)
		b = append(b, `,"dead":`...)
		b = strconv.AppendBool(b, u.Dead)
		b = append(b, `,"energy_source":`...)
		b = strconv.AppendInt(b, u.EnergySource, 10)
		b = append(b, `,"gold_source":`...)
		b = strconv.AppendInt(b, u.GoldSource, 10)
		b = append(b, `,"tech_level":`...)
		b = strconv.AppendInt(b, u.TechLevel, 10)
		b = append(b, `,"tax_level":`...)
		b = strconv.AppendInt(b, u.TaxLevel, 10)
		b = append(b, `,"tax_amount":`...)
		b = strconv.AppendInt(b, u.TaxAmount, 10)
		b = append(b, `,"building_number":{`...)
		first := true
		for _, bt := range u.BuildingOrder {
			if bt == colorfight2.BuildingNone || bt >= colorfight2.NumBuildings {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, bt.Key()...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, u.Buildings[bt], 10)
		}
		b = append(b, `},"cell_number":`...)
		b = strconv.AppendInt(b, u.CellNumber, 10)
		b = append(b, '}')
	}
	b = append(b, `},"game_map":{"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"],"data":[`...)
	for y := 0; y < f.Height; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < f.Width; x++ {
			if x > 0 {
				b = append(b, ',')
			}
			c := &f.Cells[y*f.Width+x]
			b = append(b, '[')
			b = strconv.AppendInt(b, c.AttackCost, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.ForceField, 10)
			b = append(b, `,["`...)
			b = append(b, c.Building.Letter())
			b = append(b, `",`...)
			b = strconv.AppendInt(b, c.Level, 10)
			b = append(b, "],"...)
			b = strconv.AppendInt(b, c.Gold, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Energy, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Owner, 10)
			b = append(b, ",["...)
			b = strconv.AppendInt(b, c.X, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.Y, 10)
			b = append(b, "],"...)
			b = strconv.AppendInt(b, c.NaturalGold, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.NaturalEnergy, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, c.NaturalCost, 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, "]}}\n"...)
}

// Close ends the bot: it closes the bot's stdin (the signal to exit), waits
// up to 100ms, kills the whole process group with SIGKILL, reaps it, stops
// the background goroutines and closes the pipes and the stderr log.
// Later calls do nothing and return nil. Close returns an error only if the
// stderr log could not be closed.
func (e *External) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	if !e.started || e.cmd == nil {
		return nil
	}
	e.stdin.Close()
	select {
	case <-e.exited:
	case <-time.After(closeGrace):
		syscall.Kill(-e.pgid, syscall.SIGKILL)
		<-e.exited
	}
	close(e.done)
	e.stdout.Close()
	if e.stderr != nil {
		e.stderr.Close()
	}
	e.wg.Wait()
	if e.logFile != nil {
		return e.logFile.Close()
	}
	return nil
}
