package analysis

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
)

// faultsAt plays a built-in but fails to answer in the rounds listed:
// its reply is an error, which the match records as a fault
// (engine.FaultGarbage).
type faultsAt struct {
	match.GamePlayer
	turns []int
}

func (b faultsAt) Commands(g engine.Game, p int) ([]string, error) {
	if slices.Contains(b.turns, g.Turn()+1) {
		return nil, errors.New("no answer")
	}
	return b.GamePlayer.Commands(g, p)
}

// TestWhyLost checks the per-round values the viewer charts on a small
// played match whose first bot fails to answer in rounds 3–5 and 9:
// captures and losses balance, gold spent is the cost of the accepted
// builds and upgrades, faults are counted and are events, and the
// winner's lead for good and the largest swing are the series'.
func TestWhyLost(t *testing.T) {
	faultTurns := []int{3, 4, 5, 9}
	data := recordGame(t, 3, 120, func(p match.GamePlayer) match.GamePlayer { return faultsAt{p, faultTurns} }, "greedy", "economist", "raider")
	a := analyzeRWD(t, data)
	if !a.HasCommands || a.Rounds != 120 {
		t.Fatalf("%d rounds, commands %v", a.Rounds, a.HasCommands)
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		var captured, lost, fromNobody int64
		for _, p := range a.Players {
			at := func(name string) int64 { return a.At(p.UID, turn, name) }
			captured += at("captured")
			lost += at("lost")
			fromNobody += at("captured_from_0")
			var from, to int64
			for uid := 0; uid <= a.MaxUID; uid++ {
				from += at("captured_from_" + strconv.Itoa(uid))
				if uid > 0 {
					to += at("lost_to_" + strconv.Itoa(uid))
				}
			}
			if from != at("captured") || to != at("lost") {
				t.Errorf("turn %d uid %d: exchanges %d from, %d to; captured %d, lost %d", turn, p.UID, from, to, at("captured"), at("lost"))
			}
			want := int64(0)
			if p.UID == 1 && slices.Contains(faultTurns, turn) {
				want = 1
			}
			if f := at("faults"); f != want {
				t.Errorf("turn %d uid %d: %d faults, want %d", turn, p.UID, f, want)
			}
		}
		if captured != lost+fromNobody {
			t.Errorf("turn %d: %d cells captured, %d lost + %d unowned taken", turn, captured, lost, fromNobody)
		}
	}
	// Gold spent: the cost of the accepted builds and upgrades, from the
	// recorded commands themselves, as the game applied them.
	src, err := cfrimport.OpenRecording(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var prev, cur colorfight2.Frame
	spent := map[int]int64{}
	if err := src.Next(&prev); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= a.Rounds; turn++ {
		if err := src.Next(&cur); err != nil {
			t.Fatal(err)
		}
		errs := src.Game().State.Errors()
		for i, cs := range src.Game().Applied() {
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
		for _, v := range a.Values(p.UID, "gold_spent") {
			got += v
		}
		if got != spent[p.UID] || get(t, standingOf(a, p.UID), "gold_spent") != got {
			t.Errorf("uid %d: gold spent %d (standing %d), accepted builds and upgrades cost %d", p.UID, got, get(t, standingOf(a, p.UID), "gold_spent"), spent[p.UID])
		}
		total += got
	}
	if total == 0 {
		t.Error("the game spends no gold")
	}
	var faults []DocumentEvent
	forGood := 0
	for _, e := range a.Events {
		switch e.Kind {
		case EventBotFault:
			e.g = 0
			faults = append(faults, e)
		case EventLeadForGood:
			forGood++
			if e.Turn != a.Summary.LeadSince || e.UID != a.Summary.Winner {
				t.Errorf("lead for good %+v, summary lead since %d, winner %d", e, a.Summary.LeadSince, a.Summary.Winner)
			}
		}
	}
	want := []DocumentEvent{{Turn: 3, Kind: EventBotFault, UID: 1, Value: 3}, {Turn: 9, Kind: EventBotFault, UID: 1, Value: 1}}
	if !slices.Equal(faults, want) {
		t.Errorf("fault events %+v, want %+v", faults, want)
	}
	if a.Summary.LeadSince == 0 || forGood != 1 {
		t.Errorf("lead since %d, %d lead-for-good events", a.Summary.LeadSince, forGood)
	}
	if !slices.IsSortedFunc(a.Events, func(x, y DocumentEvent) int { return x.Turn - y.Turn }) {
		t.Error("events out of turn order")
	}
	// The largest swing: no round changed the winner's lead more.
	w := a.Summary.Winner
	lead := func(t int) int64 {
		best := int64(-1 << 62)
		for _, p := range a.Players {
			if p.UID != w {
				best = max(best, a.At(p.UID, t, "gold"))
			}
		}
		return a.At(w, t, "gold") - best
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
	for _, e := range a.Events {
		if e.Kind == EventBotFault && e.Value == 3 {
			if got, w := a.EventText(e, a.Name), a.Name(1)+"'s bot fails to answer (garbage, 3 turns in a row)"; got != w {
				t.Errorf("fault text %q, want %q", got, w)
			}
		}
	}
}
