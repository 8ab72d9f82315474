package viewer

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/klauspost/compress/gzip"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/analysis/report"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/source"
)

// Monad replays are packed like ColorfightII's (one blob of typed arrays
// behind a JSON manifest, docs/viewer.md) but in their own layout, which
// the Monad page (monad-page.js) reads: BlobMagicMonad, then the same 16-byte
// head (manifest offset and length), the arrays, the manifest.

// BlobMagicMonad starts every packed Monad blob.
const BlobMagicMonad = "RWM1"

// Limits of a Monad replay's page, so a hostile file cannot make the
// server allocate without bound.
const (
	// MaxMonadFrames is the most frames (turns + 1) a Monad page shows:
	// the cell-frames of MaxCellFrames on the 20×20 map.
	MaxMonadFrames = MaxCellFrames / monad.NumCells
	// MaxMonadMovesShown is how many moves of one turn the page draws
	// and lists (the built-in bots send tens to a few hundred); the rest
	// are counted.
	MaxMonadMovesShown = 2000
	// MaxMonadMoves bounds the moves one replay's page holds, all turns
	// together; past it, later turns show no moves, only their counts.
	MaxMonadMoves = 1 << 20
)

// monadMoveBytes is the size of one packed move besides its count:
// player, x, y, target x + 1, target y + 1, kind, code, and 1 for an
// implicit mine (monad.DirImplicit: every cell with units mines), else 0.
const monadMoveBytes = 8

// MonadReplay is what a Monad replay's page shows besides its frames.
type MonadReplay struct {
	// Names are the players' names as the analysis shows them
	// (analysis.MonadAnalysis.Names), in player order.
	Names []string
	// Turns is the number of turns the replay holds (frames - 1).
	Turns int
	// Summary is the page header's line: game, map, turns, players,
	// winner.
	Summary string
	// Source is the replay's format.
	Source source.Format
	// Truncated: the replay ends before its end (a recording still being
	// written, or cut short); Replay.Warning says where and why.
	Truncated bool
}

// MonadManifest is the JSON head of a packed Monad blob.
type MonadManifest struct {
	Version int           `json:"version"`
	Game    string        `json:"game"` // "monad"
	Format  source.Format `json:"format"`
	Width   int           `json:"width"`
	Height  int           `json:"height"`
	Frames  int           `json:"frames"`
	// Players are in player order; player p is drawn in
	// Palette[p % len(Palette)] on the board and in the charts.
	Players []MonadManifestPlayer `json:"players"`
	// Fields locate the typed arrays. Cell fields ("owner" and "hive":
	// u8, the player + 1, 0 for none; "units" and "resource") hold
	// Frames×Width×Height values, frame-major then y*Width+x; Delta as in
	// Field. Player fields ("resources", "units", "hives", "cells": f64)
	// hold Frames×len(Players) values. "move_start" (i32, Frames+1
	// values): frame t's moves are the records move_start[t] up to
	// move_start[t+1]; "moves" (u8) holds monadMoveBytes per record
	// (player, x, y, target x+1, target y+1, kind, code, implicit) and
	// "move_count" (i32) each record's count.
	Fields []Field `json:"fields"`
	// Kinds[k] names command kind k (monad.Kind: "?", MOVE, BUILD,
	// MINE); ErrorText[code] describes error code code (monad.ErrCode,
	// 0 is no error).
	Kinds     []string `json:"kinds"`
	ErrorText []string `json:"error_text"`
	// MovesShortened lists [turn, moves] for each turn whose moves are
	// not all packed (MaxMonadMovesShown, MaxMonadMoves); MovesNote says
	// why to people.
	MovesShortened [][2]int `json:"moves_shortened,omitempty"`
	MovesNote      string   `json:"moves_note,omitempty"`
	// Series are the analysis's per-player series (analysis.MonadAnalysis
	// Series), the charts' only data: Values[player][t] is the value
	// after turn t (t = 0: the map before the first turn).
	Series []MonadManifestSeries `json:"series"`
	// Events are the analysis's events with their wording; EventKinds
	// lists their kinds with titles (analysis.MonadEventKinds) for the
	// page's filter, Shown the ones it shows at first (not the churn of
	// lead changes).
	Events     []MonadManifestEvent `json:"events"`
	EventKinds []ManifestEventKind  `json:"event_kinds"`
	Palette    []string             `json:"palette"`
	// Logs[t][p] is what player p's bot logged while it was asked for
	// the commands of the turn that led to frame t (an external bot's
	// stderr, as text: escape sequences removed); nil rows for frames
	// without logs, absent when the replay keeps none. They count against
	// MaxCommandText; LogsNote says from which turn they are left out.
	Logs     [][]string `json:"logs,omitempty"`
	LogsNote string     `json:"logs_note,omitempty"`
}

