package viewer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

// monadRecording plays built-in Monad bots (bots) under names for turns
// turns and returns the recording. At turn 5 the first player also sends
// a command of an unknown type, so some turn has a rejected move.
func monadRecording(tb testing.TB, seed int64, turns int, names, bots []string) []byte {
	tb.Helper()
	cfg := monad.Config{Players: len(bots), MaxTurns: turns, Seed: seed}
	s, err := monad.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(cfg, names, bots))
	if err != nil {
		tb.Fatal(err)
	}
	bs := make([]monadbot.Bot, len(bots))
	for i, n := range bots {
		if bs[i], err = monadbot.Builtin(n); err != nil {
			tb.Fatal(err)
		}
		bs[i].Start(i, uint64(seed)+uint64(i))
	}
	for !s.Over() {
		var r monad.Round
		r.Commands = make([][]monad.Command, len(bots))
		for i, b := range bs {
			texts, _ := b.Commands(s)
			for _, c := range texts {
				r.Commands[i] = append(r.Commands[i], monad.ParseCommand([]byte(c)))
			}
		}
		if s.Turn() == 5 {
			r.Commands[0] = append(r.Commands[0], monad.ParseCommand([]byte(`{"l":[1,1],"c":"JUMP","d":1,"n":1}`)))
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

var monadBots = []string{"expander", "miner", "rusher"}

// unpackMonad reads back a packed Monad blob's arrays: what monad-page.js
// does (deltas added up, wrapping like typed arrays).
type unpackedMonad struct {
	m                            *MonadManifest
	owner, hive, units, resource []int64
	stats                        map[string][]float64
	start, count                 []int64
	moves                        []byte
}

func unpackMonad(t *testing.T, blob []byte) *unpackedMonad {
	t.Helper()
	m, err := ReadMonadManifest(blob)
	if err != nil {
		t.Fatal(err)
	}
	u := &unpackedMonad{m: m, stats: map[string][]float64{}}
	n := m.Width * m.Height
	for _, f := range m.Fields {
		size := map[string]int{"u8": 1, "u16": 2, "i32": 4, "f64": 8}[f.Type]
		if f.Offset%size != 0 || f.Offset+size*f.Length > len(blob) {
			t.Fatalf("field %s: offset %d, %d×%d bytes in a blob of %d", f.Name, f.Offset, f.Length, size, len(blob))
		}
		b := blob[f.Offset : f.Offset+size*f.Length]
		vals := make([]int64, f.Length)
		var fl []float64
		for i := range vals {
			switch f.Type {
			case "u8":
				vals[i] = int64(b[i])
			case "u16":
				vals[i] = int64(binary.LittleEndian.Uint16(b[2*i:]))
			case "i32":
				vals[i] = int64(int32(binary.LittleEndian.Uint32(b[4*i:])))
			case "f64":
				fl = append(fl, math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
			}
		}
		if f.Delta {
			for i := n; i < len(vals); i++ {
				v := vals[i] + vals[i-n]
				switch f.Type {
				case "u8":
					v = int64(uint8(v))
				case "u16":
					v = int64(uint16(v))
				case "i32":
					v = int64(int32(v))
				}
				vals[i] = v
			}
		}
		switch {
		case f.Kind == "cell" && f.Name == "owner":
			u.owner = vals
		case f.Kind == "cell" && f.Name == "hive":
			u.hive = vals
		case f.Kind == "cell" && f.Name == "units":
			u.units = vals
		case f.Kind == "cell" && f.Name == "resource":
			u.resource = vals
		case f.Kind == "player":
			u.stats[f.Name] = fl
		case f.Name == "move_start":
			u.start = vals
		case f.Name == "move_count":
			u.count = vals
		case f.Name == "moves":
			u.moves = b
		}
	}
	return u
}

// TestMonadPack: the packed blob decodes back to every frame the source
// gives: cells, players' values, and each turn's moves with the engine's
// target cell.
func TestMonadPack(t *testing.T) {
	data := monadRecording(t, 11, 60, []string{"a", "b", "a"}, monadBots)
	src, err := source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := LoadMonad(src)
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Monad == nil || rep.Frames != 61 || rep.Monad.Turns != 60 || rep.Warning != "" {
		t.Fatalf("replay: %d frames, monad %+v, warning %q", rep.Frames, rep.Monad, rep.Warning)
	}
	u := unpackMonad(t, rep.Blob)
	if u.m.Game != "monad" || u.m.Frames != 61 || len(u.m.Players) != 3 || u.m.Players[1].Name != "b" || u.m.Players[2].Bot != "rusher" {
		t.Fatalf("manifest: %+v", u.m)
	}
	if u.m.Players[0].Label == u.m.Players[2].Label {
		t.Errorf("two players named a have one label %q", u.m.Players[0].Label)
	}

	src, err = source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var f source.MonadFrame
	rejected, arrows := 0, 0
	for fr := 0; ; fr++ {
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			if fr != 61 {
				t.Fatalf("source gave %d frames", fr)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range f.Cells {
			k := fr*monad.NumCells + i
			if u.owner[k] != int64(c.Owner)+1 || u.hive[k] != int64(c.Hive)+1 || u.units[k] != int64(c.Units) || u.resource[k] != int64(c.Resource) {
				t.Fatalf("frame %d cell (%d, %d): packed owner %d hive %d units %d resource %d, source %+v", fr, i%20, i/20, u.owner[k], u.hive[k], u.units[k], u.resource[k], c)
			}
		}
		for p, pl := range f.Players {
			for name, want := range map[string]int64{"resources": pl.Resources, "units": pl.Units, "hives": int64(pl.Hives), "cells": int64(pl.Cells)} {
				if got := u.stats[name][fr*3+p]; got != float64(want) {
					t.Fatalf("frame %d player %d %s: packed %v, source %d", fr, p, name, got, want)
				}
			}
		}
		lo, hi := u.start[fr], u.start[fr+1]
		if int(hi-lo) != len(f.Moves) {
			t.Fatalf("frame %d: %d moves packed, source %d", fr, hi-lo, len(f.Moves))
		}
		for j, m := range f.Moves {
			r := u.moves[(int(lo)+j)*monadMoveBytes:]
			tx, ty := m.X, m.Y
			if m.Kind == monad.KindMove {
				tx, ty = monad.Neighbor(m.X, m.Y, m.Dir)
				arrows++
			}
			if int(r[0]) != m.Player || int(r[1]) != m.X || int(r[2]) != m.Y || int(r[3]) != tx+1 || int(r[4]) != ty+1 ||
				monad.Kind(r[5]) != m.Kind || monad.ErrCode(r[6]) != m.Code || u.count[int(lo)+j] != m.Count ||
				(r[7] == 1) != (m.Kind == monad.KindMine && m.Dir == monad.DirImplicit) {
				t.Fatalf("frame %d move %d: packed %v count %d, source %+v", fr, j, r[:monadMoveBytes], u.count[int(lo)+j], m)
			}
			if m.Code != monad.ErrNone {
				rejected++
			}
		}
	}
	if arrows == 0 || rejected == 0 {
		t.Errorf("the game has %d moves and %d rejected commands; want some of each", arrows, rejected)
	}
	if u.m.Kinds[monad.KindMove] != "MOVE" || u.m.ErrorText[monad.ErrUnknownType] != monad.ErrUnknownType.String() {
		t.Errorf("kinds %v, error texts %v", u.m.Kinds, u.m.ErrorText)
	}
}

// TestMonadPackBounds: past the move budget, later turns keep only their
// counts (and the manifest says so); the memory estimate grows with
// players and turns and stops at the frames the page shows.
func TestMonadPackBounds(t *testing.T) {
	data := monadRecording(t, 3, 40, nil, monadBots[:2])
	src, err := source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := loadMonad(src, 50)
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	u := unpackMonad(t, rep.Blob)
	if total := u.start[len(u.start)-1]; total > 50 || len(u.m.MovesShortened) == 0 || !strings.Contains(u.m.MovesNote, "up to turn") {
		t.Fatalf("budget 50: %d moves packed, shortened %v, note %q", total, u.m.MovesShortened, u.m.MovesNote)
	}
	for _, s := range u.m.MovesShortened {
		if s[1] == 0 || s[0] < 1 || s[0] > 40 {
			t.Errorf("shortened turn %v", s)
		}
	}
	if u.m.Players[0].Name != "player 0" { // the analysis's name
		t.Errorf("unnamed player shown as %q", u.m.Players[0].Name)
	}
	a, b, c := MonadLoadPeakBytes(2, 100), MonadLoadPeakBytes(4, 100), MonadLoadPeakBytes(4, 1000)
	if !(a < b && b < c) || MonadLoadPeakBytes(4, 1e9) != MonadLoadPeakBytes(4, MaxMonadFrames) {
		t.Errorf("peaks: %d, %d, %d; huge %d vs cap %d", a, b, c, MonadLoadPeakBytes(4, 1e9), MonadLoadPeakBytes(4, MaxMonadFrames))
	}
	if r := int64(len(rep.Blob)); r > MonadLoadPeakBytes(2, 40) {
		t.Errorf("blob of %d bytes over the estimate %d", r, MonadLoadPeakBytes(2, 40))
	}
}

// monadLibrary writes a Monad game (and a truncated copy) into a folder.
func monadLibrary(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	data := monadRecording(t, 5, 50, []string{"<b>ex</b>", "miner"}, monadBots[:2])
	if err := os.WriteFile(filepath.Join(dir, "monad.rwd"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cut.rwd"), data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "head.rwd"), data[:40], 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, data
}

// TestMonadHandlers: a Monad replay opens on the Monad page with its blob
// at /data; the library lists it as Monad with players, turns and
// winner; a truncated one says what is wrong; an over-budget decode is
// 503 with Retry-After; uploads are checked like ColorfightII's.
func TestMonadHandlers(t *testing.T) {
	dir, data := monadLibrary(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ln := serveWith(t, lib, Options{MaxUpload: 4 << 20})
	base, s := ln.base, ln.s

	code, body := get(t, base+"/replay/monad.rwd")
	summary := body
	if strings.Contains(body, `data-shell="1"`) { // sent before the decode: the summary comes with the frames
		summary = shellSummary(t, base+"/data/monad.rwd?gz=1")
	}
	if code != 200 || !strings.Contains(body, `id="monad"`) || !strings.Contains(body, "/static/monad-page.js") || !strings.Contains(summary, "Monad · 20×20 hex · 50 turns · 2 players") {
		t.Fatalf("/replay/monad.rwd: %d\n%s", code, body)
	}
	resp, err := http.Get(base + "/data/monad.rwd?gz=1")
	if err != nil {
		t.Fatal(err)
	}
	gz, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rep, _ := lib.Load("monad.rwd")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/gzip" || !bytes.Equal(gz, rep.Gzip) {
		t.Fatalf("/data: %s %q, %d bytes", resp.Status, resp.Header.Get("Content-Type"), len(gz))
	}
	code, body = get(t, base+"/data/monad.rwd")
	if code != 200 || !strings.HasPrefix(body, BlobMagicMonad) {
		t.Fatalf("/data without gz: %d, %.8q", code, body)
	}
	for _, p := range []string{"/static/monad-page.js", "/static/monad.css"} {
		if code, _ := get(t, base+p); code != 200 {
			t.Errorf("%s: %d", p, code)
		}
	}

	// Cut after some turns (a recording still being written, or cut
	// short): its whole turns, with a warning saying so. Cut in the
	// header: a clear error.
	code, body = get(t, base+"/replay/cut.rwd")
	if code != 200 || !strings.Contains(body, `role="alert">the replay ends early after turn `) || !strings.Contains(body, "truncated") {
		t.Errorf("/replay/cut.rwd: %d\n%s", code, body)
	}
	code, body = get(t, base+"/replay/head.rwd")
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Cannot open this replay") || !strings.Contains(body, "head.rwd: ") {
		t.Errorf("/replay/head.rwd: %d\n%s", code, body)
	}

	code, body = get(t, base+"/api/library")
	var entries []libraryEntry
	if err := json.Unmarshal([]byte(body), &entries); code != 200 || err != nil {
		t.Fatalf("/api/library: %d %v", code, err)
	}
	found := 0
	for _, e := range entries {
		switch e.ID {
		case "monad.rwd":
			found++
			if e.Game != GameMonad || e.Format != source.MonadRWD || len(e.Players) != 2 || e.Players[0].Name != "<b>ex</b>" || e.Rounds != 50 || !e.Complete || e.Winner < 1 || e.Error != "" {
				t.Errorf("monad.rwd listed as %+v", e)
			}
		case "cut.rwd":
			found++
			if e.Game != GameMonad || e.Complete || e.Status == "" || e.Rounds >= 50 {
				t.Errorf("cut.rwd listed as %+v", e)
			}
		}
	}
	if found != 2 || len(entries) != 3 {
		t.Errorf("library lists %+v", entries)
	}
	code, body = get(t, base+"/")
	if code != 200 || !strings.Contains(body, `data-game="Monad"`) || !strings.Contains(body, "&lt;b&gt;ex&lt;/b&gt;") || strings.Contains(body, "<b>ex</b>") || !strings.Contains(body, " resources</span>") {
		t.Errorf("library page: %d\n%s", code, body)
	}

	// Uploads: a whole Monad recording is kept, a truncated one refused.
	code, body = post(t, base+"/api/upload?name=up.rwd", data)
	if code != 200 || !strings.Contains(body, `"up.rwd"`) {
		t.Errorf("upload of a Monad game: %d %s", code, body)
	}
	code, body = post(t, base+"/api/upload?name=upcut.rwd", data[:len(data)/2])
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "not a replay rewind can open") {
		t.Errorf("upload of a truncated Monad game: %d %s", code, body)
	}

	// No room in the budget: 503 with Retry-After, then 200 once there is.
	if err := os.WriteFile(filepath.Join(dir, "other.rwd"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	peak := MonadLoadPeakBytes(2, 50)
	s.mem.mu.Lock()
	s.mem.limit = 2 * peak
	s.mem.mu.Unlock()
	lib.mu.Lock()
	lib.evictLocked(1 << 62) // nothing cached to reclaim
	lib.mu.Unlock()
	s.mem.charge(2 * peak)
	// The page is sent before the decode (a shell); its frames' answer
	// is the 503, which the page shows in place of the board.
	if code, page := get(t, base+"/replay/other.rwd"); code != 200 || !strings.Contains(page, `data-shell="1"`) {
		t.Errorf("no room, the page: %d", code)
	}
	resp, err = http.Get(base + "/data/other.rwd?gz=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("no room: %s, Retry-After %q; want 503", resp.Status, resp.Header.Get("Retry-After"))
	}
	s.mem.release(2 * peak)
	if code, _ := get(t, base+"/replay/other.rwd"); code != 200 {
		t.Errorf("room again: %d", code)
	}
}

type served struct {
	base string
	s    *Server
}

// serveWith is serve, keeping the Server for the test to reach into.
func serveWith(t *testing.T, lib *Library, opts Options) served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Addr, opts.ClientRate = ln.Addr().String(), -1
	s := NewServer(lib, opts)
	hs := s.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return served{base: "http://" + ln.Addr().String(), s: s}
}

// TestMonadOfficialLogs: the reference engine's own logs (replay.json,
// .mp.gz) are listed as Monad games and open on the Monad page, in a
// library and alone (rewind view); a .json file that is no log is not
// listed.
func TestMonadOfficialLogs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"m05.replay.json", "m06.mp.gz"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "monad", "official", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"wins": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("library lists %d files, want the 2 logs", len(entries))
	}
	for _, e := range entries {
		if e.Game != GameMonad || e.Err != "" || !e.Complete || e.Rounds < 100 || len(e.Players) < 2 || e.Players[0].Name == "" || e.Winner < 1 {
			t.Errorf("%s listed as %+v", e.ID, e)
		}
	}
	base := serveWith(t, lib, Options{}).base
	for _, id := range []string{"m05.replay.json", "m06.mp.gz"} {
		code, body := get(t, base+"/replay/"+id)
		if code != 200 || !strings.Contains(body, `id="monad"`) || !strings.Contains(body, "Monad · 20×20 hex") {
			t.Errorf("/replay/%s: %d\n%.400s", id, code, body)
		}
		if code, body := get(t, base+"/data/"+id); code != 200 || !strings.HasPrefix(body, BlobMagicMonad) {
			t.Errorf("/data/%s: %d", id, code)
		}
	}
	if code, _ := get(t, base+"/replay/results.json"); code != http.StatusUnprocessableEntity {
		t.Errorf("/replay/results.json: %d, want 422", code)
	}
	one, err := OpenFile(filepath.Join(dir, "m06.mp.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if rep, err := one.Load("m06.mp.gz"); err != nil || rep.Monad == nil {
		t.Errorf("rewind view m06.mp.gz: %v", err)
	}
}

// TestMonadGrowing: a Monad recording still being written is decoded
// again at most once every growingEvery, the last decode served
// meanwhile, and shown whole at once when it ends.
func TestMonadGrowing(t *testing.T) {
	dir := t.TempDir()
	data := monadRecording(t, 4, 60, nil, monadBots[:2])
	path := filepath.Join(dir, "g.rwd")
	if err := os.WriteFile(path, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	lib.growEvery = time.Hour
	first, err := lib.Load("g.rwd")
	if err != nil || first.Monad == nil || !first.Monad.Truncated || first.Warning == "" {
		t.Fatalf("first third: %v, %+v", err, first)
	}
	if err := os.WriteFile(path, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := lib.Load("g.rwd")
	if err != nil || again != first || lib.decodes != 1 {
		t.Errorf("grown within growingEvery: a new decode (%d decodes, same replay %v, %v)", lib.decodes, again == first, err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := lib.Load("g.rwd")
	if err != nil || whole.Monad == nil || whole.Monad.Truncated || whole.Frames != 61 || whole.Warning != "" {
		t.Errorf("ended: %v, %d frames, warning %q", err, whole.Frames, whole.Warning)
	}
}

// fakeMonad is a Monad source of n frames of a 2-player board, frame
// bad (-1: none) holding a cell owned by no player.
type fakeMonad struct {
	meta   source.MonadMeta
	n, bad int
	next   int
}

func (s *fakeMonad) Meta() *source.MonadMeta { return &s.meta }
func (s *fakeMonad) Close() error            { return nil }
func (s *fakeMonad) Next(f *source.MonadFrame) error {
	if s.next >= s.n {
		return io.EOF
	}
	f.Turn = s.next
	for i := range f.Cells {
		f.Cells[i] = source.MonadCell{Owner: -1, Hive: -1, Resource: 20}
	}
	f.Cells[0] = source.MonadCell{Owner: 0, Hive: 0, Units: 3}
	f.Cells[399] = source.MonadCell{Owner: 1, Hive: 1, Units: 3}
	if s.next == s.bad {
		f.Cells[42].Owner = 5
	}
	f.Players = append(f.Players[:0], source.MonadPlayer{}, source.MonadPlayer{})
	f.Moves, f.Fights = f.Moves[:0], f.Fights[:0]
	s.next++
	return nil
}

// TestMonadLoadRefuses: more frames than the page shows, and a cell
// owned by no player, are refused with an error saying where; a decode
// whose estimate exceeds the whole memory budget is refused before it
// starts.
func TestMonadLoadRefuses(t *testing.T) {
	meta := source.MonadMeta{Format: source.MonadRWD, Names: []string{"a", "b"}, Config: monad.Config{Players: 2}}
	_, err := LoadMonad(&fakeMonad{meta: meta, n: MaxMonadFrames + 5, bad: -1})
	if err == nil || !strings.Contains(err.Error(), "more than 10485 frames") {
		t.Errorf("%d frames: %v", MaxMonadFrames+5, err)
	}
	if rep, err := LoadMonad(&fakeMonad{meta: meta, n: 30, bad: -1}); err != nil || rep.Frames != 30 {
		t.Fatalf("30 frames: %v", err)
	}
	_, err = LoadMonad(&fakeMonad{meta: meta, n: 30, bad: 7})
	if err == nil || !strings.Contains(err.Error(), "frame 7: cell (2, 2): owner 5") {
		t.Errorf("a cell owned by player 5 of 2: %v", err)
	}

	dir, _ := monadLibrary(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serveWith(t, lib, Options{MemoryBudget: MonadLoadPeakBytes(2, 50) - 1}).base
	// The page is sent before the decode (a shell); the frames' answer
	// says why there are none, which the page shows in place of the board.
	code, body := get(t, base+"/replay/monad.rwd")
	if code != 200 || !strings.Contains(body, `data-shell="1"`) {
		t.Errorf("over the whole budget, the page: %d\n%s", code, body)
	}
	code, body = get(t, base+"/data/monad.rwd?gz=1")
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "more than the viewer") {
		t.Errorf("over the whole budget: %d\n%s", code, body)
	}
}
