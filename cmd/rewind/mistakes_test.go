package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIMistakes: the mistakes a new user makes get errors that say what
// is wrong and what to do: an export to a .html name without --html, a
// misspelt bot, a busy port for view, serve and server.
func TestCLIMistakes(t *testing.T) {
	dir := t.TempDir()
	game := c06 + ".cfr"
	page := filepath.Join(dir, "g.html")
	_, err := runCLIOut(t, "export", game, "-o", page)
	if err == nil || !strings.Contains(err.Error(), "without --html") || !strings.Contains(err.Error(), "add --html") {
		t.Errorf("export -o g.html without --html: %v", err)
	}
	if _, serr := os.Stat(page); serr == nil {
		t.Error("export without --html wrote g.html")
	}

	for _, args := range [][]string{
		{"play", "--bot", "nosuchbot", "-o", filepath.Join(dir, "p.rwd")},
		{"play", "--bot", "greedy", "--bot", "nosuchbot", "-o", filepath.Join(dir, "p.rwd")},
		{"play", "--game", "monad", "--bot", "miner", "--bot", "nosuchbot", "-o", filepath.Join(dir, "p.rwd")},
		{"tournament", "--bot", "greedy", "--bot", "nosuchbot", "--dir", filepath.Join(dir, "t")},
		{"serve", dir, "--bot", "nosuchbot", "--addr", "127.0.0.1:0"},
	} {
		_, err := runCLIOut(t, args...)
		if err == nil || !strings.Contains(err.Error(), `"nosuchbot": no such built-in bot (valid: `) {
			t.Errorf("%q: %v", args, err)
		}
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	for _, args := range [][]string{
		{"serve", dir, "--addr", addr},
		{"view", game, "--addr", addr},
		{"server", "--dir", filepath.Join(dir, "srv"), "--addr", addr},
	} {
		_, err := runCLIOut(t, args...)
		if err == nil || !strings.Contains(err.Error(), addr+" is busy") || !strings.Contains(err.Error(), "--addr 127.0.0.1:0") || !strings.HasPrefix(err.Error(), args[0]+": ") {
			t.Errorf("%s on a busy port: %v", args[0], err)
		}
	}
}
