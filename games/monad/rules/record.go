package rules

import (
	"encoding/json"
	"fmt"
	"strconv"

	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/bitio"
)

// Monad's compact round record (docs/replay-format.md, "Monad rounds"),
// the engine.Codec fast path of its .rwd files: one 0 bit, then per
// player a 2-bit status (1 timed out, 2 crashed in the round), the
// command count plus one in Elias gamma code, then each command either
// well formed — a 0 bit, x and y in 5 bits each, the kind in 2 bits, the
// direction in 3, the count in exp-Golomb code of order 3 — or rejected
// before the turn — a 1 bit and its error code in 4 bits; then padding to
// a byte. A rejected command whose text is kept has the code recTextCode,
// then its own code in 4 bits, its length plus one in Elias gamma code and
// its bytes (MaxRawCommandBytes, MaxRawBytesPerRound).
const (
	recCoordBits = 5 // 0..19
	recCountK    = 3 // exp-Golomb order of unit counts
	recCodeBits  = 4 // a rejected command's code, 1..15
	// recTextCode marks a rejected command recorded with its text; no
	// ErrCode has it, so a reader that predates it refuses the record.
	recTextCode = 1<<recCodeBits - 1
)

// MaxRawCommandBytes bounds the text of a rejected command a record
// keeps: a longer one is recorded as its code alone (and shown as a short
// text of that code). MaxRawBytesPerRound bounds the kept texts of one
// player's round: past it the rest are recorded as codes alone, and a
// record that holds more is refused (an *engine.LimitError). A record's
// commands' texts thus cost at most MaxRawBytesPerRound per player.
const (
	MaxRawCommandBytes  = 256
	MaxRawBytesPerRound = 16 << 10
)

// rawKept reports whether a rejected command's text raw, after used bytes
// of its player's round, is recorded: it is not empty, not longer than
// MaxRawCommandBytes, within the round's MaxRawBytesPerRound, and draws
// the command's code when parsed again (so the text re-simulates as the
// code does).
func rawKept(raw string, code ErrCode, used int) bool {
	return raw != "" && len(raw) <= MaxRawCommandBytes && used+len(raw) <= MaxRawBytesPerRound && ParseCommand([]byte(raw)).Err == code
}

// Fault statuses of a record, as bits.
const (
	statusTimedOut = 1
	statusCrashed  = 2
)

// Setup is what a Monad game is drawn from besides its players: the
// setup of Ruleset.NewFromSetup, kept as this JSON object in a .rwd header
// (under "monad").
type Setup struct {
	Seed    int64 `json:"seed"` // the integer given to Python's random.seed
	Uniform bool  `json:"uniform,omitempty"`
}

// NewFromSetup starts the game a Setup (JSON) describes with s's players
// and turn limit.
func (ruleset) NewFromSetup(setup []byte, s engine.Settings) (engine.Game, error) {
	var su Setup
	if err := json.Unmarshal(setup, &su); err != nil {
		return nil, fmt.Errorf("monad: setup %.40q: %w", setup, err)
	}
	return newGame(su, s)
}

// Setup returns the game's Setup as JSON. Unlike most games' it is never
// nil: a compact .rwd header keeps the seed in it.
func (g *Game) Setup() []byte {
	b, _ := json.Marshal(g.setup)
	return b
}

// FooterMetric is resources (engine.Codec): a Monad .rwd's footer has
// kept each player's resources since before Monad had a score.
func (ruleset) FooterMetric() int { return 0 }

// ScoreMetric is hives (engine.Ruleset): the ranking and the end of the
// game go by hives (rules-monad.md §7), then units.
func (ruleset) ScoreMetric() int { return 2 }

// Options are Monad's one option, the uniform map (its
// engine.Registration's).
var Options = []engine.Option{{Name: "uniform", Doc: "monad: every cell starts with 20 resources"}}

// SetupFromOptions returns the Setup of seed with the options in set
// (engine.Registration.SetupFromOptions).
func SetupFromOptions(set []string, seed uint64, _ int) ([]byte, error) {
	su := Setup{Seed: int64(seed)}
	for _, o := range set {
		if o != "uniform" {
			return nil, fmt.Errorf("monad: no option %q (monad has uniform)", o)
		}
		su.Uniform = true
	}
	return json.Marshal(su)
}

