package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis/internal/toy"
	"github.com/rewind-game/rewind/internal/match"
)

// toyScript is a 6-round simultaneous toy game of alice (0) and bob (1):
//
//	1: alice claims (0,0) (1,0), bob (3,3)           cells 2-1, alice leads
//	2: alice re-claims (0,0): rejected; bob takes (0,0) (1,0) from her: 0-3, bob leads
//	3: alice sends garbage (rejected) and claims (2,0): 1-3
//	4: alice times out; bob claims (3,2): 1-4
//	5: alice crashes; bob claims (3,1): 1-5
//	6: alice claims five cells: 6-5, alice leads for good
var toyScript = []toy.Turn{
	{Cmds: [][]string{{"claim 0 0", "claim 1 0"}, {"claim 3 3"}}},
	{Cmds: [][]string{{"claim 0 0"}, {"claim 0 0", "claim 1 0"}}},
	{Cmds: [][]string{{"bogus", "claim 2 0"}, nil}},
	{Cmds: [][]string{{"claim 2 1"}, {"claim 3 2"}}, Faults: []engine.Fault{engine.FaultTimeout}},
	{Cmds: [][]string{nil, {"claim 3 1"}}, Faults: []engine.Fault{engine.FaultCrash}},
	{Cmds: [][]string{{"claim 2 1", "claim 2 2", "claim 2 3", "claim 1 1", "claim 1 2"}, nil}},
}

