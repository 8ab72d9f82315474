package analysis_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// manyUsers writes to w an official replay of a w×h map whose frames
// 1..frames each list users players (the hostile shape of issue 13: 64
// users on a 1×1 map for thousands of frames), with info's max_turn set to
// maxTurn. Player uid owns cell uid-1 from frame 1 when the map has it, so
// a map of at least users cells makes frame 1 a registration frame.
func manyUsers(w io.Writer, width, height, users, frames, maxTurn int) error {
	f := colorfight2.Frame{Width: width, Height: height}
	for y := range height {
		for x := range width {
			f.Cells = append(f.Cells, colorfight2.FrameCell{AttackCost: 100, Level: 1, X: int64(x), Y: int64(y), NaturalCost: 100})
		}
	}
	info := fmt.Sprintf(`{"max_turn":%d,"max_player":%d,"width":%d,"height":%d}`, maxTurn, users, width, height)
	enc, err := cfr.NewJSONEncoder(w, cfr.Header{Info: []byte(info)})
	if err != nil {
		return err
	}
	if err := enc.WriteFrame(&f); err != nil {
		return err
	}
	for uid := 1; uid <= users; uid++ {
		f.Users = append(f.Users, colorfight2.FrameUser{UID: int64(uid), Username: fmt.Sprintf("u%d", uid), Energy: 1000, TechLevel: 1})
		if uid <= len(f.Cells) {
			f.Cells[uid-1].Owner = int64(uid)
			f.Users[uid-1].CellNumber = 1
		}
	}
	for t := 1; t <= frames; t++ {
		f.Turn = t
		for i := range f.Users {
			f.Users[i].Gold = int64(t * i)
		}
		if err := enc.WriteFrame(&f); err != nil {
			return err
		}
	}
	return enc.Close()
}

