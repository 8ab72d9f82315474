package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil/simtest"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
	"github.com/rewind-game/rewind/replay"
)

func init() { toyplay.Register() }

// recordToy plays a toy game of ruleset rs with painters, injecting a
// junk command and a fault, and returns its recording and final hash.
func recordToy(t testing.TB, rs engine.Ruleset, turns int, logs bool) ([]byte, uint64) {
	t.Helper()
	names := []string{"ann", "bob", "cy"}
	g, err := rs.New(9, engine.Settings{Players: 3, MaxTurns: turns, Names: names})
	if err != nil {
		t.Fatal(err)
	}
	h := replay.TextHeader(rs, 9, nil, turns, names, []string{"painter", "painter", "painter"})
	h.CheckpointEvery, h.Logs = 7, logs
	var buf bytes.Buffer
	w, err := replay.NewTextWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	bots := []engine.Strategy{toygame.NewPainter(1), toygame.NewPainter(2), toygame.NewPainter(3)}
	var r replay.TextRound
	for !g.Over() {
		r.Reset(3)
		r.Active = g.Active()
		for p, b := range bots {
			if r.Active >= 0 && p != r.Active {
				continue
			}
			r.Commands[p] = b.Commands(g, p, r.Commands[p])
			if g.Turn()%5 == 2 {
				r.Commands[p] = append(r.Commands[p], "jump\x00 é")
			}
		}
		if g.Turn() == 4 {
			r.Faults[1], r.FaultText[1] = engine.FaultTimeout, "no answer in 1s"
			g.Fault(1, engine.FaultTimeout, "no answer in 1s")
		}
		if logs {
			w.WriteLogs([][]byte{[]byte("thinking"), nil, nil})
		}
		g.Round(r.Commands)
		if err := w.WriteRound(&r, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), g.Hash()
}

func TestTextRoundTrip(t *testing.T) {
	for _, rs := range []engine.Ruleset{toygame.Ruleset, toygame.Sequential} {
		t.Run(rs.ID(), func(t *testing.T) {
			data, final := recordToy(t, rs, 30, true)
			rounds, junk, faults := 0, 0, 0
			s := simtest.Resimulate(t, "the toy recording", bytes.NewReader(data), func(s *replay.Sim) {
				rounds++
				r := s.Round()
				if rs == toygame.Sequential {
					if want := (rounds - 1) % 3; r.Active != want {
						t.Fatalf("round %d active %d, want %d", rounds, r.Active, want)
					}
				} else if r.Active != -1 {
					t.Fatalf("simultaneous round with active %d", r.Active)
				}
				for _, e := range s.Errors() {
					if e.Code == 1 {
						junk++
					}
				}
				if r.Faults[1] == engine.FaultTimeout && r.FaultText[1] == "no answer in 1s" {
					faults++
				}
				if string(r.Logs[0]) != "thinking" {
					t.Fatalf("round %d log %q", rounds, r.Logs[0])
				}
			})
			if got, want := s.Header().Codec, replay.CodecText; got != want {
				t.Fatalf("codec %q, want %q", got, want)
			}
			if rounds != 30 || faults != 1 || junk == 0 {
				t.Fatalf("%d rounds, %d faults, %d junk commands rejected", rounds, faults, junk)
			}
			if s.Game().Hash() != final || s.Footer().Hash != final {
				t.Fatalf("final hash %x / footer %x, played %x", s.Game().Hash(), s.Footer().Hash, final)
			}
			if got := s.Footer().Ranking; len(got) != 3 {
				t.Fatalf("footer ranking %v", got)
			}
		})
	}
}

func TestTextVerifyDamage(t *testing.T) {
	data, _ := recordToy(t, toygame.Ruleset, 30, false)
	res, err := replay.VerifySim(bytes.NewReader(data), nil)
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != 30 {
		t.Fatalf("clean file: %+v, %v", res, err)
	}
	// Cut: every whole round still verifies, the end says truncated.
	res, err = replay.VerifySim(bytes.NewReader(data[:len(data)*2/3]), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, replay.ErrTruncated) || res.Rounds == 0 || res.Complete {
		t.Fatalf("cut file: %+v", res)
	}
	// The header keeps the seed the game was drawn from.
	h, _ := replay.ReadHeader(bytes.NewReader(data))
	if h.GameSeed != 9 {
		t.Fatalf("seed %d", h.GameSeed)
	}
	// Every single-bit flip in the body is either refused or diverges,
	// never a panic and never a clean verification of different rounds.
	for i := len(data) / 2; i < len(data); i += 3 {
		d := bytes.Clone(data)
		d[i] ^= 0x10
		res, err := replay.VerifySim(bytes.NewReader(d), nil)
		if err == nil && res.Err == nil && res.Complete {
			t.Fatalf("flipped byte %d verifies clean", i)
		}
	}
}

// TestTextVersion: a file of the text codec is written as format
// version VersionText, which a reader older than the codec refuses by
// its version.
func TestTextVersion(t *testing.T) {
	data, _ := recordToy(t, toygame.Ruleset, 10, false)
	if v := int(data[4]) | int(data[5])<<8; v != replay.VersionText {
		t.Fatalf("version %d, want %d", v, replay.VersionText)
	}
}

func FuzzTextReader(f *testing.F) {
	data, _ := recordToy(f, toygame.Sequential, 12, true)
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := replay.OpenSim(bytes.NewReader(b))
		if err != nil {
			return
		}
		defer s.Close()
		for i := 0; i < 2000; i++ {
			if s.Next() != nil {
				return
			}
		}
	})
}

