package replay_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// quirkyBot plays a built-in, and every few rounds also sends malformed
// and off-map commands, fails to answer (a fault) or logs a line.
type quirkyBot struct {
	match.GamePlayer
	log []byte
}

func (b *quirkyBot) Commands(g engine.Game, p int) ([]string, error) {
	t := g.Turn()
	b.log = nil
	if t%4 == 1 {
		b.log = fmt.Appendf(nil, "turn %d: thinking\n", t)
	}
	if t%9 == 4 {
		return nil, errors.New("not a reply")
	}
	cmds, err := b.GamePlayer.Commands(g, p)
	if t%5 == 2 {
		cmds = append(slices.Clip(cmds), "x y z", "a 99 99 10", "b 1 1 q", "a 3 -4 -7", "u 40 2", "", "a 1", "u 1_0 +2")
	}
	return cmds, err
}

func (b *quirkyBot) RoundLog() []byte { return b.log }

// builtinSeats seats ColorfightII's built-ins called names, uid 1 first,
// each passed through wrap (nil: as it is) with its uid.
func builtinSeats(tb testing.TB, wrap func(uid int, b match.GamePlayer) match.GamePlayer, names ...string) []match.GameSeat {
	tb.Helper()
	var seats []match.GameSeat
	for i, n := range names {
		b, ok := engine.Registration{Bots: bot.Builtins}.FindBot(n)
		if !ok {
			tb.Fatalf("no built-in %q", n)
		}
		var p match.GamePlayer = match.BuiltinPlayer(b)
		if wrap != nil {
			p = wrap(i+1, p)
		}
		seats = append(seats, match.GameSeat{Bot: p})
	}
	return seats
}

// quirkyFirst makes seat 1 a quirkyBot (builtinSeats' wrap).
func quirkyFirst(uid int, b match.GamePlayer) match.GamePlayer {
	if uid != 1 {
		return b
	}
	return &quirkyBot{GamePlayer: b}
}

// playOwn records a ColorfightII match through the seam, as rewind play
// does (match.RunGame, recording.NewRecorder), and returns the recording
// and the match's result.
func playOwn(tb testing.TB, seed uint64, turns int, seats []match.GameSeat) ([]byte, *match.Result) {
	tb.Helper()
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: seed, MaxTurns: turns, Seats: seats,
		Recorder: recording.NewRecorder(&buf, created, "rewind test")}
	res, err := match.RunGame(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), res
}

