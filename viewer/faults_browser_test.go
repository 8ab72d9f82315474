package viewer

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/replay/recording"
)

// stalling is a bot that fails to answer (a timeout, as the match records
// it: colorfight2.ErrBotFault) in rounds 10 to 12 and from round 30 on,
// and sends nothing otherwise.
type stalling struct{ n int }

func (s *stalling) Name() string            { return "stalling" }
func (s *stalling) Start(int, uint64) error { return nil }
func (s *stalling) Close() error            { return nil }
func (s *stalling) Commands(engine.Game, int) ([]string, error) {
	s.n++
	if (s.n >= 10 && s.n <= 12) || s.n >= 30 {
		return nil, errors.New("bot: timeout: no answer within 1s")
	}
	return nil, nil
}

// TestBrowserEventKinds: the events the analysis finds of every kind but
// the lead changes — bot faults (one a run of faulted rounds), cell and
// building tax brackets, tech levels, homes captured, eliminations, the
// lead for good — are listed at first in the page in its words and marked
// on the scrubber, in a game with a bot that stops answering and in c03.
func TestBrowserEventKinds(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	playCF2(t, 2, 60, recording.NewSeam(&buf, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "rewind test"),
		cf2Seat(t, "greedy", "greedy"), match.GameSeat{Bot: &stalling{}, Name: "stalling"})
	write(t, filepath.Join(dir, "faults.rwd"), buf.Bytes())
	write(t, filepath.Join(dir, "c03.rwd"), vectorRWD(t, "c03"))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 3*time.Minute)
	for _, id := range []string{"faults.rwd", "c03.rwd"} {
		rep, err := lib.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		a := rep.Analysis
		kinds := map[string][]string{}
		var marks []string
		for _, e := range a.Events {
			if e.Kind != analysis.EventLeadChange {
				kinds[e.Kind] = append(kinds[e.Kind], a.EventText(e, a.Name))
				if !slices.Contains(marks, e.Kind+" "+strconv.Itoa(e.Turn)) {
					marks = append(marks, e.Kind+" "+strconv.Itoa(e.Turn))
				}
			}
		}
		switch id {
		case "faults.rwd":
			if len(kinds[analysis.EventBotFault]) != 2 {
				t.Fatalf("%s: bot faults %q, want two runs", id, kinds[analysis.EventBotFault])
			}
		case "c03.rwd":
			for _, k := range []string{colorfight2.EventTaxBracket, colorfight2.EventBuildingBracket, colorfight2.EventHomeCaptured, colorfight2.EventDied, analysis.EventLeadForGood} {
				if len(kinds[k]) == 0 {
					t.Fatalf("%s: no %s event", id, k)
				}
			}
		}
		openReplay(t, b, base+"/replay/"+id)
		var got map[string][]string
		var gotMarks []string
		evalJS(t, b, `(() => { const o = {}; for (const li of document.querySelectorAll('#events li.ev')) { const k = [...li.classList].find(c => c.startsWith('ev-')).slice(3); (o[k] = o[k] || []).push(li.querySelector('.ev-text').textContent); } return o; })()`, &got)
		evalJS(t, b, `[...document.querySelectorAll('.marks .mark')].map(m => [...m.classList].find(c => c.startsWith('mk-')).slice(3) + ' ' + m.dataset.turn)`, &gotMarks)
		for k, want := range kinds {
			if !slices.Equal(got[k], want) {
				t.Errorf("%s: %s events listed %q, want %q", id, k, got[k], want)
			}
		}
		for _, m := range marks {
			if !slices.Contains(gotMarks, m) {
				t.Errorf("%s: no scrubber mark %q", id, m)
			}
		}
	}
	b.CheckProblems(t)
}