// MonadManifestPlayer is one player of a Monad manifest.
type MonadManifestPlayer struct {
	Name string `json:"name"`
	// Label names the player in the charts: its name, with its number
	// when another player has the same name.
	Label string `json:"label"`
	Bot   string `json:"bot"`
}

// MonadManifestSeries is one chartable metric: its name, unit and kind
// ("gauge" or "counter") and one row of values per player.
type MonadManifestSeries struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit"`
	Kind   string    `json:"kind"`
	Values [][]int64 `json:"values"`
}

// MonadManifestEvent is one analysis event and its text.
type MonadManifestEvent struct {
	analysis.MonadEvent
	Text string `json:"text"`
}

// monadCollector keeps every frame of a Monad source as it streams past.
type monadCollector struct {
	players int
	// owner, hive: the player + 1 (0 none) per cell per frame; units and
	// resource per cell per frame.
	owner, hive     []byte
	units, resource []int32
	// stats[t*players+p] is player p's panel values in frame t.
	stats [][4]int64
	// moves holds the packed records, counts their counts, start[t] the
	// first record of frame t.
	moves  []byte
	counts []int32
	start  []int32
	short  [][2]int
	full   int // the turn from which no moves are kept (0 while there is room)
	budget int // MaxMonadMoves (less in tests)
	frames int
	// logs[t][p] is player p's bot log of frame t as text (logText),
	// kept while MaxCommandText lasts (logText counts it); hasLogs: some
	// frame had one; logsFullAt: the frame from which logs are left out.
	logs       [][]string
	hasLogs    bool
	logText    int64
	logsFullAt int
}

// monadTee hands every frame to the collector on its way to the
// analysis, so the replay is decoded once.
type monadTee struct {
	source.MonadSource
	c   *monadCollector
	err error // a limit the collector refused
}

func (t *monadTee) Next(f *source.MonadFrame) error {
	if err := t.MonadSource.Next(f); err != nil {
		return err
	}
	if err := t.c.add(f); err != nil {
		t.err = err
		return err
	}
	return nil
}

