package analysis_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

// monadTurn is what the test knows of one turn, from the engine itself:
// the state after it and what Step reported.
type monadTurn struct {
	state    *monad.State
	built    []int64 // applied BUILDs per player
	moved    []int64 // units of applied MOVEs per player
	hiveLost []int64 // hives destroyed per player (from Fights)
}

// monadGame is a recorded Monad game and the states it went through.
type monadGame struct {
	data  []byte
	turns []monadTurn // turns[t]: after t turns (turns[0]: the start)
}

// script changes a turn's round before it is played (nil: none).
type script func(turn int, s *monad.State, r *monad.Round)

// recordMonadGame plays built-in bots (by name; "idle" does nothing),
// recording the game as a .rwd and keeping every state.
func recordMonadGame(t testing.TB, seed int64, maxTurns int, sc script, names ...string) *monadGame {
	t.Helper()
	cfg := monad.Config{Players: len(names), MaxTurns: maxTurns, Seed: seed}
	s, err := monad.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(cfg, names, names))
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]monadbot.Bot, len(names))
	for i, n := range names {
		if bots[i], err = monadbot.Builtin(n); err != nil {
			t.Fatal(err)
		}
		bots[i].Start(i, uint64(seed)+uint64(i))
	}
	n := len(names)
	g := &monadGame{turns: []monadTurn{{state: s.Clone(), built: make([]int64, n), moved: make([]int64, n), hiveLost: make([]int64, n)}}}
	for !s.Over() {
		var r monad.Round
		r.Commands = make([][]monad.Command, n)
		for i, b := range bots {
			texts, _ := b.Commands(s)
			for _, c := range texts {
				r.Commands[i] = append(r.Commands[i], monad.ParseCommand([]byte(c)))
			}
		}
		if sc != nil {
			sc(s.Turn(), s, &r)
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			t.Fatal(err)
		}
		mt := monadTurn{state: s.Clone(), built: make([]int64, n), moved: make([]int64, n), hiveLost: make([]int64, n)}
		for _, e := range s.Executed() {
			if e.Code != monad.ErrNone {
				continue
			}
			switch e.Kind {
			case monad.KindBuild:
				mt.built[e.Player]++
			case monad.KindMove:
				mt.moved[e.Player] += e.Count
			}
		}
		for _, f := range s.Fights() {
			if f.Outcome == monad.FightDestroyed {
				mt.hiveLost[f.Hive]++
			}
		}
		g.turns = append(g.turns, mt)
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	g.data = buf.Bytes()
	return g
}

