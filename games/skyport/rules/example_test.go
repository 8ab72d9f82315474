package rules_test

import (
	"fmt"

	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// One player-turn on a tiny map: a move, a line org.json reads though it
// is not JSON, a bad direction, and a line past the third message.
func Example() {
	m, err := skyport.ParseMap([]byte("players 2\nsize 3\ndescription \"tiny\"\nS\nGG\nGRG\nGG\nS\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := skyport.New(skyport.Setup{Map: m, Names: []string{"alice", "bob"}, Spawns: []int{0, 8}, Ring: []int{1, 0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	st.LoadoutLine(0, `{"message":"loadout","primary-weapon":"laser","secondary-weapon":"droid"}`)
	st.LoadoutLine(1, `{"message":"loadout","primary-weapon":"mortar","secondary-weapon":"laser"}`)
	st.FinishLoadout()
	st.Begin()
	fmt.Println("turn", st.Turn(), "actor", st.Actor())
	st.PlayTurn([]string{
		`{"message":"action","type":"move","direction":"left-down"}`,
		`{message:action,type:mine}`,
		`{"message":"action","type":"move","direction":"north"}`,
		`{"message":"action","type":"mine"}`,
	})
	l := st.Log()
	for i, f := range l.Lines {
		fmt.Println(i, f.Status, f.Slot, l.Errors(i, nil))
	}
	p := st.Player(0)
	fmt.Printf("alice at %d, %d, rubidium %d, score %d\n", p.J, p.K, p.Rubidium, p.Score)
	fmt.Println(string(st.AppendBroadcast(nil, 0)))
	// Output:
	// turn 1 actor 0
	// 0 accepted 0 []
	// 1 rejected 1 [Tried to mine while not on a resource tile!]
	// 2 rejected 2 [Invalid move packet: Invalid direction: 'north']
	// 3 not_reached -1 []
	// alice at 1, 0, rubidium 0, score 0
	// {"message":"action","type":"move","direction":"left-down","from":"alice"}
}