// ownFiles returns ColorfightII .rwd files of its own codec of every
// header kind, by name: seeded, with and without bot logs and faults;
// each conformance vector recorded and imported from its .cfr (an
// explicit map, the official info); a fork of a recording with logs;
// and the scratch files of /tmp/cmpplay, when there.
func ownFiles(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	logged, _ := playOwn(t, 5, 120, builtinSeats(t, quirkyFirst, "greedy", "economist", "raider", "random"))
	files["seeded, logs and faults"] = logged
	files["seeded"], _ = playOwn(t, 9, 80, builtinSeats(t, nil, "greedy", "turtle"))
	for _, v := range loadVectors(t) {
		files["vector "+v.Name] = record(t, v)
		data := testutil.ReadFile(t, v.Expected)
		sum, err := cfr.SHA256(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := cfrimport.Import(bytes.NewReader(data), &buf, cfrimport.ImportOptions{Source: v.Expected, SHA256: sum, Created: created, Tool: "rewind test"}); err != nil {
			t.Fatalf("import %s: %v", v.Expected, err)
		}
		files["import "+v.Name] = buf.Bytes()
	}
	f, err := source.NewFork("logged.rwd", logged, 40)
	if err != nil {
		t.Fatal(err)
	}
	var fork bytes.Buffer
	if _, err := f.Play(context.Background(), &fork, source.PlayOptions{Seed: 8, Created: created, Tool: "rewind test"}); err != nil {
		t.Fatal(err)
	}
	files["fork"] = fork.Bytes()
	scratch, _ := filepath.Glob("/tmp/cmpplay/*.rwd")
	for _, p := range scratch {
		data := testutil.ReadFile(t, p)
		if h, err := replay.ReadHeader(bytes.NewReader(data)); err == nil && h.Ruleset == "colorfight2" && h.Codec == "" {
			files[p] = data
		}
	}
	return files
}

// asText is a ColorfightII round as the seam gives it: each player's
// commands as text, and a bot fault at the head of a list (where the
// runner records it) as the round's fault with its text.
func asText(round [][]colorfight2.Command) (cmds [][]string, faults []engine.Fault, texts []string) {
	cmds, faults, texts = make([][]string, len(round)), make([]engine.Fault, len(round)), make([]string, len(round))
	for p, list := range round {
		for k, c := range list {
			if k == 0 && c.Kind == colorfight2.CmdInvalid && c.Err == colorfight2.ErrBotFault {
				faults[p], texts[p] = engine.FaultGarbage, c.Raw
				continue
			}
			cmds[p] = append(cmds[p], c.String())
		}
	}
	return cmds, faults, texts
}

// sameLists reports whether a and b hold the same lists, nil and empty
// alike.
func sameLists[T comparable](a, b [][]T) bool {
	return len(a) == len(b) && slices.EqualFunc(a, b, func(x, y []T) bool { return slices.Equal(x, y) })
}

// TestOwnCodecOwnSetup: every ColorfightII file of its own codec reads
// alike through the generic re-simulation (OpenSim: the ruleset's
// engine.Codec records) and the generic Reader's text (NextText:
// engine.Codec's decoder), round by round — turn, checkpoint, each
// player's commands as text (the commands the game applied, faults
// first), faults and their text, logs — and to the same footer; played
// as text through Fault and Round, the rounds reach the Sim's states
// with its command errors; a Sim that skips the text (SkipText) plays
// the same states and applies the same commands, with the same rounds
// but for their text; VerifySim verifies as many rounds as NextText
// reads, for the whole file and for one cut short.
func TestOwnCodecOwnSetup(t *testing.T) {
	var faults, logs, errs, rounds int
	for name, data := range ownFiles(t) {
		sim, err := replay.OpenSim(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: OpenSim: %v", name, err)
		}
		bare, err := replay.OpenSim(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		bare.SkipText()
		var bareFrame engine.Frame
		rd, err := replay.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		text, err := sim.Header().NewGame(colorfight2.Ruleset)
		if err != nil {
			t.Fatal(err)
		}
		for {
			errSim, errBare := sim.Next(), bare.Next()
			tr, errText := rd.NextText()
			if errSim != nil || errBare != nil || errText != nil {
				if !errors.Is(errSim, io.EOF) || !errors.Is(errBare, io.EOF) || !errors.Is(errText, io.EOF) {
					t.Fatalf("%s: Sim.Next %v, without text %v, NextText %v", name, errSim, errBare, errText)
				}
				break
			}
			g := sim.Game().(*colorfight2.Game)
			gr := sim.Round()
			wc, wf, wt := asText(g.Applied())
			if gr.Turn != g.Turn()-1 || gr.Active != -1 || tr.Turn != gr.Turn || tr.HasHash != gr.HasHash || tr.Hash != gr.Hash {
				t.Fatalf("%s round %d: OpenSim's round %d, checkpoint %v %016x; NextText's %d, %v %016x", name, g.Turn()-1, gr.Turn, gr.HasHash, gr.Hash, tr.Turn, tr.HasHash, tr.Hash)
			}
			if !sameLists(gr.Commands, wc) || !slices.Equal(gr.Faults, wf) || !slices.Equal(gr.FaultText, wt) {
				t.Fatalf("%s round %d: OpenSim's commands %q faults %v %q, applied %q %v %q", name, gr.Turn, gr.Commands, gr.Faults, gr.FaultText, wc, wf, wt)
			}
			if !sameLists(tr.Commands, wc) || !slices.Equal(tr.Faults, wf) || !slices.Equal(tr.FaultText, wt) {
				t.Fatalf("%s round %d: NextText's commands %q faults %v %q, applied %q %v %q", name, gr.Turn, tr.Commands, tr.Faults, tr.FaultText, wc, wf, wt)
			}
			var want []engine.CommandError
			for _, e := range g.State.Errors() {
				want = append(want, engine.CommandError{Player: e.UID - 1, Index: e.Index, Code: int(e.Code), Text: e.Code.String()})
			}
			if got := sim.Errors(); !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("%s round %d: OpenSim's errors %v, the state's %v", name, gr.Turn, got, want)
			}
			if !sameLists(gr.Logs, tr.Logs) {
				t.Fatalf("%s round %d: OpenSim's logs %q, NextText's %q", name, gr.Turn, gr.Logs, tr.Logs)
			}
			bg, br := bare.Game().(*colorfight2.Game), bare.Round()
			if bg.Hash() != g.Hash() || !sameLists(bg.Applied(), g.Applied()) || br.Turn != gr.Turn || br.Hash != gr.Hash || br.HasHash != gr.HasHash || !sameLists(br.Logs, gr.Logs) {
				t.Fatalf("%s round %d: without text, hash %016x applied %v round %+v; with text %016x %v %+v", name, gr.Turn, bg.Hash(), bg.Applied(), br, g.Hash(), g.Applied(), gr)
			}
			// Without text the faults are still read (SkipText).
			if bare.Frame(&bareFrame); bareFrame.CommandsKnown || slices.ContainsFunc(br.Commands, func(l []string) bool { return len(l) > 0 }) || !slices.Equal(br.Faults, wf) || !slices.Equal(br.FaultText, wt) || !slices.Equal(bareFrame.Faults, wf) {
				t.Fatalf("%s round %d: without text, commands %q faults %v %q, known %v; want faults %v %q", name, gr.Turn, br.Commands, br.Faults, br.FaultText, bareFrame.CommandsKnown, wf, wt)
			}
			for p, f := range wf {
				if f != 0 {
					text.Fault(p, f, wt[p])
					faults++
				}
			}
			if got := text.Round(wc); !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("%s round %d: its text played through Fault and Round errs %v, the recording %v", name, gr.Turn, got, want)
			}
			if text.Hash() != g.Hash() {
				t.Fatalf("%s round %d: its text played through Fault and Round reaches %016x, the recording %016x", name, gr.Turn, text.Hash(), g.Hash())
			}
			for _, l := range gr.Logs {
				logs += min(len(l), 1)
			}
			errs += len(want)
			rounds++
		}
		if !reflect.DeepEqual(sim.Footer(), rd.Footer()) || sim.Footer() == nil {
			t.Fatalf("%s: footers %+v (OpenSim), %+v (NextText)", name, sim.Footer(), rd.Footer())
		}
		sim.Close()
		bare.Close()
		rd.Close()
		for _, cut := range []int{len(data), len(data) * 2 / 3} {
			got, err := replay.VerifySim(bytes.NewReader(data[:cut]), nil)
			if err != nil {
				t.Fatalf("%s: VerifySim: %v", name, err)
			}
			rd, err := replay.NewReader(bytes.NewReader(data[:cut]))
			if err != nil {
				t.Fatal(err)
			}
			for err == nil {
				_, err = rd.NextText()
			}
			rd.Close()
			if got.Rounds != rd.Turn() || got.Complete != errors.Is(err, io.EOF) || (!got.Complete && fmt.Sprint(got.Err) != fmt.Sprint(err)) {
				t.Fatalf("%s cut to %d bytes: VerifySim %+v, NextText reads %d rounds, then %v", name, cut, got, rd.Turn(), err)
			}
			if cut == len(data) && (!got.Complete || got.Err != nil) {
				t.Fatalf("%s: VerifySim %+v", name, got)
			}
		}
	}
	t.Logf("%d rounds compared, with %d faults, %d bot logs and %d command errors", rounds, faults, logs, errs)
	if faults == 0 || logs == 0 || errs == 0 {
		t.Fatalf("%d faults, %d logs, %d command errors: the files do not exercise the codec", faults, logs, errs)
	}
}
