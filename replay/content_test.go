package replay_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/rewind-game/rewind/replay"
)

// contentHash reads the whole recording b with HashContent on.
func contentHash(t *testing.T, b []byte) string {
	t.Helper()
	rd, err := replay.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rd.HashContent()
	for {
		if _, err := rd.NextText(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return rd.ContentHash()
}

// TestContentHashLeavesOutSideData: a game's content hash (its header
// and commands) is the same with or without the bots' logs, whose files
// differ byte for byte and in format version; a game of other commands
// hashes otherwise; a file cut short has none.
func TestContentHashLeavesOutSideData(t *testing.T) {
	withLogs, _ := loggedGame(t, 60, true)
	plain, _ := loggedGame(t, 60, false)
	longer, _ := loggedGame(t, 80, false)
	if bytes.Equal(withLogs, plain) {
		t.Fatal("the files with and without logs are the same bytes")
	}
	a, b, c := contentHash(t, withLogs), contentHash(t, plain), contentHash(t, longer)
	if a == "" || a != b {
		t.Errorf("content hash with logs %q, without %q: want one non-empty hash", a, b)
	}
	if c == a {
		t.Error("a game of other rounds has the same content hash")
	}
	rd, err := replay.NewReader(bytes.NewReader(plain[:len(plain)-40]))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rd.HashContent()
	for {
		if _, err := rd.NextText(); err != nil {
			break
		}
	}
	if h := rd.ContentHash(); h != "" {
		t.Errorf("a cut file has content hash %q", h)
	}
}
