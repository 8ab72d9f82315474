package protocol

import (
	"strings"
	"testing"
)

// Issue 25, "names": look-alike usernames (trailing space, Cyrillic
// letters, zero-width characters, NUL, fullwidth forms) are refused or
// found to be the registered player, never a new one.
func TestLookAlikeNamesRefused(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	first := ts.action("r")
	first.register("alice", "p1")
	first2 := ts.action("r")
	first2.register("ACE", "p2")
	for _, c := range []struct{ name, want string }{
		{"alice ", "Username exists"},
		{" alice", "Username exists"},
		{"ａｌｉｃｅ", "Username exists"},                                              // fullwidth
		{"АСЕ", "Username exists"},                                                // Cyrillic capitals
		{"аlice", "Username can't mix Latin, Greek and Cyrillic letters"},         // Cyrillic а
		{"alicе", "Username can't mix Latin, Greek and Cyrillic letters"},         // Cyrillic е
		{"alice\u200b", "Username can't contain control or invisible characters"}, // zero-width space
		{"al\u200dice", "Username can't contain control or invisible characters"}, // zero-width joiner
		{"\ufeffalice", "Username can't contain control or invisible characters"}, // BOM
		{"ali\x00ce", "Username can't contain control or invisible characters"},
		{"alice\u202e", "Username can't contain control or invisible characters"}, // bidi override
		{"   ", "Username has to be at least 1 characters"},
	} {
		a := ts.action("r")
		r := a.send(map[string]any{"action": "register", "username": c.name, "password": "other", "join_key": ""})
		wantErr(t, r, c.want)
	}
	// the same player, by a look-alike spelling, with its password
	again := ts.action("r")
	if r := again.send(map[string]any{"action": "register", "username": "alice ", "password": "p1", "join_key": ""}); r["success"] != true || r["uid"] != float64(1) {
		t.Errorf("alice again: %v", r)
	}
	// names are kept normalized
	bob := ts.action("r")
	bob.register("  ｂｏｂ  ", "p3")
	st := readState(t, ts.dial("r", "game_channel"))
	var names []string
	for _, u := range st.Users {
		names = append(names, u.Username)
	}
	if len(st.Users) != 3 || !strings.Contains(strings.Join(names, ","), "bob") {
		t.Errorf("users %v", names)
	}
	for _, n := range names {
		if n != strings.TrimSpace(n) || strings.ContainsRune(n, 'ｂ') {
			t.Errorf("name %q is not normalized", n)
		}
	}
}
