package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/replay"
)

const vectorDir = "../testdata/conformance"

var created = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func loadVectors(tb testing.TB) []conform.Vector {
	tb.Helper()
	vs, err := conform.Find([]string{vectorDir})
	if err != nil {
		tb.Fatalf("conformance vectors (testdata/ of the project): %v", err)
	}
	return vs
}

func record(tb testing.TB, v conform.Vector) []byte {
	tb.Helper()
	g, err := cf2vectors.Load(v.Input, v.Expected)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cfrimport.RecordVector(g, &buf, created, "rewind test"); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestVectors records every conformance vector and checks that the .rwd
// verifies, re-simulates to the official replay frame by frame, exports
// back to the official JSON, records deterministically and stays within
// 5% of the .cfr's size.
func TestVectors(t *testing.T) {
	t.Log("vector  .cfr bytes  .rwd bytes  ratio")
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			rwd := record(t, v)

			res, err := replay.VerifySim(bytes.NewReader(rwd), nil)
			if err != nil || res.Err != nil || !res.Complete {
				t.Fatalf("verify: %v %+v", err, res)
			}

			// Every frame equals the official replay's.
			src, err := cfrimport.OpenFrames(bytes.NewReader(rwd))
			if err != nil {
				t.Fatal(err)
			}
			dec := cfrtest.Open(t, v.Expected)
			var want, got colorfight2.Frame
			frames := 0
			for {
				err1 := dec.Next(&want)
				err2 := src.Next(&got)
				if errors.Is(err1, io.EOF) && errors.Is(err2, io.EOF) {
					break
				}
				if err1 != nil || err2 != nil {
					t.Fatalf("frame %d: cfr %v, rwd %v", frames, err1, err2)
				}
				if d := colorfight2.Diff(&want, &got); d != nil {
					t.Fatalf("frame %d: %s", frames, d)
				}
				frames++
			}
			if frames != res.Rounds+1 {
				t.Fatalf("%d frames for %d rounds", frames, res.Rounds)
			}

			// Export (rewind export's path) gives the official JSON back.
			var out bytes.Buffer
			if _, err := cfrimport.Export(bytes.NewReader(rwd), &out); err != nil {
				t.Fatal(err)
			}
			if official := testutil.GunzipFile(t, v.Expected); !bytes.Equal(testutil.Gunzip(t, out.Bytes()), official) {
				t.Fatal("exported JSON differs from the official replay")
			}

			// Deterministic: the same vector records to the same bytes.
			if again := record(t, v); !bytes.Equal(again, rwd) {
				t.Fatal("recording the same vector twice gave different files")
			}

			st, _ := os.Stat(v.Expected)
			ratio := float64(len(rwd)) / float64(st.Size())
			t.Logf("%s  %d  %d  %.2f%%", v.Name, st.Size(), len(rwd), 100*ratio)
			if len(rwd)*20 > int(st.Size()) {
				t.Errorf(".rwd is %d bytes, over 5%% of the .cfr's %d", len(rwd), st.Size())
			}
		})
	}
}