func toyStream(t testing.TB, r toy.Ruleset, names []string, script []toy.Turn) *toy.Stream {
	t.Helper()
	s, err := toy.NewStream(r, names, 8, script)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func analyzeToy(t testing.TB, r toy.Ruleset, names []string, script []toy.Turn, opt Options) *Analysis {
	t.Helper()
	g, err := AnalyzeStream(toyStream(t, r, names, script), opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestAnalysisSeriesAndSummary(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "bob"}, toyScript, Options{})
	if g.Turns != 6 || g.Truncated != nil || !g.CommandsKnown {
		t.Fatalf("turns %d truncated %v commands known %v", g.Turns, g.Truncated, g.CommandsKnown)
	}
	want := map[string][][]int64{
		"claims": {{0, 2, 2, 3, 3, 3, 8}, {0, 1, 3, 3, 4, 5, 5}},
		"cells":  {{0, 2, 0, 1, 1, 1, 6}, {0, 1, 3, 3, 4, 5, 5}},
	}
	if len(g.Series) != 2 || g.Series[0].Metric.Name != "claims" || g.Series[1].Metric.Name != "cells" {
		t.Fatalf("series %+v", g.Series)
	}
	for name, w := range want {
		if got := g.SeriesNamed(name).Values; !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	if g.Score() != 1 {
		t.Errorf("score metric %d, want 1 (cells, the toy's ScoreMetric)", g.Score())
	}
	if !reflect.DeepEqual(g.Ranking, []int{0, 1}) || g.Winner() != 0 {
		t.Errorf("ranking %v winner %d", g.Ranking, g.Winner())
	}
	if !reflect.DeepEqual(g.Leader, []int{-1, 0, 1, 1, 1, 1, 0}) {
		t.Errorf("leaders %v", g.Leader)
	}
	if g.LeadSince != 6 {
		t.Errorf("lead since %d, want 6", g.LeadSince)
	}
	if g.Active != nil || !reflect.DeepEqual(g.RoundFrames(), []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Errorf("active %v round frames %v", g.Active, g.RoundFrames())
	}
	wantPlayers := []Player{
		{Player: 0, Name: "alice", Bot: "bot-alice", Rank: 1, Metrics: []MetricSummary{{Final: 8}, {Final: 6, Peak: 6, PeakTurn: 6}},
			OwnTurns: 6, Commands: 10, Rejected: 2, Faults: 2},
		{Player: 1, Name: "bob", Bot: "bot-bob", Rank: 2, Metrics: []MetricSummary{{Final: 5}, {Final: 5, Peak: 5, PeakTurn: 5}},
			OwnTurns: 6, Commands: 5, Rejected: 0, Faults: 0},
	}
	if !reflect.DeepEqual(g.Players, wantPlayers) {
		t.Errorf("players\n%+v\nwant\n%+v", g.Players, wantPlayers)
	}
	if o := g.Outcome(g.Name); o != "winner alice (6 cells), in the lead for good since turn 6" {
		t.Errorf("outcome %q", o)
	}
}

func TestAnalysisEvents(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "bob"}, toyScript, Options{})
	type ev struct {
		turn int
		kind string
		text string
	}
	want := []ev{
		{1, "claim", "alice claims (0, 0) from nobody (1 cells)"},
		{1, "claim", "alice claims (1, 0) from nobody (2 cells)"},
		{1, "claim", "bob claims (3, 3) from nobody (1 cells)"},
		{1, EventLeadChange, "alice takes the lead (2 cells)"},
		{2, "claim", "bob claims (0, 0) from alice (2 cells)"},
		{2, "claim", "bob claims (1, 0) from alice (3 cells)"},
		{2, EventCommandErrors, "alice has 2 commands rejected in turns 2–3"},
		{2, EventLeadChange, "bob takes the lead (3 cells)"},
		{3, "claim", "alice claims (2, 0) from nobody (1 cells)"},
		{4, "claim", "bob claims (3, 2) from nobody (4 cells)"},
		{4, EventBotFault, "alice's bot fails to answer (timeout, 2 turns in a row)"},
		{5, "claim", "bob claims (3, 1) from nobody (5 cells)"},
		{6, "claim", "alice claims (2, 1) from nobody (2 cells)"},
		{6, "claim", "alice claims (2, 2) from nobody (3 cells)"},
		{6, "claim", "alice claims (2, 3) from nobody (4 cells)"},
		{6, "claim", "alice claims (1, 1) from nobody (5 cells)"},
		{6, "claim", "alice claims (1, 2) from nobody (6 cells)"},
		{6, EventLeadChange, "alice takes the lead (6 cells)"},
		{6, EventLeadForGood, "alice takes the lead for good (6 cells)"},
	}
	var got []ev
	for _, e := range g.Events {
		got = append(got, ev{e.Turn, e.Kind, g.EventText(e, g.Name)})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n%+v\nwant\n%+v", got, want)
	}
	// The fields of the derived events.
	for _, e := range g.Events {
		switch e.Kind {
		case EventCommandErrors:
			if e != (Event{Turn: 2, Kind: EventCommandErrors, Player: 0, Other: 3, X: -1, Y: -1, Value: 2, Shell: true}) {
				t.Errorf("command errors %+v", e)
			}
		case EventBotFault:
			if e != (Event{Turn: 4, Kind: EventBotFault, Player: 0, Other: int(engine.FaultTimeout), X: -1, Y: -1, Value: 2, Shell: true}) {
				t.Errorf("bot fault %+v", e)
			}
		case "claim":
			if e.Shell {
				t.Errorf("game event marked shell: %+v", e)
			}
		}
	}
	// A bound on the events keeps the first ones and lead_for_good.
	g = analyzeToy(t, toy.Ruleset{}, []string{"alice", "bob"}, toyScript, Options{MaxEvents: 3})
	if len(g.Events) != 4 || g.EventsDropped != len(want)-4 || g.Events[3].Kind != EventLeadForGood {
		t.Errorf("bounded: %d events kept, %d dropped: %+v", len(g.Events), g.EventsDropped, g.Events)
	}
}

// seqScript is a sequential toy game: alice acts on odd turns, bob on
// even ones (what the other sends is not read); bob times out on turn 4.
var seqScript = []toy.Turn{
	{Cmds: [][]string{{"claim 0 0"}, {"claim 3 3"}}},
	{Cmds: [][]string{nil, {"claim 0 0", "claim 1 1"}}},
	{Cmds: [][]string{{"claim 2 2"}, nil}},
	{Cmds: [][]string{nil, {"claim 3 0"}}, Faults: []engine.Fault{0, engine.FaultTimeout}},
	{Cmds: [][]string{{"claim 3 3", "claim 3 2"}, nil}},
	{Cmds: [][]string{nil, {"claim 3 3"}}},
}

