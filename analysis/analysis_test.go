package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/conform"
	"github.com/rewind-game/rewind/engine/colorfight2"
	cf2vectors "github.com/rewind-game/rewind/engine/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/cfr/cfrimport"
	"github.com/rewind-game/rewind/replay/cfr/cfrstream"
	"github.com/rewind-game/rewind/replay/source"
)

const conformanceDir = "../testdata/conformance"

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

func analyzeRWD(t testing.TB, b []byte) *Analysis {
	t.Helper()
	src, err := source.New(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a, err := Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func analyzeFile(t testing.TB, path string) *Analysis {
	t.Helper()
	src, err := source.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a, err := Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// stateOnly clears the fields only a command log can give, or give
// exactly: the gold flows, which frames cannot fully explain when a
// building is built and captured in the same round.
func stateOnly(a *Analysis) {
	a.Format, a.HasCommands = "", false
	for _, p := range a.Players {
		p.Bot = ""
		for i := range p.Series {
			r := &p.Series[i]
			r.CaptureEnergy, r.WastedEnergy, r.Commands, r.Errors, r.Faults = 0, 0, 0, 0, 0
			r.GoldSpent, r.UpgradeEnergy, r.StolenIn, r.StolenOut, r.Refund, r.MineBonus, r.GoldUnexplained = 0, 0, 0, 0, 0, 0, 0
		}
	}
	for i := range a.Events {
		if a.Events[i].Kind == EventHomeCaptured {
			a.Events[i].Value = 0
		}
	}
	for i := range a.Summary.Ranking {
		s := &a.Summary.Ranking[i]
		s.Bot = ""
		s.CaptureEnergy, s.WastedEnergy, s.Commands, s.Errors = 0, 0, 0, 0
		s.GoldSpent, s.StolenIn, s.StolenOut, s.Refund, s.MineBonus = 0, 0, 0, 0, 0
	}
}

func TestCFREqualsRWD(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			ar := analyzeRWD(t, rwdBytes(t, v))
			ac := analyzeFile(t, v.Expected)
			if !ar.HasCommands || ac.HasCommands {
				t.Fatalf("HasCommands rwd=%v cfr=%v", ar.HasCommands, ac.HasCommands)
			}
			if ar.Format != source.RWD || ac.Format != source.CFR {
				t.Fatalf("formats %q %q", ar.Format, ac.Format)
			}
			if ac.Players[0].Series[5].Commands != -1 || ar.Players[0].Series[5].Commands < 0 {
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
					ok = ok && p.Series[turn-1].GoldUnexplained == 0
				}
				if !ok {
					continue
				}
				clean++
				for i, p := range ar.Players {
					x, y := p.Series[turn-1], ac.Players[i].Series[turn-1]
					if x.GoldSpent != y.GoldSpent || x.UpgradeEnergy != y.UpgradeEnergy || x.StolenIn != y.StolenIn || x.StolenOut != y.StolenOut || x.Refund != y.Refund || x.MineBonus != y.MineBonus {
						t.Errorf("turn %d uid %d: flows differ: rwd %s, cfr %s", turn, p.UID, fmtRound(&x), fmtRound(&y))
					}
				}
			}
			if clean < ar.Rounds/2 {
				t.Errorf("only %d of %d rounds fully explained by frames", clean, ar.Rounds)
			}
			stateOnly(ar)
			stateOnly(ac)
			if d := diffAnalysis(ar, ac); d != "" {
				t.Fatalf("rwd vs cfr: %s", d)
			}
		})
	}
}

