package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/replay"
)

// markingBot is a built-in that draws marks (match.Marker): marks(turn)
// for the game's turn it was last asked at.
type markingBot struct {
	match.GamePlayer
	marks func(turn int) [][]byte
	last  [][]byte
}

func (b *markingBot) Commands(g engine.Game, p int) ([]string, error) {
	b.last = b.marks(g.Turn())
	return b.GamePlayer.Commands(g, p)
}

func (b *markingBot) RoundMarks() ([][]byte, int) { return b.last, 0 }

// testMarks is what seat 1 of markedGame draws at turn t: a dot, a
// coloured line, a cell and a text every turn; at turn 4 also a dot off
// the board, a line with one end off it, bad JSON and an unknown kind
// (each dropped with a note); at turn 6, 300 dots (the 44 past
// engine.MaxBotMarks dropped).
func testMarks(t int) [][]byte {
	out := [][]byte{
		fmt.Appendf(nil, `{"dot":[%d,0]}`, t%20),
		[]byte(`{"line":[[0,0],[3,4]],"color":"#ff0000"}`),
		[]byte(`{"cell":[1,1],"color":"#00ff80"}`),
		fmt.Appendf(nil, `{"text":"t=%d é","at":[2,2]}`, t),
	}
	switch t {
	case 4:
		out = append(out, []byte(`{"dot":[99,2]}`), []byte(`{"line":[[0,0],[0,-1]]}`), []byte(`{"dot":`), []byte(`{"circle":[1,1]}`))
	case 6:
		for range 296 {
			out = append(out, []byte(`{"dot":[5,5]}`))
		}
	}
	return out
}

// markedGame records a game of turns rounds between two built-ins,
// seat 1 drawing testMarks when marks is set.
func markedGame(tb testing.TB, turns int, marks bool) ([]byte, *match.Result) {
	tb.Helper()
	var seats []match.GameSeat
	for uid, n := range []string{"greedy", "raider"} {
		bi, _ := engine.Registration{Bots: bot.Builtins}.FindBot(n)
		b := match.BuiltinPlayer(bi)
		if marks && uid == 0 {
			b = &markingBot{GamePlayer: b, marks: testMarks}
		}
		seats = append(seats, match.GameSeat{Bot: b, Identity: n})
	}
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 5, MaxTurns: turns, Seats: seats, Recorder: recording.NewRecorder(&buf, created, "rewind test")}
	res, err := match.RunGame(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), res
}

