package source_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/monad"
	monadvectors "github.com/rewind-game/rewind/engine/monad/vectors"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

const monadVectors = "../../testdata/monad"

// vectorLog returns the reference's log held by vector name's states file,
// as JSON (the engine's log object, compactly written).
func vectorLog(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(monadVectors, name+".states.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Log json.RawMessage `json:"log"`
	}
	if err := json.NewDecoder(zr).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.Log
}

// toMsgpack re-encodes a JSON value as msgpack, integers as integers.
func toMsgpack(t *testing.T, js []byte) []byte {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var conv func(any) any
	conv = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			n, err := v.Int64()
			if err != nil {
				t.Fatalf("number %s", v)
			}
			return n
		case []any:
			for i := range v {
				v[i] = conv(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = conv(v[k])
			}
		}
		return v
	}
	b, err := msgpack.Marshal(conv(v))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// recordVector re-simulates a vector's commands with rewind's engine into
// a .rwd.
func recordVector(t *testing.T, v *monadvectors.Vector) []byte {
	t.Helper()
	s, err := monad.New(v.Config())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(v.Config(), v.Bots.Names, v.Bots.Names))
	if err != nil {
		t.Fatal(err)
	}
	for turn := 0; !s.Over(); turn++ {
		cmds, timedOut := v.Commands(turn)
		r := monad.Round{Commands: cmds}
		for _, p := range timedOut {
			r.TimedOut[p] = true
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func allFrames(t *testing.T, src source.MonadSource) []source.MonadFrame {
	t.Helper()
	var out []source.MonadFrame
	for {
		var f source.MonadFrame
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		out = append(out, f)
	}
}

// TestMonadLogVectors reads the reference's own log of each of the six
// conformance games, in every form (replay.json, gzip'd, msgpack, .mp.gz,
// and the real files under testdata/monad/official), and requires every
// frame to equal, cell by cell and player by player, both the vector's
// frames and rewind's engine re-simulating the vector's commands (a .rwd);
// every logged command to be the engine's executed one (player, cell,
// direction, count), in order; and the names to be recovered from
// rankedBots. It reports how many command kinds were inferred right.
func TestMonadLogVectors(t *testing.T) {
	totalKinds, rightKinds := 0, 0
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("m%02d", n)
		t.Run(name, func(t *testing.T) {
			v := testutil.MonadVector(t, filepath.Join(monadVectors, name+".commands.json"))
			st := testutil.MonadStates(t, filepath.Join(monadVectors, name+".states.json.gz"))
			rwd, err := source.NewMonad(bytes.NewReader(recordVector(t, v)), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := allFrames(t, rwd)
			if len(want) != len(st.Frames) {
				t.Fatalf(".rwd has %d frames, the vector %d", len(want), len(st.Frames))
			}
			js := vectorLog(t, name)
			mp := toMsgpack(t, js)
			forms := map[string][]byte{"json": js, "mp.gz": gz(t, mp)}
			if name == "m05" { // the other forms of the other games add nothing but time
				forms["json.gz"], forms["msgpack"] = gz(t, js), mp
			}
			for _, real := range []string{name + ".replay.json", name + ".mp.gz"} {
				if b, err := os.ReadFile(filepath.Join(monadVectors, "official", real)); err == nil {
					forms["official/"+real] = b
				}
			}
			for form, data := range forms {
				if !source.IsMonad(bufio.NewReaderSize(bytes.NewReader(data), 64<<10)) {
					t.Fatalf("%s: IsMonad is false", form)
				}
				src, err := source.NewMonad(bytes.NewReader(data), nil)
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				m := src.Meta()
				wantFormat := source.MonadJSON
				if form == "msgpack" || form == "mp.gz" || filepath.Ext(form) == ".gz" && form != "json.gz" {
					wantFormat = source.MonadMsgpack
				}
				if m.Format != wantFormat || m.Counters || m.SeedKnown || m.Config.Players != v.Players || m.Config.MaxTurns != len(st.Rounds) {
					t.Fatalf("%s: meta %+v", form, m)
				}
				if fmt.Sprint(m.Names) != fmt.Sprint(v.Bots.Names) {
					t.Fatalf("%s: names %q, want %q", form, m.Names, v.Bots.Names)
				}
				got := allFrames(t, src)
				src.Close()
				if len(got) != len(want) {
					t.Fatalf("%s: %d frames, want %d", form, len(got), len(want))
				}
				for i := range got {
					if d := diffFrames(&got[i], &want[i], st, i); d != "" {
						t.Fatalf("%s: frame %d: %s", form, i, d)
					}
					k, r := kindsRight(&got[i], &want[i])
					if form == "json" {
						totalKinds += k
						rightKinds += r
					}
				}
			}
		})
	}
	if totalKinds == 0 {
		t.Fatal("no commands compared")
	}
	t.Logf("command kinds inferred right: %d of %d (%.2f%%)", rightKinds, totalKinds, 100*float64(rightKinds)/float64(totalKinds))
	// 95.8% when written; a change to Kinds must not do worse.
	if rightKinds*1000 < totalKinds*955 {
		t.Fatalf("command kinds inferred right: %d of %d, below 95.5%%", rightKinds, totalKinds)
	}
}

// TestMonadLogSniffers: the Monad and ColorfightII sniffers agree: every
// official .cfr (vectors and real replays) is not a Monad replay and opens with New; every official log
// is a Monad replay, and New refuses it rather than reading it as a .cfr.
func TestMonadLogSniffers(t *testing.T) {
	cfrs, _ := filepath.Glob("../../testdata/conformance/*.cfr")
	cfrs = append(cfrs, testutil.RealWorldOptional(t)...)
	logs, _ := filepath.Glob(filepath.Join(monadVectors, "official", "*"))
	if len(cfrs) < 2 || len(logs) < 2 {
		t.Fatalf("%d .cfr, %d logs", len(cfrs), len(logs))
	}
	for _, p := range cfrs {
		if source.IsMonadFile(p) {
			t.Errorf("%s: IsMonadFile is true on a .cfr", p)
		}
		if _, err := source.OpenMonad(p); err == nil {
			t.Errorf("%s: a .cfr opened as a Monad replay", p)
		}
		s, err := source.Open(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		s.Close()
	}
	for _, p := range logs {
		if !source.IsMonadFile(p) {
			t.Errorf("%s: IsMonadFile is false on a reference log", p)
		}
		s, err := source.OpenMonad(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		s.Close()
		if s, err := source.Open(p); err == nil {
			var f colorfight2.Frame
			err = s.Next(&f)
			s.Close()
			if err == nil {
				t.Errorf("%s: a Monad log read as a ColorfightII frame", p)
			}
		}
	}
}

// diffFrames compares an official log's frame with the .rwd's and the
// vector's frame t; "" when they agree.
func diffFrames(got, want *source.MonadFrame, st *monadvectors.States, t int) string {
	if got.Turn != t || want.Turn != t {
		return fmt.Sprintf("turns %d and %d", got.Turn, want.Turn)
	}
	vf := st.Frames[t]
	units := map[[2]int][2]int{}
	for _, u := range vf.Units {
		units[[2]int{u[0], u[1]}] = [2]int{u[2], u[3]}
	}
	hives := map[[2]int]int{}
	for _, h := range vf.Hives {
		hives[[2]int{h[0], h[1]}] = h[2]
	}
	for y := 0; y < monad.Height; y++ {
		for x := 0; x < monad.Width; x++ {
			g, w := got.Cell(x, y), want.Cell(x, y)
			if *g != *w {
				return fmt.Sprintf("(%d,%d): log %+v, .rwd %+v", x, y, *g, *w)
			}
			u, ok := units[[2]int{x, y}]
			if !ok {
				u = [2]int{-1, 0}
			}
			h, ok := hives[[2]int{x, y}]
			if !ok {
				h = -1
			}
			if int(g.Owner) != u[0] || int(g.Units) != u[1] || int(g.Hive) != h || int(g.Resource) != vf.Resource[y][x] {
				return fmt.Sprintf("(%d,%d): log %+v, vector units %v hive %d resource %d", x, y, *g, u, h, vf.Resource[y][x])
			}
		}
	}
	if len(got.Players) != len(want.Players) {
		return fmt.Sprintf("%d players, want %d", len(got.Players), len(want.Players))
	}
	for p := range got.Players {
		g, w := got.Players[p].PlayerStats, want.Players[p].PlayerStats
		if g.Resources != w.Resources || g.Units != w.Units || g.Hives != w.Hives || g.Cells != w.Cells {
			return fmt.Sprintf("player %d: log %+v, .rwd %+v", p, g, w)
		}
		if res, ok := vf.Players[p][0].(float64); !ok || int64(res) != g.Resources {
			return fmt.Sprintf("player %d: resources %d, vector %v", p, g.Resources, vf.Players[p][0])
		}
	}
	logged := loggedMoves(want)
	if len(got.Moves) != len(logged) {
		return fmt.Sprintf("%d moves, the engine logged %d", len(got.Moves), len(logged))
	}
	for i, g := range got.Moves {
		w := logged[i]
		if g.Player != w.Player || g.X != w.X || g.Y != w.Y || g.Dir != w.Dir || g.Count != w.Count || g.Code != monad.ErrNone || g.Index != -1 {
			return fmt.Sprintf("move %d: log %+v, engine %+v", i, g, w)
		}
		if (g.Dir == monad.DirImplicit) != (w.Index < 0) || g.Dir == monad.DirImplicit && g.Kind != monad.KindMine {
			return fmt.Sprintf("move %d: log %+v, engine %+v (implicit mine)", i, g, w)
		}
	}
	return ""
}

// loggedMoves are the .rwd frame's moves the reference logs: the
// executed commands (they come first, in execution order) that
// Code.Logged says it writes.
func loggedMoves(f *source.MonadFrame) []source.MonadMove {
	var out []source.MonadMove
	for _, m := range f.Moves {
		if m.Code.Logged() && m.Kind != monad.KindUnknown {
			out = append(out, m)
		}
	}
	return out
}

func kindsRight(got, want *source.MonadFrame) (total, right int) {
	logged := loggedMoves(want)
	for i := range got.Moves {
		total++
		if got.Moves[i].Kind == logged[i].Kind {
			right++
		}
	}
	return total, right
}
