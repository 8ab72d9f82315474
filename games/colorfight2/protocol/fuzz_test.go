package protocol

import (
	"encoding/json"
	"testing"
)

// FuzzAction feeds arbitrary action_channel messages to a room before and
// after its game starts: no input panics, every reply is a JSON object
// with a boolean "success" (and an "err_msg" string when false), and the
// room's state message stays valid JSON whatever names were registered.
func FuzzAction(f *testing.F) {
	for _, s := range []string{
		`{"action":"register","username":"a","password":"p","join_key":""}`,
		`{"action":"register","username":"\u0000\"<script>","password":"p"}`,
		`{"action":"register","username":12,"password":"p"}`,
		`{"action":"command","cmd_list":["a 1 2 3","b 0 0 g","u 1 1"]}`,
		`{"action":"command","cmd_list":[1,null,{"x":[]},"a 1e9 2 3"]}`,
		`{"action":"command","cmd_list":"a 1 2 3"}`,
		`{"action":"x"}`, `{}`, `[]`, `null`, `"`, `{"action":["register"]}`,
	} {
		for _, playing := range []bool{false, true} {
			f.Add(playing, []byte(`{"action":"register","username":"fz","password":"p"}`), []byte(s))
			f.Add(playing, []byte(s), []byte(`{"action":"command","cmd_list":["a 0 0 1"]}`))
		}
	}
	ts := newTestServer(f, Options{})
	ts.createRoom("waiting", lockstep(200))
	ts.createRoom("playing", lockstep(200, "turtle", "greedy"))
	ts.start("playing")
	rooms := map[bool]*room{false: ts.s.room("waiting"), true: ts.s.room("playing")}
	f.Fuzz(func(t *testing.T, playing bool, first, second []byte) {
		r := rooms[playing]
		ac := &actionConn{}
		for _, msg := range [][]byte{first, second} {
			rep := r.action(ac, msg)
			var m map[string]any
			if err := json.Unmarshal(rep, &m); err != nil {
				t.Fatalf("reply %q to %q is not JSON: %v", rep, msg, err)
			}
			ok, isBool := m["success"].(bool)
			if !isBool {
				t.Fatalf("reply %q to %q has no boolean success", rep, msg)
			}
			if _, isStr := m["err_msg"].(string); !ok && !isStr {
				t.Fatalf("failure %q to %q has no err_msg", rep, msg)
			}
		}
		r.mu.Lock()
		msg := r.msg
		r.mu.Unlock()
		if !json.Valid(msg) {
			t.Fatalf("state message is not JSON after %q, %q: %.300s", first, second, msg)
		}
		// Free the seats the input took, so the next input meets a
		// room that is not full.
		r.dropConn(ac)
	})
}