// recordCode is the code a command is recorded with when Step rejects it
// before the turn (its Err, or an off-map origin, a direction outside
// 1..7, a count above MaxCount), ErrNone for a well-formed one.
func recordCode(c *Command) ErrCode {
	switch {
	case c.Err != ErrNone:
		return c.Err
	case !OnMap(c.X, c.Y):
		return ErrOffMap
	case c.Dir < East || c.Dir > None:
		return ErrBadDirection
	case c.Count > MaxCount:
		return ErrBadCount
	}
	return ErrNone
}

// AppendRecord appends the record of the round last played. A kind other
// than MOVE, BUILD and MINE is recorded as KindUnknown, which Step treats
// alike; a count below 0 as 0, which Step plays alike.
func (g *Game) AppendRecord(dst []byte) []byte {
	if !g.played {
		return dst
	}
	bw := bitio.Writer{Buf: dst}
	bw.Write(0, 1)
	for p := 0; p < g.Players(); p++ {
		bw.Write(uint64(g.last[p]), 2)
		list := g.cmds[p]
		bw.Gamma(uint64(len(list)) + 1)
		used := 0
		for k := range list {
			c := &list[k]
			if code := recordCode(c); code != ErrNone {
				bw.Write(1, 1)
				if !rawKept(c.Raw, code, used) {
					bw.Write(uint64(code), recCodeBits)
					continue
				}
				used += len(c.Raw)
				bw.Write(recTextCode, recCodeBits)
				bw.Write(uint64(code), recCodeBits)
				bw.Gamma(uint64(len(c.Raw)) + 1)
				for i := 0; i < len(c.Raw); i++ {
					bw.Write(uint64(c.Raw[i]), 8)
				}
				continue
			}
			kind := c.Kind
			if kind > KindMine {
				kind = KindUnknown
			}
			bw.Write(0, 1)
			bw.Write(uint64(c.X), recCoordBits)
			bw.Write(uint64(c.Y), recCoordBits)
			bw.Write(uint64(kind), 2)
			bw.Write(uint64(c.Dir), 3)
			bw.ExpGolomb(uint64(max(c.Count, 0)), recCountK)
		}
	}
	bw.Align()
	return bw.Buf
}

// readRecord decodes one record for the players of len(cmds) into cmds
// and status, reusing their storage.
func readRecord(r io.ByteReader, cmds [][]Command, status []uint8) error {
	br := &bitio.Reader{R: r}
	if _, err := br.Read(1); err != nil {
		return err
	}
	for p := range cmds {
		s, err := br.Read(2)
		if err != nil {
			return err
		}
		status[p] = uint8(s)
		n, err := br.Gamma()
		if err != nil {
			return err
		}
		n--
		if n > engine.MaxCommandsPerRound {
			return fmt.Errorf("player %d has %d commands, limit %d", p+1, n, engine.MaxCommandsPerRound)
		}
		list := cmds[p][:0]
		used := 0
		for k := uint64(0); k < n; k++ {
			c, err := readCommand(br, &used)
			if err != nil {
				return fmt.Errorf("player %d command %d: %w", p+1, k, err)
			}
			list = append(list, c)
		}
		cmds[p] = list
	}
	br.Align()
	return nil
}

// readCommand reads one command of a record; used counts the bytes of
// the rejected commands' texts of the player's round so far.
func readCommand(br *bitio.Reader, used *int) (Command, error) {
	bad, err := br.Read(1)
	if err != nil {
		return Command{}, err
	}
	if bad == 1 {
		code, err := br.Read(recCodeBits)
		if err != nil {
			return Command{}, err
		}
		withText := code == recTextCode
		if withText {
			if code, err = br.Read(recCodeBits); err != nil {
				return Command{}, err
			}
		}
		if code == 0 || !ErrCode(code).Malformed() {
			return Command{}, fmt.Errorf("rejected command with code %d, not a code of a malformed command", code)
		}
		c := Command{Err: ErrCode(code)}
		if withText {
			if c.Raw, err = readRaw(br, c.Err, used); err != nil {
				return Command{}, err
			}
		}
		return c, nil
	}
	// x, y, kind and direction, read at once: 5+5+2+3 bits.
	v, err := br.Read(2*recCoordBits + 2 + 3)
	if err != nil {
		return Command{}, err
	}
	count, err := br.ExpGolomb(recCountK)
	if err != nil {
		return Command{}, err
	}
	c := Command{X: int(v >> (recCoordBits + 5)), Y: int(v >> 5 & (1<<recCoordBits - 1)), Kind: Kind(v >> 3 & 3), Dir: Dir(v & 7), Count: int64(count)}
	if count > MaxCount || recordCode(&c) != ErrNone {
		return Command{}, fmt.Errorf("command (%d,%d) d=%d n=%d out of range", c.X, c.Y, c.Dir, count)
	}
	return c, nil
}

