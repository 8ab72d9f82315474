package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

const conformanceDir = "../../testdata/conformance"

var (
	rwdOnce  sync.Once
	rwdCache map[string][]byte
	rwdErr   error
)

func vectors(t testing.TB) []conform.Vector {
	t.Helper()
	vs, err := conform.Find([]string{conformanceDir})
	if err != nil {
		t.Skipf("no conformance vectors: %v", err)
	}
	return vs
}

// rwdBytes records every vector as an in-memory .rwd (once per test binary).
func rwdBytes(t testing.TB, v conform.Vector) []byte {
	t.Helper()
	rwdOnce.Do(func() {
		rwdCache = map[string][]byte{}
		vs, err := conform.Find([]string{conformanceDir})
		if err != nil {
			rwdErr = err
			return
		}
		for _, v := range vs {
			g, err := cf2vectors.Load(v.Input, v.Expected)
			if err != nil {
				rwdErr = err
				return
			}
			var buf bytes.Buffer
			if err := cfrimport.RecordVector(g, &buf, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "test"); err != nil {
				rwdErr = err
				return
			}
			rwdCache[v.Name] = buf.Bytes()
		}
	})
	if rwdErr != nil {
		t.Fatal(rwdErr)
	}
	return rwdCache[v.Name]
}

// analyzeRWD gives the document of the .rwd b, as rewind analyze reads
// it (source.NewStream, AnalyzeDocument).
func analyzeRWD(t testing.TB, b []byte) *Document {
	t.Helper()
	s, err := source.NewStream(bytes.NewReader(b), nil)
	return analyzeStream(t, s, err)
}

// analyzeFile gives the document of the replay at path (.rwd or .cfr),
// as rewind analyze reads it (source.OpenStream, AnalyzeDocument).
func analyzeFile(t testing.TB, path string) *Document {
	t.Helper()
	s, err := source.OpenStream(path)
	return analyzeStream(t, s, err)
}

// analyzeStream gives the document of s, which opening returned with
// err, and closes s.
func analyzeStream(t testing.TB, s engine.Stream, err error) *Document {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := AnalyzeDocument(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// commandOnly are the figures only a command log gives, or gives
// exactly: the gold flows, which frames cannot fully explain when a
// building is built and captured in the same round, and the figures
// counted from commands (unknown, -1, without them).
var commandOnly = []string{"capture_energy", "wasted_energy", "commands", "errors", "faults",
	"gold_spent", "upgrade_energy", "stolen_in", "stolen_out", "refund", "mine_bonus", "gold_unexplained"}

// flows are the gold and energy flows a .cfr derives from its frames.
var flows = []string{"gold_spent", "upgrade_energy", "stolen_in", "stolen_out", "refund", "mine_bonus"}

// standingOf returns the standing of uid, nil for none.
func standingOf(a *Document, uid int) *Standing {
	for i := range a.Summary.Ranking {
		if a.Summary.Ranking[i].UID == uid {
			return &a.Summary.Ranking[i]
		}
	}
	return nil
}

// get returns the standing's field key, failing the test when it has none.
func get(t testing.TB, s *Standing, key string) int64 {
	t.Helper()
	v, ok := s.Get(key)
	if !ok {
		t.Fatalf("the standing has no field %q", key)
	}
	return v
}

func TestCFREqualsRWD(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			ar := analyzeRWD(t, rwdBytes(t, v))
			ac := analyzeFile(t, v.Expected)
			if !ar.HasCommands || ac.HasCommands {
				t.Fatalf("HasCommands rwd=%v cfr=%v", ar.HasCommands, ac.HasCommands)
			}
			if ar.Format != string(source.RWD) || ac.Format != "cfr" {
				t.Fatalf("formats %q %q", ar.Format, ac.Format)
			}
			if ac.At(1, 6, "commands") != -1 || ar.At(1, 6, "commands") < 0 {
				t.Fatal("command counts: want -1 for .cfr and >= 0 for .rwd")
			}
			if ar.Rounds == 0 || ar.Rounds != ac.Rounds {
				t.Fatalf("rounds %d vs %d", ar.Rounds, ac.Rounds)
			}
			// The accounting flows agree in every round the frames fully
			// explain (no player has unexplained gold).
			clean := 0
			for turn := 1; turn <= ar.Rounds; turn++ {
				ok := true
				for _, p := range ac.Players {
					ok = ok && ac.At(p.UID, turn, "gold_unexplained") == 0
				}
				if !ok {
					continue
				}
				clean++
				for _, p := range ar.Players {
					for _, f := range flows {
						if x, y := ar.At(p.UID, turn, f), ac.At(p.UID, turn, f); x != y {
							t.Errorf("turn %d uid %d: %s differs: rwd %s, cfr %s", turn, p.UID, f, fmtRound(ar, p.UID, turn), fmtRound(ac, p.UID, turn))
						}
					}
				}
			}
			if clean < ar.Rounds/2 {
				t.Errorf("only %d of %d rounds fully explained by frames", clean, ar.Rounds)
			}
			if d := diffAnalysis(ar, ac); d != "" {
				t.Fatalf("rwd vs cfr: %s", d)
			}
		})
	}
}

