package testutil

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"testing"
	"time"

	"github.com/rewind-game/rewind/replay"
)

// SetCreated rewrites the .rwd at path as if it had been recorded at
// created: its header's creation time (docs/replay-format.md, a second's
// precision) replaced and the header's CRC-32 computed again, the body
// untouched, so the file still verifies. A file without a creation time
// in its header fails the test.
func SetCreated(tb testing.TB, path string, created time.Time) {
	tb.Helper()
	data := ReadFile(tb, path)
	at := len(replay.Magic) + 2
	n, w := binary.Uvarint(data[at:])
	if w <= 0 || uint64(len(data)-at-w) < n {
		tb.Fatalf("%s: not a .rwd header", path)
	}
	hj := data[at+w : at+w+int(n)]
	var h struct {
		Created string `json:"created"`
	}
	if err := json.Unmarshal(hj, &h); err != nil || h.Created == "" {
		tb.Fatalf("%s: header without a creation time (%v)", path, err)
	}
	old := []byte(`"created":"` + h.Created + `"`)
	next := []byte(`"created":"` + created.UTC().Format(time.RFC3339) + `"`)
	if bytes.Count(hj, old) != 1 {
		tb.Fatalf("%s: the header's creation time is not one key", path)
	}
	nhj := bytes.Replace(hj, old, next, 1)
	var pre []byte
	pre = append(pre, data[:len(replay.Magic)+2]...)
	pre = binary.AppendUvarint(pre, uint64(len(nhj)))
	pre = append(pre, nhj...)
	rest := data[at+w+int(n):]
	bn, bw := binary.Uvarint(rest)
	if bw <= 0 || uint64(len(rest)-bw) < bn+4 {
		tb.Fatalf("%s: header cut short", path)
	}
	pre = append(pre, rest[:bw+int(bn)]...)
	pre = binary.LittleEndian.AppendUint32(pre, crc32.ChecksumIEEE(pre))
	out := append(pre, rest[bw+int(bn)+4:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
}
