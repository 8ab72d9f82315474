package viewer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/analysis/report"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/source"
)

// Limits on what Load accepts, so a hostile file cannot make the server
// allocate without bound.
const (
	MaxCells      = 4096    // width × height
	MaxCellFrames = 4 << 20 // frames × cells: 2001 frames of 30×30 is 1.8M
	MaxPlayers    = 255     // distinct players: uids 1..255, so owner slots are one byte
	// MaxCommandsShown is how many of one player's commands of one round
	// the page lists (a real bot sends a few dozen to a few hundred); the
	// rest are counted ("…and N more", with how many of them failed).
	MaxCommandsShown = 200
	// MaxCommandText bounds the command text one replay's page holds, all
	// rounds and players together, counting each command as its text plus
	// 16 bytes: c03 (8 players, 500 rounds) has 0.3 MiB, a game of 300
	// commands a round for 2000 rounds about 14 MiB. Past it, later
	// rounds list no commands, only their counts.
	MaxCommandText = 16 << 20
)

// commandOverhead is what a listed command costs beyond its text: its Go
// string header (and, in the manifest, its quotes and comma).
const commandOverhead = 16

// Replay is a replay decoded once and packed for the browser.
type Replay struct {
	Analysis *analysis.Analysis
	Charts   []report.Chart
	// Blob is the packed frame data (see docs/viewer.md); Gzip is
	// the same bytes gzip-compressed, as served and embedded.
	Blob []byte
	Gzip []byte
	// Frames is the number of frames (rounds + 1: frame 0 is the map).
	Frames int
	// Warning says why the replay ends early when its file is truncated
	// or damaged after some whole rounds ("" when it is whole); the
	// rounds before the damage are all there.
	Warning string
	// Provenance says where the game came from, when it was imported
	// from an official replay or forked from another game ("" otherwise).
	Provenance string
	// CommandsInferred: the commands shown are inferred from an official
	// replay's frames (a .cfr), not recorded.
	CommandsInferred bool
	// Notice says what the page leaves out of the commands
	// (MaxCommandsShown, MaxCommandText); "" when it lists them all. Unlike
	// Warning it is no fault of the file.
	Notice string
}