// diffAnalysis returns a description of the first difference between
// two documents of one game, one with commands and one without, in what
// both know (every figure but commandOnly; a home capture's gold is a
// flow, so not compared either), or "".
func diffAnalysis(a, b *Document) string {
	if a.Rounds != b.Rounds || a.MaxUID != b.MaxUID || len(a.Players) != len(b.Players) {
		return "shape differs"
	}
	if !slices.Equal(a.Config, b.Config) || len(a.Config) != 4 {
		return fmt.Sprintf("config %v vs %v", a.Config, b.Config)
	}
	if la, lb := metricNames(a), metricNames(b); !slices.Equal(la, lb) {
		return fmt.Sprintf("metrics %v vs %v", la, lb)
	}
	for i, p := range a.Players {
		q := b.Players[i]
		if p.UID != q.UID || p.Username != q.Username || p.FirstTurn != q.FirstTurn {
			return "player " + p.Username + " differs"
		}
		for _, m := range metricNames(a) {
			if slices.Contains(commandOnly, m) {
				continue
			}
			x, y := a.Values(p.UID, m), b.Values(p.UID, m)
			if len(x) != a.Rounds || !slices.Equal(x, y) {
				return fmt.Sprintf("player %s: %s %v vs %v", p.Username, m, x, y)
			}
		}
	}
	if len(a.Events) != len(b.Events) {
		return "event count " + itoa(len(a.Events)) + " vs " + itoa(len(b.Events))
	}
	for i := range a.Events {
		x, y := a.Events[i], b.Events[i]
		x.g, y.g = 0, 0
		if x.Kind == colorfight2.EventHomeCaptured {
			x.Value, y.Value = 0, 0
		}
		if x != y {
			return fmt.Sprintf("event %d: %+v vs %+v", i, x, y)
		}
	}
	sa, sb := a.Summary, b.Summary
	if sa.Winner != sb.Winner || sa.Margin != sb.Margin || sa.LeadSince != sb.LeadSince || sa.SwingTurn != sb.SwingTurn || len(sa.Ranking) != len(sb.Ranking) {
		return "summary differs"
	}
	for i := range sa.Ranking {
		x, y := &sa.Ranking[i], &sb.Ranking[i]
		if x.Rank != y.Rank || x.UID != y.UID || x.Username != y.Username || x.Score != y.Score || len(x.Values) != len(y.Values) {
			return "ranking " + itoa(i)
		}
		for j, f := range a.Doc.Standing {
			if !slices.Contains(commandOnly, f.Name) && x.Values[j] != y.Values[j] {
				return fmt.Sprintf("ranking %d: %s %d vs %d", i, f.Key, x.Values[j], y.Values[j])
			}
		}
	}
	return ""
}

// metricNames are the document's series, in its order.
func metricNames(a *Document) []string {
	var names []string
	for _, c := range a.columns() {
		names = append(names, a.G.Meta.Metrics[c].Name)
	}
	return names
}

func itoa(i int) string { return strconv.Itoa(i) }

// fmtRound lists every figure of uid after turn.
func fmtRound(a *Document, uid, turn int) string {
	var buf bytes.Buffer
	for _, m := range metricNames(a) {
		fmt.Fprintf(&buf, "%s=%d ", m, a.At(uid, turn, m))
	}
	return buf.String()
}