// diffAnalysis returns a description of the first difference, or "".
func diffAnalysis(a, b *Analysis) string {
	if a.Rounds != b.Rounds || a.MaxUID != b.MaxUID || len(a.Players) != len(b.Players) {
		return "shape differs"
	}
	if a.Config.Width != b.Config.Width || a.Config.Height != b.Config.Height || a.Config.MaxTurn != b.Config.MaxTurn {
		return "config differs"
	}
	for i, p := range a.Players {
		q := b.Players[i]
		if p.UID != q.UID || p.Username != q.Username || p.FirstTurn != q.FirstTurn || p.PeakCells != q.PeakCells || p.PeakTurn != q.PeakTurn || p.DiedTurn != q.DiedTurn || len(p.Series) != len(q.Series) {
			return "player " + p.Username + " differs"
		}
		for j := range p.Series {
			if !equalRound(&p.Series[j], &q.Series[j]) {
				return "player " + p.Username + " turn " + itoa(j+1) + ": " + fmtRound(&p.Series[j]) + " vs " + fmtRound(&q.Series[j])
			}
		}
	}
	if len(a.Events) != len(b.Events) {
		return "event count " + itoa(len(a.Events)) + " vs " + itoa(len(b.Events))
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			return "event " + itoa(i)
		}
	}
	sa, sb := a.Summary, b.Summary
	if sa.Winner != sb.Winner || sa.Margin != sb.Margin || sa.LeadSince != sb.LeadSince || len(sa.Ranking) != len(sb.Ranking) {
		return "summary differs"
	}
	for i := range sa.Ranking {
		if sa.Ranking[i] != sb.Ranking[i] {
			return "ranking " + itoa(i)
		}
	}
	return ""
}

func equalRound(a, b *Round) bool {
	return reflect.DeepEqual(*a, *b)
}

func itoa(i int) string { return fmtInt(int64(i)) }

func fmtInt(i int64) string {
	var b []byte
	return string(appendInt(b, i))
}

