package rules

import (
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/bitio"
)

// ColorfightII's round record (docs/replay-format.md, "Round record"),
// the one bit codec of its .rwd rounds: package replay's Writer and
// Reader code them with a RecordCodec, and a Game through engine.Codec.
//
//	round   := 0  player{n}  pad-to-byte
//	player  := gamma(count + 1)  command{count}
//	command := 0 cell eg_7(energy) | 10 cell | 110 cell letter
//	         | 111 esc:2 ...        (off the map, or malformed)
//	cell    := 1 dx+3:3 dy+3:3 | 0 x:bits(W) y:bits(H)
//
// A cell is coded near the player's previous on-map command cell (at
// first its home), so the records of a recording are coded in order, by
// one codec, from its first round.

// Command codes inside a round record (prefix codes, most frequent first).
const (
	codeAttack  = 0b0   // 1 bit
	codeUpgrade = 0b10  // 2 bits
	codeBuild   = 0b110 // 3 bits
	codeEscape  = 0b111 // 3 bits, then 2 bits of an escaped kind
)

// Escaped command kinds.
const (
	escAttackWide  = 0
	escBuildWide   = 1
	escUpgradeWide = 2
	escInvalid     = 3
)

const (
	// energyK is the exp-Golomb order of attack energies; coordK of wide
	// coordinates.
	energyK = 7
	coordK  = 4
	// nearR is the reach of a near coordinate: a cell within nearR in x
	// and y of the player's previous on-map command is coded as a delta
	// (3+3 bits) instead of absolutely.
	nearR    = 3
	nearBits = 3
	// errCodeBits is the width of a malformed command's ErrCode.
	errCodeBits = 5
)

// Limits of the record's malformed commands' text (docs/limits.md).
const (
	// MaxRawCommandBytes bounds the stored text of one malformed command:
	// AppendRound cuts longer text, ReadRound refuses it.
	MaxRawCommandBytes = 1024
	// MaxRawBytesPerRound bounds the text of malformed commands ReadRound
	// keeps per player per round: past it, a command keeps its error code
	// (which alone decides its effect) and loses its text. It is not a
	// refusal: every record stays readable, and a round's commands take
	// at most players × (engine.MaxCommandsPerRound × the size of a
	// Command + MaxRawBytesPerRound) bytes however their text was crafted.
	MaxRawBytesPerRound = 16 << 10
)

// RecordCodec writes or reads the round records of one recording, in
// order from its first round: it keeps each player's previous cell from
// record to record. Create it with NewRecordCodec; the zero value is not
// usable. One codec either writes or reads.
type RecordCodec struct {
	width, height int
	prev          []Point // each player's last on-map command cell
	// rawLeft is how many bytes of malformed commands' text the player
	// being read may still keep this round (MaxRawBytesPerRound);
	// lastRaw is its last kept text, reused when the next is the same,
	// and rawBuf the scratch the text is read into.
	rawLeft int
	lastRaw string
	rawBuf  []byte
}

// NewRecordCodec returns the codec of a recording on a width×height map
// whose players have these homes (uid order, one per registered player).
func NewRecordCodec(width, height int, homes []Point) *RecordCodec {
	c := &RecordCodec{}
	c.Reset(width, height, homes)
	return c
}

// Reset makes c the codec of a recording's first round again, as
// NewRecordCodec does, reusing its storage.
func (c *RecordCodec) Reset(width, height int, homes []Point) {
	c.width, c.height = width, height
	c.prev = append(c.prev[:0], homes...)
	c.rawLeft, c.lastRaw = 0, ""
}

// Players returns the number of players the codec's records hold.
func (c *RecordCodec) Players() int { return len(c.prev) }

// AppendRound appends the record of a round that applied cmds (cmds[p]
// player p's list, uid p+1; a missing list is empty) and returns it. A
// malformed command's text longer than MaxRawCommandBytes is cut. A list
// longer than engine.MaxCommandsPerRound makes a record no reader
// accepts: callers refuse it first.
func (c *RecordCodec) AppendRound(dst []byte, cmds [][]Command) []byte {
	bw := bitio.Writer{Buf: dst}
	bw.Write(0, 1) // round record
	for p := range c.prev {
		var list []Command
		if p < len(cmds) {
			list = cmds[p]
		}
		bw.Gamma(uint64(len(list)) + 1)
		for k := range list {
			c.writeCommand(&bw, &list[k], &c.prev[p])
		}
	}
	bw.Align()
	return bw.Buf
}