func TestRealWorld(t *testing.T) {
	realworldCFR := testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")
	a := analyzeFile(t, realworldCFR)
	w := &a.Summary.Ranking[0]
	if w.Username != "RuntimeTerrors" || get(t, w, "gold") != 648787 || w.Score != 648787 || a.Summary.Winner != w.UID {
		t.Fatalf("winner %+v", w)
	}
	if len(a.Summary.Ranking) > 1 && a.Summary.Margin != get(t, w, "gold")-get(t, &a.Summary.Ranking[1], "gold") {
		t.Fatal("margin")
	}
	// Compare with the frames read independently.
	d, fr := cfrAfterFrame0(t, realworldCFR)
	n := 0
	for d.Next(&fr) == nil {
		n++
		for _, u := range fr.Users {
			uid := int(u.UID)
			if a.Player(uid) == nil {
				t.Fatalf("turn %d: uid %d missing", n, u.UID)
			}
			for _, c := range []struct {
				name string
				want int64
			}{{"gold", u.Gold}, {"energy", u.Energy}, {"cells", u.CellNumber}, {"tax", u.TaxAmount},
				{"gold_source", u.GoldSource}, {"energy_source", u.EnergySource}, {"tech_level", u.TechLevel}} {
				if got := a.At(uid, n, c.name); got != c.want {
					t.Fatalf("turn %d uid %d: %s %d, frame %d (%+v)", n, uid, c.name, got, c.want, u)
				}
			}
		}
	}
	if n != a.Rounds {
		t.Fatalf("rounds %d, frames %d", a.Rounds, n)
	}
	checkAccounting(t, a)
}

// checkAccounting checks the gold and energy identities for every player
// and round, and the level counts against building_number.
func checkAccounting(t *testing.T, a *Document) {
	t.Helper()
	bad := 0
	for _, p := range a.Players {
		col := func(name string) []int64 {
			v := a.Values(p.UID, name)
			if len(v) != a.Rounds {
				t.Fatalf("uid %d: %d values of %s, want %d", p.UID, len(v), name, a.Rounds)
			}
			return v
		}
		gold, energy, goldSource, energySource, tax := col("gold"), col("energy"), col("gold_source"), col("energy_source"), col("tax")
		spent, upgrade, in, out, refund, bonus, unexplained := col("gold_spent"), col("upgrade_energy"), col("stolen_in"), col("stolen_out"), col("refund"), col("mine_bonus"), col("gold_unexplained")
		attack, capture, wasted, captured, lost := col("attack_energy"), col("capture_energy"), col("wasted_energy"), col("captured"), col("lost")
		for turn := p.FirstTurn; turn <= a.Rounds; turn++ {
			i := turn - 1
			pg, pe := int64(0), int64(1000)
			if turn > p.FirstTurn {
				pg, pe = gold[i-1], energy[i-1]
			}
			want := pg + goldSource[i] - tax[i] - spent[i] + in[i] - out[i] + refund[i] + bonus[i]
			if a.HasCommands && unexplained[i] != 0 {
				bad++
				t.Errorf("uid %d turn %d: gold unexplained %d with commands", p.UID, turn, unexplained[i])
			}
			if !a.HasCommands && unexplained[i] != 0 && captured[i]+lost[i] == 0 {
				bad++
				t.Errorf("uid %d turn %d: gold unexplained %d with %d cells captured, %d lost", p.UID, turn, unexplained[i], captured[i], lost[i])
			}
			if want+unexplained[i] != gold[i] {
				bad++
				t.Errorf("uid %d turn %d: gold %d, accounting gives %d (%s)", p.UID, turn, gold[i], want, fmtRound(a, p.UID, turn))
			}
			we := pe + energySource[i] - tax[i] - attack[i] - upgrade[i]
			if we != energy[i] {
				bad++
				t.Errorf("uid %d turn %d: energy %d, accounting gives %d", p.UID, turn, energy[i], we)
			}
			if a.HasCommands && capture[i]+wasted[i] != attack[i] {
				t.Errorf("uid %d turn %d: capture+wasted != attack", p.UID, turn)
			}
			if attack[i] < 0 || spent[i] < 0 || in[i] < 0 || out[i] < 0 {
				t.Errorf("uid %d turn %d: negative flow %s", p.UID, turn, fmtRound(a, p.UID, turn))
			}
			if bad > 10 {
				t.FailNow()
			}
		}
	}
}

