package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// keepRounds is a GameRecorder that keeps a copy of every round and the
// game's hash after it.
type keepRounds struct {
	setup  GameSetup
	rounds []GameRound
	hashes []uint64
}

func (k *keepRounds) Begin(s GameSetup) error { k.setup = s; k.setup.Game = nil; return nil }
func (k *keepRounds) End(engine.Game) error   { return nil }
func (k *keepRounds) Round(r *GameRound, g engine.Game) error {
	c := GameRound{Active: r.Active, Faults: slices.Clone(r.Faults), FaultText: slices.Clone(r.FaultText), Marks: slices.Clone(r.Marks)}
	for _, l := range r.Commands {
		c.Commands = append(c.Commands, slices.Clone(l))
	}
	for _, l := range r.Logs {
		c.Logs = append(c.Logs, slices.Clone(l))
	}
	k.rounds = append(k.rounds, c)
	k.hashes = append(k.hashes, g.Hash())
	return nil
}

// quirky plays a built-in, logs every round it is asked, sends a
// malformed command and fails to answer every third turn.
type quirky struct {
	GamePlayer
	asked []int // the turns it was asked for
	log   []byte
}

func (q *quirky) Commands(g engine.Game, p int) ([]string, error) {
	q.asked = append(q.asked, g.Turn())
	q.log = []byte("turn " + string(rune('a'+g.Turn()%26)))
	if g.Turn()%3 == 0 {
		return nil, errors.New("no answer")
	}
	cmds, err := q.GamePlayer.Commands(g, p)
	return append(cmds, "zz top"), err
}

func (q *quirky) RoundLog() []byte { return q.log }

// TestPrefixReplaysRounds: a match given another's first rounds as its
// Prefix plays and records them as they were — commands, faults with
// their text, bot logs, and the same game after each — and only then
// asks its own bots, in ColorfightII and in Monad (whose faults retire
// a player).
func TestPrefixReplaysRounds(t *testing.T) {
	for _, id := range []string{"colorfight2", "monad"} {
		t.Run(id, func(t *testing.T) {
			rs, _ := engine.Get(id)
			info, _ := engine.About(id)
			seat := func(i int, quirks bool) GameSeat {
				b := BuiltinPlayer(info.Bots[i%len(info.Bots)])
				if quirks {
					return GameSeat{Bot: &quirky{GamePlayer: b}}
				}
				return GameSeat{Bot: b}
			}
			parent := &keepRounds{}
			if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 30,
				Seats: []GameSeat{seat(0, true), seat(1, false), seat(2, false)}, Recorder: parent}); err != nil {
				t.Fatal(err)
			}
			const k = 12
			child := &keepRounds{}
			late := &quirky{GamePlayer: BuiltinPlayer(info.Bots[1])}
			res, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 30, Prefix: parent.rounds[:k],
				Seats: []GameSeat{seat(2, false), {Bot: late}, seat(0, false)}, Recorder: child})
			if err != nil {
				t.Fatal(err)
			}
			if !child.setup.Logs {
				t.Error("the setup does not say the prefix keeps logs")
			}
			if !slices.Equal(child.hashes[:k], parent.hashes[:k]) {
				t.Fatalf("the replayed rounds do not give the parent's games")
			}
			faults, logs := 0, 0
			for i := 0; i < k; i++ {
				p, c := parent.rounds[i], child.rounds[i]
				if !slices.EqualFunc(p.Commands, c.Commands, slices.Equal) || !slices.Equal(p.Faults, c.Faults) ||
					!slices.Equal(p.FaultText, c.FaultText) || !slices.EqualFunc(p.Logs, c.Logs, slices.Equal) {
					t.Fatalf("round %d recorded as %+v, the parent's was %+v", i, c, p)
				}
				if slices.ContainsFunc(p.Faults, func(f engine.Fault) bool { return f != 0 }) {
					faults++
				}
				if len(p.Logs) > 0 {
					logs++
				}
			}
			if faults == 0 || logs == 0 {
				t.Fatalf("the prefix has %d rounds with faults and %d with logs: the test proves nothing", faults, logs)
			}
			if len(late.asked) == 0 || late.asked[0] != k {
				t.Errorf("a seat's bot was first asked at turn %v, want %d", late.asked, k)
			}
			for _, p := range res.Players {
				if p.Faults != 0 && p.Player != 1 {
					t.Errorf("player %d counts %d faults of the prefix", p.Player, p.Faults)
				}
			}
		})
	}
}

// TestPrefixLongerThanGame: a prefix longer than the game is refused.
func TestPrefixLongerThanGame(t *testing.T) {
	rs, _ := engine.Get("colorfight2")
	info, _ := engine.About("colorfight2")
	_, err := RunGame(context.Background(), GameConfig{Ruleset: rs, MaxTurns: 3, Prefix: make([]GameRound, 4),
		Seats: []GameSeat{{Bot: BuiltinPlayer(info.Bots[0])}, {Bot: BuiltinPlayer(info.Bots[1])}}})
	if err == nil {
		t.Fatal("no error")
	}
}