func (c *RecordCodec) onMap(x, y int) bool {
	return x >= 0 && y >= 0 && x < c.width && y < c.height
}

// writeCell codes an on-map cell, relative to prev when near, and makes it
// the new prev.
func (c *RecordCodec) writeCell(bw *bitio.Writer, x, y int, prev *Point) {
	dx, dy := x-prev.X, y-prev.Y
	if dx >= -nearR && dx <= nearR && dy >= -nearR && dy <= nearR {
		bw.Write(1, 1)
		bw.Write(uint64(dx+nearR), nearBits)
		bw.Write(uint64(dy+nearR), nearBits)
	} else {
		bw.Write(0, 1)
		bw.Write(uint64(x), sideBits(c.width))
		bw.Write(uint64(y), sideBits(c.height))
	}
	*prev = Point{X: x, Y: y}
}

func (c *RecordCodec) writeCommand(bw *bitio.Writer, cmd *Command, prev *Point) {
	onMap := c.onMap(cmd.X, cmd.Y)
	switch cmd.Kind {
	case CmdAttack:
		if onMap && cmd.Energy >= 0 {
			bw.Write(codeAttack, 1)
			c.writeCell(bw, cmd.X, cmd.Y, prev)
			bw.ExpGolomb(uint64(cmd.Energy), energyK)
			return
		}
		bw.Write(codeEscape, 3)
		bw.Write(escAttackWide, 2)
		bw.ExpGolomb(zigzag(int64(cmd.X)), coordK)
		bw.ExpGolomb(zigzag(int64(cmd.Y)), coordK)
		bw.ExpGolomb(zigzag(cmd.Energy), energyK)
		return
	case CmdUpgrade:
		if onMap {
			bw.Write(codeUpgrade, 2)
			c.writeCell(bw, cmd.X, cmd.Y, prev)
			return
		}
		bw.Write(codeEscape, 3)
		bw.Write(escUpgradeWide, 2)
		bw.ExpGolomb(zigzag(int64(cmd.X)), coordK)
		bw.ExpGolomb(zigzag(int64(cmd.Y)), coordK)
		return
	case CmdBuild:
		if onMap {
			bw.Write(codeBuild, 3)
			c.writeCell(bw, cmd.X, cmd.Y, prev)
		} else {
			bw.Write(codeEscape, 3)
			bw.Write(escBuildWide, 2)
			bw.ExpGolomb(zigzag(int64(cmd.X)), coordK)
			bw.ExpGolomb(zigzag(int64(cmd.Y)), coordK)
		}
		writeBuilding(bw, cmd.Building)
		return
	}
	code := cmd.Err
	if !code.Malformed() {
		code = ErrUnknownCommand
	}
	raw := cmd.Raw
	if len(raw) > MaxRawCommandBytes {
		raw = raw[:MaxRawCommandBytes]
	}
	bw.Write(codeEscape, 3)
	bw.Write(escInvalid, 2)
	bw.Write(uint64(code), errCodeBits)
	bw.Gamma(uint64(len(raw)) + 1)
	for i := 0; i < len(raw); i++ {
		bw.Write(uint64(raw[i]), 8)
	}
}

// writeBuilding codes a build letter: 2 bits for g, e, f; 3 for h and for
// an invalid letter.
func writeBuilding(bw *bitio.Writer, b Building) {
	switch b {
	case GoldMine:
		bw.Write(0, 2)
	case EnergyWell:
		bw.Write(1, 2)
	case Fortress:
		bw.Write(2, 2)
	case Home:
		bw.Write(0b110, 3)
	default:
		bw.Write(0b111, 3)
	}
}

