package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/analysis/report"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay/source"
)

// Limits on what Load accepts, so a hostile file cannot make the server
// allocate without bound.
const (
	MaxCells      = 4096    // width × height
	MaxCellFrames = 4 << 20 // frames × cells: 2001 frames of 30×30 is 1.8M
	MaxPlayers    = 255     // distinct players (owner slots are one byte)
)

// Replay is a replay decoded once and packed for the browser.
type Replay struct {
	Analysis *analysis.Analysis
	Charts   []report.Chart
	// Blob is the packed frame data (see docs/viewer-data.md); Gzip is
	// the same bytes gzip-compressed, as served and embedded.
	Blob []byte
	Gzip []byte
	// Frames is the number of frames (rounds + 1: frame 0 is the map).
	Frames int
	// Warning says why the replay ends early when its file is truncated
	// or damaged after some whole rounds ("" when it is whole); the
	// rounds before the damage are all there.
	Warning string
}

// Manifest is the JSON header of a packed blob: it says where each field's
// typed array is and carries everything else the page needs.
type Manifest struct {
	Version     int              `json:"version"`
	Format      source.Format    `json:"format"`
	Width       int              `json:"width"`
	Height      int              `json:"height"`
	Frames      int              `json:"frames"`
	Players     []ManifestUser   `json:"players"`
	Fields      []Field          `json:"fields"`
	Events      []analysis.Event `json:"events"`
	HasCommands bool             `json:"has_commands"`
	// Commands[t][slot-1] lists the commands player slot sent for turn t
	// (index 0 is empty: frame 0 has no round); nil without commands.
	Commands [][][]string `json:"commands,omitempty"`
	// Errors[t] lists [slot, command index, code] of the failed commands
	// of turn t.
	Errors [][][3]int `json:"errors,omitempty"`
	// ErrorText[code] describes each error code.
	ErrorText []string         `json:"error_text,omitempty"`
	Summary   analysis.Summary `json:"summary"`
	// Palette[(slot-1) % len] is a player's colour, on the board and in
	// the charts alike.
	Palette []string `json:"palette"`
}

// ManifestUser is one player; its slot is its index in Players plus one.
type ManifestUser struct {
	UID  int    `json:"uid"`
	Name string `json:"name"`
	Bot  string `json:"bot"`
}

// Field locates one typed array in the blob.
//
// Cell fields hold Frames×Width×Height values (frame-major, then the
// row-major cell index y*Width+x), or Width×Height values when Static (the
// field never changes). User fields hold Frames×len(Players) values
// (frame-major, then slot-1).
type Field struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"` // "cell" or "user"
	Type   string `json:"type"` // "u8", "u16", "i32" or "f64"
	Static bool   `json:"static,omitempty"`
	Offset int    `json:"offset"` // byte offset into the blob, aligned to the element size
	Length int    `json:"length"` // number of elements
}

// Cell fields, in packing order.
var cellFields = []struct {
	name string
	get  func(c *colorfight2.FrameCell) int64
}{
	{"owner", nil}, // player slot, filled in specially
	{"building", func(c *colorfight2.FrameCell) int64 { return int64(c.Building) }},
	{"level", func(c *colorfight2.FrameCell) int64 { return c.Level }},
	{"force_field", func(c *colorfight2.FrameCell) int64 { return c.ForceField }},
	{"attack_cost", func(c *colorfight2.FrameCell) int64 { return c.AttackCost }},
	{"gold", func(c *colorfight2.FrameCell) int64 { return c.Gold }},
	{"energy", func(c *colorfight2.FrameCell) int64 { return c.Energy }},
	{"natural_gold", func(c *colorfight2.FrameCell) int64 { return c.NaturalGold }},
	{"natural_energy", func(c *colorfight2.FrameCell) int64 { return c.NaturalEnergy }},
	{"natural_cost", func(c *colorfight2.FrameCell) int64 { return c.NaturalCost }},
}