func TestAccounting(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			ar := analyzeRWD(t, rwdBytes(t, v))
			checkAccounting(t, ar)
			checkAccounting(t, analyzeFile(t, v.Expected))
			// Levels from cells agree with building_number.
			for _, p := range ar.Players {
				for turn := 1; turn <= ar.Rounds; turn++ {
					var n int64
					for l := 1; l <= 3; l++ {
						n += ar.At(p.UID, turn, "home_l"+itoa(l))
					}
					if h := ar.At(p.UID, turn, "home"); n != h {
						t.Errorf("uid %d turn %d: %d homes in cells, %d in building_number", p.UID, turn, n, h)
					}
				}
			}
		})
	}
}

func TestEventsC03(t *testing.T) {
	v := c03(t)
	a := analyzeFile(t, v.Expected)
	var homes, deaths int
	for _, e := range a.Events {
		if e.Turn < 1 || e.Turn > a.Rounds {
			t.Fatalf("event %+v outside 1..%d", e, a.Rounds)
		}
		p := a.Player(e.UID)
		if p == nil {
			t.Fatalf("event %+v: unknown uid", e)
		}
		// now and was: the player's figure after the event's round and
		// after the round before (0 before the first).
		now := func(name string) int64 { return a.At(e.UID, e.Turn, name) }
		was := func(name string) int64 { return a.At(e.UID, e.Turn-1, name) }
		switch e.Kind {
		case colorfight2.EventHomeCaptured:
			homes++
			if a.Player(e.Other) == nil || e.Other == e.UID || e.Turn < 2 {
				t.Fatalf("home capture %+v", e)
			}
			if in := a.At(e.Other, e.Turn, "stolen_in"); now("stolen_out") < e.Value || in < e.Value || e.Value < 0 {
				t.Fatalf("home capture %+v: stolen out %d, in %d", e, now("stolen_out"), in)
			}
			if was("home") == 0 || now("lost") == 0 || now("lost_to_"+itoa(e.Other)) == 0 {
				t.Fatalf("home capture %+v: had %d homes, lost %d cells", e, was("home"), now("lost"))
			}
		case colorfight2.EventDied:
			deaths++
			if died := get(t, standingOf(a, e.UID), "died_turn"); now("cells") != 0 || was("cells") == 0 || died != int64(e.Turn) {
				t.Fatalf("death %+v: cells %d -> %d, died_turn %d", e, was("cells"), now("cells"), died)
			}
			for turn := e.Turn; turn <= a.Rounds; turn++ {
				if a.At(e.UID, turn, "cells") != 0 {
					t.Fatalf("uid %d alive again at turn %d", e.UID, turn)
				}
			}
		case colorfight2.EventTechUp:
			if now("tech_level") != e.Value || was("tech_level") >= e.Value {
				t.Fatalf("tech up %+v: %d -> %d", e, was("tech_level"), now("tech_level"))
			}
		case colorfight2.EventTaxBracket:
			if c := now("cells"); colorfight2.TaxBracket(c) != int64(e.Other) || c != e.Value || c <= 75*int64(e.Other) {
				t.Fatalf("tax bracket %+v: cells %d", e, c)
			}
		}
	}
	if homes == 0 || deaths == 0 {
		t.Fatalf("c03: %d home captures, %d deaths; want some of each", homes, deaths)
	}
	// Lead changes replayed from the series: the leader is whoever is
	// strictly ahead, kept through ties.
	leader, k := 0, 0
	var changes []DocumentEvent
	for _, e := range a.Events {
		if e.Kind == EventLeadChange {
			changes = append(changes, e)
		}
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		best, bestUID, tie := int64(0), 0, false
		for _, p := range a.Players {
			g := a.At(p.UID, turn, "gold")
			switch {
			case bestUID == 0 || g > best:
				best, bestUID, tie = g, p.UID, false
			case g == best:
				tie = true
			}
		}
		if !tie && bestUID != leader {
			if k >= len(changes) || changes[k].Turn != turn || changes[k].UID != bestUID || changes[k].Other != leader || changes[k].Value != best {
				t.Fatalf("turn %d: expected lead change to uid %d, events %v", turn, bestUID, changes[k:])
			}
			leader = bestUID
			k++
		}
	}
	if k != len(changes) || k == 0 {
		t.Fatalf("%d lead changes in events, %d from series", len(changes), k)
	}
	if leader != a.Summary.Winner && a.Summary.LeadSince != 0 {
		t.Fatal("final leader is not the winner")
	}
	if ls := a.Summary.LeadSince; ls > 0 {
		w := a.Summary.Winner
		for turn := ls; turn <= a.Rounds; turn++ {
			for _, p := range a.Players {
				if p.UID != w && a.At(p.UID, turn, "gold") >= a.At(w, turn, "gold") {
					t.Fatalf("winner not strictly ahead at turn %d", turn)
				}
			}
		}
		if ls > 1 {
			ahead := true
			for _, p := range a.Players {
				if p.UID != w && a.At(p.UID, ls-1, "gold") >= a.At(w, ls-1, "gold") {
					ahead = false
				}
			}
			if ahead {
				t.Fatalf("winner already ahead at turn %d, LeadSince %d", ls-1, ls)
			}
		}
	} else {
		t.Fatal("c03: LeadSince is 0")
	}
	t.Logf("c03: %d events, %d home captures, %d deaths, %d lead changes, winner uid %d leads since %d", len(a.Events), homes, deaths, len(changes), a.Summary.Winner, a.Summary.LeadSince)
}