// ReadRound reads one round record from r into cmds, one list per player
// of the codec's, reusing cmds' storage, and returns them. A record that
// ends early returns r's error (io.EOF); more commands than
// engine.MaxCommandsPerRound for a player, or a malformed command's text
// longer than MaxRawCommandBytes, a *engine.LimitError; any other damage
// (a cell off the map, a code that is no parse error's) an error saying
// what, with the player and command where it is. A malformed command's
// text is kept within MaxRawBytesPerRound per player (see there).
func (c *RecordCodec) ReadRound(r io.ByteReader, cmds [][]Command) ([][]Command, error) {
	np := len(c.prev)
	if cap(cmds) < np {
		cmds = append(cmds[:cap(cmds)], make([][]Command, np-cap(cmds))...)
	}
	cmds = cmds[:np]
	br := &bitio.Reader{R: r}
	if _, err := br.Read(1); err != nil {
		return cmds, err
	}
	for p := 0; p < np; p++ {
		n, err := br.Gamma()
		if err != nil {
			return cmds, err
		}
		n--
		if n > engine.MaxCommandsPerRound {
			return cmds, &engine.LimitError{Err: fmt.Errorf("player %d has %d commands, limit %d", p+1, n, engine.MaxCommandsPerRound)}
		}
		list := cmds[p][:0]
		c.rawLeft, c.lastRaw = MaxRawBytesPerRound, ""
		for k := uint64(0); k < n; k++ {
			cmd, err := c.readCommand(br, &c.prev[p])
			if err != nil {
				return cmds, fmt.Errorf("player %d command %d: %w", p+1, k, err)
			}
			list = append(list, cmd)
		}
		cmds[p] = list
	}
	br.Align()
	return cmds, nil
}

// readCell reads a cell (near prev or absolute), which must be on the map,
// and makes it the new prev.
func (c *RecordCodec) readCell(br *bitio.Reader, cmd *Command, prev *Point) error {
	near, err := br.Read(1)
	if err != nil {
		return err
	}
	var x, y int
	if near == 1 {
		dx, err := br.Read(nearBits)
		if err != nil {
			return err
		}
		dy, err := br.Read(nearBits)
		if err != nil {
			return err
		}
		x, y = prev.X+int(dx)-nearR, prev.Y+int(dy)-nearR
	} else {
		ux, err := br.Read(sideBits(c.width))
		if err != nil {
			return err
		}
		uy, err := br.Read(sideBits(c.height))
		if err != nil {
			return err
		}
		x, y = int(ux), int(uy)
	}
	if !c.onMap(x, y) {
		return fmt.Errorf("cell (%d,%d) off the %dx%d map", x, y, c.width, c.height)
	}
	cmd.X, cmd.Y = x, y
	*prev = Point{X: x, Y: y}
	return nil
}

// readWide reads a wide (escaped) coordinate pair.
func readWide(br *bitio.Reader, cmd *Command) error {
	x, err := br.ExpGolomb(coordK)
	if err != nil {
		return err
	}
	y, err := br.ExpGolomb(coordK)
	if err != nil {
		return err
	}
	xs, ys := unzigzag(x), unzigzag(y)
	if xs > 1<<30 || xs < -(1<<30) || ys > 1<<30 || ys < -(1<<30) {
		return fmt.Errorf("coordinate out of range")
	}
	cmd.X, cmd.Y = int(xs), int(ys)
	return nil
}