// small returns a recording of the first rounds of c06, ended without a
// footer after n rounds (n < 0: the whole game with its footer).
func small(tb testing.TB, n int) []byte {
	tb.Helper()
	vs := loadVectors(tb)
	var v conform.Vector
	for _, x := range vs {
		if x.Name == "c06" {
			v = x
		}
	}
	g, err := cf2vectors.Load(v.Input, v.Expected)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	stop := errors.New("stop")
	err = cfrimport.RecordVectorRounds(g, &buf, created, "rewind test", func(turn int) error {
		if turn == n {
			return stop
		}
		return nil
	})
	if n >= 0 && !errors.Is(err, stop) || n < 0 && err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestTruncated cuts a recording at many offsets: each cut either fails
// in the header with a clear error or verifies every whole round before
// the cut and reports the truncation.
func TestTruncated(t *testing.T) {
	full := small(t, -1)
	prevRounds := 0
	for cut := 0; cut < len(full); cut += 7 {
		res, err := replay.VerifySim(bytes.NewReader(full[:cut]), nil)
		if err != nil {
			var fe *replay.FormatError
			if !errors.As(err, &fe) || fe.Round != -1 {
				t.Fatalf("cut %d: header error %v is not a header FormatError", cut, err)
			}
			continue
		}
		if res.Complete {
			t.Fatalf("cut %d of %d: truncated file verified as complete", cut, len(full))
		}
		if !errors.Is(res.Err, replay.ErrTruncated) {
			t.Fatalf("cut %d: %v, want ErrTruncated", cut, res.Err)
		}
		if res.Rounds < prevRounds {
			t.Fatalf("cut %d: %d rounds verify, fewer than %d at a shorter cut", cut, res.Rounds, prevRounds)
		}
		prevRounds = res.Rounds
		if !strings.Contains(res.Err.Error(), fmt.Sprintf("round %d", res.Rounds)) {
			t.Errorf("cut %d: error %q does not name round %d", cut, res.Err, res.Rounds)
		}
	}
	if prevRounds < 190 {
		t.Errorf("cuts near the end verify only %d rounds", prevRounds)
	}
}

// TestUnfinishedRecording: a recording stopped after round 77 (no footer,
// no Close) verifies exactly 77 rounds.
func TestUnfinishedRecording(t *testing.T) {
	res, err := replay.VerifySim(bytes.NewReader(small(t, 77)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != 77 || res.Complete || !errors.Is(res.Err, replay.ErrTruncated) {
		t.Fatalf("got %+v, want 77 rounds, truncated", res)
	}
}

// TestCorrupted flips bytes all over a recording: never a panic, never a
// silent pass.
func TestCorrupted(t *testing.T) {
	full := small(t, -1)
	// The body's zstd frame header holds a window-size descriptor that
	// does not change the decoded data; flips there may pass.
	zmagic := []byte{0x28, 0xb5, 0x2f, 0xfd}
	blob := bytes.Index(full, zmagic)
	body := blob + 4 + bytes.Index(full[blob+4:], zmagic)
	for i := 0; i < len(full); i += 3 {
		if i >= body+4 && i < body+6 {
			continue
		}
		b := bytes.Clone(full)
		b[i] ^= 0x5a
		res, err := replay.VerifySim(bytes.NewReader(b), nil)
		if err != nil {
			continue // header damage, reported
		}
		if res.Err == nil && res.Complete {
			t.Errorf("flip at %d (of %d) went unnoticed", i, len(full))
		}
	}
}

func TestDivergenceDetected(t *testing.T) {
	vs := loadVectors(t)
	g, err := cf2vectors.Load(vs[0].Input, vs[0].Expected)
	if err != nil {
		t.Fatal(err)
	}
	// Record with one command changed, but checkpoints from the true game:
	// the re-simulation must notice at the first checkpoint after.
	// The records are those of a second game, which plays them.
	su := colorfight2.Setup{Config: g.Config, Map: g.Map, Players: g.Players}
	truth, err := colorfight2.NewSetupGame(su, engine.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	recorded, _ := colorfight2.NewSetupGame(su, engine.Settings{})
	var names []string
	for _, p := range g.Players {
		names = append(names, p.Name)
	}
	h, err := replay.GameHeader(colorfight2.Ruleset, truth, 0, nil, g.Config.MaxTurn, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.Created, h.CheckpointEvery = created, 10
	var buf bytes.Buffer
	w, err := replay.NewGameWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]colorfight2.Command
	for turn := 0; turn < 40; turn++ {
		cmds = g.Commands(turn, cmds)
		truth.PlayApplied(cmds)
		rec := cmds
		if turn == 23 {
			rec = [][]colorfight2.Command{{colorfight2.ParseCommand("x")}}
		}
		recorded.PlayApplied(rec)
		if err := w.WriteRound(nil, forged{truth, recorded}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, replay.ErrDiverged) || res.Rounds != 29 {
		t.Fatalf("got %+v (%v), want divergence found at the checkpoint after turn 30", res, res.Err)
	}
}

// forged is a game whose records are another game's.
type forged struct {
	*colorfight2.Game
	rec *colorfight2.Game
}

func (f forged) AppendRecord(dst []byte) []byte { return f.rec.AppendRecord(dst) }

// TestHostileHeader: a header promising an enormous map is an error, not
// an allocation.
func TestHostileHeader(t *testing.T) {
	for _, tc := range []struct{ name, json string }{
		{"huge map", `{"ruleset":"colorfight2","ruleset_version":2,"width":100000,"height":100000,"max_turn":500,"max_player":8,"map_seed":1,"players":[],"checkpoint_every":50}`},
		{"many turns", `{"ruleset":"colorfight2","ruleset_version":2,"width":30,"height":30,"max_turn":999999999,"max_player":8,"map_seed":1,"players":[],"checkpoint_every":50}`},
		{"other ruleset", `{"ruleset":"monad","ruleset_version":1,"width":30,"height":30,"max_turn":500,"max_player":8,"map_seed":1,"players":[],"checkpoint_every":50}`},
		{"bad uid", `{"ruleset":"colorfight2","ruleset_version":2,"width":30,"height":30,"max_turn":500,"max_player":8,"map_seed":1,"players":[{"uid":5,"name":"x","home":[1,1]}],"checkpoint_every":50}`},
	} {
		var b bytes.Buffer
		b.WriteString(replay.Magic)
		b.Write([]byte{1, 0})
		b.WriteByte(byte(len(tc.json)))
		if len(tc.json) >= 128 {
			b.Truncate(b.Len() - 1)
			b.Write([]byte{byte(len(tc.json)) | 0x80, byte(len(tc.json) >> 7)})
		}
		b.WriteString(tc.json)
		b.WriteByte(0)
		_, err := replay.OpenSim(bytes.NewReader(b.Bytes()))
		var fe *replay.FormatError
		if err == nil || !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a FormatError", tc.name, err)
		}
	}
	// Not a replay at all; a newer version.
	if _, err := replay.OpenSim(strings.NewReader("hello world")); !errors.Is(err, replay.ErrNotReplay) {
		t.Errorf("garbage: %v", err)
	}
	if _, err := replay.ReadHeader(strings.NewReader(replay.Magic + "\x09\x00")); !errors.Is(err, replay.ErrNewerVersion) {
		t.Errorf("newer version: %v", err)
	}
}

func TestSeek(t *testing.T) {
	vs := loadVectors(t)
	rwd := record(t, vs[0])
	// Reader.Seek on a file goes forward and back.
	f := filepath.Join(t.TempDir(), "g.rwd")
	os.WriteFile(f, rwd, 0o644)
	fh, _ := os.Open(f)
	defer fh.Close()
	r, err := replay.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(120); err != nil {
		t.Fatal(err)
	}
	rd, err := r.NextText()
	if err != nil || rd.Turn != 120 {
		t.Fatalf("after Seek(120): %v %v", rd, err)
	}
	if err := r.Seek(3); err != nil {
		t.Fatal(err)
	}
	if rd, err := r.NextText(); err != nil || rd.Turn != 3 {
		t.Fatalf("after Seek(3): %v %v", rd, err)
	}
}

// TestSeekGrowingFile: a reader that hit the end of a recording still
// being written reads on after Seek once the file has grown.
func TestSeekGrowingFile(t *testing.T) {
	full := small(t, -1)
	path := filepath.Join(t.TempDir(), "live.rwd")
	if err := os.WriteFile(path, full[:len(full)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r, err := replay.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		if _, err = r.NextText(); err != nil {
			break
		}
	}
	if !errors.Is(err, replay.ErrTruncated) {
		t.Fatalf("half a recording: %v", err)
	}
	whole := r.Turn()
	fa, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fa.Write(full[len(full)/2:])
	fa.Close()
	if err := r.Seek(whole + 5); err != nil {
		t.Fatalf("seek past the old end: %v", err)
	}
	n := 0
	for {
		_, err := r.NextText()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after the file grew: %v", err)
		}
		n++
	}
	if r.Footer() == nil || whole+5+n != r.Footer().Turn {
		t.Fatalf("read %d rounds after turn %d, footer %+v", n, whole+5, r.Footer())
	}
}

// FuzzReader feeds arbitrary bytes to the reader and re-simulation: no
// panic, and every failure is a FormatError.
func FuzzReader(f *testing.F) {
	f.Add(small(f, 5))
	f.Add(small(f, 30))
	f.Add([]byte(replay.Magic + "\x01\x00"))
	logged, _ := loggedGame(f, 12, true) // log records (format version 2)
	f.Add(logged)
	timed, _ := timedGame(f, 12, true, 0) // reply-time records (format version 4)
	f.Add(timed)
	marked, _ := markedGame(f, 12, true) // mark records (format version 5)
	f.Add(marked)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := replay.VerifySim(bytes.NewReader(data), nil)
		if err != nil {
			var fe *replay.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
			return
		}
		if res.Err != nil {
			var fe *replay.FormatError
			if !errors.As(res.Err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", res.Err, res.Err)
			}
		}
	})
}

// BenchmarkVerifySim opens a 500-round 8-player .rwd (vector c03) from
// memory and re-simulates it (replay.VerifySim, the path `rewind verify`
// takes for every game), checking every checkpoint and the footer: one
// op is one whole game.
func BenchmarkVerifySim(b *testing.B) {
	var v conform.Vector
	for _, x := range loadVectors(b) {
		if x.Name == "c03" {
			v = x
		}
	}
	rwd := record(b, v)
	b.SetBytes(int64(len(rwd)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := replay.VerifySim(bytes.NewReader(rwd), nil)
		if err != nil || !res.Complete || res.Rounds != 500 {
			b.Fatal(err, res)
		}
	}
}

// TestResimulationBound: a tiny file whose header promises a 1000×1000
// map for 100,000 rounds is refused before any round is played, with the
// limit named; a 1000×1000 map for 200 rounds is accepted.
func TestResimulationBound(t *testing.T) {
	mk := func(turns int) []byte {
		seed := uint64(1)
		h := replay.Header{Ruleset: "colorfight2", RulesetVersion: 2,
			Config: replay.Config{Width: 1000, Height: 1000, MaxTurn: turns, MaxPlayer: 2}, Seed: &seed}
		var b bytes.Buffer
		if _, err := replay.NewGameWriter(&b, h); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	big := mk(100000)
	if len(big) > 1000 {
		t.Fatalf("the hostile file is %d bytes", len(big))
	}
	_, err := replay.OpenSim(bytes.NewReader(big))
	if !errors.Is(err, replay.ErrLimit) || !strings.Contains(err.Error(), "cell-rounds") {
		t.Fatalf("open: %v", err)
	}
	if _, err := replay.VerifySim(bytes.NewReader(big), nil); !errors.Is(err, replay.ErrLimit) {
		t.Fatalf("verify: %v", err)
	}
	g, err := replay.OpenSim(bytes.NewReader(mk(200)))
	if err != nil {
		t.Fatalf("200 rounds of 1000x1000: %v", err)
	}
	g.Close()
}

// TestSmallExplicitMap: a recording of a game on a small map stored in
// full (as an imported replay's is) opens: the map blob's zstd frame
// declares a window larger than a few small values need.
func TestSmallExplicitMap(t *testing.T) {
	for _, side := range []int{1, 3, 8, 10} {
		cfg := colorfight2.Config{Width: side, Height: side, MaxTurn: 5, MaxPlayer: 2}
		m := colorfight2.NewMap(side, side)
		for i := range m.NaturalGold {
			m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = int64(1+i%10), int64(1+i%7), int64(50+i)
		}
		g, err := colorfight2.NewSetupGame(colorfight2.Setup{Config: cfg, Map: m, Players: []colorfight2.Player{{UID: 1, Name: "a"}}}, engine.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		rwd := recordApplied(t, g, 0, func(int) [][]colorfight2.Command { return nil })
		res, err := replay.VerifySim(bytes.NewReader(rwd), nil)
		if err != nil || res.Err != nil || !res.Complete {
			t.Fatalf("%dx%d: %v %+v", side, side, err, res)
		}
	}
}
