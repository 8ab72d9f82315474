package rooms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestLive: a game's bytes are its file's up to its last whole round,
// through a rename, and the whole file once done; a round and the end
// wake the waiters; a listed game is read from its file; the oldest
// finished games beyond MaxLiveFinished are forgotten; a nil Live
// ignores every call.
func TestLive(t *testing.T) {
	dir := t.TempDir()
	var l Live
	open := func(name string) (*os.File, *os.File) {
		w, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		r, err := os.Open(w.Name())
		if err != nil {
			t.Fatal(err)
		}
		return w, r
	}
	w, r := open("g.partial")
	w.WriteString("head")
	rec := l.Start(LiveGame{ID: "g", MaxTurn: 9, Players: []string{"a", "b"}}, r)
	data, g, changed, err := l.Replay("g")
	if err != nil || string(data) != "head" || g.Turn != 0 || g.Done || g.MaxTurn != 9 {
		t.Fatalf("start: %q %+v %v", data, g, err)
	}
	w.WriteString("+round1")
	rec.Round(1)
	<-changed
	if data, g, changed, _ = l.Replay("g"); string(data) != "head+round1" || g.Turn != 1 {
		t.Fatalf("round 1: %q %+v", data, g)
	}
	w.WriteString("+end")
	if data, _, _, _ = l.Replay("g"); string(data) != "head+round1" {
		t.Fatalf("bytes past the last whole round read: %q", data)
	}
	final := filepath.Join(dir, "g.rwd")
	if err := os.Rename(w.Name(), final); err != nil {
		t.Fatal(err)
	}
	rec.Finish(2, final)
	<-changed
	if data, g, _, _ = l.Replay("g"); string(data) != "head+round1+end" || !g.Done || g.Turn != 2 || g.File != final {
		t.Fatalf("done: %q %+v", data, g)
	}
	if _, _, changed, _ := l.Replay("g"); changed != nil {
		t.Error("a finished game's channel is not nil")
	}
	l.List(LiveGame{ID: "old", File: final, Recovered: true})
	if data, g, changed, err := l.Replay("old"); err != nil || string(data) != "head+round1+end" || !g.Done || !g.Recovered || changed != nil {
		t.Fatalf("listed: %q %+v %v %v", data, g, changed, err)
	}
	if _, _, _, err := l.Replay("nope"); !errors.Is(err, ErrNoLiveGame) {
		t.Errorf("unknown id: %v", err)
	}

	// MaxLiveFinished more finished games: the first is forgotten.
	for i := range MaxLiveFinished {
		_, r := open(fmt.Sprint(i))
		l.Start(LiveGame{ID: fmt.Sprint(i)}, r).Finish(0, "")
	}
	_, r = open("running")
	l.Start(LiveGame{ID: "running"}, r)
	games := l.Games()
	if len(games) != MaxLiveFinished+1 || games[0].ID != "0" || games[len(games)-1].ID != "running" {
		t.Fatalf("games %+v", games)
	}
	if _, _, _, err := l.Replay("g"); !errors.Is(err, ErrNoLiveGame) {
		t.Errorf("the oldest finished game is still there: %v", err)
	}

	var nl *Live
	nl.Start(LiveGame{ID: "x"}, nil).Round(1)
	if nl.Games() != nil {
		t.Error("nil Live lists games")
	}
}
