package rooms_test

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/toygame"
	"github.com/rewind-game/rewind/replay"
)

// The room engine's adapter API as a polling protocol (ColorFight v1's)
// drives it, on a clock the test moves: a tick-paced table that players
// join mid-game (Claim), each sending its commands for the next tick
// (Submit), an admin's restart checked by Secrets, and recordings that
// verify. The same protocol over HTTP, through the CLI, is cmd/rewind's
// fifth game (fifthgame_test.go).

const pollTick = 200 * time.Millisecond

func init() {
	engine.Register(engine.Registration{Ruleset: toygame.Ruleset, Name: "Toy", MinPlayers: 1, MaxPlayers: 4,
		MinTurns: 1, MaxTurns: 100, DefaultTurns: 20, Round: "ticks",
		Bots: []engine.Builtin{{Name: "painter", Doc: "paints where it stands, else walks", New: toygame.NewPainter}}})
}

// pollState is what a polling player reads of the game after a tick.
type pollState struct {
	turn   int
	over   bool
	scores []int64 // per seat: score, moves
	moves  []int64
}

// poller is the protocol: it keeps the state players poll, as the table
// plays each round (rooms.Adapter).
type poller struct{ states chan pollState }

func (p *poller) Played(g engine.Game, _ *match.GameRound) {
	s := pollState{turn: g.Turn(), over: g.Over()}
	for seat := range g.Players() {
		v := g.Values(seat, nil)
		s.scores, s.moves = append(s.scores, v[0]), append(s.moves, v[1])
	}
	p.states <- s
}

// pollTable opens a table of four seats on clk, a painter built-in in
// the first and the others open, and returns it with its protocol once it
// has told the state before the first tick.
func pollTable(t *testing.T, clk *testutil.Clock, dir, name string) (*rooms.Table, *poller) {
	t.Helper()
	reg, _ := engine.About(toygame.Ruleset.ID())
	seats := []rooms.Seat{{Name: "painter", Builtin: &reg.Bots[0]}, {Name: "seat 2", Open: true}, {Name: "seat 3", Open: true}, {Name: "seat 4", Open: true}}
	p := &poller{states: make(chan pollState, 16)}
	tbl, err := rooms.OpenTable(rooms.TableConfig{Ruleset: toygame.Ruleset, Seed: 9, MaxTurns: 6, Seats: seats,
		Tick: pollTick, Clock: clk, Recordings: &rooms.Recordings{Dir: dir, Own: func(string) bool { return true }},
		Name: name, Adapter: p})
	if err != nil {
		t.Fatal(err)
	}
	if s := <-p.states; s.turn != 0 {
		t.Fatalf("the state before the first tick is of turn %d", s.turn)
	}
	return tbl, p
}

// tick plays the next round: once the table has armed its timer, the
// clock moves by a tick, and the state after the round is returned.
func tick(clk *testutil.Clock, p *poller) pollState {
	clk.AdvanceArmed(pollTick)
	return <-p.states
}