// Manifest is the JSON header of a packed blob: it says where each field's
// typed array is and carries everything else the page needs.
type Manifest struct {
	Version int             `json:"version"`
	Format  source.Format   `json:"format"`
	Width   int             `json:"width"`
	Height  int             `json:"height"`
	Frames  int             `json:"frames"`
	Players []ManifestUser  `json:"players"`
	Fields  []Field         `json:"fields"`
	Events  []ManifestEvent `json:"events"`
	// EventKinds lists the event kinds with their titles
	// (analysis.EventKinds), for the page's event filter; Shown says
	// which the filter shows at first, ShownUntil up to which turn it
	// shows the others at first (the lead changes of the opening,
	// analysis.EarlyLeadTurns: later their churn is hidden, the lead for good
	// stands for it).
	EventKinds []ManifestEventKind `json:"event_kinds"`
	// Buildings[b] shows building type b (the engine's numbering, as in
	// the "building" cell field: 0 none, 1 home … 4 fortress) to people.
	Buildings   []ManifestBuilding `json:"buildings"`
	HasCommands bool               `json:"has_commands"`
	// CommandsInferred: the commands are inferred from an official
	// replay's frames (source.Infer), not recorded; CommandsNote says so
	// to people.
	CommandsInferred bool   `json:"commands_inferred,omitempty"`
	CommandsNote     string `json:"commands_note,omitempty"`
	// Unexplained lists the turns whose frame the rules do not explain
	// (inferred commands only): they have no commands, and
	// UnexplainedNote says why.
	Unexplained     []int  `json:"unexplained,omitempty"`
	UnexplainedNote string `json:"unexplained_note,omitempty"`
	// Commands[t][slot-1] lists the commands player slot sent for turn t
	// (index 0 is empty: frame 0 has no round); nil without commands.
	Commands [][][]string `json:"commands,omitempty"`
	// Errors[t] lists [slot, command index, code] of the failed commands
	// of turn t.
	Errors [][][3]int `json:"errors,omitempty"`
	// ErrorText[code] describes each error code.
	ErrorText []string `json:"error_text,omitempty"`
	// Shortened[t] lists [slot, commands, failed] for each player whose
	// commands of turn t are not all listed in Commands (only the first
	// ones are, MaxCommandsShown at most; none once the replay's
	// MaxCommandText is spent): how many it sent and how many of them
	// failed, exactly. Errors then lists the failures of the listed
	// commands only. Nil when every command is listed.
	Shortened [][][3]int `json:"shortened,omitempty"`
	// ShortenedNote says why to people.
	ShortenedNote string `json:"shortened_note,omitempty"`
	// Logs[t][slot-1] is what player slot's bot logged (an external
	// bot's stderr, docs/bot-protocol.md) while it was asked for the
	// commands of the round that made turn t — the round of Commands[t] —
	// as plain text: ANSI escape sequences and control characters other
	// than newline and tab removed; "" when it logged nothing. Nil when
	// the replay keeps no logs. Logs count against MaxCommandText with
	// the commands; LogsNote says from which turn they are left out once
	// it is spent.
	Logs     [][]string       `json:"logs,omitempty"`
	LogsNote string           `json:"logs_note,omitempty"`
	Summary  analysis.Summary `json:"summary"`
	// Exchanges[slot-1][other] counts the cells the player took from
	// slot other (0: unowned cells) over the game, from the analysis's
	// exchanges (analysis.Round.Exchanges).
	Exchanges [][]int64 `json:"exchanges"`
	// Captures lists, by turn, then taker, then the other party, every
	// [turn, slot, other, cells]: in the round that made turn, player
	// slot took cells cells from slot other (0: unowned cells), from the
	// analysis's exchanges (analysis.Round.Exchanges, the captured_from_K
	// and lost_to_K columns of `rewind analyze`). What a player lost is
	// the entries with it as other. A round has at most one entry per
	// cell that changed owner.
	Captures [][4]int `json:"captures"`
	// Stats names the stats charts' series: the user fields that are the
	// analysis's series columns (statFields), and the frames' own.
	Stats []ManifestStat `json:"stats"`
	// Palette[(slot-1) % len] is a player's colour, on the board and in
	// the charts alike.
	Palette []string `json:"palette"`
}

// ManifestEvent is an analysis event with its wording (analysis.Event.Text,
// the one place events are worded), which the page shows as text.
type ManifestEvent struct {
	analysis.Event
	Text string `json:"text"`
	// Turning marks the turning points (analysis.TurningPoints), which
	// the page lists above the events; Explain is a lead swing's
	// analysis.Explain line.
	Turning bool   `json:"turning,omitempty"`
	Explain string `json:"explain,omitempty"`
}

// ManifestStat is a series the stats chart offers: the user field and
// its title.
type ManifestStat struct {
	Field string `json:"field"`
	Title string `json:"title"`
}

// stats lists the stats chart's series, in the picker's order.
var stats = []ManifestStat{
	{"gold", "gold"}, {"energy", "energy"}, {"cells", "cells"},
	{"gold_source", "gold income"}, {"energy_source", "energy income"}, {"tax_amount", "tax"},
	{"captured", "cells captured"}, {"lost", "cells lost"},
	{"gold_spent", "gold spent on builds and upgrades"}, {"upgrade_energy", "energy spent on home upgrades"},
	{"attack_energy", "energy spent attacking"}, {"capture_energy", "attack energy that captured"}, {"wasted_energy", "attack energy that captured nothing"},
	{"stolen_in", "gold stolen from others' homes"}, {"stolen_out", "gold stolen from own home"},
	{"refund", "refunds for lost buildings"}, {"mine_bonus", "gold for captured mines"},
	{"commands", "commands"}, {"errors", "failed commands"}, {"faults", "bot faults"},
}

// ManifestEventKind is an event kind as the page's filter shows it.
type ManifestEventKind struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Shown bool   `json:"shown"`
	// ShownUntil, when Shown is false, is the last turn whose events of
	// the kind the filter shows at first (0: none).
	ShownUntil int `json:"shown_until,omitempty"`
}