// TestMarksRecorded: a game with a seat that draws is format version 5
// and holds each round's marks with their seat (the malformed and
// off-board ones dropped, each named in the round's log); the marks
// change nothing of the game (hash, checkpoints, footer, content hash,
// verification), and a re-simulation's frames carry them.
func TestMarksRecorded(t *testing.T) {
	const turns = 30
	marked, res := markedGame(t, turns, true)
	plain, resPlain := markedGame(t, turns, false)
	if res.Hash != resPlain.Hash {
		t.Fatal("marks changed the game")
	}
	if v := binary.LittleEndian.Uint16(marked[4:]); v != replay.VersionMarks {
		t.Fatalf("version %d with marks, want %d", v, replay.VersionMarks)
	}
	if v := binary.LittleEndian.Uint16(plain[4:]); v != 1 {
		t.Fatalf("version %d without marks, want 1", v)
	}
	if hm, hp := contentHash(t, marked), contentHash(t, plain); hm == "" || hm != hp {
		t.Fatalf("content hashes %q and %q (no marks) of one game", hm, hp)
	}
	for _, data := range [][]byte{marked, plain} {
		v, err := replay.VerifySim(bytes.NewReader(data), nil)
		if err != nil || v.Err != nil || !v.Complete || v.Rounds != turns {
			t.Fatalf("verify: %v %+v", err, v)
		}
	}
	r, err := replay.NewReader(bytes.NewReader(marked))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Header().Marks {
		t.Fatal("header does not say the file keeps marks")
	}
	rp, _ := replay.NewReader(bytes.NewReader(plain))
	for {
		rd, err := r.NextText()
		rdp, errp := rp.NextText()
		if errors.Is(err, io.EOF) && errors.Is(errp, io.EOF) {
			break
		}
		if err != nil || errp != nil {
			t.Fatal(err, errp)
		}
		if fmt.Sprint(rd.Commands) != fmt.Sprint(rdp.Commands) || rd.Hash != rdp.Hash || rd.HasHash != rdp.HasHash {
			t.Fatalf("round %d differs with marks", rd.Turn)
		}
		if len(rdp.Marks) != 0 {
			t.Fatalf("round %d: marks in a file without", rd.Turn)
		}
		if rd.Turn == 0 { // ColorfightII's first round asks no bot
			if len(rd.Marks) != 0 {
				t.Fatalf("round 0: marks %v", rd.Marks)
			}
			continue
		}
		want := []engine.BotMark{
			{Kind: engine.MarkDot, X: rd.Turn % 20, Color: -1},
			{Kind: engine.MarkLine, X2: 3, Y2: 4, Color: 0xff0000},
			{Kind: engine.MarkCell, X: 1, Y: 1, Color: 0x00ff80},
			{Kind: engine.MarkText, X: 2, Y: 2, Color: -1, Text: fmt.Sprintf("t=%d é", rd.Turn)},
		}
		n := len(want)
		if rd.Turn == 6 {
			n = engine.MaxBotMarks
		}
		if len(rd.Marks) != n || fmt.Sprint(rd.Marks[:4]) != fmt.Sprint(want) {
			t.Fatalf("round %d: %d marks %v, want %d from %v", rd.Turn, len(rd.Marks), rd.Marks[:min(len(rd.Marks), 5)], n, want)
		}
		log := ""
		if rd.Logs != nil {
			log = string(rd.Logs[0])
		}
		switch rd.Turn {
		case 4:
			for _, s := range []string{"mark 5 dropped: cell [99,2] off the 30×30 board", "mark 6 dropped: cell [0,-1] off", "mark 7 dropped: not a mark's JSON", "mark 8 dropped: unknown key \"circle\""} {
				if !strings.Contains(log, s) {
					t.Errorf("round 4's log %q does not say %q", log, s)
				}
			}
		case 6:
			if !strings.Contains(log, "44 marks dropped past the first 256") {
				t.Errorf("round 6's log %q does not count the marks over the bound", log)
			}
		default:
			if log != "" {
				t.Errorf("round %d: log %q, want none", rd.Turn, log)
			}
		}
	}
	sim, err := replay.OpenSim(bytes.NewReader(marked))
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	var f engine.Frame
	seen := 0
	for sim.Next() == nil {
		sim.Frame(&f)
		// Frame t holds the round t-1 → t: the marks drawn when asked at
		// turn t-1.
		if f.Turn > 1 && (len(f.Marks) < 4 || f.Marks[3].Text != fmt.Sprintf("t=%d é", f.Turn-1)) {
			t.Fatalf("frame %d's marks %v", f.Turn, f.Marks)
		}
		seen++
	}
	if seen != turns {
		t.Fatalf("%d frames", seen)
	}
}

// markRecord builds a mark record of raw mark bytes (each uid, kind and
// the rest), n marks.
func markRecord(n int, marks ...[]byte) []byte {
	b := []byte{0x80 | 'M'}
	b = binary.AppendUvarint(b, uint64(n))
	for _, m := range marks {
		b = append(b, m...)
	}
	return b
}

