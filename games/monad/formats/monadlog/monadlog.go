// Package monadlog reads the logs the Monad reference engine writes
// (dartmouth-cs98/18w-si32, game/Logger.py, commit e5ae486): replay.json,
// the JSON text of Logger.get_raw_log(), and the gzip'd msgpack .mp.gz of
// Logger.get_log() and Logger.write(). Both are one object:
//
//	{"w": 20, "h": 20,
//	 "turns": [{"map": [[cell]*w]*h, "res": [resources per player], "cmd": [command, ...]}, ...],
//	 "rankedBots": [{"_id": bot name, "crashed", "timedOut", "rank"}, ...]}
//
// A cell is {} or holds "o" (obstructed), "b" (hive owner), "r" (resource,
// written only when it changed since the last entry that wrote it) and "u",
// "p" (unit count and owner). Entry t is the state before turn t and its
// "cmd" the commands executed during turn t, in execution order: {"u":
// player, "p": x*w+y, "t": target x*w+y (may lie off the map), "d":
// direction or null for an implicit mine, "n": count}. The last entry is
// the final state, with no commands. rankedBots is in rank order.
//
// Decode sniffs the form from the content (JSON or msgpack, either
// gzip'd or not), whatever the file's name. It is bounded: the
// decompressed stream, the turns, the commands, the players, the strings
// and the nesting are capped (see the Max constants), so a small hostile
// file costs at most about 200 MB, and bad input is an error naming the
// turn and field, never a panic.
//
// Open reads a log as an engine.Stream of the generic path's frames (shown
// as recorded, never re-simulated; see stream.go), registered with
// internal/source as the format Name.
package monadlog

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// Caps on what Decode accepts. A real game is at most 1001 entries (the
// reference's turn limit is 1000) of 400 cells; its JSON is about 6 MB
// (4 players, 1000 turns: vector m04) and a miner's hundreds of commands a
// turn could make it a few tens of MB.
const (
	// MaxDecompressed caps the bytes of JSON or msgpack read (after
	// gunzip): 256 MiB.
	MaxDecompressed = 256 << 20
	// MaxTurns caps the log entries: ten times the reference's limit.
	MaxTurns = 10*1000 + 1
	// MaxCommands caps the commands of all entries together (16 bytes
	// each once decoded: 64 MB at most).
	MaxCommands = 4 << 20
	// MaxString caps a string (a key or a bot's _id), in bytes.
	MaxString = 1 << 10
	// MaxDepth caps the nesting of values skipped as unknown.
	MaxDepth = 32
	// DecodeBytes is the most a log holds once decoded within these
	// caps, hostile or not: about 200 MB (docs/limits.md, "Monad
	// reference logs"), which a server reserves before decoding one.
	DecodeBytes = 200 << 20
)

// maxDecompressed is MaxDecompressed, lowered by tests.
var maxDecompressed int64 = MaxDecompressed

// Size is the only map size rewind plays Monad on.
const Size = monad.Width

// Encoding is how a log was stored.
type Encoding string

// Encodings.
const (
	JSON    Encoding = "json"
	Msgpack Encoding = "msgpack"
)

// Log is a decoded reference log.
type Log struct {
	// Encoding is the form the log was stored in; Gzip tells whether it
	// was gzip'd.
	Encoding Encoding
	Gzip     bool
	// W and H are the map's size (always Size).
	W, H int
	// Players is the number of players (the length of every entry's
	// "res"), 1..monad.MaxPlayers.
	Players int
	// Turns are the log's entries: Turns[t] is the state before turn t
	// and the commands executed in turn t; the last is the final state.
	Turns []Turn
	// Ranked is rankedBots, in rank order.
	Ranked []RankedBot
}

// Turn is one entry of the log.
type Turn struct {
	// Cells are indexed y*W + x, with the resource carried over from the
	// last entry that wrote it.
	Cells []Cell
	// Res are the players' resources.
	Res []int64
	// Cmds are the commands executed in the turn, in execution order.
	Cmds []Cmd
}

// Cell is one cell of an entry.
type Cell struct {
	Resource int32
	Units    int32
	// Owner is the player with units there ("p"), -1 for none.
	Owner int8
	// Hive is the hive's owner ("b"), -1 for none.
	Hive int8
}

// Cmd is one executed command as the log encodes it.
type Cmd struct {
	// P is the origin, x*W + y (on the map); T the target, x*W + y of
	// the neighbour in direction D, which may lie off the map.
	P, T int32
	// N is the count.
	N int32
	// Player is "u".
	Player int8
	// Dir is "d": 1..7, or monad.DirImplicit (0) for null, an implicit
	// mine.
	Dir monad.Dir
}