// ManifestBuilding is how the page names a building type: "gold mine",
// and the letter marking it on the board, "G".
type ManifestBuilding struct {
	Name   string `json:"name"`
	Letter string `json:"letter"`
}

// buildings lists every building type of the engine, by number.
func buildings() []ManifestBuilding {
	out := []ManifestBuilding{{Name: "none"}}
	for b := colorfight2.Home; b < colorfight2.NumBuildings; b++ {
		out = append(out, ManifestBuilding{Name: strings.ReplaceAll(b.Key(), "_", " "), Letter: strings.ToUpper(string(b.Letter()))})
	}
	return out
}

// ManifestUser is one player; its slot is its index in Players plus one.
type ManifestUser struct {
	UID int `json:"uid"`
	// Name is how the player is shown: analysis.(*Analysis).Name, its
	// username or "player N" when it has none.
	Name string `json:"name"`
	// Label names the player in the charts (report.SeriesName: its name,
	// with its uid when another player has the same name).
	Label string `json:"label"`
	Bot   string `json:"bot"`
	// NoLog is set for a player whose bot rewind could not see (it played
	// through the official client, match.OfficialClient): the page says
	// why it has no bot log.
	NoLog bool `json:"no_log,omitempty"`
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
	// Sparse: the field holds its changes only. The values array (Offset,
	// Length elements) is frame 0's Width×Height values, then, frame by
	// frame, for every cell that differs from the frame before, its
	// difference modulo 2^(8×size); Counts (Frames u32s at CountsOffset)
	// says how many cells changed in each frame (frame 0: 0) and Cells
	// (Length − Width×Height u16s at CellsOffset) which, in the values'
	// order and in increasing cell index, each as its distance from the
	// frame's changed cell before (the first: from cell 0). The page
	// copies each frame from the one before and adds the changes.
	Sparse       bool `json:"sparse,omitempty"`
	CountsOffset int  `json:"counts_offset,omitempty"`
	CellsOffset  int  `json:"cells_offset,omitempty"`
	Offset       int  `json:"offset"` // byte offset into the blob, aligned to the element size
	Length       int  `json:"length"` // number of elements
}

// cellFields are the cell fields, in packing order (collector.add fills
// them in this order).
var cellFields = []string{"owner", "building", "level", "force_field", "attack_cost",
	"gold", "energy", "natural_gold", "natural_energy", "natural_cost"}

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

// analysisMetrics is how many metrics a ColorfightII analysis of p
// players holds a value of per player and frame: its figures and the
// exchanges with each party (colorfight2.ExchangeMetrics).
func analysisMetrics(p int64) int64 {
	return int64(len(colorfight2.AccountMetrics)) + 2*p + 1
}

// eventKinds lists every event kind of the ColorfightII analysis with how
// people call it (the page's event filter shows these words), in the
// order to show them.
var eventKinds = []struct{ Kind, Title string }{
	{colorfight2.EventHomeCaptured, "homes captured"},
	{colorfight2.EventDied, "eliminations"},
	{analysis.EventBotFault, "bot faults"},
	{"attack_surge", "attack surges"},
	{"build_surge", "building surges"},
	{analysis.EventLeadSwing, "lead swings"},
	{analysis.EventLeadForGood, "lead for good"},
	{analysis.EventLeadChange, "lead changes"},
	{colorfight2.EventTechUp, "tech levels"},
	{colorfight2.EventTaxBracket, "cell tax brackets"},
	{colorfight2.EventBuildingBracket, "building tax brackets"},
}

// statFields are the analysis's series columns packed for the stats
// charts (kind "user", type i32, frame 0 all zeros, frame t the values of
// turn t; a value beyond 32 bits is clamped): the values of `rewind
// analyze`, by the same names, never derived again by the page.
var statFields = []string{"captured", "lost", "gold_spent", "upgrade_energy", "attack_energy",
	"capture_energy", "wasted_energy", "stolen_in", "stolen_out", "refund", "mine_bonus",
	"commands", "errors", "faults"}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// BlobMagic starts every packed blob. Little-endian uint32s follow: the
// manifest's offset and length, then zero; the arrays start at byte 16 and
// the manifest JSON ends the blob.
const BlobMagic = "RWV1"

