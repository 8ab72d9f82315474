package protocol

import (
	"slices"
	"strconv"
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
		{"ａｌｉｃｅ", "Username exists"},                                                                      // fullwidth
		{"АСЕ", "Username exists"},                                                                        // Cyrillic capitals
		{"аlice", "Username can't mix scripts (Cyrillic and Latin)"},                                      // Cyrillic а
		{"alicе", "Username can't mix scripts (Cyrillic and Latin)"},                                      // Cyrillic е
		{"alice\u200b", "Username can't contain control or invisible characters (U+200B at character 6)"}, // zero-width space
		{"al\u200dice", "Username can't contain control or invisible characters (U+200D at character 3)"}, // zero-width joiner
		{"\ufeffalice", "Username can't contain control or invisible characters (U+FEFF at character 1)"}, // BOM
		{"ali\x00ce", "Username can't contain control or invisible characters (U+0000 at character 4)"},
		{"alice\u202e", "Username can't contain control or invisible characters (U+202E at character 6)"}, // bidi override
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

// Issue 37, finding 4: look-alike names (invisible fillers and blanks,
// letters of other scripts, Latin letters that look like others, digits
// that look like letters) are refused beside the names they imitate, and
// plain distinct names are all seated beside each other.
func TestConfusableNamesRefused(t *testing.T) {
	ts := newTestServer(t, Options{MaxRooms: 64, MaxConnsPerIP: 1024})
	const (
		invisible = "Username can't contain control or invisible characters"
		scripts   = "Username can't mix scripts"
		exists    = "Username exists"
	)
	for i, c := range []struct{ name, want string }{
		{"Alice\u3164", invisible},     // HANGUL FILLER
		{"\u2800", invisible},          // BRAILLE PATTERN BLANK
		{"\u115f", invisible},          // HANGUL CHOSEONG FILLER
		{"A\u034flice", invisible},     // COMBINING GRAPHEME JOINER
		{"\u13aa\u13df\u13ac", exists}, // Cherokee ᎪᏟᎬ
		{"\u13aalice", scripts},        // Cherokee Ꭺ, Latin lice
		{"\u0391\u03f9\u0395", exists}, // Greek ΑϹΕ
		{"b\u0585b", scripts},          // Armenian օ
		{"\u0299ob", exists},           // LATIN LETTER SMALL CAPITAL B
		{"Al\u0131ce", exists},         // dotless ı
		{"\u0251dmin", exists},         // LATIN SMALL LETTER ALPHA
		{"AIice", exists},              // capital I for l
		{"A1ice", exists},              // digit 1 for l
		{"alice", exists},              // case
		{"ALICE", exists},              // case
		{"\ufe0fbob", invisible},       // variation selector
		{"bob\U000e0062", invisible},   // tag letter
		{"a\u200bdmin", invisible},     // zero-width space
		{"\u3164", invisible},          // a filler alone
		{"\uffa0", invisible},          // HALFWIDTH HANGUL FILLER
		{"\u1160bob", invisible},       // HANGUL JUNGSEONG FILLER
		{"Alice\u180e", invisible},     // MONGOLIAN VOWEL SEPARATOR
		{"bob\U000e0100", invisible},   // VARIATION SELECTOR-17
	} {
		// a room of its own for each, so that one wrongly seated
		// takes no seat from the next
		room := "r" + strconv.Itoa(i)
		ts.createRoom(room, lockstep(200))
		for i, name := range []string{"Alice", "ACE", "bob", "admin"} {
			ts.action(room).register(name, "p"+strconv.Itoa(i))
		}
		r := ts.action(room).send(map[string]any{"action": "register", "username": c.name, "password": "other", "join_key": ""})
		if msg, _ := r["err_msg"].(string); r["success"] != false || !strings.HasPrefix(msg, c.want) {
			t.Errorf("%+q: reply %v, want an error starting %q", c.name, r, c.want)
		}
	}

	// a room seats 8: the first eight, then the last eight
	plain := []string{"Alice", "Bob", "Carol", "Zoë", "李雷", "Ümit", "bot-1", "bot-2", "Ace", "ann"}
	for room, seated := range map[string][]string{"plain-a": plain[:8], "plain-b": plain[2:]} {
		ts.createRoom(room, lockstep(200))
		for i, name := range seated {
			r := ts.action(room).send(map[string]any{"action": "register", "username": name, "password": "p" + strconv.Itoa(i), "join_key": ""})
			if r["success"] != true {
				t.Errorf("room %s: %q beside %q: %v", room, name, seated[:i], r)
			}
		}
		st := readState(t, ts.dial(room, "game_channel"))
		var names []string
		for _, u := range st.Users {
			names = append(names, u.Username)
		}
		slices.Sort(names)
		want := slices.Sorted(slices.Values(seated))
		if !slices.Equal(names, want) {
			t.Errorf("room %s seats %q, want %q", room, names, want)
		}
	}
}