// seedSpy records the seed it was started with and the turns it was
// asked.
type seedSpy struct {
	GamePlayer
	seed  uint64
	asked []int
}

func (s *seedSpy) Start(p int, seed uint64) error { s.seed = seed; return s.GamePlayer.Start(p, seed) }
func (s *seedSpy) Commands(g engine.Game, p int) ([]string, error) {
	s.asked = append(s.asked, g.Turn())
	return s.GamePlayer.Commands(g, p)
}

// TestSeatSeedAndAskInPrefix: a seat's Seed is what its bot starts with
// and what the setup records for it (BotSeed of the match seed
// otherwise); an AskInPrefix seat is asked at every round of the prefix
// too, the others only after it.
func TestSeatSeedAndAskInPrefix(t *testing.T) {
	rs, _ := engine.Get("monad")
	info, _ := engine.About("monad")
	parent := &keepRounds{}
	if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 20,
		Seats: []GameSeat{{Bot: BuiltinPlayer(info.Bots[0])}, {Bot: BuiltinPlayer(info.Bots[1])}}, Recorder: parent}); err != nil {
		t.Fatal(err)
	}
	const k = 8
	seed := uint64(77)
	asked := &seedSpy{GamePlayer: BuiltinPlayer(info.Bots[0])}
	fresh := &seedSpy{GamePlayer: BuiltinPlayer(info.Bots[1])}
	child := &keepRounds{}
	if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 20, Prefix: parent.rounds[:k],
		Seats: []GameSeat{{Bot: asked, Seed: &seed, AskInPrefix: true}, {Bot: fresh}}, Recorder: child}); err != nil {
		t.Fatal(err)
	}
	if asked.seed != 77 || fresh.seed != BotSeed(5, 2) {
		t.Errorf("started with seeds %d and %d, want 77 and %d", asked.seed, fresh.seed, BotSeed(5, 2))
	}
	if got := []uint64{*child.setup.Players[0].BotSeed, *child.setup.Players[1].BotSeed}; got[0] != 77 || got[1] != BotSeed(5, 2) {
		t.Errorf("the setup records seeds %v", got)
	}
	if len(asked.asked) != 20 || asked.asked[0] != 0 || len(fresh.asked) != 20-k || fresh.asked[0] != k {
		t.Errorf("asked at turns %v and %v", asked.asked, fresh.asked)
	}
	if !slices.Equal(child.hashes[:k], parent.hashes[:k]) {
		t.Error("asking a bot in the prefix changed the prefix's games")
	}
}

// drawing is a built-in that draws one dot a round (Marker), on column
// x of row turn mod 10.
type drawing struct {
	GamePlayer
	x    int
	line []byte
}

func (d *drawing) Commands(g engine.Game, p int) ([]string, error) {
	d.line = fmt.Appendf(d.line[:0], `{"dot":[%d,%d]}`, d.x, g.Turn()%10)
	return d.GamePlayer.Commands(g, p)
}

func (d *drawing) RoundMarks() ([][]byte, int) { return [][]byte{d.line}, 0 }

// TestPrefixKeepsCallersMarks: a match played on from a prefix with
// marks records them as they were and never writes the caller's
// prefix: the prefix is the same after the match, and a second match
// from it records the same rounds.
func TestPrefixKeepsCallersMarks(t *testing.T) {
	rs, _ := engine.Get("colorfight2")
	info, _ := engine.About("colorfight2")
	seats := func(x int) []GameSeat {
		return []GameSeat{{Bot: &drawing{GamePlayer: BuiltinPlayer(info.Bots[0]), x: x}},
			{Bot: &drawing{GamePlayer: BuiltinPlayer(info.Bots[1]), x: x + 1}}}
	}
	parent := &keepRounds{}
	if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 20, Seats: seats(1), Recorder: parent}); err != nil {
		t.Fatal(err)
	}
	const k = 8
	prefix := parent.rounds[:k]
	want := make([][]engine.BotMark, k)
	for i := range prefix {
		want[i] = slices.Clone(prefix[i].Marks)
	}
	if len(want[k-1]) != 2 {
		t.Fatalf("the prefix's last round has marks %v: the test proves nothing", want[k-1])
	}
	var children [2]*keepRounds
	for c := range children {
		children[c] = &keepRounds{}
		if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 20, Prefix: prefix,
			Seats: seats(7), Recorder: children[c]}); err != nil {
			t.Fatal(err)
		}
		for i := range prefix {
			if !slices.Equal(prefix[i].Marks, want[i]) {
				t.Fatalf("match %d: the caller's prefix round %d has marks %v, want %v", c+1, i, prefix[i].Marks, want[i])
			}
			if got := children[c].rounds[i].Marks; !slices.Equal(got, want[i]) {
				t.Fatalf("match %d: prefix round %d recorded with marks %v, want %v", c+1, i, got, want[i])
			}
		}
	}
	for i := range children[0].rounds {
		if a, b := children[0].rounds[i].Marks, children[1].rounds[i].Marks; !slices.Equal(a, b) {
			t.Fatalf("round %d: marks %v, then %v", i, a, b)
		}
	}
}