// XY returns the origin's column and row.
func (c Cmd) XY(w int) (x, y int) { return int(c.P) / w, int(c.P) % w }

// RankedBot is one entry of rankedBots.
type RankedBot struct {
	// ID is "_id": the bot's name or database id.
	ID       string
	Crashed  bool
	TimedOut bool
	// Rank is "rank" (0 when null).
	Rank int
}

// SniffForm reports whether the first bytes of a file are a reference log
// and in which form: a JSON object or a msgpack map whose first key is one of
// the log's ("w", "h", "turns", "rankedBots"), gzip'd or not. A .cfr (a
// JSON list) and a .rwd are not; a gzip'd prefix is inflated as far as it
// goes, so a gzip'd log needs a longer prefix: up to 64 KiB (what a
// deflate block's header may take) when the file is that long.
func SniffForm(prefix []byte) (enc Encoding, gz bool, ok bool) {
	if len(prefix) >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(prefix))
		if err != nil {
			return "", false, false
		}
		buf := make([]byte, 64)
		n, _ := io.ReadFull(zr, buf)
		enc, _, ok = SniffForm(buf[:n])
		return enc, true, ok && enc != ""
	}
	if len(prefix) == 0 {
		return "", false, false
	}
	if c := prefix[0]; c >= 0x80 && c <= 0x8f || c == 0xde || c == 0xdf {
		// A msgpack map: its first key, a str.
		i := 1
		switch c {
		case 0xde:
			i = 3
		case 0xdf:
			i = 5
		}
		if i >= len(prefix) {
			return "", false, false
		}
		n, k := 0, prefix[i]
		switch {
		case k >= 0xa0 && k <= 0xbf:
			n, i = int(k&0x1f), i+1
		case k == 0xd9 && i+1 < len(prefix):
			n, i = int(prefix[i+1]), i+2
		default:
			return "", false, false
		}
		if i+n > len(prefix) || !logKey(prefix[i:i+n]) {
			return "", false, false
		}
		return Msgpack, false, true
	}
	s := bytes.TrimLeft(prefix, " \t\r\n")
	if len(s) == 0 || s[0] != '{' {
		return "", false, false
	}
	s = bytes.TrimLeft(s[1:], " \t\r\n")
	if len(s) == 0 || s[0] != '"' {
		return "", false, false
	}
	end := bytes.IndexByte(s[1:], '"')
	if end < 0 || !logKey(s[1:1+end]) {
		return "", false, false
	}
	return JSON, false, true
}

func logKey(k []byte) bool {
	switch string(k) {
	case "w", "h", "turns", "rankedBots":
		return true
	}
	return false
}

// ErrNotLog is returned by Decode for content that is not a reference log
// in any form.
var ErrNotLog = errors.New("not a Monad reference log (replay.json or .mp.gz)")

// Decode reads a reference log in any of its forms (see SniffForm).
func Decode(r io.Reader) (*Log, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(64 << 10)
	enc, gz, ok := SniffForm(prefix)
	if !ok {
		return nil, ErrNotLog
	}
	var in io.Reader = br
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("not a readable gzip stream: %w", err)
		}
		defer zr.Close()
		in = zr
	}
	lr := &capReader{r: in, n: maxDecompressed}
	var vr valueReader
	if enc == JSON {
		vr = newJSONReader(lr)
	} else {
		vr = newMsgpackReader(lr)
	}
	d := decoder{vr: vr, log: &Log{Encoding: enc, Gzip: gz, Players: -1}}
	err := d.log1()
	if err == nil && gz {
		// Read to the gzip trailer, whose checksum tells a damaged file.
		if _, err = io.Copy(io.Discard, lr); err != nil {
			err = fmt.Errorf("damaged gzip stream: %w", err)
		}
	}
	if err != nil {
		if lr.n < 0 {
			return nil, fmt.Errorf("the log is larger than %d MiB decompressed (%v)", maxDecompressed>>20, err)
		}
		return nil, err
	}
	return d.log, nil
}

// capReader reads at most n bytes; n < 0 after that means the input was
// longer.
type capReader struct {
	r io.Reader
	n int64
}

var errTooLarge = errors.New("too large")