// verified checks that the table's recording, once in place, holds at
// least rounds rounds and re-simulates, complete, to the table's last
// round.
func verified(t *testing.T, tbl *rooms.Table, rounds int) {
	t.Helper()
	<-tbl.Done()
	if err := tbl.Err(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tbl.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != tbl.Turn() || res.Rounds < rounds {
		t.Errorf("%s verifies as %+v, %v: want it complete, %d rounds (the table's), at least %d", tbl.Path(), res, err, tbl.Turn(), rounds)
	}
}

func TestTablePlayersJoinMidGame(t *testing.T) {
	clk := testutil.NewClock(time.Unix(1_000_000, 0))
	dir := t.TempDir()
	tbl, p := pollTable(t, clk, dir, "poll-1")

	alice, ok := tbl.Claim()
	if !ok || alice != 1 {
		t.Fatalf("alice's claim: seat %d, %v; want the first open seat, 1", alice, ok)
	}
	tbl.Submit(alice, []string{"N"})
	tbl.Submit(alice, []string{"paint"}) // replaces the move
	s := tick(clk, p)
	if s.turn != 1 || s.scores[alice] <= 0 || s.moves[alice] != 0 || s.moves[0]+s.scores[0] == 0 {
		t.Fatalf("turn 1: %+v; want alice's cell painted, not her replaced move, and the built-in's play", s)
	}
	s = tick(clk, p) // alice sent nothing: she does nothing
	if s.turn != 2 || s.moves[alice] != 0 {
		t.Fatalf("turn 2: %+v", s)
	}

	bob, ok := tbl.Claim() // mid-game
	if !ok || bob != 2 {
		t.Fatalf("bob's claim at turn 2: seat %d, %v", bob, ok)
	}
	tbl.Submit(bob, []string{"W", "W"})
	s = tick(clk, p)
	if s.moves[bob] != 2 || s.moves[alice] != 0 {
		t.Fatalf("turn 3: %+v; want bob's two moves", s)
	}
	if seat, ok := tbl.Claim(); !ok || seat != 3 {
		t.Fatalf("the last seat's claim: %d, %v", seat, ok)
	}
	if seat, ok := tbl.Claim(); ok {
		t.Fatalf("a claim at a full table took seat %d", seat)
	}
	for s.turn < 6 {
		s = tick(clk, p)
	}
	if !s.over || s.scores[3] != 0 || s.moves[3] != 0 {
		t.Fatalf("the end: %+v; want the game over, the silent last seat at 0", s)
	}
	verified(t, tbl, 6)
}

func TestTableAdminRestart(t *testing.T) {
	clk := testutil.NewClock(time.Unix(1_000_000, 0))
	dir := t.TempDir()
	secrets := rooms.Secrets{Clock: clk}
	const password = "admin"
	restart := func(got string) error {
		return secrets.Check("127.0.0.1", "", "admin password", func() bool { return rooms.CheckPassword(got, password) })
	}
	tbl, p := pollTable(t, clk, dir, "poll-1")
	seat, _ := tbl.Claim()
	tbl.Submit(seat, []string{"paint"})
	tick(clk, p)
	tick(clk, p)
	if err := restart("guess"); !errors.Is(err, rooms.ErrWrongSecret) {
		t.Fatalf("a restart with a wrong password: %v", err)
	}
	if err := restart(password); err != nil {
		t.Fatalf("the restart: %v", err)
	}
	tbl.Stop() // the game ends at its last whole round, recorded whole
	verified(t, tbl, 2)
	if _, ok := tbl.Claim(); ok {
		t.Error("a stopped table gave a seat")
	}

	clk.Drop() // the stopped game's timer
	next, p := pollTable(t, clk, dir, "poll-2")
	if s := tick(clk, p); s.turn != 1 || s.scores[1] != 0 {
		t.Fatalf("the new game's first tick: %+v; want its seats fresh", s)
	}
	if seat, ok := next.Claim(); !ok || seat != 1 {
		t.Fatalf("the new game's first claim: %d, %v", seat, ok)
	}
	next.Stop()
	verified(t, next, 1)
}

// TestTableReplyTimes: a table records each player seat's reply time, the
// time from the start of the round's wait to its submission on the
// table's clock, and none for a built-in's seat or a seat that sent
// nothing; the recording still verifies.
func TestTableReplyTimes(t *testing.T) {
	clk := testutil.NewClock(time.Unix(1_000_000, 0))
	tbl, p := pollTable(t, clk, t.TempDir(), "poll-reply")
	alice, _ := tbl.Claim()
	clk.Advance(70 * time.Millisecond)
	tbl.Submit(alice, []string{"paint"})
	tick(clk, p)
	tick(clk, p) // alice sends nothing
	for s := tick(clk, p); s.turn < 6; s = tick(clk, p) {
	}
	verified(t, tbl, 6)
	f, err := os.Open(tbl.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := replay.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Header().ReplyTimes {
		t.Fatal("the recording keeps no reply times")
	}
	testutil.EachRecord(t, r.NextText, func(rd *replay.TextRound) {
		want := "[]"
		if rd.Turn == 0 {
			want = "[-1ns 70ms -1ns -1ns]"
		}
		if got := fmt.Sprint(rd.ReplyTimes); got != want {
			t.Errorf("round %d: reply times %s, want %s", rd.Turn, got, want)
		}
	})
}
