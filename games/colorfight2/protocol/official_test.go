package protocol

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/rooms"
)

// TestOfficialServesAlone: the protocol run as a plain rooms.Protocol,
// from Go without a command line, listens on Options.Addr with its first
// room at the flags' defaults (public, constant-run), answers the
// official RPCs, and returns once ctx ends.
func TestOfficialServesAlone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Official{}.Serve(ctx, rooms.Options{Addr: "127.0.0.1:0", Dir: t.TempDir(), ThinkTime: -1,
			Ready: func(a map[string]string) { addrs <- a["players"] }})
	}()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	resp, err := http.Get("http://" + addr + "/get_gameroom_list")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list) != 1 || list[0]["name"] != "public" {
		t.Fatalf("room list %v (%v)", list, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after ctx ended: %v", err)
	}
}

// TestOfficialRefusesBadOptions: Mount checks Options before it writes
// anything, naming the flag at fault.
func TestOfficialRefusesBadOptions(t *testing.T) {
	for _, c := range []struct {
		o    rooms.Options
		flag string
	}{
		{rooms.Options{Players: 3, ThinkTime: -1}, "--max-player"},
		{rooms.Options{ThinkTime: 21e9}, "--round-time"},
		{rooms.Options{Deadline: 1, ThinkTime: -1}, "--lockstep-deadline"},
		{rooms.Options{Players: 2, Bots: []string{"greedy", "greedy", "turtle"}, ThinkTime: -1}, "--bot"},
	} {
		c.o.Dir = t.TempDir() + "/never"
		if _, err := (Official{}).Mount(c.o); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%+v: %v, want an error naming %s", c.o, err, c.flag)
		}
	}
}
