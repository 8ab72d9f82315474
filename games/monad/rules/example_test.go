package rules_test

import (
	"fmt"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// A turn of a 2-player game: player 0 mines its start cell and sends one
// malformed command, which is rejected on its own while the turn plays on.
func Example() {
	s, err := monad.New(monad.Config{Players: 2, Seed: 42})
	if err != nil {
		panic(err)
	}
	cmds := make([][]monad.Command, 2)
	cmds[0] = monad.ParseReply([]byte(`[
		{"l": [1, 1], "c": "MINE", "d": 7, "n": 1},
		{"l": [1, 1], "c": "MOVE", "d": 9, "n": 1}
	]`), nil)
	before := s.Resource(1, 1)
	s.Step(cmds)
	fmt.Println("turn", s.Turn(), "- the cell gave", before-s.Resource(1, 1))
	for _, e := range s.Errors() {
		fmt.Printf("player %d command %d: %v\n", e.Player, e.Index, e.Code)
	}
	st := s.Stats(0)
	fmt.Println("resources", st.Resources, "units", st.Units, "hives", st.Hives)
	// Output:
	// turn 1 - the cell gave 1
	// player 0 command 1: direction is not an integer 1..7
	// resources 101 units 1 hives 1
}