func (c *monadCollector) add(f *source.MonadFrame) error {
	n := c.frames
	if n == 0 {
		c.players = len(f.Players)
		if c.players < 1 || c.players > monad.MaxPlayers {
			return fmt.Errorf("frame 0: %d players, want 1 to %d", c.players, monad.MaxPlayers)
		}
	}
	if n >= MaxMonadFrames {
		return fmt.Errorf("frame %d: more than %d frames to show", n, MaxMonadFrames)
	}
	if len(f.Players) != c.players {
		return fmt.Errorf("frame %d: %d players, the replay started with %d", n, len(f.Players), c.players)
	}
	for i := range f.Cells {
		cell := &f.Cells[i]
		if int(cell.Owner) >= c.players || int(cell.Hive) >= c.players || cell.Owner < -1 || cell.Hive < -1 {
			return fmt.Errorf("frame %d: cell (%d, %d): owner %d, hive %d: not a player", n, i%monad.Width, i/monad.Width, cell.Owner, cell.Hive)
		}
		c.owner = append(c.owner, byte(cell.Owner+1))
		c.hive = append(c.hive, byte(cell.Hive+1))
		c.units = append(c.units, cell.Units)
		c.resource = append(c.resource, cell.Resource)
	}
	for p := range f.Players {
		s := &f.Players[p]
		c.stats = append(c.stats, [4]int64{s.Resources, s.Units, int64(s.Hives), int64(s.Cells)})
	}
	c.keepLogs(n, f.Logs)
	c.start = append(c.start, int32(len(c.counts)))
	keep := min(len(f.Moves), MaxMonadMovesShown)
	if c.full > 0 {
		keep = 0
	} else if len(c.counts)+keep > c.budget {
		keep = 0
		c.full = max(n, 1)
	}
	for _, m := range f.Moves[:keep] {
		tx, ty := monad.Neighbor(m.X, m.Y, m.Dir)
		if m.Kind != monad.KindMove {
			tx, ty = m.X, m.Y
		}
		if m.Player < 0 || m.Player >= c.players || !monad.OnMap(m.X, m.Y) {
			// A move the source could not place (an official log's
			// odd entry): counted, not drawn.
			continue
		}
		implicit := byte(0)
		if m.Kind == monad.KindMine && m.Dir == monad.DirImplicit {
			implicit = 1
		}
		c.moves = append(c.moves, byte(m.Player), byte(m.X), byte(m.Y), byte(min(max(tx+1, 0), 255)), byte(min(max(ty+1, 0), 255)), byte(m.Kind), byte(m.Code), implicit)
		c.counts = append(c.counts, int32(min(max(m.Count, math.MinInt32), math.MaxInt32)))
	}
	if shown := len(c.counts) - int(c.start[n]); shown < len(f.Moves) {
		c.short = append(c.short, [2]int{n, len(f.Moves)})
	}
	c.frames++
	return nil
}

// keepLogs keeps the bots' logs of frame n as text (as collector.keepLogs
// does for ColorfightII), while MaxCommandText lasts.
func (c *monadCollector) keepLogs(n int, logs [][]byte) {
	var row []string
	for p, l := range logs {
		if len(l) == 0 || p >= c.players {
			continue
		}
		c.hasLogs = true
		s := logText(l)
		cost := int64(len(s)) + commandOverhead
		if c.logsFullAt > 0 || c.logText+cost > MaxCommandText {
			if c.logsFullAt == 0 {
				c.logsFullAt = max(n, 1)
			}
			continue
		}
		c.logText += cost
		if row == nil {
			row = make([]string, c.players)
		}
		row[p] = s
	}
	for len(c.logs) < n {
		c.logs = append(c.logs, nil)
	}
	c.logs = append(c.logs, row)
}

// LoadMonad decodes (re-simulates) a Monad replay once, analyses it and
// packs its frames for the Monad page. It does not close src. A damaged
// or hostile replay gives an error naming the frame; it never panics.
func LoadMonad(src source.MonadSource) (*Replay, error) { return loadMonad(src, MaxMonadMoves) }

func loadMonad(src source.MonadSource, moveBudget int) (*Replay, error) {
	c := &monadCollector{budget: moveBudget}
	t := &monadTee{MonadSource: src, c: c}
	a, err := analyzeMonad(t)
	if t.err != nil {
		return nil, fmt.Errorf("viewer: %w", t.err)
	}
	if err != nil {
		return nil, err
	}
	if c.frames == 0 {
		return nil, errors.New("viewer: the replay has no frames")
	}
	m := src.Meta()
	mr := &MonadReplay{Turns: c.frames - 1, Source: m.Format, Names: a.a.Names}
	if len(mr.Names) != c.players {
		return nil, fmt.Errorf("viewer: the analysis names %d players, the frames hold %d", len(mr.Names), c.players)
	}
	blob, err := c.pack(m, mr, a)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(blob)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	mr.Summary, mr.Truncated = monadSummary(mr, a), a.a.Truncated != nil
	return &Replay{Blob: blob, Gzip: gz.Bytes(), Frames: c.frames, Monad: mr, Warning: a.warning}, nil
}