func TestAnalysisSequential(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{Seq: true}, []string{"alice", "bob"}, seqScript, Options{})
	if !g.Meta.Sequential || g.Turns != 6 {
		t.Fatalf("sequential %v, turns %d", g.Meta.Sequential, g.Turns)
	}
	if w := [][]int64{{0, 1, 0, 1, 1, 3, 2}, {0, 0, 2, 2, 2, 2, 3}}; !reflect.DeepEqual(g.SeriesNamed("cells").Values, w) {
		t.Errorf("cells per player-turn %v, want %v", g.SeriesNamed("cells").Values, w)
	}
	if !reflect.DeepEqual(g.Active, []int{-1, 0, 1, 0, 1, 0, 1}) {
		t.Errorf("active %v", g.Active)
	}
	if !reflect.DeepEqual(g.RoundFrames(), []int{0, 2, 4, 6}) {
		t.Errorf("round frames %v, want [0 2 4 6]", g.RoundFrames())
	}
	if !reflect.DeepEqual(g.Ranking, []int{1, 0}) || g.LeadSince != 6 {
		t.Errorf("ranking %v lead since %d", g.Ranking, g.LeadSince)
	}
	a, b := g.Players[0], g.Players[1]
	if a.OwnTurns != 3 || b.OwnTurns != 3 || a.Commands != 4 || b.Commands != 3 || b.Faults != 1 || a.Faults != 0 || a.Rejected != 0 {
		t.Errorf("alice %+v\nbob %+v", a, b)
	}
	var kinds []string
	for _, e := range g.Events {
		if e.Shell {
			kinds = append(kinds, fmt.Sprintf("%d %s %s", e.Turn, e.Kind, g.EventText(e, g.Name)))
		}
	}
	want := []string{
		"1 lead_change alice takes the lead (1 cells)",
		"2 lead_change bob takes the lead (2 cells)",
		"4 bot_fault bob's bot fails to answer (timeout, 1 turn)",
		"5 lead_change alice takes the lead (3 cells)",
		"6 lead_change bob takes the lead (3 cells)",
		"6 lead_for_good bob takes the lead for good (3 cells)",
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("derived events\n%q\nwant\n%q", kinds, want)
	}
	var js bytes.Buffer
	if err := g.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sequential  bool  `json:"sequential"`
		Active      []int `json:"active"`
		RoundFrames []int `json:"round_frames"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Sequential || !reflect.DeepEqual(doc.Active, g.Active) || !reflect.DeepEqual(doc.RoundFrames, []int{0, 2, 4, 6}) {
		t.Errorf("JSON %+v", doc)
	}
}

// analysisJSONDoc is the JSON schema of docs/analysis-json.md, "Any game".
type analysisJSONDoc struct {
	Analysis       string `json:"analysis"`
	Game           string `json:"game"`
	RulesetVersion int    `json:"ruleset_version"`
	Format         string `json:"format"`
	Label          string `json:"label"`
	Sequential     bool   `json:"sequential"`
	Config         struct {
		MaxTurns int         `json:"max_turns"`
		Seed     uint64      `json:"seed"`
		Seeded   bool        `json:"seeded"`
		Settings [][2]string `json:"settings"`
	} `json:"config"`
	Turns         int    `json:"turns"`
	CommandsKnown bool   `json:"commands_known"`
	Resimulated   bool   `json:"resimulated"`
	Truncated     string `json:"truncated"`
	Metrics       []struct {
		Name, Unit, Kind string
	} `json:"metrics"`
	Score      string `json:"score"`
	EventKinds []struct {
		Name, Text string
	} `json:"event_kinds"`
	Players []struct {
		Player    int
		Seat      int
		Name, Bot string
	} `json:"players"`
	Ranking   []int `json:"ranking"`
	Winner    int   `json:"winner"`
	LeadSince int   `json:"lead_since"`
	Summary   []struct {
		Rank      int                                   `json:"rank"`
		Player    int                                   `json:"player"`
		Seat      int                                   `json:"seat"`
		Name      string                                `json:"name"`
		Bot       string                                `json:"bot"`
		OwnTurns  int                                   `json:"own_turns"`
		Commands  int64                                 `json:"commands"`
		Rejected  int64                                 `json:"rejected"`
		Faults    int                                   `json:"faults"`
		MetricsKV map[string]map[string]json.RawMessage `json:"metrics"`
	} `json:"summary"`
	Events []struct {
		Event
		Text string `json:"text"`
	} `json:"events"`
	EventsDropped int   `json:"events_dropped"`
	Leader        []int `json:"leader"`
	Series        []struct {
		Name, Unit, Kind string
		Values           [][]int64
	} `json:"series"`
}

func TestAnalysisJSON(t *testing.T) {
	write := func() []byte {
		g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "bob"}, toyScript, Options{})
		var b bytes.Buffer
		if err := g.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := write()
	for i := 0; i < 3; i++ {
		if again := write(); !bytes.Equal(first, again) {
			t.Fatalf("JSON differs between runs:\n%s\n%s", first, again)
		}
	}
	var doc analysisJSONDoc
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%v\n%s", err, first)
	}
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "bob"}, toyScript, Options{})
	if doc.Analysis != "generic" || doc.Game != "toy" || doc.Format != "toy" || doc.Turns != 6 || !doc.CommandsKnown || doc.Score != "cells" ||
		doc.Config.MaxTurns != 8 || doc.Winner != 0 || doc.LeadSince != 6 || doc.Truncated != "" || doc.Sequential {
		t.Errorf("top level %+v", doc)
	}
	if len(doc.Metrics) != 2 || doc.Metrics[0].Name != "claims" || doc.Metrics[0].Kind != "counter" || doc.Metrics[1].Kind != "gauge" {
		t.Errorf("metrics %+v", doc.Metrics)
	}
	if len(doc.EventKinds) != 1 || doc.EventKinds[0].Text != toy.ClaimText {
		t.Errorf("event kinds %+v", doc.EventKinds)
	}
	if !reflect.DeepEqual(doc.Ranking, g.Ranking) || !reflect.DeepEqual(doc.Leader, g.Leader) {
		t.Errorf("ranking %v leader %v", doc.Ranking, doc.Leader)
	}
	for i, s := range g.Series {
		if doc.Series[i].Name != s.Metric.Name || !reflect.DeepEqual(doc.Series[i].Values, s.Values) {
			t.Errorf("series %d: %+v", i, doc.Series[i])
		}
	}
	if len(doc.Events) != len(g.Events) {
		t.Fatalf("%d events, want %d", len(doc.Events), len(g.Events))
	}
	for i, e := range doc.Events {
		if e.Event != g.Events[i] || e.Text != g.EventText(g.Events[i], g.Name) {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	// Each player's seat, from 1, beside its 0-based index (issue 40, item 11).
	for i, p := range doc.Players {
		if p.Player != i || p.Seat != i+1 {
			t.Errorf("player %d: index %d, seat %d, want seat %d", i, p.Player, p.Seat, i+1)
		}
	}
	for _, e := range doc.Summary {
		if e.Seat != e.Player+1 {
			t.Errorf("summary of player %d: seat %d", e.Player, e.Seat)
		}
	}
	s := doc.Summary[0]
	if s.Name != "alice" || s.Rank != 1 || s.Commands != 10 || s.Rejected != 2 || s.Faults != 2 || s.OwnTurns != 6 {
		t.Errorf("summary %+v", s)
	}
	if m := s.MetricsKV; string(m["cells"]["final"]) != "6" || string(m["cells"]["peak_turn"]) != "6" || string(m["claims"]["final"]) != "8" || m["claims"]["peak"] != nil {
		t.Errorf("summary metrics %v", m)
	}
	// The summary's metrics keep the declared order.
	if i, j := bytes.Index(first, []byte(`"metrics":{"claims"`)), bytes.Index(first, []byte(`"cells":{"final"`)); i < 0 || j < i {
		t.Errorf("summary metrics out of order")
	}
}

func TestAnalysisCSV(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "=bob, the 2nd"}, toyScript, Options{})
	var b bytes.Buffer
	if err := g.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "rank,player,name,bot,own_turns,commands,rejected,faults,claims,cells,cells_peak,cells_peak_turn\n" +
		"1,0,alice,bot-alice,6,10,2,2,8,6,6,6\n" +
		"2,1,\"'=bob, the 2nd\",\"bot-=bob, the 2nd\",6,5,0,0,5,5,5,5\n"
	if b.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := g.WriteSeriesCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1+2*7 || lines[0] != "turn,player,name,claims,cells" || lines[1] != "0,0,alice,0,0" || lines[14] != "6,1,\"'=bob, the 2nd\",5,5" {
		t.Errorf("series CSV\n%s", b.String())
	}
}

func TestAnalysisTable(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice\x1b[2J", "bob"}, toyScript, Options{})
	var b bytes.Buffer
	if err := g.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "\x1b") {
		t.Error("a control character reaches the table")
	}
	for _, w := range []string{`"toy" replay ("toy"), 2 players, 6 turns`, `winner "alice\x1b[2J" (6 cells), in the lead for good since turn 6`,
		"events (19):", `turn    4  "alice\x1b[2J"'s bot fails to answer (timeout, 2 turns in a row)`, "commands  rejected  faults"} {
		if !strings.Contains(out, w) {
			t.Errorf("table has no %q:\n%s", w, out)
		}
	}
}

