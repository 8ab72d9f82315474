package vectors

import (
	"testing"
)

// FuzzVectorInput: any input file parses or fails with an error, and
// every command of one that parses becomes a request or an error,
// never a panic; playing it against an empty states file is an error.
func FuzzVectorInput(f *testing.F) {
	f.Add([]byte(`{"format":"colorfight1-vector-input/1","name":"v","clock":{"t0":1000.0,"tick":0.25},"seed":1,"startgame":{"admin_password":"","last_time":0,"ai_join_time":0},"gold_cells":[1],"energy_cells":[2],"ticks":2,"commands":[{"k":0,"cmds":[{"ep":"/joingame","body":{"name":"a"},"spawn":[3,4]},{"ep":"/attack","body":{"cellx":3,"celly":3,"token":{"$join":0}}},{"ep":"/blast","raw":"x=1","ctype":"text/plain"}]}]}`))
	f.Add([]byte(`{"format":"colorfight1-vector-input/1","ticks":-1}`))
	f.Add([]byte(`{"format":"colorfight1-vector-input/1","commands":[{"k":0,"cmds":[{"ep":"/attack","body":{"token":{"$join":-1}}}]}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := ParseInput(raw)
		if err != nil {
			return
		}
		for _, t := range v.Commands {
			for i := range t.Cmds {
				Request(&t.Cmds[i], i)
			}
		}
		if _, err := Check(v, []byte(`{"format":"colorfight1-vector-states/1","ticks":[]}`)); err == nil && v.Ticks >= 0 {
			t.Fatalf("a vector checked against no states")
		}
	})
}