// analyzeAny analyses the replay r as rewind analyze does
// (source.NewStream, analysis.AnalyzeDocument).
func analyzeAny(r io.Reader) (*analysis.Document, error) {
	s, err := source.NewStream(r, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return analysis.AnalyzeDocument(s)
}

// metricsOf is the number of metrics of a ColorfightII stream of users
// players: its figures and the exchanges with every other party.
func metricsOf(users int) int {
	return len(colorfight2.AccountMetrics) + len(colorfight2.ExchangeMetrics(users))
}

// TestManyUsersBounded: a .cfr of 64 users, at 500 frames, allocates
// within the documented bound of docs/limits.md — the analysis's
// values (players × metrics × frames, 8 bytes each), twice over, plus a
// fixed 16 MiB for the decoder, the accounting and the frames. Issue
// 13's shape, 64 users on a 1×1 map, where the analysis used to allocate
// a per-uid array for every player and round (over 150 MB here, 3.4 GB
// at 20,000 frames), is refused at its frame 1 (no registration: users
// without a cell); the same users on an 8×8 map, one cell each, are
// analysed within the bound.
func TestManyUsersBounded(t *testing.T) {
	var buf bytes.Buffer
	const users, frames = 64, 500
	if err := manyUsers(&buf, 1, 1, users, frames, frames); err != nil {
		t.Fatal(err)
	}
	if _, err := analyzeAny(&buf); err == nil || !strings.Contains(err.Error(), "frame 1") {
		t.Fatalf("64 users on a 1×1 map: %v, want frame 1 refused", err)
	}
	buf.Reset()
	if err := manyUsers(&buf, 8, 8, users, frames, frames); err != nil {
		t.Fatal(err)
	}
	var a *analysis.Document
	n := testutil.Allocated(func() {
		var err error
		if a, err = analyzeAny(bytes.NewReader(buf.Bytes())); err != nil {
			t.Fatal(err)
		}
	})
	if a.Rounds != frames || len(a.Players) != users {
		t.Fatalf("%d rounds, %d players", a.Rounds, len(a.Players))
	}
	values := uint64(users * metricsOf(users) * (frames + 1))
	bound := values*8*2 + 16<<20
	t.Logf("%d values: allocated %.1f MB, bound %.1f MB", values, float64(n)/1e6, float64(bound)/1e6)
	if n > bound {
		t.Fatalf("allocated %d bytes, over the bound %d", n, bound)
	}
}

// TestAnalysisValuesRefused: past MaxValues an analysis is refused
// with ErrLimit and the limit named — a .cfr as its frames arrive, a .rwd
// from its header.
func TestAnalysisValuesRefused(t *testing.T) {
	const users = 64
	perFrame := users * metricsOf(users)
	frames := analysis.MaxValues/perFrame + 1
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(manyUsers(pw, 8, 8, users, frames, 500)) }()
	_, err := analyzeAny(pr)
	pr.CloseWithError(errors.New("done"))
	if !errors.Is(err, analysis.ErrLimit) || !strings.Contains(err.Error(), "docs/limits.md") {
		t.Fatalf(".cfr of %d users × %d frames: %v", users, frames, err)
	}
	// The most frames within the limit (frame 0 and frames-2 more) are
	// analysed.
	var buf bytes.Buffer
	if err := manyUsers(&buf, 8, 8, users, frames-2, 500); err != nil {
		t.Fatal(err)
	}
	if a, err := analyzeAny(&buf); err != nil || a.Rounds != frames-2 {
		t.Fatalf(".cfr of %d users × %d frames: %v", users, frames-2, err)
	}

	su := colorfight2.Setup{Config: colorfight2.Config{Width: 30, Height: 30, MaxTurn: frames, MaxPlayer: users}, Map: colorfight2.NewMap(30, 30)}
	var names []string
	for uid := 1; uid <= users; uid++ {
		names = append(names, fmt.Sprint("p", uid))
		su.Players = append(su.Players, colorfight2.Player{UID: uid, Name: names[uid-1], Home: colorfight2.Point{X: (uid - 1) % 30, Y: 2 * ((uid - 1) / 30)}})
	}
	g, err := colorfight2.NewSetupGame(su, engine.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := replay.GameHeader(colorfight2.Ruleset, g, 0, nil, su.Config.MaxTurn, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := replay.NewGameWriter(&b, h); err != nil {
		t.Fatal(err)
	}
	if _, err := analyzeAny(bytes.NewReader(b.Bytes())); !errors.Is(err, analysis.ErrLimit) {
		t.Fatalf(".rwd header of %d players × %d rounds: %v", users, h.Config.MaxTurn, err)
	}
}

// TestCellRoundsEveryPath: an official replay whose info promises more map
// cells × rounds than the limit (100×100 cells for 100,000 rounds) is
// refused the same way by every path that reads one: analyze, import,
// audit, info's summary and the frame source (which the viewer, fork and
// verify --against read through).
func TestCellRoundsEveryPath(t *testing.T) {
	var buf bytes.Buffer
	if err := manyUsers(&buf, 100, 100, 2, 1, 100000); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	path := filepath.Join(t.TempDir(), "big.cfr")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, cfr.ErrLimit) || !strings.Contains(err.Error(), "cell-rounds") {
			t.Errorf("%s: %v, want the cell-rounds limit", what, err)
		}
	}
	_, err := analysis.AnalyzeDocumentFile(path)
	check("analyze", err)
	_, err = cfrimport.Import(bytes.NewReader(data), io.Discard, cfrimport.ImportOptions{Source: "big.cfr"})
	check("import", err)
	_, err = cfr.Audit(bytes.NewReader(data), 10)
	check("audit", err)
	_, err = source.Summarize(bytes.NewReader(data))
	check("info", err)
	_, err = source.NewStream(bytes.NewReader(data), nil)
	check("source", err)
	_, err = source.NewFork("big.cfr", data, 1)
	check("fork", err)
}