// TestMarksBounded: the reader refuses a mark record over a bound
// (ErrLimit: a count over players × engine.MaxBotMarks, too many marks of a
// seat, a long text, a large coordinate) or damaged (ErrCorrupt), in the
// round that holds it, and such a record in a file whose version has
// none (an unknown record); the writer refuses marks it cannot hold.
func TestMarksBounded(t *testing.T) {
	data, _ := markedGame(t, 3, true)
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	dot := []byte{1, 1, 3, 4}                                  // uid 1, dot, (3, 4)
	text := append([]byte{2, 0x14, 0, 0, 1, 2, 3, 2}, "hi"...) // uid 2, coloured text
	long := append([]byte{1, 4, 0, 0, 65}, strings.Repeat("x", 65)...)
	many := make([][]byte, engine.MaxBotMarks+1)
	for i := range many {
		many[i] = dot
	}
	cases := []struct {
		name  string
		marks bool
		rec   []byte
		want  error
	}{
		{"fits", true, markRecord(2, dot, text), nil},
		{"none", true, markRecord(0), replay.ErrCorrupt},
		{"uid 0", true, markRecord(1, []byte{0, 1, 3, 4}), replay.ErrCorrupt},
		{"uid 3", true, markRecord(1, []byte{3, 1, 3, 4}), replay.ErrCorrupt},
		{"uids down", true, markRecord(2, text, dot), replay.ErrCorrupt},
		{"kind 0", true, markRecord(1, []byte{1, 0, 3, 4}), replay.ErrCorrupt},
		{"kind 5", true, markRecord(1, []byte{1, 5, 3, 4}), replay.ErrCorrupt},
		{"far", true, markRecord(1, binary.AppendUvarint([]byte{1, 1}, replay.MaxMarkCoord+1)), replay.ErrLimit},
		{"long text", true, markRecord(1, long), replay.ErrLimit},
		{"empty text", true, markRecord(1, []byte{1, 4, 0, 0, 0}), replay.ErrLimit},
		{"bad text", true, markRecord(1, []byte{1, 4, 0, 0, 1, 0xff}), replay.ErrCorrupt},
		{"too many", true, markRecord(len(many), many...), replay.ErrLimit},
		{"count over", true, markRecord(2*engine.MaxBotMarks+1, dot), replay.ErrLimit},
		{"cut", true, markRecord(2, dot), replay.ErrTruncated},
		{"older version", false, markRecord(1, dot), replay.ErrUnknownRecord},
	}
	for _, c := range cases {
		hc := *h
		hc.Marks = c.marks
		file := craftedBody(t, &hc, nil, c.rec)
		if c.name == "cut" {
			file = craftedRaw(t, &hc, append([]byte{0b0110_0000}, c.rec...))
		}
		r, err := replay.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r.NextText() // round 0
		rd, err := r.NextText()
		if c.want == nil {
			if err != nil || len(rd.Marks) != 2 || rd.Marks[1] != (engine.BotMark{Player: 1, Kind: engine.MarkText, Color: 0x010203, Text: "hi"}) {
				t.Fatalf("%s: %v %v", c.name, err, rd)
			}
			continue
		}
		var fe *replay.FormatError
		if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Round != 1 {
			t.Fatalf("%s: %v, want %v in round 1", c.name, err, c.want)
		}
	}
	// The writer refuses what a record cannot hold, saying which round,
	// mark and seat.
	seat := func(p int) engine.BotMark { return engine.BotMark{Kind: engine.MarkDot, Player: p} }
	for _, c := range []struct {
		marks []engine.BotMark
		want  string
	}{
		{[]engine.BotMark{{Kind: 9}}, "round 0: mark 1 of seat 1: kind 9"},
		{[]engine.BotMark{{Kind: engine.MarkDot, X: -1}}, "round 0: mark 1 of seat 1: coordinate -1"},
		{[]engine.BotMark{{Kind: engine.MarkText, Text: strings.Repeat("x", engine.MaxBotMarkTextBytes+1)}}, "round 0: mark 1 of seat 1: text of 65 bytes"},
		{[]engine.BotMark{seat(5)}, "round 0: mark 1 of seat 6: no such seat in a game of 2"},
		{[]engine.BotMark{seat(-1)}, "round 0: mark 1 of seat 0: no such seat in a game of 2"},
		{[]engine.BotMark{seat(0), seat(-1)}, "round 0: mark 2 of seat 0: no such seat in a game of 2"},
		{[]engine.BotMark{seat(1), seat(0)}, "round 0: mark 2 of seat 1 after seat 2's: marks go in seat order"},
	} {
		var buf bytes.Buffer
		g, err := colorfight2.Ruleset.New(5, engine.Settings{Players: 2, MaxTurns: 10})
		if err != nil {
			t.Fatal(err)
		}
		hw := replay.TextHeader(colorfight2.Ruleset, 5, g.Setup(), 10, []string{"a", "b"}, []string{"", ""})
		hw.Marks = true
		w, err := replay.NewTextWriter(&buf, hw)
		if err != nil {
			t.Fatal(err)
		}
		g.Round(nil)
		if err := w.WriteRound(&replay.TextRound{Active: -1, Marks: c.marks}, g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("the writer given marks %+v: %v, want %q", c.marks, err, c.want)
		}
	}
}