func appendInt(b []byte, i int64) []byte {
	if i < 0 {
		b = append(b, '-')
		i = -i
	}
	var d [20]byte
	n := len(d)
	for {
		n--
		d[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(b, d[n:]...)
}

func fmtRound(r *Round) string {
	var buf bytes.Buffer
	for _, c := range columns(0) {
		buf.WriteString(c.name + "=" + fmtInt(c.get(r)) + " ")
	}
	return buf.String()
}

func TestRealWorld(t *testing.T) {
	realworldCFR := testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")
	a := analyzeFile(t, realworldCFR)
	w := a.Summary.Ranking[0]
	if w.Username != "RuntimeTerrors" || w.Gold != 648787 || a.Summary.Winner != w.UID {
		t.Fatalf("winner %+v", w)
	}
	if len(a.Summary.Ranking) > 1 && a.Summary.Margin != w.Gold-a.Summary.Ranking[1].Gold {
		t.Fatal("margin")
	}
	// Compare with the frames read independently.
	f, err := os.Open(realworldCFR)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := cfr.NewDecoder(f)
	if err != nil {
		t.Fatal(err)
	}
	var fr colorfight2.Frame
	if err := d.Next(&fr); err != nil {
		t.Fatal(err)
	}
	n := 0
	for d.Next(&fr) == nil {
		n++
		for _, u := range fr.Users {
			p := a.Player(int(u.UID))
			if p == nil {
				t.Fatalf("turn %d: uid %d missing", n, u.UID)
			}
			r := p.Series[n-1]
			if r.Turn != n || r.Gold != u.Gold || r.Energy != u.Energy || r.Cells != u.CellNumber || r.Tax != u.TaxAmount || r.GoldSource != u.GoldSource || r.EnergySource != u.EnergySource || r.TechLevel != u.TechLevel {
				t.Fatalf("turn %d uid %d: series %+v, frame %+v", n, u.UID, r, u)
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
func checkAccounting(t *testing.T, a *Analysis) {
	t.Helper()
	bad := 0
	for _, p := range a.Players {
		for i := range p.Series {
			r := &p.Series[i]
			if r.Turn < p.FirstTurn {
				continue
			}
			pg, pe := int64(0), int64(1000)
			if r.Turn > p.FirstTurn {
				pg, pe = p.Series[i-1].Gold, p.Series[i-1].Energy
			}
			want := pg + r.GoldSource - r.Tax - r.GoldSpent + r.StolenIn - r.StolenOut + r.Refund + r.MineBonus
			if a.HasCommands && r.GoldUnexplained != 0 {
				bad++
				t.Errorf("uid %d turn %d: gold unexplained %d with commands", p.UID, r.Turn, r.GoldUnexplained)
			}
			if !a.HasCommands && r.GoldUnexplained != 0 && r.Captured+r.Lost == 0 {
				bad++
				t.Errorf("uid %d turn %d: gold unexplained %d with %d cells captured, %d lost", p.UID, r.Turn, r.GoldUnexplained, r.Captured, r.Lost)
			}
			if want+r.GoldUnexplained != r.Gold {
				bad++
				t.Errorf("uid %d turn %d: gold %d, accounting gives %d (%s)", p.UID, r.Turn, r.Gold, want, fmtRound(r))
			}
			we := pe + r.EnergySource - r.Tax - r.AttackEnergy - r.UpgradeEnergy
			if we != r.Energy {
				bad++
				t.Errorf("uid %d turn %d: energy %d, accounting gives %d", p.UID, r.Turn, r.Energy, we)
			}
			if a.HasCommands && r.CaptureEnergy+r.WastedEnergy != r.AttackEnergy {
				t.Errorf("uid %d turn %d: capture+wasted != attack", p.UID, r.Turn)
			}
			if r.AttackEnergy < 0 || r.GoldSpent < 0 || r.StolenIn < 0 || r.StolenOut < 0 {
				t.Errorf("uid %d turn %d: negative flow %s", p.UID, r.Turn, fmtRound(r))
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
			// Levels from cells agree with building_number except in rounds
			// where a lost home removed buildings (counted by the replay).
			for _, p := range ar.Players {
				for _, r := range p.Series {
					var n int64
					for _, l := range r.Levels[colorfight2.Home] {
						n += l
					}
					if n != r.Buildings[colorfight2.Home] {
						t.Errorf("uid %d turn %d: %d homes in cells, %d in building_number", p.UID, r.Turn, n, r.Buildings[colorfight2.Home])
					}
				}
			}
		})
	}
}

func TestEventsC03(t *testing.T) {
	var v conform.Vector
	for _, x := range vectors(t) {
		if x.Name == "c03" {
			v = x
		}
	}
	if v.Name == "" {
		t.Skip("no c03")
	}
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
		r, was := p.Series[e.Turn-1], Round{}
		if e.Turn >= 2 {
			was = p.Series[e.Turn-2]
		}
		switch e.Kind {
		case EventHomeCaptured:
			homes++
			by := a.Player(e.Other)
			if by == nil || e.Other == e.UID || e.Turn < 2 {
				t.Fatalf("home capture %+v", e)
			}
			if r.StolenOut < e.Value || by.Series[e.Turn-1].StolenIn < e.Value || e.Value < 0 {
				t.Fatalf("home capture %+v: stolen out %d, in %d", e, r.StolenOut, by.Series[e.Turn-1].StolenIn)
			}
			if was.Buildings[colorfight2.Home] == 0 || r.Lost == 0 || r.LostTo(e.Other) == 0 {
				t.Fatalf("home capture %+v: had %d homes, lost %d cells", e, was.Buildings[colorfight2.Home], r.Lost)
			}
		case EventDied:
			deaths++
			if r.Cells != 0 || was.Cells == 0 || p.DiedTurn != e.Turn {
				t.Fatalf("death %+v: cells %d -> %d, DiedTurn %d", e, was.Cells, r.Cells, p.DiedTurn)
			}
			for _, later := range p.Series[e.Turn-1:] {
				if later.Cells != 0 {
					t.Fatalf("uid %d alive again at turn %d", e.UID, later.Turn)
				}
			}
		case EventTechUp:
			if r.TechLevel != e.Value || was.TechLevel >= e.Value {
				t.Fatalf("tech up %+v: %d -> %d", e, was.TechLevel, r.TechLevel)
			}
		case EventTaxBracket:
			if colorfight2.TaxBracket(r.Cells) != int64(e.Other) || r.Cells != e.Value || r.Cells <= 75*int64(e.Other) {
				t.Fatalf("tax bracket %+v: cells %d", e, r.Cells)
			}
		}
	}
	if homes == 0 || deaths == 0 {
		t.Fatalf("c03: %d home captures, %d deaths; want some of each", homes, deaths)
	}
	// Lead changes replayed from the series: the leader is whoever is
	// strictly ahead, kept through ties.
	leader, k := 0, 0
	var changes []Event
	for _, e := range a.Events {
		if e.Kind == EventLeadChange {
			changes = append(changes, e)
		}
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		best, bestUID, tie := int64(0), 0, false
		for _, p := range a.Players {
			g := p.Series[turn-1].Gold
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
		w := a.Player(a.Summary.Winner)
		for turn := ls; turn <= a.Rounds; turn++ {
			for _, p := range a.Players {
				if p != w && p.Series[turn-1].Gold >= w.Series[turn-1].Gold {
					t.Fatalf("winner not strictly ahead at turn %d", turn)
				}
			}
		}
		if ls > 1 {
			ahead := true
			for _, p := range a.Players {
				if p != w && p.Series[ls-2].Gold >= w.Series[ls-2].Gold {
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
	for _, a := range []*Analysis{analyzeRWD(t, rwdBytes(t, v)), analyzeFile(t, v.Expected)} {
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
			Events []Event `json:"events"`
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
			if len(s) != len(columns(a.MaxUID)) {
				t.Fatalf("uid %d: %d columns", p.UID, len(s))
			}
			for name, col := range s {
				if len(col) != a.Rounds {
					t.Fatalf("uid %d %s: %d values", p.UID, name, len(col))
				}
			}
			if *s["gold"][a.Rounds-1] != p.Series[a.Rounds-1].Gold || *s["cells"][0] != p.Series[0].Cells {
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

func benchmarkAnalyze(b *testing.B, open func() source.Source) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		src := open()
		if _, err := Analyze(src); err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}

func c03(b *testing.B) conform.Vector {
	for _, v := range vectors(b) {
		if v.Name == "c03" {
			return v
		}
	}
	b.Skip("no c03")
	return conform.Vector{}
}

func BenchmarkAnalyzeRWD(b *testing.B) {
	data := rwdBytes(b, c03(b))
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	benchmarkAnalyze(b, func() source.Source {
		src, err := source.New(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		return src
	})
}

func BenchmarkAnalyzeCFR(b *testing.B) {
	data, err := os.ReadFile(c03(b).Expected)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	benchmarkAnalyze(b, func() source.Source {
		src, err := source.New(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		return src
	})
}

// BenchmarkAnalyzeStreamRWD and BenchmarkAnalyzeStreamCFR analyse the
// games of BenchmarkAnalyzeRWD and BenchmarkAnalyzeCFR through the
// generic stream (source.NewSimStream, cfrstream.Open: the game's figures
// and events included) and AnalyzeStream, the path ColorfightII's
// analysis moves onto (issue 21): the baselines of that move.
func BenchmarkAnalyzeStreamRWD(b *testing.B) {
	data := rwdBytes(b, c03(b))
	b.SetBytes(int64(len(data)))
	benchmarkAnalyzeStream(b, func() source.Stream {
		sim, err := replay.OpenSim(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		return source.NewSimStream(sim, nil)
	})
}

func BenchmarkAnalyzeStreamCFR(b *testing.B) {
	data, err := os.ReadFile(c03(b).Expected)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	benchmarkAnalyzeStream(b, func() source.Stream {
		s, err := cfrstream.Open(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

func benchmarkAnalyzeStream(b *testing.B, open func() source.Stream) {
	b.ReportAllocs()
	for b.Loop() {
		s := open()
		g, err := AnalyzeStream(s, GenericOptions{})
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
					src, err := source.New(bytes.NewReader(data), nil)
					if err != nil {
						b.Error(err)
						return
					}
					if _, err := Analyze(src); err != nil {
						b.Error(err)
					}
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
	data, err := os.ReadFile(c03(b).Expected)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkCorpus(b, data)
}

// TestEventText pins the one wording of every event kind; the table, the
// report and the viewer all show it.
func TestEventText(t *testing.T) {
	name := func(uid int) string { return map[int]string{1: "<b>ann</b>", 2: "bob"}[uid] }
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: EventHomeCaptured, UID: 1, Other: 2, Value: 120}, "<b>ann</b> loses its home to bob (120 gold stolen)"},
		{Event{Kind: EventDied, UID: 2, Value: 3}, "bob is eliminated"},
		{Event{Kind: EventTechUp, UID: 2, Other: 1, Value: 2}, "bob reaches tech level 2"},
		{Event{Kind: EventLeadChange, UID: 1, Value: 169}, "<b>ann</b> takes the gold lead (169 gold)"},
		{Event{Kind: EventTaxBracket, UID: 1, Other: 1, Value: 76}, "<b>ann</b> enters cell tax bracket 1 (76 cells)"},
		{Event{Kind: EventBuildingBracket, UID: 2, Other: 2, Value: 151}, "bob enters building tax bracket 2 (151 mines and wells)"},
		{Event{Kind: "new_kind", UID: 2, Other: 1, Value: 5}, "new kind: bob (other 1, value 5)"},
	} {
		if got := c.e.Text(name); got != c.want {
			t.Errorf("%s: %q, want %q", c.e.Kind, got, c.want)
		}
	}
	a := &Analysis{Players: []*Player{{UID: 1, Username: "ann"}, {UID: 2}}}
	if a.Name(1) != "ann" || a.Name(2) != "player 2" || a.Name(7) != "player 7" {
		t.Errorf("names %q %q %q", a.Name(1), a.Name(2), a.Name(7))
	}
	// The table lists each event shown at first with that text, names
	// quoted (the later lead changes are folded).
	vs := vectors(t)
	a = analyzeFile(t, vs[len(vs)-1].Expected)
	var buf bytes.Buffer
	if err := a.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if len(a.Events) == 0 {
		t.Fatal("no events")
	}
	quoted := func(uid int) string { return strconv.Quote(a.Name(uid)) }
	var shown []Event
	for _, e := range a.Events {
		if a.ShownAtFirst(e) {
			shown = append(shown, e)
		} else if strings.Contains(buf.String(), e.Text(quoted)+"\n") && e.Kind == EventLeadChange {
			t.Errorf("the table lists folded event %q", e.Text(quoted))
		}
	}
	for i, e := range shown[:min(len(shown), MaxTableEvents)] {
		if !strings.Contains(buf.String(), e.Text(quoted)+"\n") {
			t.Fatalf("table lacks event %d %q:\n%s", i, e.Text(quoted), buf.String())
		}
	}
}

// TestBuildingColumns: the building columns are indexed by the engine's
// building numbering and named by its building_number keys.
func TestBuildingColumns(t *testing.T) {
	var names []string
	var r Round
	for i, c := range columns(0) {
		if i >= 8 && i < 8+4*4 {
			names = append(names, c.name)
		}
	}
	want := []string{"home", "gold_mine", "energy_well", "fortress",
		"home_l1", "home_l2", "home_l3", "gold_mine_l1", "gold_mine_l2", "gold_mine_l3",
		"energy_well_l1", "energy_well_l2", "energy_well_l3", "fortress_l1", "fortress_l2", "fortress_l3"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("building columns %v, want %v", names, want)
	}
	r.Buildings[colorfight2.EnergyWell] = 7
	r.Levels[colorfight2.Fortress][1] = 9
	for _, c := range columns(0) {
		switch v := c.get(&r); c.name {
		case "energy_well":
			if v != 7 {
				t.Errorf("energy_well %d", v)
			}
		case "fortress_l2":
			if v != 9 {
				t.Errorf("fortress_l2 %d", v)
			}
		default:
			if v != 0 {
				t.Errorf("%s %d", c.name, v)
			}
		}
	}
}