// pack lays the collected frames out as typed arrays behind the manifest.
func (c *monadCollector) pack(meta *source.MonadMeta, mr *MonadReplay, a *monadAnalysis) ([]byte, error) {
	frames, ncell := c.frames, monad.NumCells
	man := MonadManifest{Version: 1, Game: "monad", Format: meta.Format, Width: monad.Width, Height: monad.Height,
		Frames: frames, Palette: report.Palette, Series: a.series, Events: a.events}
	for p := 0; p < c.players; p++ {
		bot := ""
		if p < len(meta.Bots) {
			bot = meta.Bots[p]
		}
		label := mr.Names[p]
		for q, other := range mr.Names {
			if q != p && other == label {
				label = fmt.Sprintf("%s (%d)", label, p+1)
				break
			}
		}
		man.Players = append(man.Players, MonadManifestPlayer{Name: mr.Names[p], Label: label, Bot: bot})
	}
	for _, k := range analysis.MonadEventKinds {
		man.EventKinds = append(man.EventKinds, ManifestEventKind{Kind: k.Kind, Title: k.Title, Shown: k.Kind != analysis.EventLeadChange})
	}
	for k := monad.KindUnknown; k <= monad.KindMine; k++ {
		man.Kinds = append(man.Kinds, k.String())
	}
	for code := monad.ErrNone; code.String() != "unknown error"; code++ {
		man.ErrorText = append(man.ErrorText, code.String())
	}
	if c.short != nil {
		man.MovesShortened = c.short
		if c.full > 0 {
			man.MovesNote = fmt.Sprintf("Moves are drawn up to turn %d only: the page holds at most %d moves (docs/viewer.md, limits); later turns give their counts.", c.full-1, c.budget)
		} else {
			man.MovesNote = fmt.Sprintf("In %d turns the players sent more than %d commands: the page draws the first %d and counts the rest.", len(c.short), MaxMonadMovesShown, MaxMonadMovesShown)
		}
	}
	if c.hasLogs {
		man.Logs = make([][]string, frames)
		for t := 0; t < frames && t < len(c.logs); t++ {
			man.Logs[t] = c.logs[t]
		}
		if c.logsFullAt > 0 {
			man.LogsNote = fmt.Sprintf("Bot logs are shown up to turn %d only: the page holds at most %s of log text (docs/viewer.md, limits).", c.logsFullAt-1, sizeString(MaxCommandText))
		}
	}
	var arrays [][]byte
	add := func(f Field, b []byte) {
		man.Fields = append(man.Fields, f)
		arrays = append(arrays, b)
	}
	add(Field{Name: "owner", Kind: "cell", Type: "u8", Length: frames * ncell}, c.owner)
	add(Field{Name: "hive", Kind: "cell", Type: "u8", Length: frames * ncell}, c.hive)
	for _, cf := range []struct {
		name string
		v    []int32
	}{{"units", c.units}, {"resource", c.resource}} {
		typ, b := packDelta(cf.v, ncell)
		add(Field{Name: cf.name, Kind: "cell", Type: typ, Delta: frames > 1, Length: frames * ncell}, b)
	}
	for k, name := range []string{"resources", "units", "hives", "cells"} {
		b := make([]byte, 8*len(c.stats))
		for i, s := range c.stats {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(float64(s[k])))
		}
		add(Field{Name: name, Kind: "player", Type: "f64", Length: len(c.stats)}, b)
	}
	start := append(c.start[:frames:frames], int32(len(c.counts)))
	add(Field{Name: "move_start", Kind: "move", Type: "i32", Length: len(start)}, i32Bytes(start))
	add(Field{Name: "moves", Kind: "move", Type: "u8", Length: len(c.moves)}, c.moves)
	add(Field{Name: "move_count", Kind: "move", Type: "i32", Length: len(c.counts)}, i32Bytes(c.counts))
	off := 16
	for i := range man.Fields {
		man.Fields[i].Offset = off
		off = align8(off + len(arrays[i]))
	}
	head, err := json.Marshal(man)
	if err != nil {
		return nil, err
	}
	out := make([]byte, off+len(head))
	copy(out, BlobMagicMonad)
	binary.LittleEndian.PutUint32(out[4:], uint32(off))
	binary.LittleEndian.PutUint32(out[8:], uint32(len(head)))
	for i, f := range man.Fields {
		copy(out[f.Offset:], arrays[i])
	}
	copy(out[off:], head)
	return out, nil
}