func TestOutputs(t *testing.T) {
	vs := vectors(t)
	v := vs[len(vs)-1]
	for _, a := range []*Document{analyzeRWD(t, rwdBytes(t, v)), analyzeFile(t, v.Expected)} {
		var buf bytes.Buffer
		if err := a.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Format  string `json:"format"`
			Rounds  int    `json:"rounds"`
			Summary struct {
				Ranking []struct {
					UID  int   `json:"uid"`
					Gold int64 `json:"gold"`
				} `json:"ranking"`
				Winner int `json:"winner"`
			} `json:"summary"`
			Events []DocumentEvent `json:"events"`
			Series struct {
				Turn    []int                          `json:"turn"`
				Players map[string]map[string][]*int64 `json:"players"`
			} `json:"series"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", a.Format, err)
		}
		if doc.Format != string(a.Format) || doc.Rounds != a.Rounds || len(doc.Events) != len(a.Events) {
			t.Fatalf("format %q rounds %d events %d", doc.Format, doc.Rounds, len(doc.Events))
		}
		if len(doc.Summary.Ranking) != len(a.Players) || doc.Summary.Ranking[0].UID != a.Summary.Winner || doc.Summary.Winner != a.Summary.Winner {
			t.Fatalf("ranking %+v, winner %d", doc.Summary.Ranking, a.Summary.Winner)
		}
		if len(doc.Series.Turn) != a.Rounds || doc.Series.Turn[0] != 1 || len(doc.Series.Players) != len(a.Players) {
			t.Fatalf("series turns %d players %d", len(doc.Series.Turn), len(doc.Series.Players))
		}
		for _, p := range a.Players {
			s := doc.Series.Players[strconv.Itoa(p.UID)]
			if len(s) != len(a.G.Meta.Metrics) {
				t.Fatalf("uid %d: %d columns", p.UID, len(s))
			}
			for name, col := range s {
				if len(col) != a.Rounds {
					t.Fatalf("uid %d %s: %d values", p.UID, name, len(col))
				}
			}
			if *s["gold"][a.Rounds-1] != a.At(p.UID, a.Rounds, "gold") || *s["cells"][0] != a.At(p.UID, 1, "cells") {
				t.Fatalf("uid %d: series values differ", p.UID)
			}
		}
		buf.Reset()
		if err := a.WriteCSV(&buf, "series"); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(a.Players)*a.Rounds+1 {
			t.Fatalf("series csv: %d rows, want %d", len(rows), len(a.Players)*a.Rounds+1)
		}
		for _, row := range rows[1:] {
			if len(row) != len(rows[0]) {
				t.Fatal("ragged csv")
			}
			for _, f := range row {
				if _, err := strconv.ParseInt(f, 10, 64); err != nil {
					t.Fatalf("non-numeric csv field %q", f)
				}
			}
		}
		buf.Reset()
		if err := a.WriteCSV(&buf, "summary"); err != nil {
			t.Fatal(err)
		}
		rows, err = csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(a.Players)+1 || rows[1][1] != strconv.Itoa(a.Summary.Winner) {
			t.Fatalf("summary csv %v", rows)
		}
		if a.WriteCSV(&buf, "nope") == nil {
			t.Fatal("unknown kind accepted")
		}
		buf.Reset()
		if err := a.WriteTable(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), strconv.Quote(a.Summary.Ranking[0].Username)) {
			t.Fatalf("table lacks the winner:\n%s", buf.String())
		}
	}
}

func TestTableEscapesNames(t *testing.T) {
	vs := vectors(t)
	a := analyzeFile(t, vs[0].Expected)
	a.Players[0].Username = "evil\x1b[2J\r\nname"
	for i := range a.Summary.Ranking {
		if a.Summary.Ranking[i].UID == a.Players[0].UID {
			a.Summary.Ranking[i].Username = a.Players[0].Username
		}
	}
	var buf bytes.Buffer
	if err := a.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, c := range buf.String() {
		if c < 0x20 && c != '\n' {
			t.Fatalf("control character %q in table", c)
		}
	}
	if !strings.Contains(buf.String(), `"evil\x1b[2J\r\nname"`) {
		t.Fatalf("name not escaped:\n%s", buf.String())
	}
}

// benchmarkAnalyze analyses the replay open gives as rewind analyze
// does (AnalyzeDocument).
func benchmarkAnalyze(b *testing.B, open func() engine.Stream) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := open()
		if _, err := AnalyzeDocument(s); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// openAny opens data as rewind analyze does (source.NewStream).
func openAny(b *testing.B, data []byte) engine.Stream {
	s, err := source.NewStream(bytes.NewReader(data), nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// c03 is the conformance vector c03 (skipping without it).
func c03(tb testing.TB) conform.Vector {
	tb.Helper()
	for _, v := range vectors(tb) {
		if v.Name == "c03" {
			return v
		}
	}
	tb.Skip("no c03")
	return conform.Vector{}
}

// BenchmarkAnalyzeRWD and BenchmarkAnalyzeCFR analyse the c03 game,
// recorded (.rwd) and official (.cfr), as rewind analyze does: its
// generic stream, the analysis and the document built from it.
func BenchmarkAnalyzeRWD(b *testing.B) {
	data := rwdBytes(b, c03(b))
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	benchmarkAnalyze(b, func() engine.Stream { return openAny(b, data) })
}

func BenchmarkAnalyzeCFR(b *testing.B) {
	data := testutil.ReadFile(b, c03(b).Expected)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	benchmarkAnalyze(b, func() engine.Stream { return openAny(b, data) })
}

// BenchmarkAnalyzeStreamRWD and BenchmarkAnalyzeStreamCFR analyse the
// games of BenchmarkAnalyzeRWD and BenchmarkAnalyzeCFR with the generic
// analysis alone (source.NewSimStream, cfrstream.Open and AnalyzeStream;
// no document): what the document adds is the difference.
func BenchmarkAnalyzeStreamRWD(b *testing.B) {
	data := rwdBytes(b, c03(b))
	b.SetBytes(int64(len(data)))
	benchmarkAnalyzeStream(b, func() engine.Stream {
		sim, err := replay.OpenSim(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		return source.NewSimStream(sim, nil)
	})
}

func BenchmarkAnalyzeStreamCFR(b *testing.B) {
	data := testutil.ReadFile(b, c03(b).Expected)
	b.SetBytes(int64(len(data)))
	benchmarkAnalyzeStream(b, func() engine.Stream {
		s, err := cfrstream.Open(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

func benchmarkAnalyzeStream(b *testing.B, open func() engine.Stream) {
	b.ReportAllocs()
	for b.Loop() {
		s := open()
		g, err := AnalyzeStream(s, Options{})
		s.Close()
		if err != nil || g.Turns != 500 {
			b.Fatal(err, g)
		}
	}
}

// benchmarkCorpus analyzes 100 games (the c03 replay, opened afresh each
// time) on 2 workers per op and reports games per second.
func benchmarkCorpus(b *testing.B, data []byte) {
	const games, workers = 100, 2
	b.ReportAllocs()
	for b.Loop() {
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range next {
					s, err := source.NewStream(bytes.NewReader(data), nil)
					if err != nil {
						b.Error(err)
						return
					}
					if _, err := AnalyzeDocument(s); err != nil {
						b.Error(err)
					}
					s.Close()
				}
			}()
		}
		for i := 0; i < games; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkCorpusRWD: 100 games of 500 rounds (.rwd) on 2 cores.
func BenchmarkCorpusRWD(b *testing.B) { benchmarkCorpus(b, rwdBytes(b, c03(b))) }

// BenchmarkCorpusCFR: 100 games of 500 rounds (.cfr) on 2 cores.
func BenchmarkCorpusCFR(b *testing.B) {
	data := testutil.ReadFile(b, c03(b).Expected)
	benchmarkCorpus(b, data)
}

// TestEventText pins the one wording of every event kind of the
// ColorfightII document; the table, the report and the viewer all show
// it. The events are generic ones (players from 0) put in a real game's
// analysis, so the document renumbers them as it does any.
func TestEventText(t *testing.T) {
	name := func(uid int) string { return map[int]string{1: "<b>ann</b>", 2: "bob"}[uid] }
	vs := vectors(t)
	g := analyzeFile(t, vs[len(vs)-1].Expected).G
	for _, c := range []struct {
		e     Event
		other int // the document's Other
		want  string
	}{
		{Event{Kind: colorfight2.EventHomeCaptured, Player: 0, Other: 1, Value: 120}, 2, "<b>ann</b> loses its home to bob (120 gold stolen)"},
		{Event{Kind: colorfight2.EventDied, Player: 1, Other: -1, Value: 3}, 0, "bob is eliminated"},
		{Event{Kind: colorfight2.EventTechUp, Player: 1, Other: 2, Value: 2}, 2, "bob reaches tech level 2"},
		{Event{Kind: EventLeadChange, Player: 0, Other: -1, Value: 169, Shell: true}, 0, "<b>ann</b> takes the lead (169 gold)"},
		{Event{Kind: colorfight2.EventTaxBracket, Player: 0, Other: 1, Value: 76}, 1, "<b>ann</b> enters cell tax bracket 1 (76 cells)"},
		{Event{Kind: colorfight2.EventBuildingBracket, Player: 1, Other: 2, Value: 151}, 2, "bob enters building tax bracket 2 (151 mines and wells)"},
		{Event{Kind: EventLeadForGood, Player: 0, Other: -1, Value: 500, Shell: true}, 0, "<b>ann</b> takes the lead for good (500 gold)"},
		{Event{Kind: "attack_surge", Player: 1, Other: 12, Value: 155, Shell: true}, 12, "bob surges: 155 energy on attacks in turns 10–12"},
		{Event{Kind: "build_surge", Player: 0, Other: 11, Value: 83, Shell: true}, 11, "<b>ann</b> surges: 83 gold on buildings and upgrades in turns 11"},
		{Event{Kind: EventLeadSwing, Player: 1, Other: 0, Value: 99, Shell: true}, 1, "lead swing: bob gains 99 gold on <b>ann</b> in 10 rounds and takes the lead from it"},
		{Event{Kind: EventBotFault, Player: 0, Other: int(engine.FaultTimeout), Value: 3, Shell: true}, 0, "<b>ann</b>'s bot fails to answer (timeout, 3 turns in a row)"},
		{Event{Kind: EventBotFault, Player: 1, Other: int(engine.FaultCrash), Value: 1, Shell: true}, 0, "bob's bot fails to answer (crash, 1 turn)"},
		{Event{Kind: "new_kind", Player: 1, Other: 0, X: -1, Y: -1, Value: 5}, 1, "new kind: bob (other <b>ann</b>, at -1, -1, value 5)"},
	} {
		// Each event alone, on turn 10 (11 for the one-turn surge).
		c.e.Turn = 10
		if c.e.Kind == "build_surge" {
			c.e.Turn = 11
		}
		g.Events = []Event{c.e}
		a, err := NewDocument(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Events) != 1 {
			t.Fatalf("%s: %d events in the document", c.e.Kind, len(a.Events))
		}
		e := a.Events[0]
		if e.UID != c.e.Player+1 || e.Other != c.other || e.Value != c.e.Value || e.Turn != c.e.Turn {
			t.Errorf("%s: document event %+v, want uid %d, other %d", c.e.Kind, e, c.e.Player+1, c.other)
		}
		if got := a.EventText(e, name); got != c.want {
			t.Errorf("%s: %q, want %q", c.e.Kind, got, c.want)
		}
	}
	// Command errors are not the document's.
	g.Events = []Event{{Turn: 3, Kind: EventCommandErrors, Player: 0, Other: 4, Value: 2, Shell: true}}
	if a, err := NewDocument(g); err != nil || len(a.Events) != 0 {
		t.Errorf("command errors in the document: %+v, %v", a.Events, err)
	}
	a := &Document{Doc: &engine.Document{FirstPlayer: 1}, Players: []*DocumentPlayer{{UID: 1, Username: "ann"}, {UID: 2}}}
	if a.Name(1) != "ann" || a.Name(2) != "player 2" || a.Name(7) != "player 7" || a.Name(0) != "player 0" {
		t.Errorf("names %q %q %q %q", a.Name(1), a.Name(2), a.Name(7), a.Name(0))
	}
	// The table lists each event shown at first with that text, names
	// quoted (the later lead changes are folded).
	a = analyzeFile(t, vs[len(vs)-1].Expected)
	var buf bytes.Buffer
	if err := a.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if len(a.Events) == 0 {
		t.Fatal("no events")
	}
	quoted := func(uid int) string { return strconv.Quote(a.Name(uid)) }
	var shown []DocumentEvent
	for _, e := range a.Events {
		if a.ShownAtFirst(e) {
			shown = append(shown, e)
		} else if strings.Contains(buf.String(), a.EventText(e, quoted)+"\n") && e.Kind == EventLeadChange {
			t.Errorf("the table lists folded event %q", a.EventText(e, quoted))
		}
	}
	for i, e := range shown[:min(len(shown), MaxTableEvents)] {
		if !strings.Contains(buf.String(), a.EventText(e, quoted)+"\n") {
			t.Fatalf("table lacks event %d %q:\n%s", i, a.EventText(e, quoted), buf.String())
		}
	}
}

// TestBuildingColumns: the building columns follow the engine's building
// numbering, named by its building_number keys, and hold on every round
// what the official frames say: the counts by type (building_number) and
// by type and level (the player's cells).
func TestBuildingColumns(t *testing.T) {
	v := c03(t)
	a := analyzeFile(t, v.Expected)
	var buf bytes.Buffer
	if err := a.WriteCSV(&buf, "series"); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(buf.String(), "\n")
	cols := strings.Split(header, ",")
	want := []string{"home", "gold_mine", "energy_well", "fortress",
		"home_l1", "home_l2", "home_l3", "gold_mine_l1", "gold_mine_l2", "gold_mine_l3",
		"energy_well_l1", "energy_well_l2", "energy_well_l3", "fortress_l1", "fortress_l2", "fortress_l3"}
	if len(cols) < 2+8+len(want) || !slices.Equal(cols[2+8:2+8+len(want)], want) {
		t.Fatalf("series columns %v, want %v after turn, uid and 8 others", cols, want)
	}
	d, fr := cfrAfterFrame0(t, v.Expected)
	nonzero := map[string]bool{}
	for turn := 1; d.Next(&fr) == nil; turn++ {
		for _, u := range fr.Users {
			uid := int(u.UID)
			var levels [colorfight2.NumBuildings][3]int64
			for _, c := range fr.Cells {
				if int(c.Owner) == uid && c.Building != colorfight2.BuildingNone && c.Level >= 1 && c.Level <= 3 {
					levels[c.Building][c.Level-1]++
				}
			}
			for b := colorfight2.Home; b < colorfight2.NumBuildings; b++ {
				if got := a.At(uid, turn, b.Key()); got != u.Buildings[b] {
					t.Fatalf("turn %d uid %d: %s %d, building_number %d", turn, uid, b.Key(), got, u.Buildings[b])
				}
				for l := 1; l <= 3; l++ {
					key := b.Key() + "_l" + itoa(l)
					got := a.At(uid, turn, key)
					if got != levels[b][l-1] {
						t.Fatalf("turn %d uid %d: %s %d, %d in the cells", turn, uid, key, got, levels[b][l-1])
					}
					nonzero[key] = nonzero[key] || got != 0
				}
				nonzero[b.Key()] = nonzero[b.Key()] || u.Buildings[b] != 0
			}
		}
	}
	if !nonzero["energy_well"] || !nonzero["gold_mine_l1"] || !nonzero["home_l1"] {
		t.Fatalf("c03 has too few buildings to test: %v", nonzero)
	}
}

// cfrAfterFrame0 opens the .cfr at path and reads its frame 0 (the map),
// giving the decoder (closed with the test, cfrtest.Open) and the frame to read the
// next ones into.
func cfrAfterFrame0(t *testing.T, path string) (*cfr.Decoder, colorfight2.Frame) {
	t.Helper()
	d := cfrtest.Open(t, path)
	var fr colorfight2.Frame
	if err := d.Next(&fr); err != nil {
		t.Fatal(err)
	}
	return d, fr
}