func (c *RecordCodec) readCommand(br *bitio.Reader, prev *Point) (Command, error) {
	var cmd Command
	var err error
	switch {
	case prefix(br, &err, codeAttack):
		cmd.Kind = CmdAttack
		if err = c.readCell(br, &cmd, prev); err != nil {
			return cmd, err
		}
		e, err := br.ExpGolomb(energyK)
		if err != nil {
			return cmd, err
		}
		if e > 1<<63-1 {
			return cmd, fmt.Errorf("energy out of range")
		}
		cmd.Energy = int64(e)
		return cmd, nil
	case err != nil:
	case prefix(br, &err, 0): // codeUpgrade's second bit
		cmd.Kind = CmdUpgrade
		return cmd, c.readCell(br, &cmd, prev)
	case err != nil:
	case prefix(br, &err, 0): // codeBuild's third bit
		cmd.Kind = CmdBuild
		if err = c.readCell(br, &cmd, prev); err != nil {
			return cmd, err
		}
		cmd.Building, err = readBuilding(br)
		return cmd, err
	case err != nil:
	default:
		esc, err := br.Read(2)
		if err != nil {
			return cmd, err
		}
		switch esc {
		case escAttackWide:
			cmd.Kind = CmdAttack
			if err := readWide(br, &cmd); err != nil {
				return cmd, err
			}
			e, err := br.ExpGolomb(energyK)
			if err != nil {
				return cmd, err
			}
			cmd.Energy = unzigzag(e)
			return cmd, nil
		case escUpgradeWide:
			cmd.Kind = CmdUpgrade
			return cmd, readWide(br, &cmd)
		case escBuildWide:
			cmd.Kind = CmdBuild
			if err := readWide(br, &cmd); err != nil {
				return cmd, err
			}
			cmd.Building, err = readBuilding(br)
			return cmd, err
		}
		code, err := br.Read(errCodeBits)
		if err != nil {
			return cmd, err
		}
		if !ErrCode(code).Malformed() {
			return cmd, fmt.Errorf("invalid command with error code %d", code)
		}
		n, err := br.Gamma()
		if err != nil {
			return cmd, err
		}
		if n-1 > MaxRawCommandBytes {
			return cmd, &engine.LimitError{Err: fmt.Errorf("raw command of %d bytes", n-1)}
		}
		raw := c.rawBuf[:0]
		for range n - 1 {
			v, err := br.Read(8)
			if err != nil {
				return cmd, err
			}
			raw = append(raw, byte(v))
		}
		c.rawBuf = raw
		return Command{Kind: CmdInvalid, Err: ErrCode(code), Raw: c.keepRaw(raw)}, nil
	}
	return cmd, err
}

// keepRaw returns the text of a malformed command as the round keeps it:
// the same string as the player's previous malformed command when the
// bytes are equal (a flood of one garbage line costs one string), else a
// new string while the player's MaxRawBytesPerRound budget lasts, else as
// much of the text as the budget has left (possibly nothing). The code, not
// the text, decides the command's error, so re-simulation is unaffected.
func (c *RecordCodec) keepRaw(raw []byte) string {
	if string(raw) == c.lastRaw {
		return c.lastRaw
	}
	if len(raw) > c.rawLeft {
		raw = raw[:c.rawLeft]
	}
	if len(raw) == 0 {
		return ""
	}
	c.rawLeft -= len(raw)
	c.lastRaw = string(raw)
	return c.lastRaw
}

// prefix reads one bit of a command code and reports whether it equals
// want; a read error is stored in *err and reported as false.
func prefix(br *bitio.Reader, err *error, want uint64) bool {
	v, e := br.Read(1)
	if e != nil {
		*err = e
		return false
	}
	return v == want
}