// brokenStream passes frames of s through and fails at frame at with err
// (io.EOF ends it cleanly); reshape, if set, alters that frame instead.
type brokenStream struct {
	engine.Stream
	at, i   int
	err     error
	reshape func(f *engine.Frame)
}

func (b *brokenStream) Next(f *engine.Frame) error {
	if err := b.Stream.Next(f); err != nil {
		return err
	}
	b.i++
	if b.i-1 == b.at {
		if b.reshape != nil {
			b.reshape(f)
			return nil
		}
		return b.err
	}
	return nil
}

func TestAnalysisTruncated(t *testing.T) {
	damage := errors.New("damaged record")
	g, err := AnalyzeStream(&brokenStream{Stream: toyStream(t, toy.Ruleset{}, []string{"a", "b"}, toyScript), at: 3, err: damage}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Turns != 2 || !errors.Is(g.Truncated, damage) || len(g.Series[1].Values[0]) != 3 {
		t.Errorf("turns %d truncated %v", g.Turns, g.Truncated)
	}
	if o := g.Outcome(g.Name); !strings.HasPrefix(o, "leader at turn 2 (game incomplete): b") {
		t.Errorf("outcome %q", o)
	}
	// A frame with another player count, or another metric count, cuts the game short too.
	for _, reshape := range []func(f *engine.Frame){
		func(f *engine.Frame) { f.Values = f.Values[:1] },
		func(f *engine.Frame) { f.Values[1] = f.Values[1][:1] },
	} {
		g, err = AnalyzeStream(&brokenStream{Stream: toyStream(t, toy.Ruleset{}, []string{"a", "b"}, toyScript), at: 4, reshape: reshape}, Options{})
		if err != nil || g.Turns != 3 || g.Truncated == nil {
			t.Errorf("reshaped: %v, %+v", err, g)
		}
	}
	// Broken before the first round: an error.
	if _, err := AnalyzeStream(&brokenStream{Stream: toyStream(t, toy.Ruleset{}, []string{"a", "b"}, toyScript), at: 1, err: damage}, Options{}); !errors.Is(err, damage) {
		t.Errorf("broken at frame 1: %v", err)
	}
	if _, err := AnalyzeStream(&brokenStream{Stream: toyStream(t, toy.Ruleset{}, []string{"a", "b"}, toyScript), at: 0, err: io.EOF}, Options{}); err == nil {
		t.Error("no frames: no error")
	}
	// A broken last ranking gives the score order.
	g, err = AnalyzeStream(&brokenStream{Stream: toyStream(t, toy.Ruleset{}, []string{"a", "b"}, toyScript[:2]), at: 2,
		reshape: func(f *engine.Frame) { f.Ranking = []int{0, 0, 7} }}, Options{})
	if err != nil || !reflect.DeepEqual(g.Ranking, []int{1, 0}) || g.Players[1].Rank != 1 {
		t.Errorf("broken ranking: %v %v", err, g.Ranking)
	}
}

func TestAnalysisLimit(t *testing.T) {
	s, err := toy.NewStream(toy.Ruleset{}, []string{"a", "b"}, MaxValues, toyScript)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AnalyzeStream(s, Options{}); !errors.Is(err, ErrLimit) {
		t.Errorf("2 players × 2 metrics × %d turns: %v, want ErrLimit", MaxValues, err)
	}
	// The largest turn limit an int holds (it would overflow the
	// product) is refused too.
	s, _ = toy.NewStream(toy.Ruleset{}, []string{"a", "b"}, math.MaxInt, toyScript)
	if _, err := AnalyzeStream(s, Options{}); !errors.Is(err, ErrLimit) {
		t.Errorf("%d turns: %v, want ErrLimit", math.MaxInt, err)
	}
	// A game with no turn limit that reaches the limit stops there, with
	// ErrLimit, however many frames its stream would give.
	g, err := AnalyzeStream(&endlessToy{}, Options{})
	if !errors.Is(err, ErrLimit) || g != nil {
		t.Errorf("endless: %v", err)
	}
}

func TestAnalysisStandings(t *testing.T) {
	// Three games: alice beats bob twice (the toy script; seats swapped
	// in the second, where bob plays first and alice wins 7-4), bob
	// beats carol once (3-0 after two rounds).
	swapped := make([]toy.Turn, len(toyScript))
	for i, tr := range toyScript {
		c := [][]string{tr.Cmds[1], tr.Cmds[0]}
		var f []engine.Fault
		if len(tr.Faults) > 0 {
			f = []engine.Fault{0, tr.Faults[0]}
		}
		swapped[i] = toy.Turn{Cmds: c, Faults: f}
	}
	games := []struct {
		names  []string
		script []toy.Turn
	}{
		{[]string{"alice", "bob"}, toyScript},
		{[]string{"bob", "alice"}, swapped},
		{[]string{"carol", "bob"}, toyScript[:2]},
	}
	var files []File
	for i, gm := range games {
		g := analyzeToy(t, toy.Ruleset{}, gm.names, gm.script, Options{})
		g.Compact()
		files = append(files, File{Path: fmt.Sprintf("dir/g%d.toy", i), Analysis: g})
	}
	files = append(files, File{Path: "dir/bad.toy", Err: errors.New("bad")})
	st := Standings(files, "toy")
	if len(st) != 3 {
		t.Fatalf("standings %+v", st)
	}
	byBot := map[string]match.Standing{}
	for _, s := range st {
		byBot[s.Bot] = s
	}
	if a := byBot["bot-alice"]; a.Games != 2 || a.Wins != 2 || a.MeanRank != 1 || a.MeanScore != 6.5 {
		t.Errorf("alice %+v", a)
	}
	if b := byBot["bot-bob"]; b.Games != 3 || b.Wins != 1 || b.MeanRank != 5.0/3 || b.MeanScore != 4 {
		t.Errorf("bob %+v", b)
	}
	// The Elo is the tournaments' own.
	var rs []match.GameResult
	for i, f := range files[:3] {
		rs = append(rs, f.Analysis.GameResult(i, f.Path))
	}
	for i, m := range match.Standings(rs) {
		if st[i].Bot != m.Bot || st[i].Elo != m.Elo {
			t.Errorf("standing %d: %+v, match says %+v", i, st[i], m)
		}
	}
	if st[0].Bot != "bot-alice" || st[0].Elo <= 1500 {
		t.Errorf("first %+v", st[0])
	}
	if other := Standings(files, "monad"); len(other) != 0 {
		t.Errorf("other ruleset: %+v", other)
	}
	var b bytes.Buffer
	if err := WriteCorpusCSV(&b, files); err != nil {
		t.Fatal(err)
	}
	want := "game,ruleset,format,turns,rank,player,name,bot,score,commands,rejected,faults\n" +
		"g0.toy,toy,toy,6,1,0,alice,bot-alice,6,10,2,2\n" +
		"g0.toy,toy,toy,6,2,1,bob,bot-bob,5,5,0,0\n" +
		"g1.toy,toy,toy,6,1,1,alice,bot-alice,7,10,1,2\n" +
		"g1.toy,toy,toy,6,2,0,bob,bot-bob,4,5,0,0\n" +
		"g2.toy,toy,toy,2,1,1,bob,bot-bob,3,3,0,0\n" +
		"g2.toy,toy,toy,2,2,0,carol,bot-carol,0,3,1,0\n"
	if b.String() != want {
		t.Errorf("corpus CSV\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteBotStandings(&b, "cells", st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "mean cells") || !strings.Contains(b.String(), `"bot-alice"`) {
		t.Errorf("standings table\n%s", b.String())
	}
}

func TestAnalyzeFiles(t *testing.T) {
	open := func(path string) (engine.Stream, error) {
		if path == "missing" {
			return nil, errors.New("no such file")
		}
		return toy.NewStream(toy.Ruleset{}, []string{path, "bob"}, 8, toyScript)
	}
	done := 0
	fs := AnalyzeFiles([]string{"a", "missing", "c"}, 2, open, Options{}, func() { done++ })
	if done != 3 || fs[0].Analysis == nil || fs[1].Err == nil || fs[2].Analysis == nil || fs[2].Analysis.Players[0].Name != "c" {
		t.Fatalf("%d done, %+v", done, fs)
	}
	if fs[0].Analysis.Series != nil || fs[0].Analysis.Events != nil {
		t.Error("a corpus analysis keeps its series")
	}
}

// TestAnalysisHostileFrames feeds frames whose events, errors, faults,
// commands and active player name players that do not exist: they are
// kept as numbers or ignored, never a panic.
func TestAnalysisHostileFrames(t *testing.T) {
	s := &brokenStream{Stream: toyStream(t, toy.Ruleset{Seq: true}, []string{"a", "b"}, seqScript), at: 2, reshape: func(f *engine.Frame) {
		f.Events = append(f.Events, engine.Event{Kind: "no_such\x1b[2J", Player: 99, Other: -7, X: math.MaxInt32, Y: -1, Value: -3})
		f.Errors = append(f.Errors, engine.CommandError{Player: -5, Index: 0}, engine.CommandError{Player: 7, Index: 3})
		f.Faults = append(f.Faults, engine.FaultCrash, engine.FaultCrash, engine.FaultCrash)
		f.Commands = append(f.Commands, []string{"x"}, []string{"y"})
		f.Active = 12
	}}
	g, err := AnalyzeStream(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Active[2] != -1 || g.Turns != 6 {
		t.Errorf("active %v turns %d", g.Active, g.Turns)
	}
	var found bool
	for _, e := range g.Events {
		if e.Kind == "no_such\x1b[2J" {
			found = true
			if txt := g.EventText(e, g.Name); txt != "no such\x1b[2J: player 99 (other player -7, at 2147483647, -1, value -3)" {
				t.Errorf("text %q", txt)
			}
		}
	}
	if !found {
		t.Error("the undeclared event is not kept")
	}
	var b bytes.Buffer
	if err := g.WriteTable(&b); err != nil || strings.Contains(b.String(), "\x1b") {
		t.Errorf("table: %v\n%s", err, b.String())
	}
}

// endlessToy is a stream of one player and 1024 metrics that never
// ends.
type endlessToy struct{ meta engine.StreamMeta }

func (*endlessToy) SkipCommandText() {}

func (e *endlessToy) Meta() *engine.StreamMeta {
	if e.meta.Metrics == nil {
		e.meta.Metrics = make([]engine.Metric, 1024)
	}
	return &e.meta
}
func (e *endlessToy) Close() error { return nil }
func (e *endlessToy) Next(f *engine.Frame) error {
	f.Values = [][]int64{make([]int64, 1024)}
	f.Ranking = []int{0}
	return nil
}