// readRaw reads the text of a rejected command of code, after used bytes
// of its player's round (rawKept's bounds, refused past them).
func readRaw(br *bitio.Reader, code ErrCode, used *int) (string, error) {
	n, err := br.Gamma()
	if err != nil {
		return "", err
	}
	n--
	if n == 0 || n > MaxRawCommandBytes || *used+int(n) > MaxRawBytesPerRound {
		return "", &engine.LimitError{Err: fmt.Errorf("a rejected command's text of %d bytes after %d in the round (at most %d, %d in a round)", n, *used, MaxRawCommandBytes, MaxRawBytesPerRound)}
	}
	var buf [MaxRawCommandBytes]byte
	for i := range int(n) {
		v, err := br.Read(8)
		if err != nil {
			return "", err
		}
		buf[i] = byte(v)
	}
	raw := string(buf[:n])
	if ParseCommand(buf[:n]).Err != code {
		return "", fmt.Errorf("a rejected command's text %.40q does not draw its code %d (%s)", raw, code, code)
	}
	*used += int(n)
	return raw, nil
}

// malformedText is, per code, a command text ParseCommand rejects with
// that code: the text a rejected command of a record is shown as, and
// re-simulates as.
var malformedText = [...]string{
	ErrNotObject:    `null`,
	ErrMissingField: `{}`,
	ErrBadDirection: `{"l":[0,0],"c":"MOVE","d":0,"n":0}`,
	ErrBadPosition:  `{"l":0,"c":"MOVE","d":1,"n":0}`,
	ErrBadCount:     `{"l":[0,0],"c":"MOVE","d":1,"n":null}`,
	ErrOffMap:       `{"l":[-1,0],"c":"MOVE","d":1,"n":0}`,
}

var kindText = [...]string{KindMove: `"MOVE"`, KindBuild: `"BUILD"`, KindMine: `"MINE"`, KindUnknown: `null`}

// AppendCommandText appends c as a command object ParseCommand reads back
// as c (a well-formed command) or with c's code (a malformed one: its Raw
// text as sent when that draws the code, else malformedText's). ErrNotList, a reply that was not a list, is no command
// and appends nothing.
func AppendCommandText(dst []byte, c *Command) []byte {
	if code := recordCode(c); code != ErrNone {
		if c.Raw != "" && ParseCommand([]byte(c.Raw)).Err == code {
			return append(dst, c.Raw...)
		}
		if int(code) < len(malformedText) {
			dst = append(dst, malformedText[code]...)
		}
		return dst
	}
	kind := c.Kind
	if kind > KindMine {
		kind = KindUnknown
	}
	dst = append(dst, `{"l":[`...)
	dst = appendNatural(dst, int64(c.X))
	dst = append(dst, ',')
	dst = appendNatural(dst, int64(c.Y))
	dst = append(dst, `],"c":`...)
	dst = append(dst, kindText[kind]...)
	dst = append(dst, `,"d":`...)
	dst = appendNatural(dst, int64(c.Dir))
	dst = append(dst, `,"n":`...)
	dst = appendNatural(dst, max(c.Count, 0))
	return append(dst, '}')
}

// appendNatural appends v >= 0 in decimal, as strconv.AppendInt does;
// the one- and two-digit numbers (every coordinate and direction, most
// counts) without it.
func appendNatural(dst []byte, v int64) []byte {
	switch {
	case v < 10:
		return append(dst, byte('0'+v))
	case v < 100:
		return append(dst, byte('0'+v/10), byte('0'+v%10))
	}
	return strconv.AppendInt(dst, v, 10)
}

// roundTexter turns decoded records into text, reusing its buffers from
// round to round.
type roundTexter struct {
	buf  []byte
	ends []int
}

