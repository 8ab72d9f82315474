package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// eventsAt is the events of one turn of a scripted game.
type eventsAt struct {
	turn   int
	events []engine.Event
}

// move is the text of a MOVE command.
func move(x, y int, d Dir, n int) string {
	return fmt.Sprintf(`{"l":[%d,%d],"c":"MOVE","d":%d,"n":%d}`, x, y, d, n)
}

func build(x, y int) string {
	return fmt.Sprintf(`{"l":[%d,%d],"c":"BUILD","d":7,"n":0}`, x, y)
}

// TestEventsScripted plays a 4-player game set up by hand, through the
// seam, in which every event kind happens: a hive built, a hive destroyed
// by a player left holding the cell and one by nobody, a hive built and
// destroyed in the same turn, and a player eliminated in one turn by a
// fight, a collision and a move into a fight. Each turn's events are
// checked field by field, and BoardEvents of the turn's boards against
// them (the same but for the hive built and destroyed at once).
func TestEventsScripted(t *testing.T) {
	s := emptyState(t, 4)
	for p := range s.pl[:4] {
		s.pl[p].resources = 1000
	}
	// Start hives that keep the game going (Over: one hive owner left).
	s.at(0, 0).hive, s.at(0, 0).units[0] = 0, 5
	s.at(19, 19).hive, s.at(19, 19).units[1] = 1, 5
	s.at(19, 0).hive, s.at(19, 0).units[2] = 2, 5
	s.at(6, 2).units[0] = 20 // builds at (6, 2), then takes (7, 2)
	s.at(7, 2).hive, s.at(7, 2).units[1] = 1, 1
	s.at(11, 4).units[0] = 10 // wipes out the empty hive at (12, 4)
	s.at(12, 4).hive = 1
	s.at(14, 6).units[0] = 20 // destroys the hive player 2 builds at (15, 6)
	s.at(15, 6).units[2] = 4
	s.at(9, 10).units[0] = 10 // kills player 3's (10, 10)
	s.at(10, 10).units[3] = 3
	s.at(4, 12).units[0] = 5 // collides with player 3's (3, 12)
	s.at(3, 12).units[3] = 2
	s.at(10, 12).units[3] = 4 // both move into player 1's 20 at (11, 12)
	s.at(12, 12).units[3] = 4
	s.at(11, 12).units[1] = 20
	g := &Game{State: s}
	if ev := g.Events(nil); len(ev) != 0 {
		t.Fatalf("events before the first round: %+v", ev)
	}
	script := [][][]string{
		{{build(6, 2)}},                                // turn 1
		{{move(6, 2, East, 20)}},                       // turn 2
		{{move(11, 4, East, 10)}},                      // turn 3
		{{move(14, 6, East, 20)}, nil, {build(15, 6)}}, // turn 4
		{{move(9, 10, East, 10), move(4, 12, West, 5)}, nil, nil, {move(3, 12, East, 2), move(10, 12, East, 4), move(12, 12, West, 4)}}, // turn 5
		nil, // turn 6: nothing happens
	}
	ev := func(kind string, player, other, x, y int, value int64) engine.Event {
		return engine.Event{Kind: kind, Player: player, Other: other, X: x, Y: y, Value: value}
	}
	want := []eventsAt{
		{1, []engine.Event{ev(EventHiveBuilt, 0, -1, 6, 2, 2)}},
		{2, []engine.Event{ev(EventHiveDestroyed, 1, 0, 7, 2, 2)}},
		{3, []engine.Event{ev(EventHiveDestroyed, 1, -1, 12, 4, 1)}},
		{4, []engine.Event{ev(EventHiveBuilt, 2, -1, 15, 6, 1), ev(EventHiveDestroyed, 2, 0, 15, 6, 1)}},
		{5, []engine.Event{ev(EventDied, 3, -1, -1, -1, 4)}},
		{6, nil},
	}
	var prev, cur engine.Board
	for i, cmds := range script {
		g.Board(&prev)
		if errs := g.Round(cmds); len(errs) != 0 {
			t.Fatalf("turn %d: errors %+v", g.Turn(), errs)
		}
		g.Board(&cur)
		w := want[i]
		if g.Turn() != w.turn {
			t.Fatalf("turn %d, want %d", g.Turn(), w.turn)
		}
		dst := []engine.Event{{Kind: "kept"}}
		got := g.Events(dst)
		if got[0].Kind != "kept" || !slices.Equal(got[1:], w.events) {
			t.Errorf("turn %d: events\n%+v\nwant (after the one given)\n%+v", w.turn, got, w.events)
		}
		fromBoards := BoardEvents(&prev, &cur, nil)
		wantBoards := w.events
		if w.turn == 4 {
			wantBoards = nil // built and destroyed at once: on neither board
		}
		if !slices.Equal(fromBoards, wantBoards) {
			t.Errorf("turn %d: BoardEvents\n%+v\nwant\n%+v", w.turn, fromBoards, wantBoards)
		}
	}
	if st := s.Stats(3); st.Cells != 0 {
		t.Fatalf("player 3 still holds %d cells", st.Cells)
	}
	// Player 3 is not eliminated again (turn 6 above); a round of a game
	// over reports nothing, not the last turn's events again.
	if g.Round([][]string{{build(3, 12)}}); !slices.Equal(g.Events(nil), []engine.Event{ev(EventHiveBuilt, 0, -1, 3, 12, 3)}) {
		t.Fatalf("turn 7: %+v", g.Events(nil))
	}
	s.at(19, 19).hive, s.at(19, 0).hive = -1, -1
	if !s.Over() {
		t.Fatal("not over with one hive owner")
	}
	g.Round(nil)
	if ev := g.Events(nil); len(ev) != 0 || g.Turn() != 7 {
		t.Errorf("a round of a game over (turn %d) reported %+v", g.Turn(), ev)
	}
}

// TestEventKinds: the ruleset declares the kinds Events reports, in the
// order a turn reports them, each with a sentence.
func TestEventKinds(t *testing.T) {
	kinds := Ruleset.EventKinds()
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
		if k.Text == "" || !slices.Contains([]string{EventHiveBuilt, EventHiveDestroyed, EventDied}, k.Name) {
			t.Errorf("kind %+v", k)
		}
	}
	if !slices.Equal(names, []string{EventHiveBuilt, EventHiveDestroyed, EventDied}) {
		t.Errorf("kinds %v", names)
	}
}

// TestSetting: a game from the ruleset names its seed, size, players,
// homes and turn limit; a uniform one says so.
func TestSetting(t *testing.T) {
	g, err := Ruleset.New(42, engine.Settings{Players: 2, MaxTurns: 300})
	if err != nil {
		t.Fatal(err)
	}
	got := g.Setting()
	want := [][2]string{{"map", "drawn from seed 42"}, {"size", "20×20 hex"}, {"players", "2"}, {"homes", "(1,1) (18,18)"}, {"max_turns", "300"}}
	if !slices.Equal(got, want) {
		t.Errorf("Setting %v, want %v", got, want)
	}
	u, err := Ruleset.NewFromSetup([]byte(`{"seed":-5,"uniform":true}`), engine.Settings{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Setting(); got[0][1] != "uniform, drawn from seed -5" || got[3][1] != "(5,5) (10,14) (15,5)" || got[4][1] != "1000" {
		t.Errorf("uniform Setting %v", got)
	}
}