// collector gathers frames as the analysis streams them.
type collector struct {
	w, h int
	// first[k*cells+i] is cell field k of cell i in frame 0, cur the
	// same in the last frame added; changes[k] are field k's changes in
	// the later frames (owner values are uids until pack maps them to
	// slots). Most cells change in no frame: this is a fraction of every
	// frame's values.
	first, cur []int32
	changes    []cellChanges
	users      []frameUsers
	rounds     []roundCmds
	// inferred: the source's commands are inferred (source.Infer).
	inferred bool
	// text is the command text kept so far (MaxCommandText); textFullAt
	// the turn from which no more is kept (0 while there is room);
	// shortRounds counts the rounds with commands left out.
	text        int64
	textBudget  int64
	textFullAt  int
	shortRounds int
	// hasLogs: a round had a bot log; logsFullAt is the turn from which
	// logs are left out (MaxCommandText spent), 0 while there is room.
	hasLogs    bool
	logsFullAt int
}

// cellChanges are one cell field's changes from frame to frame: in frame
// t, counts[t] cells changed (counts[0] is 0), in increasing cell index;
// cells says which and vals their new values, frame after frame.
type cellChanges struct {
	counts []uint32
	cells  []uint16 // < MaxCells
	vals   []int32
}

type frameUsers struct {
	uid  []int
	vals [][]int64 // per user: one value per userFields
}

type roundCmds struct {
	ok   bool
	cmds [][]string                 // [uid-1]: the listed commands
	errs []colorfight2.CommandError // of the listed commands
	// short lists [uid, commands, failed] of the players whose commands
	// are not all listed.
	short [][3]int
	// logs[uid-1] is the player's bot log as text (Manifest.Logs); nil
	// when nobody logged.
	logs []string
}

func (c *collector) add(f *colorfight2.Frame, src source.Source) error {
	n := len(c.users)
	if n == 0 {
		if f.Width <= 0 || f.Height <= 0 || f.Width > MaxCells || f.Height > MaxCells || f.Width*f.Height > MaxCells {
			return fmt.Errorf("map is %dx%d, want between 1x1 and %d cells", f.Width, f.Height, MaxCells)
		}
		c.w, c.h = f.Width, f.Height
	}
	if (n+1)*c.w*c.h > MaxCellFrames {
		return fmt.Errorf("frame %d: more than %d cell-frames (frames × cells) to show", n, MaxCellFrames)
	}
	if f.Width != c.w || f.Height != c.h || len(f.Cells) != c.w*c.h {
		return fmt.Errorf("frame %d: map is %dx%d with %d cells, the replay started %dx%d", n, f.Width, f.Height, len(f.Cells), c.w, c.h)
	}
	ncell := c.w * c.h
	if n == 0 {
		c.first = make([]int32, len(cellFields)*ncell)
		c.changes = make([]cellChanges, len(cellFields))
	}
	for k := range c.changes {
		c.changes[k].counts = append(c.changes[k].counts, 0)
	}
	for i := range f.Cells {
		cell := &f.Cells[i]
		// In cellFields order.
		for k, v := range [...]int64{cell.Owner, int64(cell.Building), cell.Level, cell.ForceField, cell.AttackCost,
			cell.Gold, cell.Energy, cell.NaturalGold, cell.NaturalEnergy, cell.NaturalCost} {
			if v < math.MinInt32 || v > math.MaxInt32 {
				return fmt.Errorf("frame %d: cell (%d, %d): %s %d does not fit in 32 bits", n, i%c.w, i/c.w, cellFields[k], v)
			}
			if n == 0 {
				c.first[k*ncell+i] = int32(v)
			} else if p := &c.cur[k*ncell+i]; *p != int32(v) {
				*p = int32(v)
				ch := &c.changes[k]
				ch.counts[n]++
				ch.cells = append(ch.cells, uint16(i))
				ch.vals = append(ch.vals, int32(v))
			}
		}
	}
	if n == 0 {
		c.cur = slices.Clone(c.first)
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
		c.keepRound(&rc, n, r.Commands, errs)
		c.keepLogs(&rc, n, r.Logs)
	}
	c.rounds = append(c.rounds, rc)
	return nil
}