// User fields, in packing order ("present" is 1 when the player is in the
// frame).
var userFields = []struct {
	name string
	get  func(u *colorfight2.FrameUser) int64
}{
	{"present", func(u *colorfight2.FrameUser) int64 { return 1 }},
	{"gold", func(u *colorfight2.FrameUser) int64 { return u.Gold }},
	{"energy", func(u *colorfight2.FrameUser) int64 { return u.Energy }},
	{"gold_source", func(u *colorfight2.FrameUser) int64 { return u.GoldSource }},
	{"energy_source", func(u *colorfight2.FrameUser) int64 { return u.EnergySource }},
	{"tax_amount", func(u *colorfight2.FrameUser) int64 { return u.TaxAmount }},
	{"tax_level", func(u *colorfight2.FrameUser) int64 { return u.TaxLevel }},
	{"tech_level", func(u *colorfight2.FrameUser) int64 { return u.TechLevel }},
	{"cells", func(u *colorfight2.FrameUser) int64 { return u.CellNumber }},
	{"dead", func(u *colorfight2.FrameUser) int64 { return b2i(u.Dead) }},
	{"homes", func(u *colorfight2.FrameUser) int64 { return u.Buildings[colorfight2.Home] }},
	{"mines", func(u *colorfight2.FrameUser) int64 { return u.Buildings[colorfight2.GoldMine] }},
	{"wells", func(u *colorfight2.FrameUser) int64 { return u.Buildings[colorfight2.EnergyWell] }},
	{"fortresses", func(u *colorfight2.FrameUser) int64 { return u.Buildings[colorfight2.Fortress] }},
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// BlobMagic starts every packed blob; a little-endian uint32 manifest
// length and the manifest JSON follow, then the arrays.
const BlobMagic = "RWV1"

// collector gathers frames as the analysis streams them.
type collector struct {
	w, h   int
	cells  [][]int32 // per cell field: frames × cells (owner holds uids)
	users  []frameUsers
	rounds []roundCmds
}

type frameUsers struct {
	uid  []int
	vals [][]int64 // per user: one value per userFields
}

type roundCmds struct {
	ok   bool
	cmds [][]string // [uid-1]
	errs []colorfight2.CommandError
}

// tee is a Source that hands every frame to the collector on its way to
// the analysis, so the replay is decoded exactly once.
type tee struct {
	source.Source
	c   *collector
	err error
	// cut is the error that ended a replay early, after at least the map
	// and one turn; the stream is then ended there as if at EOF.
	cut error
}

func (t *tee) Next(f *colorfight2.Frame) error {
	err := t.Source.Next(f)
	if err != nil {
		if !errors.Is(err, io.EOF) && len(t.c.users) >= 2 {
			t.cut = err
			return io.EOF
		}
		return err
	}
	if err := t.c.add(f, t.Source); err != nil {
		t.err = err
		return err
	}
	return nil
}

func (c *collector) add(f *colorfight2.Frame, src source.Source) error {
	n := len(c.users)
	if n == 0 {
		if f.Width <= 0 || f.Height <= 0 || f.Width > MaxCells || f.Height > MaxCells || f.Width*f.Height > MaxCells {
			return fmt.Errorf("map is %dx%d, want between 1x1 and %d cells", f.Width, f.Height, MaxCells)
		}
		c.w, c.h = f.Width, f.Height
		c.cells = make([][]int32, len(cellFields))
	}
	if (n+1)*c.w*c.h > MaxCellFrames {
		return fmt.Errorf("frame %d: more than %d cell-frames (frames × cells) to show", n, MaxCellFrames)
	}
	if f.Width != c.w || f.Height != c.h || len(f.Cells) != c.w*c.h {
		return fmt.Errorf("frame %d: map is %dx%d with %d cells, the replay started %dx%d", n, f.Width, f.Height, len(f.Cells), c.w, c.h)
	}
	for i := range f.Cells {
		cell := &f.Cells[i]
		for k := range cellFields {
			v := cell.Owner
			if k > 0 {
				v = cellFields[k].get(cell)
			}
			if v < math.MinInt32 || v > math.MaxInt32 {
				return fmt.Errorf("frame %d: cell (%d, %d): %s %d does not fit in 32 bits", n, i%c.w, i/c.w, cellFields[k].name, v)
			}
			c.cells[k] = append(c.cells[k], int32(v))
		}
	}
	var fu frameUsers
	for i := range f.Users {
		u := &f.Users[i]
		fu.uid = append(fu.uid, int(u.UID))
		v := make([]int64, len(userFields))
		for k := range userFields {
			v[k] = userFields[k].get(u)
		}
		fu.vals = append(fu.vals, v)
	}
	c.users = append(c.users, fu)
	var rc roundCmds
	if r, errs, ok := src.Round(); ok && r != nil {
		rc.ok = true
		rc.cmds = make([][]string, len(r.Commands))
		for i, cs := range r.Commands {
			rc.cmds[i] = make([]string, len(cs))
			for j := range cs {
				rc.cmds[i][j] = cs[j].String()
			}
		}
		rc.errs = append([]colorfight2.CommandError(nil), errs...)
	}
	c.rounds = append(c.rounds, rc)
	return nil
}

// Load decodes (or re-simulates) src once, analyses it and packs its
// frames. It does not close src. A damaged or hostile replay gives an
// error that names the frame; it never panics.
func Load(src source.Source) (*Replay, error) {
	c := &collector{}
	t := &tee{Source: src, c: c}
	a, err := analysis.Analyze(t)
	if err != nil {
		if t.err != nil {
			return nil, fmt.Errorf("viewer: %w", t.err)
		}
		return nil, err
	}
	if len(a.Players) > MaxPlayers {
		return nil, fmt.Errorf("viewer: %d players, at most %d are shown", len(a.Players), MaxPlayers)
	}
	charts, err := report.Charts(a)
	if err != nil {
		return nil, err
	}
	blob, err := c.pack(a)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(blob)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	rep := &Replay{Analysis: a, Charts: charts, Blob: blob, Gzip: gz.Bytes(), Frames: len(c.users)}
	if t.cut != nil {
		rep.Warning = fmt.Sprintf("the replay ends early after turn %d: %v", len(c.users)-1, t.cut)
	}
	return rep, nil
}

// pack lays the collected frames out as typed arrays behind a manifest.
func (c *collector) pack(a *analysis.Analysis) ([]byte, error) {
	frames := len(c.users)
	if frames == 0 {
		return nil, errors.New("viewer: replay has no frames")
	}
	ncell := c.w * c.h
	slot := map[int]int{}
	m := Manifest{Version: 1, Format: a.Format, Width: c.w, Height: c.h, Frames: frames,
		Events: a.Events, HasCommands: a.HasCommands, Summary: a.Summary, Palette: report.Palette}
	if m.Events == nil {
		m.Events = []analysis.Event{}
	}
	for i, p := range a.Players {
		slot[p.UID] = i + 1
		m.Players = append(m.Players, ManifestUser{UID: p.UID, Name: p.Username, Bot: p.Bot})
	}
	// Owners become slots.
	for i, uid := range c.cells[0] {
		if uid == 0 {
			continue
		}
		s, ok := slot[int(uid)]
		if !ok {
			return nil, fmt.Errorf("viewer: frame %d: cell (%d, %d) is owned by uid %d, which is not a player", i/ncell, i%ncell%c.w, i%ncell/c.w, uid)
		}
		c.cells[0][i] = int32(s)
	}
	var arrays [][]byte
	for k, f := range cellFields {
		vals := c.cells[k]
		static := true
		for i := ncell; i < len(vals) && static; i++ {
			static = vals[i] == vals[i%ncell]
		}
		// Natural values are the map's; frame 0 already has them. Other
		// fields are static only if they truly never change.
		if static && frames > 1 {
			vals = vals[:ncell]
		} else {
			static = false
		}
		typ, b := packInts(vals)
		m.Fields = append(m.Fields, Field{Name: f.name, Kind: "cell", Type: typ, Static: static, Length: len(vals)})
		arrays = append(arrays, b)
	}
	np := len(a.Players)
	for k, f := range userFields {
		vals := make([]float64, frames*np)
		for t, fu := range c.users {
			for i, uid := range fu.uid {
				if s, ok := slot[uid]; ok {
					vals[t*np+s-1] = float64(fu.vals[i][k])
				}
			}
		}
		b := make([]byte, 8*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		m.Fields = append(m.Fields, Field{Name: f.name, Kind: "user", Type: "f64", Length: len(vals)})
		arrays = append(arrays, b)
	}
	if a.HasCommands {
		m.Commands = make([][][]string, frames)
		m.Errors = make([][][3]int, frames)
		for t, rc := range c.rounds {
			m.Commands[t] = make([][]string, np)
			m.Errors[t] = [][3]int{}
			for s := range m.Commands[t] {
				m.Commands[t][s] = []string{}
			}
			if !rc.ok {
				continue
			}
			for i, cs := range rc.cmds {
				if s, ok := slot[i+1]; ok {
					m.Commands[t][s-1] = cs
				}
			}
			for _, e := range rc.errs {
				if s, ok := slot[e.UID]; ok {
					m.Errors[t] = append(m.Errors[t], [3]int{s, e.Index, int(e.Code)})
				}
			}
		}
		for code := colorfight2.ErrCode(0); ; code++ {
			s := code.String()
			if s == "unknown error" {
				break
			}
			m.ErrorText = append(m.ErrorText, s)
		}
	}
	// Lay out: magic, manifest length, manifest, padding, arrays each
	// aligned to 8 bytes. Offsets depend on the manifest's length, which
	// depends on the offsets: iterate until stable.
	var head []byte
	for range 8 {
		off := 0
		hb, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		off = align8(8 + len(hb))
		changed := false
		for i := range m.Fields {
			if m.Fields[i].Offset != off {
				m.Fields[i].Offset = off
				changed = true
			}
			off = align8(off + len(arrays[i]))
		}
		if !changed {
			head = hb
			break
		}
	}
	if head == nil {
		return nil, errors.New("viewer: manifest layout did not settle")
	}
	size := m.Fields[len(m.Fields)-1].Offset + len(arrays[len(arrays)-1])
	out := make([]byte, align8(size))
	copy(out, BlobMagic)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(head)))
	copy(out[8:], head)
	for i, f := range m.Fields {
		copy(out[f.Offset:], arrays[i])
	}
	return out, nil
}

func align8(n int) int { return (n + 7) &^ 7 }

// packInts stores vals in the narrowest of u8, u16 and i32 that holds them.
func packInts(vals []int32) (string, []byte) {
	lo, hi := int32(0), int32(0)
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case lo >= 0 && hi <= 0xff:
		b := make([]byte, len(vals))
		for i, v := range vals {
			b[i] = byte(v)
		}
		return "u8", b
	case lo >= 0 && hi <= 0xffff:
		b := make([]byte, 2*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
		}
		return "u16", b
	}
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return "i32", b
}

// ReadManifest parses the manifest at the start of a packed blob.
func ReadManifest(blob []byte) (*Manifest, error) {
	if len(blob) < 8 || string(blob[:4]) != BlobMagic {
		return nil, errors.New("viewer: not a packed replay blob")
	}
	n := int(binary.LittleEndian.Uint32(blob[4:]))
	if n > len(blob)-8 {
		return nil, io.ErrUnexpectedEOF
	}
	var m Manifest
	if err := json.Unmarshal(blob[8:8+n], &m); err != nil {
		return nil, fmt.Errorf("viewer: manifest: %w", err)
	}
	return &m, nil
}
