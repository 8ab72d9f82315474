package analysis

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

// faultySource adds a bot fault (colorfight2.ErrBotFault, as the match
// records a timeout or a crash) for uid to the rounds listed.
type faultySource struct {
	source.Source
	uid   int
	turns []int
	turn  int
}

func (s *faultySource) Next(f *colorfight2.Frame) error {
	err := s.Source.Next(f)
	if err == nil {
		s.turn++
	}
	return err
}

func (s *faultySource) Round() (*replay.Round, []colorfight2.CommandError, bool) {
	r, errs, ok := s.Source.Round()
	if ok && slices.Contains(s.turns, s.turn-1) {
		errs = append(slices.Clip(errs), colorfight2.CommandError{UID: s.uid, Index: -1, Code: colorfight2.ErrBotFault})
	}
	return r, errs, ok
}

// TestWhyLostC01 checks the per-round values the viewer charts on a small
// recorded match: captures and losses balance, gold spent is the cost of
// the accepted builds and upgrades, faults are counted and are events, and
// the winner's lead for good is an event.
func TestWhyLostC01(t *testing.T) {
	var data []byte
	for _, v := range vectors(t) {
		if v.Name == "c01" {
			data = rwdBytes(t, v)
		}
	}
	if data == nil {
		t.Skip("no c01")
	}
	src, err := source.New(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	fs := &faultySource{Source: src, uid: 1, turns: []int{3, 4, 5, 9}}
	a, err := Analyze(fs)
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		var captured, lost, fromNobody int64
		for _, p := range a.Players {
			r := &p.Series[turn-1]
			captured += r.Captured
			lost += r.Lost
			fromNobody += r.CapturedFrom(0)
			var from, to int64
			for _, e := range r.Exchanges {
				from += int64(e.From)
				to += int64(e.To)
			}
			if from != r.Captured || to != r.Lost {
				t.Errorf("turn %d uid %d: exchanges %d from, %d to; captured %d, lost %d", turn, p.UID, from, to, r.Captured, r.Lost)
			}
			want := int32(0)
			if p.UID == 1 && slices.Contains(fs.turns, turn) {
				want = 1
			}
			if r.Faults != want {
				t.Errorf("turn %d uid %d: %d faults, want %d", turn, p.UID, r.Faults, want)
			}
		}
		if captured != lost+fromNobody {
			t.Errorf("turn %d: %d cells captured, %d lost + %d unowned taken", turn, captured, lost, fromNobody)
		}
	}
	// Gold spent: the cost of the accepted builds and upgrades, from the
	// recorded commands themselves.
	src2, err := source.New(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	var prev, cur colorfight2.Frame
	spent := map[int]int64{}
	if err := src2.Next(&prev); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		if err := src2.Next(&cur); err != nil {
			t.Fatal(err)
		}
		rd, errs, ok := src2.Round()
		if !ok {
			t.Fatalf("turn %d: no commands", turn)
		}
		for i, cs := range rd.Commands {
			for j, c := range cs {
				if slices.ContainsFunc(errs, func(e colorfight2.CommandError) bool { return e.UID == i+1 && e.Index == j }) {
					continue
				}
				k := c.Y*cur.Width + c.X
				switch c.Kind {
				case colorfight2.CmdBuild:
					spent[i+1] += colorfight2.BuildCost(c.Building)
				case colorfight2.CmdUpgrade:
					g, _ := colorfight2.UpgradeCost(prev.Cells[k].Building, prev.Cells[k].Level)
					spent[i+1] += g
				}
			}
		}
		prev, cur = cur, prev
		prev.Cells = slices.Clone(prev.Cells)
	}
	var total int64
	for _, p := range a.Players {
		var got int64
		for _, r := range p.Series {
			got += r.GoldSpent
		}
		if got != spent[p.UID] {
			t.Errorf("uid %d: gold spent %d, accepted builds and upgrades cost %d", p.UID, got, spent[p.UID])
		}
		total += got
	}
	if total == 0 {
		t.Error("c01 spends no gold")
	}
	var faults []Event
	forGood := 0
	for _, e := range a.Events {
		switch e.Kind {
		case EventBotFault:
			faults = append(faults, e)
		case EventLeadForGood:
			forGood++
			if e.Turn != a.Summary.LeadSince || e.UID != a.Summary.Winner {
				t.Errorf("lead for good %+v, summary lead since %d, winner %d", e, a.Summary.LeadSince, a.Summary.Winner)
			}
		}
	}
	want := []Event{{Turn: 3, Kind: EventBotFault, UID: 1, Value: 3}, {Turn: 9, Kind: EventBotFault, UID: 1, Value: 1}}
	if !slices.Equal(faults, want) {
		t.Errorf("fault events %+v, want %+v", faults, want)
	}
	if a.Summary.LeadSince > 0 && forGood != 1 {
		t.Errorf("%d lead-for-good events", forGood)
	}
	if !slices.IsSortedFunc(a.Events, func(x, y Event) int { return x.Turn - y.Turn }) {
		t.Error("events out of turn order")
	}
	// The largest swing: no round changed the winner's lead more.
	w := a.Player(a.Summary.Winner)
	lead := func(t int) int64 {
		best := int64(-1 << 62)
		for _, p := range a.Players {
			if p != w {
				best = max(best, p.Series[t-1].Gold)
			}
		}
		return w.Series[t-1].Gold - best
	}
	abs := func(v int64) int64 { return max(v, -v) }
	if s := a.Summary; s.SwingTurn < 2 || s.SwingGold != lead(s.SwingTurn)-lead(s.SwingTurn-1) {
		t.Errorf("swing at turn %d of %d gold", s.SwingTurn, s.SwingGold)
	}
	for turn := 2; turn <= a.Rounds; turn++ {
		if d := lead(turn) - lead(turn-1); abs(d) > abs(a.Summary.SwingGold) {
			t.Errorf("turn %d changed the lead by %d, more than the swing %d", turn, d, a.Summary.SwingGold)
		}
	}
	if o := a.Outcome(); !strings.Contains(o, "largest swing at turn "+strconv.Itoa(a.Summary.SwingTurn)) {
		t.Errorf("outcome %q", o)
	}
	if got := want[0].Text(a.Name); got != a.Name(1)+"'s bot fails to answer (3 rounds in a row)" {
		t.Errorf("fault text %q", got)
	}
}
