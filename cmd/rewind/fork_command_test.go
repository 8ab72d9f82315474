package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// forgeSeatBot returns the .rwd data with seat's bot field in the header
// replaced by bot, the file otherwise as written (its CRC-32 made anew):
// what anyone can do to a replay they share.
func forgeSeatBot(t *testing.T, data []byte, seat int, bot string) []byte {
	t.Helper()
	return forgeHeader(t, data, func(hj map[string]any) {
		players, _ := hj["players"].([]any)
		if seat < 1 || seat > len(players) {
			t.Fatalf("no seat %d among %d", seat, len(players))
		}
		players[seat-1].(map[string]any)["bot"] = bot
	})
}

// forgeHeader returns the .rwd data with its header's JSON changed by
// edit, the file otherwise as written (its CRC-32 made anew).
func forgeHeader(t *testing.T, data []byte, edit func(hj map[string]any)) []byte {
	t.Helper()
	if !bytes.HasPrefix(data, []byte(replay.Magic)) {
		t.Fatal("not a .rwd")
	}
	rest := data[6:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < n {
		t.Fatal("header length")
	}
	raw, after := rest[k:k+int(n)], rest[k+int(n):]
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var hj map[string]any
	if err := dec.Decode(&hj); err != nil {
		t.Fatal(err)
	}
	edit(hj)
	forged, err := json.Marshal(hj)
	if err != nil {
		t.Fatal(err)
	}
	bn, bk := binary.Uvarint(after)
	if bk <= 0 {
		t.Fatal("map blob length")
	}
	blobEnd := bk + int(bn)
	var pre bytes.Buffer
	pre.Write(data[:6])
	pre.Write(binary.AppendUvarint(nil, uint64(len(forged))))
	pre.Write(forged)
	pre.Write(after[:blobEnd])
	pre.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(pre.Bytes())))
	return append(pre.Bytes(), after[blobEnd+4:]...)
}

// TestForkNeverRunsRecordedCommand: a replay whose header names a shell
// command as a seat's bot — a real recording, forged — still verifies
// (the field is not part of the game), and `rewind fork` refuses to play
// it, naming the seat and how to map it: the command never runs. With
// --bot for that seat it plays on, and `info` shows the recorded command
// as what it was.
func TestForkNeverRunsRecordedCommand(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", "raider", "--turns", "200", "-o", game)
	data := testutil.ReadFile(t, game)
	marker := filepath.Join(dir, "PWNED")
	evil := filepath.Join(dir, "evil.rwd")
	if err := os.WriteFile(evil, forgeSeatBot(t, data, 2, "touch "+marker), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLIOut(t, "verify", evil); err != nil {
		t.Fatalf("the forged replay does not verify (the test forges what verify checks): %v\n%s", err, out)
	}
	if got := infoBots(t, evil); len(got) != 2 || !strings.Contains(got[1], "touch "+marker) {
		t.Fatalf("info shows the seats %q, want seat 2's recorded command", got)
	}

	out, err := runCLIOut(t, "fork", evil, "--turn", "100", "-o", filepath.Join(dir, "f.rwd"))
	if err == nil || !strings.Contains(err.Error(), "seat 2") || !strings.Contains(err.Error(), "--bot UID=COMMAND") {
		t.Errorf("fork of a replay naming a command: %v\n%s", err, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("fork ran the command the replay names")
	}
	if _, err := os.Stat(filepath.Join(dir, "f.rwd")); err == nil {
		t.Error("a refused fork wrote its output")
	}

	forked := filepath.Join(dir, "mapped.rwd")
	if out, err := runCLIOut(t, "fork", evil, "--turn", "100", "--bot", "2=greedy", "-o", forked); err != nil {
		t.Fatalf("fork --bot 2=greedy: %v\n%s", err, out)
	}
	if got := infoBots(t, forked); len(got) != 2 || got[0] != "greedy" || got[1] != "greedy" {
		t.Errorf("fork --bot 2=greedy seats %q", got)
	}
	mustRunCLI(t, "fork", evil, "--turn", "100", "--fill", "turtle", "-o", forked, "--force")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a fork ran the command the replay names")
	}
}