func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		// One byte more tells a log of exactly the cap from a longer one.
		var b [1]byte
		if n, _ := c.r.Read(b[:]); n > 0 {
			c.n = -1
			return 0, errTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

type decoder struct {
	vr    valueReader
	log   *Log
	ncmd  int
	prevR []int32 // last written resource of every cell
	hasW  bool
	hasH  bool
	// cur is the cell cellKey fills; cellKeyFn is d.cellKey.
	cur       *rawCell
	cellKeyFn func(string) error
}

func (d *decoder) log1() error {
	k, err := d.vr.peek()
	if err != nil {
		return err
	}
	if k != kindMap {
		return ErrNotLog
	}
	seenTurns, last := false, ""
	err = d.vr.readMap(func(key string) error {
		last = key
		switch key {
		case "w", "h":
			v, err := d.vr.readInt()
			if err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			if key == "w" {
				d.log.W, d.hasW = int(v), true
			} else {
				d.log.H, d.hasH = int(v), true
			}
			if v != Size {
				return fmt.Errorf("%s is %d: rewind reads %d×%d Monad maps only", key, v, Size, Size)
			}
		case "turns":
			seenTurns = true
			return at("turns", d.turns())
		case "rankedBots":
			return at("rankedBots", d.ranked())
		default:
			return d.vr.skip()
		}
		return nil
	})
	if err != nil {
		where := "the log's object"
		if last != "" {
			where = fmt.Sprintf("after %q", last)
		}
		return at(where, err)
	}
	switch {
	case !d.hasW || !d.hasH:
		return errors.New(`no "w" or "h": not a Monad reference log`)
	case !seenTurns || len(d.log.Turns) == 0:
		return errors.New("the log has no turns")
	case len(d.log.Ranked) > d.log.Players:
		return fmt.Errorf("rankedBots has %d entries for %d players", len(d.log.Ranked), d.log.Players)
	}
	return nil
}

func (d *decoder) turns() error {
	if err := d.expect(kindArray, "turns"); err != nil {
		return err
	}
	return d.vr.readArray(func(t int) error {
		if t >= MaxTurns {
			return fmt.Errorf("turns: more than %d entries", MaxTurns)
		}
		if err := d.turn(t); err != nil {
			return nest(fmt.Sprintf("turns[%d]", t), err)
		}
		return nil
	})
}

func (d *decoder) expect(k kind, field string) error {
	got, err := d.vr.peek()
	if err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if got != k {
		return fmt.Errorf("%s: %s, want %s", field, got, k)
	}
	return nil
}

// rawCell is a cell as written, before the delta rule.
type rawCell struct {
	r, u, p, b int64
	hasR, hasU bool
	hasP, hasB bool
}

func (d *decoder) turn(t int) error {
	if err := d.expect(kindMap, "turn"); err != nil {
		return fmt.Errorf("(entry): %w", err)
	}
	var cells [Size * Size]rawCell
	rows, seenMap, seenRes := 0, false, false
	tr := Turn{}
	err := d.vr.readMap(func(key string) error {
		switch key {
		case "map":
			seenMap = true
			return d.grid(&cells, &rows)
		case "res":
			seenRes = true
			if err := d.expect(kindArray, "res"); err != nil {
				return err
			}
			return d.vr.readArray(func(i int) error {
				if i >= monad.MaxPlayers {
					return fmt.Errorf("res: more than %d players", monad.MaxPlayers)
				}
				v, err := d.vr.readInt()
				if err != nil {
					return fmt.Errorf("res[%d]: %w", i, err)
				}
				tr.Res = append(tr.Res, v)
				return nil
			})
		case "cmd":
			if err := d.expect(kindArray, "cmd"); err != nil {
				return err
			}
			return d.vr.readArray(func(i int) error {
				if d.ncmd >= MaxCommands {
					return fmt.Errorf("cmd: more than %d commands in the log", MaxCommands)
				}
				d.ncmd++
				c, err := d.cmd()
				if err != nil {
					return nest(fmt.Sprintf("cmd[%d]", i), err)
				}
				tr.Cmds = append(tr.Cmds, c)
				return nil
			})
		}
		return d.vr.skip()
	})
	if err != nil {
		return err
	}
	if !seenMap || !seenRes {
		return errors.New(`map: an entry needs "map" and "res"`)
	}
	if rows != Size {
		return fmt.Errorf("map: %d rows, want %d", rows, Size)
	}
	np := len(tr.Res)
	if d.log.Players < 0 {
		if np < 1 {
			return errors.New("res: no players")
		}
		d.log.Players = np
		d.prevR = make([]int32, Size*Size)
	} else if np != d.log.Players {
		return fmt.Errorf("res: %d players, entry 0 has %d", np, d.log.Players)
	}
	tr.Cells = make([]Cell, Size*Size)
	for i := range cells {
		rc, c := &cells[i], &tr.Cells[i]
		where := func() string { return fmt.Sprintf("map[%d][%d]", i/Size, i%Size) }
		c.Owner, c.Hive = -1, -1
		if rc.hasR {
			if rc.r < 0 || rc.r > 1<<31-1 {
				return fmt.Errorf("%s.r: %d out of range", where(), rc.r)
			}
			d.prevR[i] = int32(rc.r)
		}
		c.Resource = d.prevR[i]
		if rc.hasB {
			if rc.b < 0 || rc.b >= int64(np) {
				return fmt.Errorf("%s.b: player %d of %d", where(), rc.b, np)
			}
			c.Hive = int8(rc.b)
		}
		if rc.hasU != rc.hasP {
			return fmt.Errorf(`%s: "u" and "p" go together`, where())
		}
		if rc.hasU {
			if rc.p < 0 || rc.p >= int64(np) {
				return fmt.Errorf("%s.p: player %d of %d", where(), rc.p, np)
			}
			if rc.u < 0 || rc.u > 1<<31-1 {
				return fmt.Errorf("%s.u: %d out of range", where(), rc.u)
			}
			if rc.u > 0 {
				c.Owner, c.Units = int8(rc.p), int32(rc.u)
			}
		}
	}
	for i, c := range tr.Cmds {
		if int(c.Player) >= np {
			return fmt.Errorf("cmd[%d].u: player %d of %d", i, c.Player, np)
		}
	}
	d.log.Turns = append(d.log.Turns, tr)
	return nil
}

// grid reads an entry's "map": Size rows of Size cells.
func (d *decoder) grid(cells *[Size * Size]rawCell, rows *int) error {
	if err := d.expect(kindArray, "map"); err != nil {
		return err
	}
	*rows = 0
	return d.vr.readArray(func(y int) error {
		if y >= Size {
			return fmt.Errorf("map: more than %d rows: rewind reads %d×%d maps only", Size, Size, Size)
		}
		*rows = y + 1
		if err := d.expect(kindArray, fmt.Sprintf("map[%d]", y)); err != nil {
			return err
		}
		n := 0
		err := d.vr.readArray(func(x int) error {
			if x >= Size {
				return fmt.Errorf("map[%d]: more than %d cells: rewind reads %d×%d maps only", y, Size, Size, Size)
			}
			n = x + 1
			if err := d.cell(&cells[y*Size+x]); err != nil {
				return nest(fmt.Sprintf("map[%d][%d]", y, x), err)
			}
			return nil
		})
		if err == nil && n != Size {
			err = fmt.Errorf("map[%d]: %d cells, want %d", y, n, Size)
		}
		return err
	})
}

func (d *decoder) cell(c *rawCell) error {
	if err := d.expect(kindMap, "(cell)"); err != nil {
		return err
	}
	if d.cellKeyFn == nil {
		d.cellKeyFn = d.cellKey // bound once: a closure per cell would be allocated
	}
	d.cur = c
	return d.vr.readMap(d.cellKeyFn)
}

// cellKey reads the value of key in the cell d.cur.
func (d *decoder) cellKey(key string) error {
	c := d.cur
	var dst *int64
	switch key {
	case "o":
		// The reference writes obstacles as "o": true; at commit e5ae486
		// its maps have none.
		return errors.New("o: an obstructed cell: rewind's Monad has no obstacles")
	case "r":
		dst, c.hasR = &c.r, true
	case "u":
		dst, c.hasU = &c.u, true
	case "p":
		dst, c.hasP = &c.p, true
	case "b":
		dst, c.hasB = &c.b, true
	default:
		return d.vr.skip()
	}
	v, err := d.vr.readInt()
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	*dst = v
	return nil
}

func (d *decoder) cmd() (Cmd, error) {
	var c Cmd
	if err := d.expect(kindMap, "(command)"); err != nil {
		return c, err
	}
	seen := 0
	err := d.vr.readMap(func(key string) error {
		bit := 0
		switch key {
		case "u":
			bit = 1
		case "p":
			bit = 2
		case "t":
			bit = 4
		case "d":
			bit = 8
			if k, err := d.vr.peek(); err == nil && k == kindNil {
				seen |= bit
				c.Dir = monad.DirImplicit
				return d.vr.skip()
			}
		case "n":
			bit = 16
		default:
			return d.vr.skip()
		}
		seen |= bit
		v, err := d.vr.readInt()
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		switch key {
		case "u":
			if v < 0 || v >= monad.MaxPlayers {
				return fmt.Errorf("u: player %d", v)
			}
			c.Player = int8(v)
		case "p":
			if v < 0 || v >= Size*Size {
				return fmt.Errorf("p: %d is off the map", v)
			}
			c.P = int32(v)
		case "t":
			// x*w+y of a neighbour: within one row and column of the map.
			if v < -Size-1 || v > Size*Size+Size {
				return fmt.Errorf("t: %d is not next to the map", v)
			}
			c.T = int32(v)
		case "d":
			if v < 1 || v > 7 {
				return fmt.Errorf("d: direction %d", v)
			}
			c.Dir = monad.Dir(v)
		case "n":
			if v < 0 || v > 1<<31-1 {
				return fmt.Errorf("n: count %d out of range", v)
			}
			c.N = int32(v)
		}
		return nil
	})
	if err != nil {
		return c, err
	}
	if seen&(1|2|16) != 1|2|16 {
		return c, errors.New(`(command): needs "u", "p" and "n"`)
	}
	return c, nil
}

func (d *decoder) ranked() error {
	if err := d.expect(kindArray, "rankedBots"); err != nil {
		return err
	}
	return d.vr.readArray(func(i int) error {
		if i >= monad.MaxPlayers {
			return fmt.Errorf("rankedBots: more than %d entries", monad.MaxPlayers)
		}
		var rb RankedBot
		if err := d.expect(kindMap, fmt.Sprintf("rankedBots[%d]", i)); err != nil {
			return err
		}
		err := d.vr.readMap(func(key string) error {
			k, err := d.vr.peek()
			if err != nil {
				return err
			}
			switch {
			case k == kindNil:
				return d.vr.skip()
			case key == "_id" && k == kindString:
				rb.ID, err = d.vr.readString()
			case key == "_id" && k == kindInt:
				var v int64
				v, err = d.vr.readInt()
				rb.ID = strconv.FormatInt(v, 10)
			case (key == "crashed" || key == "timedOut") && k == kindBool:
				var b bool
				b, err = d.vr.readBool()
				if key == "crashed" {
					rb.Crashed = b
				} else {
					rb.TimedOut = b
				}
			case key == "rank" && k == kindInt:
				var v int64
				v, err = d.vr.readInt()
				if err == nil && (v < 0 || v > monad.MaxPlayers) {
					err = fmt.Errorf("%d out of range", v)
				}
				rb.Rank = int(v)
			case key == "_id" || key == "crashed" || key == "timedOut" || key == "rank":
				return fmt.Errorf("rankedBots[%d].%s: %s", i, key, k)
			default:
				return d.vr.skip()
			}
			if err != nil {
				return fmt.Errorf("rankedBots[%d].%s: %w", i, key, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		d.log.Ranked = append(d.log.Ranked, rb)
		return nil
	})
}

// readErr is a failure to read the log's bytes (the file ends early, or
// its gzip stream is damaged) at path, the field being read.
type readErr struct {
	path string
	err  error
}

func (e *readErr) Error() string {
	if errors.Is(e.err, io.EOF) || errors.Is(e.err, io.ErrUnexpectedEOF) {
		return e.path + ": the log ends here (the file is truncated)"
	}
	return e.path + ": " + e.err.Error()
}

func (e *readErr) Unwrap() error { return e.err }

// nest puts the field prefix in front of an error found inside it:
// "turns[3]" and "map[0][1].o: ..." make "turns[3].map[0][1].o: ...", and
// a read error becomes "turns[3].map[0][1]: the log ends here ...".
func nest(prefix string, err error) error {
	var re *readErr
	if errors.As(err, &re) && re == err {
		return &readErr{path: prefix + "." + re.path, err: re.err}
	}
	if readFailure(err) {
		return &readErr{path: prefix, err: err}
	}
	return fmt.Errorf("%s.%w", prefix, err)
}

// at names path as where a read error that names no field yet happened;
// other errors (nil included) are returned as they are.
func at(path string, err error) error {
	var re *readErr
	if err == nil || errors.As(err, &re) || !readFailure(err) {
		return err
	}
	return &readErr{path: path, err: err}
}

// readFailure reports whether err is a failure to read the log's bytes:
// the file ends early or its gzip stream is damaged.
func readFailure(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || isFlateErr(err)
}

func isFlateErr(err error) bool {
	var ce flate.CorruptInputError
	return errors.As(err, &ce)
}
