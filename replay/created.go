package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"time"
)

// SetCreated returns a copy of the .rwd file in file with its header's
// creation time (Header.Created) set to created (to the second, UTC) and
// the header's CRC-32 recomputed; the body is copied as it is. The copy
// holds another game as far as content hashes go (the header is part of
// it), with the same moves: what a script needs to make a library of many
// distinct files from a few real ones. A file whose header does not read
// (ReadHeader) is refused.
func SetCreated(file []byte, created time.Time) ([]byte, error) {
	if _, err := ReadHeader(bytes.NewReader(file)); err != nil {
		return nil, err
	}
	// magic and version (6 bytes), the header JSON's length and bytes,
	// the map blob's length and bytes, the CRC-32 of all that.
	p := 6
	n, k := binary.Uvarint(file[p:])
	p += k
	raw := file[p : p+int(n)]
	rest := p + int(n)
	bl, k := binary.Uvarint(file[rest:])
	blobEnd := rest + k + int(bl)
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("replay: header JSON: %w", err)
	}
	old, ok := fields["created"]
	stamp, _ := json.Marshal(created.UTC().Format(time.RFC3339))
	var hj []byte
	if ok {
		// In place, so that every other byte of the header stays as
		// the writer wrote it.
		i := bytes.Index(raw, append([]byte(`"created":`), old...))
		if i < 0 {
			return nil, fmt.Errorf("replay: header JSON: no created key as written")
		}
		hj = append(append(append([]byte{}, raw[:i+len(`"created":`)]...), stamp...), raw[i+len(`"created":`)+len(old):]...)
	} else {
		hj = append(append([]byte(`{"created":`), stamp...), ',')
		hj = append(hj, raw[1:]...)
	}
	var out bytes.Buffer
	out.Write(file[:6])
	out.Write(binary.AppendUvarint(nil, uint64(len(hj))))
	out.Write(hj)
	out.Write(file[rest:blobEnd])
	out.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(out.Bytes())))
	out.Write(file[blobEnd+4:])
	if _, err := ReadHeader(bytes.NewReader(out.Bytes())); err != nil {
		return nil, fmt.Errorf("replay: the rewritten header: %w", err)
	}
	return out.Bytes(), nil
}