// packDelta packs frame-major values of n cells a frame, each frame after
// the first as its difference from the one before (wrapping), in the
// smallest of u8, u16 and i32 that holds every value.
func packDelta(v []int32, n int) (string, []byte) {
	lo, hi := int32(0), int32(0)
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	typ, size := "i32", 4
	switch {
	case lo >= 0 && hi <= 0xff:
		typ, size = "u8", 1
	case lo >= 0 && hi <= 0xffff:
		typ, size = "u16", 2
	}
	b := make([]byte, size*len(v))
	for i, x := range v {
		if i >= n {
			x -= v[i-n]
		}
		switch size {
		case 1:
			b[i] = byte(x)
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		default:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
	}
	return typ, b
}

func i32Bytes(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// ReadMonadManifest parses the manifest of a packed Monad blob.
func ReadMonadManifest(blob []byte) (*MonadManifest, error) {
	if len(blob) < 16 || string(blob[:4]) != BlobMagicMonad {
		return nil, errors.New("viewer: not a packed Monad blob")
	}
	off, n := int(binary.LittleEndian.Uint32(blob[4:])), int(binary.LittleEndian.Uint32(blob[8:]))
	if off < 16 || off > len(blob) || n > len(blob)-off {
		return nil, io.ErrUnexpectedEOF
	}
	var m MonadManifest
	if err := json.Unmarshal(blob[off:off+n], &m); err != nil {
		return nil, fmt.Errorf("viewer: manifest: %w", err)
	}
	return &m, nil
}

// MonadLoadPeakBytes is the most memory LoadMonad may take for a replay of
// players players and turns turns (the header's promise), worst case:
//
//	16 MiB + F·(16000 + 800·P) + 36·min(F·MaxMonadMovesShown, MaxMonadMoves)
//
// with F = min(turns+1, MaxMonadFrames) frames. The fixed part is the
// decoder (zstd window and buffers), the engine's states and the page's
// strings; per frame, the collector's cells (10 bytes a cell) and their
// packed copy in the arrays and in the blob with its gzip copy, and per
// player the panel values (packed twice) and the analysis's seven series
// (held, then as manifest JSON twice); per move, its record and count in
// the collector, the arrays and the blob, and the source's frame.
func MonadLoadPeakBytes(players, turns int) int64 {
	p := int64(max(players, 1))
	frames := int64(min(max(turns, 0)+1, MaxMonadFrames))
	moves := min(frames*MaxMonadMovesShown, MaxMonadMoves)
	const fixed = 16 << 20
	return fixed + frames*(16000+800*p) + 36*moves
}

// monadLoadPeak estimates LoadMonad's peak for src from its meta: a
// source that does not say how many turns it holds is taken at the most
// frames the page shows.
func monadLoadPeak(m *source.MonadMeta) int64 {
	players, turns := m.Config.Players, m.Config.MaxTurns
	if players <= 0 {
		players = max(len(m.Names), monad.MaxPlayers)
	}
	if turns <= 0 {
		turns = MaxMonadFrames
	}
	return MonadLoadPeakBytes(players, turns)
}

// openMonad opens br as a Monad source when it is one (source.IsMonad);
// ok is false for anything else, which the caller opens with source.New.
func openMonad(br *bufio.Reader, closer io.Closer) (src source.MonadSource, ok bool, err error) {
	if !source.IsMonad(br) {
		return nil, false, nil
	}
	src, err = source.NewMonad(br, closer)
	return src, true, err
}
