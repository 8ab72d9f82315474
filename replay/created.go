package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"time"
)

// SetCreated returns the .rwd data as if it had been recorded at created:
// its header's creation time (a second's precision, as Header.Created is
// written) replaced and the header's CRC-32 computed again, the body
// untouched, so the file still verifies. The content hash (Reader.ContentHash)
// covers the header, so the result is another game for the library's
// dedupe. It fails on data that is not a whole .rwd header that reads
// (ReadHeader: its CRC-32 and bounds checked, so a damaged header is
// never signed again) or whose header records no creation time.
func SetCreated(data []byte, created time.Time) ([]byte, error) {
	at := len(Magic) + 2
	if len(data) < at || string(data[:len(Magic)]) != Magic {
		return nil, errors.New("replay: not a .rwd")
	}
	if _, err := ReadHeader(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("replay: the header to give a creation time: %w", err)
	}
	n, w := binary.Uvarint(data[at:])
	if w <= 0 || uint64(len(data)-at-w) < n {
		return nil, errors.New("replay: header cut short")
	}
	hj := data[at+w : at+w+int(n)]
	var h struct {
		Created string `json:"created"`
	}
	if err := json.Unmarshal(hj, &h); err != nil {
		return nil, fmt.Errorf("replay: header: %w", err)
	}
	if h.Created == "" {
		return nil, errors.New("replay: the header records no creation time")
	}
	old := []byte(`"created":"` + h.Created + `"`)
	if bytes.Count(hj, old) != 1 {
		return nil, errors.New("replay: the header's creation time is not written as one key")
	}
	nhj := bytes.Replace(hj, old, []byte(`"created":"`+created.UTC().Format(time.RFC3339)+`"`), 1)
	rest := data[at+w+int(n):]
	bn, bw := binary.Uvarint(rest)
	if bw <= 0 || bn > uint64(len(rest)-bw) || uint64(len(rest)-bw)-bn < 4 {
		return nil, errors.New("replay: header cut short")
	}
	out := make([]byte, 0, len(data)+len(nhj)-len(hj))
	out = append(out, data[:at]...)
	out = binary.AppendUvarint(out, uint64(len(nhj)))
	out = append(out, nhj...)
	out = append(out, rest[:bw+int(bn)]...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	return append(out, rest[bw+int(bn)+4:]...), nil
}