// roundText appends the commands of a decoded record as text to out[p]
// and sets faults[p]: a status's timeout or crash (a crash when both),
// or engine.FaultGarbage for a player whose reply was not a list. The
// round's texts are one string, sliced: one allocation a round, the
// texts built in t's buffer.
func (t *roundTexter) roundText(cmds [][]Command, status []uint8, out [][]string, faults []engine.Fault) {
	b, ends := t.buf[:0], t.ends[:0]
	recordFaults(cmds, status, faults)
	for _, list := range cmds {
		for k := range list {
			if list[k].Err == ErrNotList {
				continue
			}
			b = AppendCommandText(b, &list[k])
			ends = append(ends, len(b))
		}
	}
	t.buf, t.ends = b, ends
	if len(ends) == 0 {
		return
	}
	all, i, start := string(b), 0, 0
	for p, list := range cmds {
		for k := range list {
			if list[k].Err == ErrNotList {
				continue
			}
			out[p] = append(out[p], all[start:ends[i]])
			start = ends[i]
			i++
		}
	}
}

// NewDecoder returns a decoder of a recording's records (engine.Codec).
// A Monad record stands alone: the decoder keeps only its buffers from
// round to round, and g is not read.
func (ruleset) NewDecoder(engine.Game) (engine.RecordDecoder, error) {
	d := &decoder{}
	return d.DecodeRound, nil
}

// LegacyHeader is nil: a Monad .rwd header keeps its Setup under "monad"
// (engine.Codec).
func (ruleset) LegacyHeader() *engine.LegacyHeader { return nil }

// AppendRecord appends the record of the round g, a *Game, last played
// (engine.Codec: Game.AppendRecord); a Game of another ruleset appends
// nothing.
func (ruleset) AppendRecord(g engine.Game, dst []byte) []byte {
	if mg, ok := g.(*Game); ok {
		return mg.AppendRecord(dst)
	}
	return dst
}

// PlayRecord reads one record and plays it on g, a *Game (engine.Codec:
// Game.PlayRecord).
func (ruleset) PlayRecord(g engine.Game, r io.ByteReader, cmds [][]string, faults []engine.Fault, faultText []string) ([]engine.CommandError, error) {
	mg, ok := g.(*Game)
	if !ok {
		return nil, fmt.Errorf("monad: a record played on a %T, not a Monad game", g)
	}
	return mg.PlayRecord(r, cmds, faults, faultText)
}

// decoder is Monad's engine.RecordDecoder (its DecodeRound).
type decoder struct {
	cmds   [][]Command
	texter roundTexter
}

// DecodeRound reads one record without playing it. A Monad fault has no
// text: faultText is left as it is.
func (d *decoder) DecodeRound(r io.ByteReader, out [][]string, faults []engine.Fault, _ []string) error {
	n := len(out)
	if n > MaxPlayers || len(faults) < n {
		return fmt.Errorf("monad: a record of %d players (at most %d)", n, MaxPlayers)
	}
	for len(d.cmds) < n {
		d.cmds = append(d.cmds, nil)
	}
	var status [MaxPlayers]uint8
	if err := readRecord(r, d.cmds[:n], status[:n]); err != nil {
		return err
	}
	d.texter.roundText(d.cmds[:n], status[:n], out, faults)
	return nil
}

// recordFaults sets faults[p] to the fault a record gives player p: a
// crash or a timeout its status says, garbage a command that was no list.
func recordFaults(cmds [][]Command, status []uint8, faults []engine.Fault) {
	for p, list := range cmds {
		switch {
		case status[p]&statusCrashed != 0:
			faults[p] = engine.FaultCrash
		case status[p]&statusTimedOut != 0:
			faults[p] = engine.FaultTimeout
		default:
			faults[p] = 0
		}
		for k := range list {
			if list[k].Err == ErrNotList {
				faults[p] = engine.FaultGarbage
			}
		}
	}
}

// PlayRecord reads one record and plays it (engine.Codec's). A Monad
// fault has no text: faultText is left as it is.
func (g *Game) PlayRecord(r io.ByteReader, out [][]string, faults []engine.Fault, _ []string) ([]engine.CommandError, error) {
	n := g.Players()
	g.grow(n)
	var status [MaxPlayers]uint8
	if err := readRecord(r, g.cmds[:n], status[:n]); err != nil {
		return nil, err
	}
	switch {
	case out != nil:
		g.texter.roundText(g.cmds[:n], status[:n], out, faults)
	case faults != nil:
		recordFaults(g.cmds[:n], status[:n], faults)
	}
	g.pending = status
	return g.play(n), nil
}
