package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// documentEvent is generic event e as ColorfightII's document numbers
// it: uid = player+1 (0: none), and Other likewise, but for a kind whose
// Other is a number (engine.EventKind.OtherNumber) or a surge (its last
// turn), which keep it, and a bot fault, whose Other is 0.
func documentEvent(g *Analysis, e Event) DocumentEvent {
	uid := func(p int) int {
		if p < 0 {
			return 0
		}
		return p + 1
	}
	other := uid(e.Other)
	switch {
	case e.Shell && e.Kind == EventBotFault:
		other = 0
	case e.Shell && slices.ContainsFunc(g.Meta.Metrics, func(m engine.Metric) bool { return m.Surge.Event == e.Kind }):
		other = e.Other
	case !e.Shell && slices.ContainsFunc(g.Meta.EventKinds, func(k engine.EventKind) bool { return k.Name == e.Kind && k.OtherNumber }):
		other = e.Other
	}
	return DocumentEvent{Turn: e.Turn, Kind: e.Kind, UID: uid(e.Player), Other: other, Value: e.Value}
}

// documentDiff compares ColorfightII's document of data, as rewind
// analyze builds it (source.NewStream, AnalyzeDocument), with the
// analysis of its accountedStream: its events are the generic
// events renumbered (documentEvent), command errors left out and each
// turn's bot faults after the turn's other events, each linked to its
// analysis's event (Event); its series are the analysis's series from
// frame 1; its ranking is the analysis's; and every standing field is
// the analysis's summary's: a metric's Final (a flag's too), its peak and
// the turn of its peak, or the turn of the player's last event of a
// kind. The game's events are declared with a sentence, and the figures
// counted from commands are unknown exactly when there are none. It
// returns the first difference, "" when none.
func documentDiff(tb testing.TB, data []byte, isCFR bool) string {
	tb.Helper()
	s, err := source.NewStream(bytes.NewReader(data), nil)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := AnalyzeDocument(s)
	s.Close()
	if err != nil {
		tb.Fatal(err)
	}
	st := accountedStream(tb, data, isCFR)
	g, err := AnalyzeStream(st, Options{})
	st.Close()
	if err != nil {
		tb.Fatal(err)
	}
	if g.EventsDropped > 0 {
		return fmt.Sprintf("%d events dropped", g.EventsDropped)
	}
	if a.Rounds != g.Turns || len(a.Players) != len(g.Players) || a.HasCommands != g.CommandsKnown {
		return fmt.Sprintf("the document has %d rounds, %d players, commands %v; the analysis %d, %d, %v",
			a.Rounds, len(a.Players), a.HasCommands, g.Turns, len(g.Players), g.CommandsKnown)
	}

	// Events.
	var want []Event
	games := 0
	for i := 0; i < len(g.Events); {
		j := i
		for j < len(g.Events) && g.Events[j].Turn == g.Events[i].Turn {
			j++
		}
		var faults []Event
		for _, e := range g.Events[i:j] {
			switch {
			case e.Shell && e.Kind == EventCommandErrors:
			case e.Shell && e.Kind == EventBotFault:
				faults = append(faults, e)
			default:
				want = append(want, e)
			}
			if !e.Shell {
				games++
				if !slices.ContainsFunc(g.Meta.EventKinds, func(k engine.EventKind) bool { return k.Name == e.Kind && k.Text != "" }) {
					return fmt.Sprintf("the stream does not declare %s", e.Kind)
				}
			}
		}
		want = append(want, faults...)
		i = j
	}
	if games == 0 {
		return "no event of the game's kinds at all"
	}
	for i := range min(len(a.Events), len(want)) {
		got, w := a.Events[i], documentEvent(g, want[i])
		ge, ok := a.AnalysisEvent(got)
		got.g = 0
		if got != w {
			return fmt.Sprintf("event %d: document %+v, generic %+v renumbered %+v", i, got, want[i], w)
		}
		if !ok || ge != want[i] {
			return fmt.Sprintf("event %d %+v: its generic event %+v (%v), want %+v", i, got, ge, ok, want[i])
		}
	}
	if len(a.Events) != len(want) {
		return fmt.Sprintf("the document has %d events, the analysis %d of its kinds", len(a.Events), len(want))
	}

	// Series and unknowns.
	amounts, unknowns := 0, 0
	for i, m := range g.Meta.Metrics {
		if m.Kind == engine.Amount {
			amounts++
		}
		unknown := g.Unknown(i)
		if unknown {
			unknowns++
		}
		if w := m.FromCommands && !a.HasCommands; unknown != w {
			return fmt.Sprintf("%s: unknown %v, want %v", m.Name, unknown, w)
		}
		for p := range g.Players {
			if got, w := a.Values(p+1, m.Name), g.Series[i].Values[p][1:]; !slices.Equal(got, w) {
				return fmt.Sprintf("%s of uid %d: document %v, generic %v", m.Name, p+1, got, w)
			}
		}
	}
	if w := 14 + 2*len(g.Players) + 1; amounts != w {
		return fmt.Sprintf("%d amounts, want %d", amounts, w)
	}
	if w := 5 * boolInt(!a.HasCommands); unknowns != w { // capture_energy, wasted_energy, commands, errors, faults
		return fmt.Sprintf("%d unknown figures (commands known: %v), want %d", unknowns, a.HasCommands, w)
	}

	// Summary.
	metric := func(name string) int {
		return slices.IndexFunc(g.Meta.Metrics, func(m engine.Metric) bool { return m.Name == name })
	}
	if len(a.Summary.Ranking) != len(g.Ranking) {
		return fmt.Sprintf("%d standings, %d ranked", len(a.Summary.Ranking), len(g.Ranking))
	}
	sc := g.Score()
	if sc < 0 || g.Meta.Metrics[sc].Name != "gold" {
		return "the score is not gold"
	}
	for r, p := range g.Ranking {
		s, gp := &a.Summary.Ranking[r], &g.Players[p]
		if s.UID != p+1 || s.Rank != r+1 || s.Rank != gp.Rank || s.Score != gp.Metrics[sc].Final || s.Bot != gp.Bot {
			return fmt.Sprintf("standing %d %+v: the analysis ranks player %d, rank %d, score %d, bot %q", r, s, p, gp.Rank, gp.Metrics[sc].Final, gp.Bot)
		}
		if len(s.Values) != len(a.Doc.Standing) {
			return fmt.Sprintf("standing %d has %d values, the document %d fields", r, len(s.Values), len(a.Doc.Standing))
		}
		for _, f := range a.Doc.Standing {
			var w int64
			switch f.Of {
			case engine.Final, engine.Flag:
				i := metric(f.Name)
				if i < 0 {
					return fmt.Sprintf("%s: no metric %s", f.Key, f.Name)
				}
				w = gp.Metrics[i].Final
			case engine.Peak, engine.PeakTurn:
				i := metric(f.Name)
				if i < 0 {
					return fmt.Sprintf("%s: no metric %s", f.Key, f.Name)
				}
				w = gp.Metrics[i].Peak
				if f.Of == engine.PeakTurn {
					w = int64(gp.Metrics[i].PeakTurn)
				}
			case engine.EventTurn:
				for _, e := range g.Events {
					if !e.Shell && e.Kind == f.Name && e.Player == p {
						w = int64(e.Turn)
					}
				}
			}
			if v, ok := s.Get(f.Key); !ok || v != w {
				return fmt.Sprintf("%s of uid %d: document %d (%v), generic %d", f.Key, p+1, v, ok, w)
			}
		}
	}
	sm := a.Summary
	margin := g.Players[g.Ranking[0]].Metrics[sc].Final
	if len(g.Ranking) > 1 {
		margin -= g.Players[g.Ranking[1]].Metrics[sc].Final
	}
	if sm.Winner != g.Winner()+1 || sm.LeadSince != g.LeadSince || sm.Margin != margin {
		return fmt.Sprintf("summary winner %d, lead since %d, margin %d; generic %d, %d, %d", sm.Winner, sm.LeadSince, sm.Margin, g.Winner()+1, g.LeadSince, margin)
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDocumentFromAnalysis: on every ColorfightII game at hand
// (eachAccountedGame: official replays, their imports and played games,
// one with rejected commands and bot faults), the document rewind
// analyze writes is the analysis of the game's stream, its events
// renumbered and its summary the generic finals (documentDiff).
func TestDocumentFromAnalysis(t *testing.T) {
	eachAccountedGame(t, documentDiff)
}

// TestAnalysisEventOfOtherEvents: only the document's own events have
// an analysis's event (Document.AnalysisEvent): one built by hand or read back
// from the JSON has none, so EventText does not word it as another.
func TestAnalysisEventOfOtherEvents(t *testing.T) {
	vs := vectors(t)
	a := analyzeFile(t, vs[len(vs)-1].Expected)
	if len(a.Events) < 2 {
		t.Fatalf("%d events", len(a.Events))
	}
	for i, e := range a.Events {
		if ge, ok := a.AnalysisEvent(e); !ok || ge.Turn != e.Turn || ge.Kind != e.Kind {
			t.Fatalf("event %d %+v: generic %+v, %v", i, e, ge, ok)
		}
	}
	b, err := json.Marshal(a.Events)
	if err != nil {
		t.Fatal(err)
	}
	var back []DocumentEvent
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	back = append(back, DocumentEvent{Turn: 1, Kind: "new_kind", UID: 1, Other: 2, Value: 5})
	for _, e := range back {
		if ge, ok := a.AnalysisEvent(e); ok {
			t.Errorf("event %+v, not the document's, has generic event %+v", e, ge)
		}
	}
	if got, want := a.EventText(back[len(back)-1], a.Name), "new kind: "+a.Name(1)+" (other 2, value 5)"; got != want {
		t.Errorf("a hand-built event says %q, want %q", got, want)
	}
}