// TestTextLimits: the writer refuses a command it could not record whole,
// and the reader refuses a length past a limit before allocating it.
func TestTextLimits(t *testing.T) {
	g, _ := toygame.Ruleset.New(1, engine.Settings{Players: 1, MaxTurns: 5})
	var buf bytes.Buffer
	w, err := replay.NewTextWriter(&buf, replay.TextHeader(toygame.Ruleset, 1, nil, 5, []string{"a"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	r := replay.TextRound{}
	r.Reset(1)
	r.Commands[0] = []string{strings.Repeat("x", replay.MaxCommandTextBytes+1)}
	g.Round(r.Commands)
	if err := w.WriteRound(&r, g); !errors.Is(err, replay.ErrLimit) {
		t.Fatalf("a %d-byte command: %v", replay.MaxCommandTextBytes+1, err)
	}
	// A file whose first round promises a 1 TiB command: refused at that
	// length, with little allocated.
	data, _ := recordToy(t, toygame.Ruleset, 3, false)
	rd, err := replay.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rd.Close()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	hostile := craftTextBody(t, data, 1<<40)
	_, err = replay.VerifySim(bytes.NewReader(hostile), nil)
	runtime.ReadMemStats(&ms1)
	if err == nil {
		res, _ := replay.VerifySim(bytes.NewReader(hostile), nil)
		err = res.Err
	}
	if !errors.Is(err, replay.ErrCorrupt) || !strings.Contains(err.Error(), "value 1099511627776 over 65536") {
		t.Fatalf("a 1 TiB command length: %v", err)
	}
	if grew := ms1.TotalAlloc - ms0.TotalAlloc; grew > 64<<20 {
		t.Fatalf("refusing it allocated %d bytes", grew)
	}
}

// craftTextBody rewrites a text recording's body so that its first
// round's first command claims n bytes.
func craftTextBody(t *testing.T, data []byte, n uint64) []byte {
	t.Helper()
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := replay.NewTextWriter(&buf, *h); err != nil {
		t.Fatal(err)
	}
	// The header written (its encoder has written nothing yet), append a body by hand: one text round, active
	// -1, player 0 with no fault and one command of length n.
	body := []byte{0x54, 0}
	for p := range h.Players {
		body = append(body, 0)
		if p == 0 {
			body = binary.AppendUvarint(append(body, 1), n)
		} else {
			body = append(body, 0)
		}
	}
	zw, _ := zstd.NewWriter(&buf)
	zw.Write(body)
	zw.Close()
	return buf.Bytes()
}