// keepRound keeps the commands of turn n for the page: at most
// MaxCommandsShown a player, while the replay's MaxCommandText lasts; the
// players' counts of commands and failures stay exact.
func (c *collector) keepRound(rc *roundCmds, n int, cmds [][]colorfight2.Command, errs []colorfight2.CommandError) {
	rc.ok = true
	rc.cmds = make([][]string, len(cmds))
	for i, cs := range cmds {
		keep := min(len(cs), MaxCommandsShown)
		if c.textFullAt > 0 {
			keep = 0
		}
		list := make([]string, 0, keep)
		for j := range keep {
			s := cs[j].String()
			cost := int64(len(s)) + commandOverhead
			if c.text+cost > c.textBudget {
				c.textFullAt = max(n, 1)
				break
			}
			c.text += cost
			list = append(list, s)
		}
		rc.cmds[i] = list
		if len(list) < len(cs) {
			failed := 0
			for _, e := range errs {
				if e.UID == i+1 {
					failed++
				}
			}
			rc.short = append(rc.short, [3]int{i + 1, len(cs), failed})
		}
	}
	if rc.short != nil {
		c.shortRounds++
	}
	listed := func(e colorfight2.CommandError) bool {
		return e.UID >= 1 && e.UID <= len(rc.cmds) && e.Index >= 0 && e.Index < len(rc.cmds[e.UID-1])
	}
	kept := 0
	for _, e := range errs {
		if listed(e) {
			kept++
		}
	}
	if kept > 0 {
		rc.errs = make([]colorfight2.CommandError, 0, kept)
		for _, e := range errs {
			if listed(e) {
				rc.errs = append(rc.errs, e)
			}
		}
	}
}

// keepLogs keeps the bots' logs of turn n (source.Round.Logs) as text,
// while the replay's MaxCommandText lasts: each costs its length and
// commandOverhead.
func (c *collector) keepLogs(rc *roundCmds, n int, logs [][]byte) {
	for i, l := range logs {
		if len(l) == 0 {
			continue
		}
		c.hasLogs = true
		s := logText(l)
		cost := int64(len(s)) + commandOverhead
		if c.logsFullAt > 0 || c.text+cost > c.textBudget {
			if c.logsFullAt == 0 {
				c.logsFullAt = max(n, 1)
			}
			continue
		}
		c.text += cost
		if rc.logs == nil {
			rc.logs = make([]string, len(logs))
		}
		rc.logs[i] = s
	}
}