func analyzeMonadData(t testing.TB, data []byte) *analysis.MonadAnalysis {
	t.Helper()
	src, err := source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a, err := analysis.AnalyzeMonad(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustSeries(t *testing.T, a *analysis.MonadAnalysis, name string) *analysis.Series {
	t.Helper()
	s := a.SeriesNamed(name)
	if s == nil {
		t.Fatalf("no series %q", name)
	}
	if len(s.Values) != a.Players() {
		t.Fatalf("series %q: %d players, want %d", name, len(s.Values), a.Players())
	}
	for p, v := range s.Values {
		if len(v) != a.Turns+1 {
			t.Fatalf("series %q player %d: %d values, want turns+1 = %d", name, p, len(v), a.Turns+1)
		}
	}
	return s
}

// TestMonadSeriesMatchStates: every series value of a recorded 4-player
// game equals what the engine's state says at that turn (Stats), and the
// derived series equal what the engine's Step reported (Executed, Fights).
func TestMonadSeriesMatchStates(t *testing.T) {
	g := recordMonadGame(t, 11, 400, nil, "expander", "miner", "rusher", "miner")
	a := analyzeMonadData(t, g.data)
	if a.Turns != len(g.turns)-1 {
		t.Fatalf("Turns %d, want %d", a.Turns, len(g.turns)-1)
	}
	if a.Players() != 4 || a.Names[2] != "rusher" {
		t.Fatalf("names %q", a.Names)
	}
	stat := map[string]func(monad.PlayerStats) int64{
		"resources":      func(s monad.PlayerStats) int64 { return s.Resources },
		"units":          func(s monad.PlayerStats) int64 { return s.Units },
		"hives":          func(s monad.PlayerStats) int64 { return int64(s.Hives) },
		"cells":          func(s monad.PlayerStats) int64 { return int64(s.Cells) },
		"units_produced": func(s monad.PlayerStats) int64 { return s.UnitsProduced },
		"units_lost":     func(s monad.PlayerStats) int64 { return s.UnitsLost },
		"rejected":       func(s monad.PlayerStats) int64 { return s.Rejected },
	}
	for _, m := range monad.Ruleset.Metrics() {
		get := stat[m.Name]
		if get == nil {
			t.Fatalf("test knows no stat for metric %q", m.Name)
		}
		s := mustSeries(t, a, m.Name)
		if s.Metric != m {
			t.Errorf("series %q metric %+v, want %+v", m.Name, s.Metric, m)
		}
		for p := 0; p < 4; p++ {
			for tt, mt := range g.turns {
				if got, want := s.Values[p][tt], get(mt.state.Stats(p)); got != want {
					t.Fatalf("%s[player %d][turn %d] = %d, want %d", m.Name, p, tt, got, want)
				}
			}
		}
	}
	mined, moved := mustSeries(t, a, analysis.SeriesMined), mustSeries(t, a, analysis.SeriesMoved)
	built, lost := mustSeries(t, a, analysis.SeriesHivesBuilt), mustSeries(t, a, analysis.SeriesHivesLost)
	var anyBuilt, anyLost, anyMined, anyMoved bool
	for p := 0; p < 4; p++ {
		var cb, cl int64
		for tt, mt := range g.turns {
			cb += mt.built[p]
			cl += mt.hiveLost[p]
			var wantMined int64
			if tt > 0 {
				wantMined = mt.state.Stats(p).Resources - g.turns[tt-1].state.Stats(p).Resources + monad.HiveCost*mt.built[p]
			}
			if got := mined.Values[p][tt]; got != wantMined || got < 0 {
				t.Fatalf("resources_mined[%d][%d] = %d, want %d (never negative)", p, tt, got, wantMined)
			}
			if got := moved.Values[p][tt]; got != mt.moved[p] {
				t.Fatalf("units_moved[%d][%d] = %d, want %d", p, tt, got, mt.moved[p])
			}
			if built.Values[p][tt] != cb || lost.Values[p][tt] != cl {
				t.Fatalf("hives built/lost[%d][%d] = %d/%d, want %d/%d", p, tt, built.Values[p][tt], lost.Values[p][tt], cb, cl)
			}
			// hives now = 1 at the start + built - lost
			if h := int64(mt.state.Stats(p).Hives); h != 1+cb-cl {
				t.Fatalf("player %d turn %d: %d hives, but 1 + %d built - %d lost", p, tt, h, cb, cl)
			}
			anyMined = anyMined || wantMined > 0
			anyMoved = anyMoved || mt.moved[p] > 0
		}
		anyBuilt, anyLost = anyBuilt || cb > 0, anyLost || cl > 0
	}
	if !anyBuilt || !anyLost || !anyMined || !anyMoved {
		t.Fatalf("the game exercises too little: built %v lost %v mined %v moved %v", anyBuilt, anyLost, anyMined, anyMoved)
	}
	last := g.turns[len(g.turns)-1].state
	var want []int
	for _, r := range last.Ranking() {
		want = append(want, r.Player)
	}
	if !equalInts(a.Ranking, want) {
		t.Fatalf("ranking %v, want %v", a.Ranking, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// soleLeader computes, from a state, the player alone at the top of the
// ranking (-1 for none), independently of the analysis.
func soleLeader(s *monad.State) int {
	rk := s.Ranking()
	st := func(i int) monad.PlayerStats { return s.Stats(rk[i].Player) }
	if st(0).Crashed {
		return -1
	}
	if len(rk) > 1 && !st(1).Crashed && st(1).Hives == st(0).Hives && st(1).Units == st(0).Units {
		return -1
	}
	return rk[0].Player
}

// TestMonadLead: Leader is the sole leader of every state; lead_change
// events are exactly its changes (ignoring turns with no sole leader);
// the winner leads from LeadSince to the end and not the turn before, and
// lead_for_good is at LeadSince, after the winner's last lead change.
func TestMonadLead(t *testing.T) {
	for _, seed := range []int64{3, 11} {
		g := recordMonadGame(t, seed, 400, nil, "expander", "miner", "rusher")
		a := analyzeMonadData(t, g.data)
		prev := -1
		var changes []analysis.MonadEvent
		for _, e := range a.Events {
			if e.Kind == analysis.EventLeadChange {
				changes = append(changes, e)
			}
		}
		k := 0
		for tt, mt := range g.turns {
			l := soleLeader(mt.state)
			if a.Leader[tt] != l {
				t.Fatalf("seed %d: Leader[%d] = %d, want %d", seed, tt, a.Leader[tt], l)
			}
			if l >= 0 && l != prev && tt > 0 {
				if k >= len(changes) || changes[k].Turn != tt || changes[k].Player != l || changes[k].Other != prev {
					t.Fatalf("seed %d: turn %d: want a lead change to %d from %d, events %+v", seed, tt, l, prev, changes)
				}
				if changes[k].Value != int64(mt.state.Stats(l).Hives) {
					t.Fatalf("seed %d: lead change value %d, want %d hives", seed, changes[k].Value, mt.state.Stats(l).Hives)
				}
				k++
			}
			if l >= 0 && tt > 0 {
				prev = l
			}
		}
		if k != len(changes) {
			t.Fatalf("seed %d: %d lead changes, want %d", seed, len(changes), k)
		}
		w := soleLeader(g.turns[a.Turns].state)
		if a.Winner != w || w < 0 {
			t.Fatalf("seed %d: winner %d, want %d (and a winner)", seed, a.Winner, w)
		}
		if a.Ranking[0] != w {
			t.Fatalf("seed %d: winner %d is not first of the ranking %v", seed, w, a.Ranking)
		}
		ls := a.LeadSince
		if ls < 1 || ls > a.Turns {
			t.Fatalf("seed %d: LeadSince %d", seed, ls)
		}
		for tt := ls; tt <= a.Turns; tt++ {
			if soleLeader(g.turns[tt].state) != w {
				t.Fatalf("seed %d: winner not alone in the lead at turn %d >= LeadSince %d", seed, tt, ls)
			}
		}
		if ls > 1 && soleLeader(g.turns[ls-1].state) == w {
			t.Fatalf("seed %d: winner already led at turn %d < LeadSince %d", seed, ls-1, ls)
		}
		var good []analysis.MonadEvent
		for _, e := range a.Events {
			if e.Kind == analysis.EventLeadForGood {
				good = append(good, e)
			}
		}
		if len(good) != 1 || good[0].Turn != ls || good[0].Player != w || good[0].Value != int64(g.turns[ls].state.Stats(w).Hives) {
			t.Fatalf("seed %d: lead_for_good events %+v, want one at %d for %d", seed, good, ls, w)
		}
		lastChange := changes[len(changes)-1]
		if lastChange.Player != w || lastChange.Turn > ls {
			t.Fatalf("seed %d: last lead change %+v, want the winner's, at or before %d", seed, lastChange, ls)
		}
		for i := 1; i < len(a.Events); i++ {
			if a.Events[i].Turn < a.Events[i-1].Turn {
				t.Fatalf("events out of turn order at %d: %+v", i, a.Events[i-1:i+1])
			}
		}
	}
}

// TestMonadEvents: a rusher against an idle player and a miner: the idle
// player's only hive falls and it is left with nothing (died) at the turn
// the states show; hives built are reported where and when the engine
// built them; a bot that times out or crashes is reported once, at the
// turn it happened.
func TestMonadEvents(t *testing.T) {
	const timeoutTurn, crashTurn = 150, 7
	sc := func(turn int, s *monad.State, r *monad.Round) {
		if turn == crashTurn-1 {
			r.Crashed[3] = true
		}
		if turn == timeoutTurn-1 {
			r.TimedOut[2] = true
		}
	}
	g := recordMonadGame(t, 5, 600, sc, "rusher", "idle", "miner", "idle")
	a := analyzeMonadData(t, g.data)
	byKind := map[string][]analysis.MonadEvent{}
	for _, e := range a.Events {
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}

	// Hives destroyed and eliminations, from the states.
	type key struct{ turn, player, x, y int }
	wantDestroyed := map[key]bool{}
	wantDied := map[key]bool{}
	for tt := 1; tt < len(g.turns); tt++ {
		ps, s := g.turns[tt-1].state, g.turns[tt].state
		for y := 0; y < monad.Height; y++ {
			for x := 0; x < monad.Width; x++ {
				if o, _, ok := ps.Hive(x, y); ok {
					if o2, _, ok2 := s.Hive(x, y); !ok2 || o2 != o {
						wantDestroyed[key{tt, o, x, y}] = true
					}
				}
			}
		}
		for p := 0; p < 4; p++ {
			if ps.Stats(p).Cells > 0 && s.Stats(p).Cells == 0 {
				wantDied[key{tt, p, -1, -1}] = true
			}
		}
	}
	if len(wantDestroyed) == 0 || len(wantDied) == 0 {
		t.Fatalf("the game has no hive destroyed (%d) or no elimination (%d): pick another seed", len(wantDestroyed), len(wantDied))
	}
	if got := byKind[analysis.EventHiveDestroyed]; len(got) != len(wantDestroyed) {
		t.Fatalf("hive_destroyed events %+v, want %v", got, wantDestroyed)
	}
	for _, e := range byKind[analysis.EventHiveDestroyed] {
		if !wantDestroyed[key{e.Turn, e.Player, e.X, e.Y}] {
			t.Fatalf("hive_destroyed %+v not in the states", e)
		}
		s := g.turns[e.Turn].state
		if e.Value != int64(s.Stats(e.Player).Hives) {
			t.Fatalf("%+v: value, want %d hives", e, s.Stats(e.Player).Hives)
		}
		if by, _ := s.Occupant(e.X, e.Y); e.Other != by || by == e.Player {
			t.Fatalf("%+v: destroyer %d, the cell's occupant is %d", e, e.Other, by)
		}
	}
	for _, e := range byKind[analysis.EventDied] {
		if !wantDied[key{e.Turn, e.Player, -1, -1}] {
			t.Fatalf("died %+v not in the states", e)
		}
		if e.Value != int64(g.turns[e.Turn-1].state.Stats(e.Player).Cells) {
			t.Fatalf("died %+v: value, want the cells before", e)
		}
	}
	if len(byKind[analysis.EventDied]) != len(wantDied) {
		t.Fatalf("died events %+v, want %v", byKind[analysis.EventDied], wantDied)
	}
	// The idle player 1 loses its home hive to the rusher and is gone
	// that turn.
	var idleFell int
	for _, e := range byKind[analysis.EventHiveDestroyed] {
		if e.Player == 1 && e.Other == 0 {
			idleFell = e.Turn
		}
	}
	if idleFell == 0 || !wantDied[key{idleFell, 1, -1, -1}] {
		t.Fatalf("the rusher never took the idle player's hive, or the idle player survived it: %+v", a.Events)
	}
	t.Logf("idle player's hive falls at turn %d; %d hives destroyed; %d built", idleFell, len(wantDestroyed), len(byKind[analysis.EventHiveBuilt]))

	// Hives built: one event per BUILD the engine applied, where it built.
	var nb int
	for tt := 1; tt < len(g.turns); tt++ {
		for p := 0; p < 4; p++ {
			nb += int(g.turns[tt].built[p])
		}
	}
	built := byKind[analysis.EventHiveBuilt]
	if nb == 0 || len(built) != nb {
		t.Fatalf("%d hive_built events, want %d (> 0)", len(built), nb)
	}
	for _, e := range built {
		if o, _, ok := g.turns[e.Turn].state.Hive(e.X, e.Y); ok && o != e.Player {
			t.Fatalf("%+v: the hive there is %d's", e, o)
		}
		if o, _, ok := g.turns[e.Turn-1].state.Hive(e.X, e.Y); ok {
			t.Fatalf("%+v: the cell already had %d's hive", e, o)
		}
	}

	// Faults.
	faults := byKind[analysis.EventBotFault]
	if len(faults) != 2 ||
		faults[0] != (analysis.MonadEvent{Turn: crashTurn, Kind: analysis.EventBotFault, Player: 3, Other: -1, X: -1, Y: -1, Value: int64(engine.FaultCrash)}) ||
		faults[1] != (analysis.MonadEvent{Turn: timeoutTurn, Kind: analysis.EventBotFault, Player: 2, Other: -1, X: -1, Y: -1, Value: int64(engine.FaultTimeout)}) {
		t.Fatalf("bot_fault events %+v", faults)
	}
	if a.Ranking[len(a.Ranking)-1] != 3 {
		t.Fatalf("ranking %v: the crashed player is not last", a.Ranking)
	}
	name := func(p int) string { return a.Name(p) }
	for _, c := range []struct {
		e    analysis.MonadEvent
		want string
	}{
		{faults[0], "idle's bot crashes: no more commands, ranked last"},
		{faults[1], "miner's bot times out: no more commands"},
		{analysis.MonadEvent{Kind: analysis.EventDied, Player: 1}, "idle is eliminated"},
		{analysis.MonadEvent{Kind: analysis.EventHiveDestroyed, Player: 1, Other: 0, X: 18, Y: 18, Value: 0}, "idle loses its hive at (18, 18) to rusher (0 hives left)"},
		{analysis.MonadEvent{Kind: analysis.EventHiveBuilt, Player: 2, X: 3, Y: 4, Value: 2}, "miner builds a hive at (3, 4) (2 hives)"},
		{analysis.MonadEvent{Kind: analysis.EventLeadForGood, Player: 0, Value: 5}, "rusher takes the lead for good (5 hives)"},
	} {
		if got := c.e.Text(name); got != c.want {
			t.Errorf("Text = %q, want %q", got, c.want)
		}
	}
	if a.Winner >= 0 {
		ws := g.turns[a.Turns].state.Stats(a.Winner)
		want := fmt.Sprintf("winner %s (%d hives, %d units), in the lead for good since turn %d", a.Names[a.Winner], ws.Hives, ws.Units, a.LeadSince)
		if got := a.Outcome(name); got != want || a.LeadSince < 1 {
			t.Errorf("Outcome %q, want %q", got, want)
		}
	} else {
		t.Errorf("no winner: %v", a.Leader[a.Turns-5:])
	}
	// "died" reads as ColorfightII's.
	if got, want := (analysis.MonadEvent{Kind: analysis.EventDied, Player: 1}).Text(name), (analysis.Event{Kind: analysis.EventDied, UID: 1}).Text(name); got != want {
		t.Errorf("died: %q, ColorfightII says %q", got, want)
	}
}

// noCounters is a Monad source that knows only the board and the
// resources, as an official log: Counters false, counters zeroed, no
// fights.
type noCounters struct{ source.MonadSource }

func (s noCounters) Meta() *source.MonadMeta {
	m := *s.MonadSource.Meta()
	m.Counters = false
	return &m
}

func (s noCounters) Next(f *source.MonadFrame) error {
	if err := s.MonadSource.Next(f); err != nil {
		return err
	}
	for p := range f.Players {
		st := &f.Players[p].PlayerStats
		st.UnitsProduced, st.UnitsLost, st.Rejected, st.TimedOut, st.Crashed = 0, 0, 0, false, false
	}
	f.Fights = f.Fights[:0]
	return nil
}

// TestMonadNoCounters: without counters the counter series and the
// bot_fault events are absent (not zeros); the rest is as from the .rwd.
func TestMonadNoCounters(t *testing.T) {
	sc := func(turn int, s *monad.State, r *monad.Round) {
		if turn == 20 {
			r.TimedOut[1] = true
		}
	}
	g := recordMonadGame(t, 11, 300, sc, "expander", "miner", "rusher")
	full := analyzeMonadData(t, g.data)
	src, err := source.NewMonad(bytes.NewReader(g.data), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeMonad(noCounters{src})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"units_produced", "units_lost", "rejected", analysis.SeriesMoved} {
		if a.SeriesNamed(name) != nil {
			t.Errorf("series %q present without counters", name)
		}
		if full.SeriesNamed(name) == nil {
			t.Errorf("series %q absent with counters", name)
		}
	}
	if len(a.Series) != len(full.Series)-4 {
		t.Fatalf("%d series, want %d", len(a.Series), len(full.Series)-4)
	}
	for _, s := range a.Series {
		fs := full.SeriesNamed(s.Metric.Name)
		for p := range s.Values {
			for tt := range s.Values[p] {
				if s.Values[p][tt] != fs.Values[p][tt] {
					t.Fatalf("%s[%d][%d] = %d without counters, %d with", s.Metric.Name, p, tt, s.Values[p][tt], fs.Values[p][tt])
				}
			}
		}
	}
	var faults int
	for _, e := range full.Events {
		if e.Kind == analysis.EventBotFault {
			faults++
		}
	}
	if faults != 1 {
		t.Fatalf("%d bot_fault events with counters, want 1", faults)
	}
	var kept []analysis.MonadEvent
	for _, e := range full.Events {
		if e.Kind != analysis.EventBotFault {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(a.Events) {
		t.Fatalf("%d events without counters, want %d", len(a.Events), len(kept))
	}
	for i := range kept {
		if kept[i] != a.Events[i] {
			t.Fatalf("event %d: %+v without counters, %+v with", i, a.Events[i], kept[i])
		}
	}
	var table, js bytes.Buffer
	if err := a.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "rejected") || strings.Contains(table.String(), "produced") {
		t.Fatalf("table shows counters it does not know:\n%s", table.String())
	}
	if err := a.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), `"units_lost"`) || !strings.Contains(js.String(), `"counters":false`) {
		t.Fatalf("JSON without counters: %.300s", js.String())
	}
}

// TestMonadCSV: players × (turns+1) rows after the header, whose numbers
// are the series.
func TestMonadCSV(t *testing.T) {
	g := recordMonadGame(t, 3, 120, nil, "expander", "rusher", "miner")
	a := analyzeMonadData(t, g.data)
	a.Names[1] = `=evil,"name"`
	var buf bytes.Buffer
	if err := a.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	if len(head) != 3+len(a.Series) || head[0] != "turn" || head[1] != "player" || head[2] != "name" {
		t.Fatalf("header %q", head)
	}
	for i, s := range a.Series {
		if head[3+i] != s.Metric.Name {
			t.Fatalf("column %d is %q, want %q", 3+i, head[3+i], s.Metric.Name)
		}
	}
	if len(rows)-1 != a.Players()*(a.Turns+1) {
		t.Fatalf("%d rows, want %d players × %d", len(rows)-1, a.Players(), a.Turns+1)
	}
	for i, r := range rows[1:] {
		tt, p := i/a.Players(), i%a.Players()
		if r[0] != strconv.Itoa(tt) || r[1] != strconv.Itoa(p) {
			t.Fatalf("row %d: turn %s player %s, want %d %d", i, r[0], r[1], tt, p)
		}
		if want := a.Names[p]; p == 1 {
			if r[2] != "'"+want {
				t.Fatalf("row %d: name %q, want the formula neutralised", i, r[2])
			}
		} else if r[2] != want {
			t.Fatalf("row %d: name %q, want %q", i, r[2], want)
		}
		for j, s := range a.Series {
			if r[3+j] != strconv.FormatInt(s.Values[p][tt], 10) {
				t.Fatalf("row %d column %s: %s, want %d", i, s.Metric.Name, r[3+j], s.Values[p][tt])
			}
		}
	}
}

// TestMonadJSON: the JSON decodes into the fields docs/analysis-json.md
// documents, with the analysis's values.
func TestMonadJSON(t *testing.T) {
	g := recordMonadGame(t, 3, 120, nil, "expander", "rusher", "miner")
	a := analyzeMonadData(t, g.data)
	var buf bytes.Buffer
	if err := a.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Game   string `json:"game"`
		Format string `json:"format"`
		Config struct {
			Players   int   `json:"players"`
			MaxTurns  int   `json:"max_turns"`
			Seed      int64 `json:"seed"`
			SeedKnown bool  `json:"seed_known"`
			Uniform   bool  `json:"uniform"`
		} `json:"config"`
		Turns     int    `json:"turns"`
		Counters  bool   `json:"counters"`
		Truncated string `json:"truncated"`
		Players   []struct {
			Player int    `json:"player"`
			Name   string `json:"name"`
			Bot    string `json:"bot"`
		} `json:"players"`
		Ranking       []int                 `json:"ranking"`
		Winner        int                   `json:"winner"`
		LeadSince     int                   `json:"lead_since"`
		Leader        []int                 `json:"leader"`
		Events        []analysis.MonadEvent `json:"events"`
		EventsDropped int                   `json:"events_dropped"`
		Series        []struct {
			Name   string    `json:"name"`
			Unit   string    `json:"unit"`
			Kind   string    `json:"kind"`
			Values [][]int64 `json:"values"`
		} `json:"series"`
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Game != "monad" || doc.Format != "rwd-monad" || doc.Config.Players != 3 || doc.Config.MaxTurns != 120 || doc.Config.Seed != 3 || !doc.Config.SeedKnown ||
		doc.Turns != a.Turns || !doc.Counters || doc.Truncated != "" || doc.Winner != a.Winner || doc.LeadSince != a.LeadSince ||
		!equalInts(doc.Ranking, a.Ranking) || !equalInts(doc.Leader, a.Leader) || doc.EventsDropped != 0 {
		t.Fatalf("decoded %+v", doc)
	}
	if len(doc.Players) != 3 || doc.Players[1].Player != 1 || doc.Players[1].Name != "rusher" || doc.Players[1].Bot != "rusher" {
		t.Fatalf("players %+v", doc.Players)
	}
	if len(doc.Events) != len(a.Events) || len(doc.Events) == 0 {
		t.Fatalf("%d events, want %d", len(doc.Events), len(a.Events))
	}
	for i := range doc.Events {
		if doc.Events[i] != a.Events[i] {
			t.Fatalf("event %d: %+v, want %+v", i, doc.Events[i], a.Events[i])
		}
	}
	if len(doc.Series) != len(a.Series) {
		t.Fatalf("%d series, want %d", len(doc.Series), len(a.Series))
	}
	for i, s := range doc.Series {
		want := a.Series[i]
		kind := "gauge"
		if want.Metric.Kind == engine.Counter {
			kind = "counter"
		}
		if s.Name != want.Metric.Name || s.Unit != want.Metric.Unit || s.Kind != kind || len(s.Values) != 3 {
			t.Fatalf("series %d: %s %s %s, want %+v", i, s.Name, s.Unit, s.Kind, want.Metric)
		}
		for p := range s.Values {
			if len(s.Values[p]) != a.Turns+1 {
				t.Fatalf("series %s player %d: %d values", s.Name, p, len(s.Values[p]))
			}
			for tt, v := range s.Values[p] {
				if v != want.Values[p][tt] {
					t.Fatalf("series %s[%d][%d] = %d, want %d", s.Name, p, tt, v, want.Values[p][tt])
				}
			}
		}
	}
}

// TestMonadTruncated: a recording cut short is analysed up to its last
// whole turn, and says so.
func TestMonadTruncated(t *testing.T) {
	g := recordMonadGame(t, 3, 200, nil, "expander", "rusher")
	full := analyzeMonadData(t, g.data)
	cut := g.data[:len(g.data)*2/3]
	src, err := source.NewMonad(bytes.NewReader(cut), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeMonad(src)
	if err != nil {
		t.Fatal(err)
	}
	if a.Truncated == nil || a.Turns < 1 || a.Turns >= full.Turns {
		t.Fatalf("cut recording: truncated %v, %d turns of %d", a.Truncated, a.Turns, full.Turns)
	}
	u, fu := mustSeries(t, a, "units"), mustSeries(t, full, "units")
	for p := range u.Values {
		for tt := range u.Values[p] {
			if u.Values[p][tt] != fu.Values[p][tt] {
				t.Fatalf("units[%d][%d] differs from the whole recording's", p, tt)
			}
		}
	}
}

// endless is a hostile Monad source: frames without end.
type endless struct {
	players int
	turn    int
}

func (e *endless) Meta() *source.MonadMeta {
	return &source.MonadMeta{Format: "test", Counters: true}
}

func (e *endless) Next(f *source.MonadFrame) error {
	f.Turn = e.turn
	e.turn++
	if len(f.Players) != e.players {
		f.Players = make([]source.MonadPlayer, e.players)
	}
	for i := range f.Cells {
		f.Cells[i] = source.MonadCell{Owner: -1, Hive: -1}
	}
	return nil
}

func (e *endless) Close() error { return nil }

// TestMonadBounded: a source that never ends is refused at the
// player-turn limit; one with an impossible player count at frame 0.
func TestMonadBounded(t *testing.T) {
	src := &endless{players: 4}
	_, err := analysis.AnalyzeMonad(src)
	if !errors.Is(err, analysis.ErrLimit) {
		t.Fatalf("endless source: %v, want ErrLimit", err)
	}
	if src.turn*4 > analysis.MaxPlayerRounds+8 {
		t.Fatalf("read %d frames of 4 players, past the limit %d", src.turn, analysis.MaxPlayerRounds)
	}
	if _, err := analysis.AnalyzeMonad(&endless{players: 9}); err == nil || !strings.Contains(err.Error(), "9 players") {
		t.Fatalf("9 players: %v", err)
	}
	if _, err := analysis.AnalyzeMonad(&endless{players: 0}); err == nil {
		t.Fatal("0 players accepted")
	}
}

var _ io.Closer = (*endless)(nil)

// BenchmarkAnalyzeMonad: open, re-simulate and analyse a 4-player game
// of up to 1000 turns ("analyze"), beside only reading its frames
// ("frames"): the difference is the analysis's own cost.
func BenchmarkAnalyzeMonad(b *testing.B) {
	g := recordMonadGame(b, 11, 1000, nil, "expander", "miner", "rusher", "miner")
	b.Run("analyze", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			analyzeMonadData(b, g.data)
		}
		b.ReportMetric(float64(len(g.turns)-1), "turns")
	})
	b.Run("frames", func(b *testing.B) {
		var f source.MonadFrame
		for i := 0; i < b.N; i++ {
			src, err := source.NewMonad(bytes.NewReader(g.data), nil)
			if err != nil {
				b.Fatal(err)
			}
			for src.Next(&f) == nil {
			}
			src.Close()
		}
	})
}