func readBuilding(br *bitio.Reader) (Building, error) {
	v, err := br.Read(2)
	if err != nil {
		return 0, err
	}
	switch v {
	case 0:
		return GoldMine, nil
	case 1:
		return EnergyWell, nil
	case 2:
		return Fortress, nil
	}
	b, err := br.Read(1)
	if err != nil {
		return 0, err
	}
	if b == 0 {
		return Home, nil
	}
	return BuildingNone, nil
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// sideBits is how many bits a coordinate in 0..n-1 takes.
func sideBits(n int) uint {
	if n <= 1 {
		return 0
	}
	return uint(bits.Len(uint(n - 1)))
}

// homes returns the players' home cells as s holds them at turn 0 (each
// player's Home building), uid order.
func (s *State) homes() []Point {
	out := make([]Point, len(s.users))
	w := s.cfg.Width
	for i := range s.cells {
		c := &s.cells[i]
		if c.building == Home && c.owner >= 1 && int(c.owner) <= len(out) {
			out[c.owner-1] = Point{X: i % w, Y: i / w}
		}
	}
	return out
}

// LegacyHeader is how ColorfightII's .rwd headers keep a game's setup
// (engine.Codec): in fields of their own (legacy.go).
func (ruleset) LegacyHeader() *engine.LegacyHeader { return &legacyHeader }

// AppendRecord appends the record of the round g last played
// (engine.Codec): Game.AppendRecord of a *Game or of a wrapper of one
// that forwards it; any other Game appends nothing.
func (ruleset) AppendRecord(g engine.Game, dst []byte) []byte {
	if r, ok := g.(interface{ AppendRecord(dst []byte) []byte }); ok {
		return r.AppendRecord(dst)
	}
	return dst
}

// PlayRecord reads one record and plays it on g, a *Game (engine.Codec:
// Game.PlayRecord).
func (ruleset) PlayRecord(g engine.Game, r io.ByteReader, cmds [][]string, faults []engine.Fault, faultText []string) ([]engine.CommandError, error) {
	cg, ok := g.(*Game)
	if !ok {
		return nil, fmt.Errorf("colorfight2: a record played on a %T, not a ColorfightII game", g)
	}
	return cg.PlayRecord(r, cmds, faults, faultText)
}

// FooterMetric is gold (engine.Codec): the footer of a ColorfightII .rwd
// keeps each player's final gold.
func (ruleset) FooterMetric() int { return 0 }

// NewDecoder returns a decoder of the records of a recording whose game
// at turn 0 is g, a *Game (engine.Codec): its cells are coded on g's map
// size and from its players' homes.
func (ruleset) NewDecoder(g engine.Game) (engine.RecordDecoder, error) {
	cg, ok := g.(*Game)
	if !ok {
		return nil, fmt.Errorf("colorfight2: a record decoder for a %T, not a ColorfightII game", g)
	}
	if cg.Turn() != 0 {
		return nil, fmt.Errorf("colorfight2: a record decoder from a game at turn %d, not 0", cg.Turn())
	}
	cfg := cg.State.Config()
	d := &decoder{rc: NewRecordCodec(cfg.Width, cfg.Height, cg.State.homes())}
	return d.DecodeRound, nil
}

// decoder is ColorfightII's engine.RecordDecoder (its DecodeRound).
type decoder struct {
	rc   *RecordCodec
	cmds [][]Command
}

// DecodeRound reads the next record without playing it
// (engine.RecordDecoder): each command as its text (Command.String),
// a bot fault as the round's fault (RoundText).
func (d *decoder) DecodeRound(r io.ByteReader, cmds [][]string, faults []engine.Fault, faultText []string) error {
	if n := d.rc.Players(); len(cmds) < n || len(faults) < n || len(faultText) < n {
		return fmt.Errorf("colorfight2: a record of %d players decoded into %d lists", n, min(len(cmds), len(faults), len(faultText)))
	}
	var err error
	if d.cmds, err = d.rc.ReadRound(r, d.cmds); err != nil {
		return err
	}
	RoundText(d.cmds, cmds, faults, faultText)
	return nil
}

// RoundText appends the commands of a round as text to out[p] and sets
// faults[p] and faultText[p] (out, faults and faultText at least as long
// as cmds): a bot fault at the head of a player's list (ErrBotFault,
// where Fault puts it) is the round's fault, with its text —
// FaultGarbage, since a record keeps a fault's text but not its kind,
// which Fault does not use — and every other command is its text
// (Command.String), which Round parses back to it.
func RoundText(cmds [][]Command, out [][]string, faults []engine.Fault, faultText []string) {
	var sc textScratch
	sc.roundText(cmds, out, faults, faultText)
}

// textScratch is the storage RoundText works in, kept by a Game between
// rounds (PlayRecord).
type textScratch struct {
	buf  []byte
	ends []int // where each command's text ends; -1: the fault
}

// roundText is RoundText in sc's storage.
func (sc *textScratch) roundText(cmds [][]Command, out [][]string, faults []engine.Fault, faultText []string) {
	// Every text of the round is written into one buffer and made one
	// string, which each command's text is a piece of: one allocation a
	// round (with sc's storage grown), not one or more a command.
	n := 0
	for _, list := range cmds {
		n += len(list)
	}
	buf := slices.Grow(sc.buf[:0], 12*n)
	ends := slices.Grow(sc.ends[:0], n)
	for p, list := range cmds {
		faults[p], faultText[p] = recordFault(list)
		for k := range list {
			c := &list[k]
			if k == 0 && faults[p] != 0 {
				ends = append(ends, -1)
				continue
			}
			buf = c.AppendText(buf)
			ends = append(ends, len(buf))
		}
	}
	text, i, from := string(buf), 0, 0
	for p, list := range cmds {
		for range list {
			if end := ends[i]; end >= 0 {
				out[p] = append(out[p], text[from:end])
				from = end
			}
			i++
		}
	}
	sc.buf, sc.ends = buf[:0], ends[:0]
}

// recordFault is the fault a player's recorded commands hold: a first
// command of ErrBotFault is the bot's failure (FaultGarbage, with its
// text), recorded in its place; 0 and "" otherwise.
func recordFault(list []Command) (engine.Fault, string) {
	if len(list) > 0 && list[0].Kind == CmdInvalid && list[0].Err == ErrBotFault {
		return engine.FaultGarbage, list[0].Raw
	}
	return 0, ""
}

// recordCodec returns the codec that writes the game's own records
// (AppendRecord), and starts the one that reads them (g.recIn,
// PlayRecord), both from the players' homes as the state holds them when
// first asked for: Round, PlayRecord and PlayApplied ask at turn 0. A game
// that plays records can record them again (a recording rewritten).
func (g *Game) recordCodec() *RecordCodec {
	if g.rec == nil {
		cfg := g.State.Config()
		homes := g.State.homes()
		g.rec = NewRecordCodec(cfg.Width, cfg.Height, homes)
		g.recIn = NewRecordCodec(cfg.Width, cfg.Height, homes)
	}
	return g.rec
}

// AppendRecord appends the record of the round last played
// (engine.Codec's): the commands it applied (Applied), faults first;
// round 0 -> 1's record holds none. Before any round it appends nothing.
func (g *Game) AppendRecord(dst []byte) []byte {
	if g.State.Turn() == 0 {
		return dst
	}
	return g.recordCodec().AppendRound(dst, g.Applied())
}

// PlayRecord reads one record and plays it (engine.Codec's): the
// commands it holds are applied as recorded, faults (and their text)
// included; with cmds, they are also given as text (see RoundText), and
// without, faults and faultText (when not nil) still say the faults. A
// fault reported with Fault before it is dropped: the record holds the
// round's faults.
func (g *Game) PlayRecord(r io.ByteReader, cmds [][]string, faults []engine.Fault, faultText []string) ([]engine.CommandError, error) {
	n := g.Players()
	if cmds != nil && (len(cmds) < n || len(faults) < n || len(faultText) < n) {
		return nil, fmt.Errorf("colorfight2: a record of %d players decoded into %d lists", n, min(len(cmds), len(faults), len(faultText)))
	}
	g.recordCodec()
	list, err := g.recIn.ReadRound(r, g.cmds)
	g.cmds = list
	if err != nil {
		return nil, err
	}
	switch {
	case cmds != nil:
		g.text.roundText(g.cmds, cmds, faults, faultText)
	case faults != nil && len(faults) >= n && len(faultText) >= n:
		for p, list := range g.cmds {
			faults[p], faultText[p] = recordFault(list)
		}
	}
	return g.playApplied(), nil
}

// PlayApplied plays a round of commands as they were applied (Applied's
// form: cmds[p] player p's list, faults first as Round puts them), as
// PlayRecord plays a record of them: for a game whose commands were
// found elsewhere (an import's inference, a conformance vector's log),
// so that AppendRecord records them. Faults reported with Fault before
// it are dropped. Applied returns the commands until the next round; the
// caller may reuse cmds (they are copied). It returns the command errors.
func (g *Game) PlayApplied(cmds [][]Command) []engine.CommandError {
	g.recordCodec() // its records start from the homes of turn 0
	n := g.Players()
	g.cmds = resize(g.cmds, n)
	for p := range g.cmds {
		list := g.cmds[p][:0]
		if p < len(cmds) {
			list = append(list, cmds[p]...)
		}
		g.cmds[p] = list
	}
	return g.playApplied()
}

// playApplied plays g.cmds, faults dropped.
func (g *Game) playApplied() []engine.CommandError {
	g.faults = resize(g.faults, g.Players())
	for p := range g.faults {
		g.faults[p] = g.faults[p][:0]
	}
	g.State.Step(g.cmds)
	g.played = true
	return g.roundDone()
}

var _ engine.Codec = ruleset{}