// logText turns a bot's log into plain text for the page: ANSI escape
// sequences (CSI "ESC [ … final", and ESC with one character) and
// control characters other than newline and tab are removed, invalid
// UTF-8 becomes U+FFFD. The page shows it as text, never as markup.
func logText(l []byte) string {
	out := make([]byte, 0, len(l))
	for i := 0; i < len(l); i++ {
		b := l[i]
		switch {
		case b == 0x1b:
			if i+1 < len(l) && l[i+1] == '[' {
				i += 2
				for i < len(l) && (l[i] < 0x40 || l[i] > 0x7e) {
					i++
				}
			} else {
				i++
			}
		case b == '\n' || b == '\t':
			out = append(out, b)
		case b < 0x20 || b == 0x7f:
		default:
			out = append(out, b)
		}
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

// notice says what the page leaves out of the commands ("" when nothing).
func (c *collector) notice() string {
	switch {
	case c.textFullAt > 0:
		return fmt.Sprintf("Commands are listed up to turn %d only: the page holds at most %s of command text (docs/viewer.md, limits); later turns give their counts of commands and failures.", c.textFullAt-1, sizeString(c.textBudget))
	case c.shortRounds > 0:
		return fmt.Sprintf("In %d rounds a player sent more than %d commands: the page lists the first %d and counts the rest (docs/viewer.md, limits).", c.shortRounds, MaxCommandsShown, MaxCommandsShown)
	}
	return ""
}

// Load packs the frames of src, a ColorfightII replay, with a, the
// analysis of the same replay (analysis.AnalyzeFile): LoadFile and
// LoadReader give both. The commands of an official replay's rounds are
// inferred (source.Infer) to be shown like a .rwd's. It does not close
// src. A damaged or hostile replay gives an error that names the frame;
// it never panics.
func Load(src source.Source, a *analysis.Analysis) (*Replay, error) {
	return load(src, a, MaxCommandText)
}

// LoadFile analyses and loads the replay at path (Load).
func LoadFile(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := LoadReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// analyzeReader analyses the ColorfightII replay r holds (its document,
// analysis.AnalyzeDocument over source.NewAnyStream).
func analyzeReader(r io.Reader) (*analysis.Analysis, error) {
	s, err := source.NewAnyStream(r, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return analysis.AnalyzeDocument(s)
}

// LoadReader analyses the replay r holds, then loads it (Load): it reads
// r twice, from its start.
func LoadReader(r io.ReadSeeker) (*Replay, error) {
	a, err := analyzeReader(r)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	src, err := source.New(r, nil)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return Load(src, a)
}

// load is Load with a budget of command text (the tests use less than
// MaxCommandText).
func load(src source.Source, a *analysis.Analysis, textBudget int64) (*Replay, error) {
	src = source.Infer(src)
	c := &collector{inferred: src.Meta().CommandsInferred, textBudget: textBudget}
	var f colorfight2.Frame
	for {
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(c.users) >= 2 {
				break // a cut-short replay: the analysis says so (Truncated)
			}
			return nil, err
		}
		if len(c.users) > a.Rounds {
			break // the analysis ended here
		}
		if err := c.add(&f, src); err != nil {
			return nil, fmt.Errorf("viewer: %w", err)
		}
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
	rep := &Replay{Analysis: a, Charts: charts, Blob: blob, Gzip: gz.Bytes(), Frames: len(c.users), CommandsInferred: c.inferred, Notice: c.notice()}
	if h := src.Meta().Header; h != nil {
		rep.Provenance = h.Provenance()
	}
	if a.Truncated != nil {
		rep.Warning = fmt.Sprintf("the replay ends early after turn %d: %v", a.Rounds, a.Truncated)
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
	m := Manifest{Version: 2, Format: source.Format(a.Format), Width: c.w, Height: c.h, Frames: frames,
		Events: make([]ManifestEvent, len(a.Events)), Buildings: buildings(),
		HasCommands: a.HasCommands || c.inferred, Summary: a.Summary, Palette: report.Palette, Stats: stats}
	if c.inferred {
		m.CommandsInferred, m.CommandsNote, m.UnexplainedNote = true, inferredNote, unexplainedNote
	}
	for i, e := range a.Events {
		m.Events[i] = ManifestEvent{Event: e, Text: a.EventText(e, a.Name), Turning: a.G.IsTurningPoint(e.Kind), Explain: a.Explain(e, a.Name)}
	}
	for _, k := range eventKinds {
		ek := ManifestEventKind{Kind: k.Kind, Title: k.Title, Shown: true}
		if k.Kind == analysis.EventLeadChange {
			ek.Shown, ek.ShownUntil = false, analysis.EarlyLeadTurns(a.Rounds)
		}
		m.EventKinds = append(m.EventKinds, ek)
	}
	for i, p := range a.Players {
		slot[p.UID] = i + 1
		m.Players = append(m.Players, ManifestUser{UID: p.UID, Name: a.Name(p.UID), Label: report.SeriesName(a, p.UID), Bot: p.Bot, NoLog: p.Bot == match.OfficialClient})
	}
	// Owners become slots.
	toSlot := func(t, i int, uid *int32) error {
		if *uid == 0 {
			return nil
		}
		s, ok := slot[int(*uid)]
		if !ok {
			return fmt.Errorf("viewer: frame %d: cell (%d, %d) is owned by uid %d, which is not a player", t, i%c.w, i/c.w, *uid)
		}
		*uid = int32(s)
		return nil
	}
	for i := range c.first[:ncell] {
		if err := toSlot(0, i, &c.first[i]); err != nil {
			return nil, err
		}
	}
	owners := &c.changes[0] // cellFields[0] is "owner"
	for t, j := 1, 0; t < frames; t++ {
		for end := j + int(owners.counts[t]); j < end; j++ {
			if err := toSlot(t, int(owners.cells[j]), &owners.vals[j]); err != nil {
				return nil, err
			}
		}
	}
	// parts are the blob's arrays, each with where its offset goes.
	var parts []blobPart
	for k, name := range cellFields {
		ch := &c.changes[k]
		first := c.first[k*ncell : (k+1)*ncell]
		lo, hi := int32(0), int32(0)
		for _, v := range first {
			lo, hi = min(lo, v), max(hi, v)
		}
		for _, v := range ch.vals {
			lo, hi = min(lo, v), max(hi, v)
		}
		changes := len(ch.vals)
		static := frames > 1 && changes == 0
		typ, size := "i32", 4
		switch {
		case lo >= 0 && hi <= 0xff:
			typ, size = "u8", 1
		case lo >= 0 && hi <= 0xffff:
			typ, size = "u16", 2
		}
		put := func(out []byte, i int, v int32) {
			switch size {
			case 1:
				out[i] = byte(v)
			case 2:
				binary.LittleEndian.PutUint16(out[2*i:], uint16(v))
			default:
				binary.LittleEndian.PutUint32(out[4*i:], uint32(v))
			}
		}
		// A field that never changes (the natural values) is sent once;
		// the others as frame 0 and then, frame by frame, the cells that
		// changed (most do not: 1% of the owners of a turn of c03).
		f := len(m.Fields)
		m.Fields = append(m.Fields, Field{Name: name, Kind: "cell", Type: typ, Static: static, Sparse: !static && frames > 1, Length: ncell + changes})
		vals := make([]byte, size*(ncell+changes))
		for i, v := range first {
			put(vals, i, v)
		}
		parts = append(parts, blobPart{vals, f, partValues})
		if !m.Fields[f].Sparse {
			m.Fields[f].Length = ncell
			continue
		}
		counts := make([]byte, 4*frames)
		cells := make([]byte, 2*changes)
		now := slices.Clone(first)
		for t, j := 1, 0; t < frames; t++ {
			binary.LittleEndian.PutUint32(counts[4*t:], ch.counts[t])
			last := 0
			for end := j + int(ch.counts[t]); j < end; j++ {
				i, v := int(ch.cells[j]), ch.vals[j]
				put(vals, ncell+j, v-now[i])                               // wraps like the typed arrays do
				binary.LittleEndian.PutUint16(cells[2*j:], uint16(i-last)) // < MaxCells
				now[i], last = v, i
			}
		}
		parts = append(parts, blobPart{counts, f, partCounts}, blobPart{cells, f, partCells})
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
		// i32 when every value fits (always, in a real game), else f64.
		typ := "i32"
		for _, v := range vals {
			if v < math.MinInt32 || v > math.MaxInt32 {
				typ = "f64"
				break
			}
		}
		var b []byte
		if typ == "i32" {
			b = make([]byte, 4*len(vals))
			for i, v := range vals {
				binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
			}
		} else {
			b = make([]byte, 8*len(vals))
			for i, v := range vals {
				binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
			}
		}
		m.Fields = append(m.Fields, Field{Name: f.name, Kind: "user", Type: typ, Length: len(vals)})
		parts = append(parts, blobPart{b, len(m.Fields) - 1, partValues})
	}
	for _, name := range statFields {
		b := make([]byte, 4*frames*np)
		for s, p := range a.Players {
			for i, v := range a.Values(p.UID, name) {
				if t := i + 1; t < frames {
					v = min(max(v, math.MinInt32), math.MaxInt32)
					binary.LittleEndian.PutUint32(b[4*(t*np+s):], uint32(int32(v)))
				}
			}
		}
		m.Fields = append(m.Fields, Field{Name: name, Kind: "user", Type: "i32", Length: frames * np})
		parts = append(parts, blobPart{b, len(m.Fields) - 1, partValues})
	}
	// Exchanges[s-1][o] is the cells slot s took from slot o (0: unowned
	// cells) over the whole game; captured_from_K is what a player took
	// from uid K (0: unowned cells) each round.
	from := make([][][]int64, np) // [slot-1][K]: the player's captured_from_K
	for s, p := range a.Players {
		from[s] = make([][]int64, a.MaxUID+1)
		for k := range from[s] {
			from[s][k] = a.Values(p.UID, "captured_from_"+strconv.Itoa(k))
		}
	}
	m.Exchanges = make([][]int64, np)
	for s := range a.Players {
		m.Exchanges[s] = make([]int64, np+1)
		for k, vs := range from[s] {
			o, ok := slot[k]
			if k != 0 && !ok {
				continue
			}
			for _, v := range vs {
				m.Exchanges[s][o] += v
			}
		}
	}
	m.Captures = [][4]int{}
	for t := 1; t < frames; t++ {
		for s := range a.Players {
			for k, vs := range from[s] {
				o, ok := slot[k]
				if t-1 < len(vs) && vs[t-1] > 0 && (ok || k == 0) {
					m.Captures = append(m.Captures, [4]int{t, s + 1, o, int(vs[t-1])})
				}
			}
		}
	}
	if m.HasCommands {
		m.Commands = make([][][]string, frames)
		m.Errors = make([][][3]int, frames)
		for t, rc := range c.rounds {
			m.Commands[t] = make([][]string, np)
			m.Errors[t] = [][3]int{}
			for s := range m.Commands[t] {
				m.Commands[t][s] = []string{}
			}
			if !rc.ok {
				if c.inferred && t > 0 {
					m.Unexplained = append(m.Unexplained, t)
				}
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
			for _, sh := range rc.short {
				if s, ok := slot[sh[0]]; ok {
					if m.Shortened == nil {
						m.Shortened = make([][][3]int, frames)
					}
					m.Shortened[t] = append(m.Shortened[t], [3]int{s, sh[1], sh[2]})
				}
			}
		}
		m.ShortenedNote = c.notice()
		if c.hasLogs {
			m.Logs = make([][]string, frames)
			for t, rc := range c.rounds {
				m.Logs[t] = make([]string, np)
				for i, s := range rc.logs {
					if sl, ok := slot[i+1]; ok && s != "" {
						m.Logs[t][sl-1] = s
					}
				}
			}
			if c.logsFullAt > 0 {
				m.LogsNote = fmt.Sprintf("Bot logs are shown up to turn %d only: the page holds at most %s of command and log text (docs/viewer.md, limits).", c.logsFullAt-1, sizeString(c.textBudget))
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
	// Lay out: a 16-byte head (magic, manifest offset and length), the
	// arrays each aligned to 8 bytes, then the manifest.
	off := 16
	offs := make([]int, len(parts))
	for i, p := range parts {
		offs[i] = off
		switch f := &m.Fields[p.field]; p.part {
		case partCounts:
			f.CountsOffset = off
		case partCells:
			f.CellsOffset = off
		default:
			f.Offset = off
		}
		off = align8(off + len(p.b))
	}
	head, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out := make([]byte, off+len(head))
	copy(out, BlobMagic)
	binary.LittleEndian.PutUint32(out[4:], uint32(off))
	binary.LittleEndian.PutUint32(out[8:], uint32(len(head)))
	for i, p := range parts {
		copy(out[offs[i]:], p.b)
	}
	copy(out[off:], head)
	return out, nil
}

// blobPart is one array of a packed blob: its bytes, and which array of
// which field it is.
type blobPart struct {
	b     []byte
	field int
	part  int
}

// The arrays of a field (a sparse field has all three).
const (
	partValues = iota
	partCounts
	partCells
)

func align8(n int) int { return (n + 7) &^ 7 }

// ReadManifest parses the manifest of a packed blob.
func ReadManifest(blob []byte) (*Manifest, error) {
	if len(blob) < 16 || string(blob[:4]) != BlobMagic {
		return nil, errors.New("viewer: not a packed replay blob")
	}
	off, n := int(binary.LittleEndian.Uint32(blob[4:])), int(binary.LittleEndian.Uint32(blob[8:]))
	if off < 16 || n > len(blob)-off {
		return nil, io.ErrUnexpectedEOF
	}
	var m Manifest
	if err := json.Unmarshal(blob[off:off+n], &m); err != nil {
		return nil, fmt.Errorf("viewer: manifest: %w", err)
	}
	return &m, nil
}
