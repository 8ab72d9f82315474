package replay

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// byteReader is a buffered reader that knows its offset and, while crc is
// set, checksums what it reads.
type byteReader struct {
	br  *bufio.Reader
	off int64
	crc hash.Hash32
	// rec, while crc is set, keeps the bytes read (the header's), so that
	// a header that runs out of input can be judged cut or damaged.
	rec []byte
	// content, while set, hashes what is read (the body's game records:
	// Reader.HashContent).
	content hash.Hash
}

func (b *byteReader) ReadByte() (byte, error) {
	c, err := b.br.ReadByte()
	if err == nil {
		b.off++
		if b.content != nil {
			b.content.Write([]byte{c})
		}
		if b.crc != nil {
			b.crc.Write([]byte{c})
			b.rec = append(b.rec, c)
		}
	}
	return c, err
}

func (b *byteReader) full(p []byte) error {
	n, err := io.ReadFull(b.br, p)
	b.off += int64(n)
	if b.content != nil {
		b.content.Write(p[:n])
	}
	if b.crc != nil {
		b.crc.Write(p[:n])
		b.rec = append(b.rec, p[:n]...)
	}
	return err
}

// ReadHeader reads only the header of a .rwd file: it does not decode the
// map blob or touch the body. For a seeded game the returned header has no
// Map (NewReader generates it). A file from a newer format version gives
// ErrNewerVersion.
func ReadHeader(r io.Reader) (*Header, error) {
	br := &byteReader{br: bufio.NewReaderSize(r, 4096)}
	h, _, err := readHeader(br, false)
	return h, err
}

// BodyBytes reads a .rwd's header (as ReadHeader) and decompresses its
// body without decoding it, up to limit+1 bytes: it returns the header and
// what the body decompresses to (limit+1 when more than limit). A damaged
// or cut body ends the count where it breaks. Work: the decompression of
// at most limit+1 bytes, so that a caller can refuse a file whose body
// expands beyond reason before decoding it (an upload).
func BodyBytes(r io.Reader, limit int64) (*Header, int64, error) {
	br := &byteReader{br: bufio.NewReaderSize(r, 64<<10)}
	h, _, err := readHeader(br, false)
	if err != nil {
		return nil, 0, err
	}
	zr, err := bodyDecoder(br.br)
	if err != nil {
		return h, 0, &FormatError{Round: 0, Err: err}
	}
	defer releaseBodyDecoder(zr)
	n, _ := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	return h, n, nil
}

func headerErr(off int64, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = ErrTruncated
	}
	return &FormatError{Round: -1, Offset: off, Err: err}
}

// headerLength reads the length of the header's part what (a uvarint)
// and checks it is at most limit.
func headerLength(br *byteReader, what string, limit uint64) (uint64, error) {
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return 0, headerErr(br.off, err)
	}
	if n > limit {
		return 0, headerErr(br.off, fmt.Errorf("%s length %d over %d: %w", what, n, limit, ErrLimit))
	}
	return n, nil
}

// readHeader parses magic, version, header JSON and (if withMap) the map
// blob; it always consumes the blob so the body follows.
func readHeader(br *byteReader, withMap bool) (*Header, int64, error) {
	br.crc = crc32.NewIEEE()
	defer func() { br.crc, br.rec = nil, nil }()
	// lenOff are the offsets of the JSON's and the blob's lengths: input
	// that ends inside either is damage when one bit of a length explains
	// it (headerLengthDamaged), else a cut.
	var lenOff [2]int
	cut := func(off int64, err error) error {
		if (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) && headerLengthDamaged(br.rec, lenOff) {
			err = fmt.Errorf("a length in the header is damaged (its CRC-32 matches with one bit changed): %w", ErrCorrupt)
		}
		return headerErr(off, err)
	}
	var magic [6]byte
	if err := br.full(magic[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, headerErr(br.off, ErrNotReplay)
		}
		return nil, 0, headerErr(br.off, err)
	}
	if string(magic[:4]) != Magic {
		return nil, 0, headerErr(0, ErrNotReplay)
	}
	version := binary.LittleEndian.Uint16(magic[4:])
	switch {
	case version == 0:
		return nil, 0, headerErr(4, fmt.Errorf("version 0, which no format has (this reader knows 1..%d): %w", Version, ErrCorrupt))
	case version > Version:
		return nil, 0, headerErr(4, fmt.Errorf("version %d, this reader knows 1..%d: %w", version, Version, ErrNewerVersion))
	}
	lenOff[0] = int(br.off)
	n, err := headerLength(br, "header", MaxHeaderBytes)
	if err != nil {
		return nil, 0, err
	}
	raw := make([]byte, n)
	start := br.off
	if err := br.full(raw); err != nil {
		return nil, 0, cut(br.off, err)
	}
	var hj headerJSON
	if err := json.Unmarshal(raw, &hj); err != nil {
		return nil, 0, headerErr(start, fmt.Errorf("header JSON: %v: %w", err, ErrCorrupt))
	}
	h := &Header{
		Ruleset: hj.Ruleset, RulesetVersion: hj.RulesetVersion,
		Config: Config{Width: hj.Width, Height: hj.Height, MaxTurn: hj.MaxTurn, MaxPlayer: hj.MaxPlayer},
		Seed:   hj.Seed, Tool: hj.Tool, CheckpointEvery: hj.Checkpoint, CFRInfo: hj.CFRInfo,
		Logs: version >= VersionLogs, ReplyTimes: version >= VersionReplyTimes, Marks: version >= VersionMarks,
	}
	if hj.CFRGameID != nil && hj.CFRInfo == nil {
		h.CFRInfo = OfficialInfo(h.Config, *hj.CFRGameID)
	}
	if hj.Created != "" {
		if t, err := time.Parse(time.RFC3339, hj.Created); err == nil {
			h.Created = t
		}
	}
	if len(hj.Players) > MaxPlayers {
		return nil, 0, headerErr(start, fmt.Errorf("%d players: %w", len(hj.Players), ErrLimit))
	}
	for _, p := range hj.Players {
		h.Players = append(h.Players, Player{UID: p.UID, Name: p.Name, Home: engine.Point{X: p.Home[0], Y: p.Home[1]}, Bot: p.Bot, Verified: p.Verified, Ranking: p.Ranking, BotSeed: p.BotSeed})
	}
	if hj.Parent != nil {
		if len(hj.Parent.Source) > MaxNameBytes*4 || len(hj.Parent.SHA256) > 64 || hj.Parent.Turn < 0 || hj.Parent.Turn > hj.MaxTurn {
			return nil, 0, headerErr(start, fmt.Errorf("parent provenance out of range: %w", ErrLimit))
		}
		h.Parent = &Parent{Source: hj.Parent.Source, SHA256: hj.Parent.SHA256, Turn: hj.Parent.Turn}
	}
	if h.Compact() && !h.Legacy() {
		// The setup of a ruleset's own codec is the object under its ID.
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil {
			return nil, 0, headerErr(start, fmt.Errorf("header JSON: %v: %w", err, ErrCorrupt))
		}
		if su, ok := keys[h.Ruleset]; ok && !headerKey(h.Ruleset) {
			h.Setup = []byte(su)
		}
	}
	if hj.Codec != "" {
		if hj.GameSeed == nil {
			return nil, 0, headerErr(start, fmt.Errorf("a %s codec header without its seed: %w", hj.Codec, ErrCorrupt))
		}
		h.Codec, h.GameSeed, h.Setup = hj.Codec, *hj.GameSeed, hj.Setup
		if version < VersionText {
			return nil, 0, headerErr(start, fmt.Errorf("the %s codec in a version %d file: %w", hj.Codec, version, ErrCorrupt))
		}
	}
	if hj.Import != nil {
		if len(hj.Import.Source) > MaxNameBytes*4 || len(hj.Import.SHA256) > 64 {
			return nil, 0, headerErr(start, fmt.Errorf("import provenance longer than the limit: %w", ErrLimit))
		}
		h.Import = &Import{Source: hj.Import.Source, SHA256: hj.Import.SHA256, Inferred: hj.Import.Commands == "inferred"}
	}
	lenOff[1] = int(br.off)
	blobLen, err := headerLength(br, "map blob", MaxMapBlobBytes)
	if err != nil {
		return nil, 0, err
	}
	_, lh := h.legacyRuleset()
	if lh == nil {
		if blobLen != 0 {
			return nil, 0, headerErr(br.off, fmt.Errorf("a %s header with a map blob: %w", h.Ruleset, ErrCorrupt))
		}
	} else if (blobLen == 0) != (h.Seed != nil) {
		return nil, 0, headerErr(br.off, fmt.Errorf("need exactly one of a map seed and a map blob: %w", ErrCorrupt))
	}
	// Validate what we can before allocating for the map.
	check := *h
	if check.Seed == nil && lh != nil {
		check.Map = []byte{} // placeholder: the blob is read below
	}
	if err := check.validate(); err != nil {
		return nil, 0, headerErr(start, fmt.Errorf("%w (%w)", err, ErrCorrupt))
	}
	blobOff := br.off
	blob := make([]byte, blobLen)
	if err := br.full(blob); err != nil {
		return nil, 0, cut(br.off, err)
	}
	sum := br.crc.Sum32()
	var crc [4]byte
	if err := br.full(crc[:]); err != nil {
		return nil, 0, cut(br.off, err)
	}
	br.crc, br.rec = nil, nil
	if binary.LittleEndian.Uint32(crc[:]) != sum {
		return nil, 0, headerErr(br.off-4, fmt.Errorf("header checksum mismatch: %w", ErrCorrupt))
	}
	if !withMap || lh == nil {
		return h, br.off, nil // any other game's map is drawn by its ruleset
	}
	// A legacy header's map: its ruleset decodes it (or draws it from its
	// seed) once, for every game the Reader starts.
	off := start
	if blobLen > 0 {
		m, err := decodeMapBlob(blob, lh.MapLimit(h.legacy()))
		if err != nil {
			return nil, 0, headerErr(blobOff, err)
		}
		h.Map, off = m, blobOff
	}
	if h.start, err = lh.Open(h.legacy()); err != nil {
		return nil, 0, headerErr(off, fmt.Errorf("%v: %w", err, ErrCorrupt))
	}
	return h, br.off, nil
}

// decodeMapBlob returns a legacy header's map (Header.Map) from its map
// blob: the first byte as it is, then what the zstd frame after it
// decompresses to, at most limit bytes.
func decodeMapBlob(blob []byte, limit int) ([]byte, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(limit)+1))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(blob[1:], nil)
	if err != nil {
		return nil, fmt.Errorf("map blob: %v: %w", err, ErrCorrupt)
	}
	return append([]byte{blob[0]}, raw...), nil
}

// Reader reads a .rwd file: the header at once, then the rounds as a
// stream. Errors are sticky.
type Reader struct {
	src     io.Reader
	hdr     *Header
	bodyOff int64 // file offset of the body
	zr      *zstd.Decoder
	track   *blockTracker // the body's zstd structure, to tell a cut from damage
	// footerRead: the footer record was read whole (the content did not
	// end early, whatever follows).
	footerRead bool
	br         *byteReader
	turn       int // turn of the next round
	footer     *Footer
	err        error
	// rawBuf is the scratch a text is read into (readText).
	rawBuf []byte
	// text is set for a file of the generic codec: its rounds are read
	// by NextText into tround.
	text   bool
	tround TextRound
	// codec is the ruleset of a file in its ruleset's compact codec
	// (Header.Compact), rs the same ruleset: NextText decodes its rounds
	// into tround with dec, made from the header's game at the first.
	codec engine.Codec
	rs    engine.Ruleset
	dec   engine.RecordDecoder
	// logBuf[p] is the storage of player p+1's round log (Round.Logs).
	logBuf [][]byte
	// replyBuf is the storage of a round's reply times.
	replyBuf []time.Duration
	// markBuf is the storage of a round's marks.
	markBuf []engine.BotMark
	// content hashes the game part of the file (HashContent), nil when
	// not asked for; contentSum is its sum once the footer is read.
	content    hash.Hash
	contentSum string
}

// contentMagic opens what a content hash covers, so that it names its
// own definition (a change of what it covers changes the tag).
const contentMagic = "rewind content 1\n"

// HashContent makes the reader hash the game the file holds as it reads
// it: its header (as the file writes it, the map included) and every
// record of its body but the side data (log records: the bots' logs;
// reply-time records: how long they took to answer; mark records: what
// they drew; any later side section is left out too), so that two files
// of one game, with or without logs, reply times or marks, hash alike. Call it before the first
// NextText; ContentHash returns the sum once NextText has returned
// io.EOF. Seek stops the hashing.
func (r *Reader) HashContent() {
	if r.turn != 0 || r.content != nil {
		return
	}
	h := sha256.New()
	h.Write([]byte(contentMagic))
	j, _ := json.Marshal(r.hdr.toJSON())
	h.Write(j)
	h.Write([]byte{0})
	h.Write(r.hdr.Map)
	h.Write([]byte{0})
	r.content = h
	r.br.content = h
}

// ContentHash is the hex SHA-256 of the game the file holds
// (HashContent), once the whole file is read; "" before, after a read
// error or a Seek, and when HashContent was not called.
func (r *Reader) ContentHash() string { return r.contentSum }

// NewReader reads the header (and map) from r and prepares to stream the
// rounds. If r is an io.ReadSeeker positioned at the start of the file,
// Seek can also go backwards.
func NewReader(r io.Reader) (*Reader, error) {
	cr := &countingReader{r: r}
	br := &byteReader{br: bufio.NewReaderSize(cr, 64<<10)}
	h, off, err := readHeader(br, true)
	if err != nil {
		return nil, err
	}
	rd := &Reader{src: r, hdr: h, bodyOff: off, text: h.Codec != ""}
	if h.Compact() {
		// h.Ruleset is validated by readHeader for any header but a legacy one.
		rd.rs, rd.codec, err = compactCodec(h.Ruleset)
		if err != nil {
			return nil, &FormatError{Round: -1, Err: fmt.Errorf("%v: %w", err, ErrRuleset)}
		}
	}
	if err := rd.startBody(br.br); err != nil {
		return nil, err
	}
	return rd, nil
}

func (r *Reader) startBody(src io.Reader) error {
	r.track = &blockTracker{r: src}
	zr, err := bodyDecoder(r.track)
	if err != nil {
		return &FormatError{Round: 0, Err: err}
	}
	r.zr = zr
	r.br = &byteReader{br: bufio.NewReaderSize(zr, 32<<10)}
	r.content, r.contentSum = nil, "" // a restarted body is not hashed
	r.turn, r.footer, r.err, r.footerRead, r.dec = 0, nil, nil, false, nil
	return nil
}

// Header returns the file's header, with the initial map.
func (r *Reader) Header() *Header { return r.hdr }

// Footer returns the footer once NextText (or a Sim) has returned
// io.EOF; nil before, and nil for a recording without one.
func (r *Reader) Footer() *Footer { return r.footer }

// Turn returns the turn of the round NextText will return next.
func (r *Reader) Turn() int { return r.turn }

// errClosed is what NextText returns after Close.
var errClosed = errors.New("replay: reader closed")

// Close releases the decompressor (for another Reader to reuse). It does
// not close the source. NextText then returns an error.
func (r *Reader) Close() error {
	if r.zr != nil {
		releaseBodyDecoder(r.zr)
		r.zr = nil
		if r.err == nil {
			r.err = errClosed
		}
	}
	return nil
}

// bodyDecoders keeps the body decompressors of closed Readers: a new one
// allocates its whole window (most of the cost of opening a small
// recording), a reset one reuses it.
var bodyDecoders sync.Pool

// bodyDecoder returns a decompressor reading src, with the body's limits.
func bodyDecoder(src io.Reader) (*zstd.Decoder, error) {
	if d, ok := bodyDecoders.Get().(*zstd.Decoder); ok {
		if err := d.Reset(src); err == nil {
			return d, nil
		}
		d.Close()
	}
	return zstd.NewReader(src, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(256<<20), zstd.WithDecoderMaxWindow(8<<20))
}

// releaseBodyDecoder hands d back for another body once it lets go of
// its input.
func releaseBodyDecoder(d *zstd.Decoder) {
	if d.Reset(nil) == nil {
		bodyDecoders.Put(d)
		return
	}
	d.Close()
}

func (r *Reader) fail(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if r.track.damaged(r.footerRead) {
			err = fmt.Errorf("the body's zstd frame goes on after its input ends only because a block header is damaged (one bit changed closes the frame on the file's last byte): %w", ErrCorrupt)
		} else {
			err = fmt.Errorf("%w: the recording ends after %d whole rounds without a footer", ErrTruncated, r.turn)
		}
	} else if le := (*engine.LimitError)(nil); errors.As(err, &le) && !errors.Is(err, ErrLimit) {
		err = fmt.Errorf("%v: %w", err, ErrLimit)
	} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrUnknownRecord) && !errors.Is(err, ErrDiverged) {
		err = fmt.Errorf("%v: %w", err, ErrCorrupt)
	}
	r.err = &FormatError{Round: r.turn, Offset: r.br.off, Err: err}
	return r.err
}

// sideRecords reads the side records that may stand before a round —
// a log record (a file whose header says it holds logs), then a
// reply-time record (one that holds reply times), then a mark record
// (one that holds marks) — into rd.Logs, rd.ReplyTimes and rd.Marks,
// cleared first, and returns the first byte of the record that follows,
// peeked; errors are the reader's own (r.fail). Side records are outside
// the content hash.
func (r *Reader) sideRecords(rd *TextRound) ([]byte, error) {
	clear(rd.Logs)
	rd.ReplyTimes, rd.Marks = nil, nil
	first, err := r.br.br.Peek(1)
	if err != nil {
		return nil, r.fail(err)
	}
	side := false
	for _, rec := range [...]struct {
		tag  byte
		kept bool
		read func() error
	}{
		{tagLog, r.hdr.Logs, func() error { return r.readLogs(&rd.Logs) }},
		{tagReplyTimes, r.hdr.ReplyTimes, func() error {
			err := r.readReplyTimes(&r.replyBuf)
			rd.ReplyTimes = r.replyBuf
			return err
		}},
		{tagMarks, r.hdr.Marks, func() error {
			err := r.readMarks(&r.markBuf)
			rd.Marks = r.markBuf
			return err
		}},
	} {
		if first[0] != rec.tag || !rec.kept {
			continue
		}
		content := r.br.content
		r.br.content = nil
		r.br.ReadByte()
		err := rec.read()
		r.br.content = content
		if err != nil {
			rd.ReplyTimes, rd.Marks = nil, nil
			return nil, r.fail(err)
		}
		if first, err = r.br.br.Peek(1); err != nil {
			return nil, r.fail(err)
		}
		side = true
	}
	if side && first[0]&0x80 != 0 {
		return nil, r.fail(fmt.Errorf("tag 0x%02x after a log, reply-time or mark record, not a round: %w", first[0], ErrCorrupt))
	}
	return first, nil
}

// readMarks reads a mark record after its tag into *marks
// (TextRound.Marks, reusing its storage): a count (1..players ×
// engine.MaxBotMarks; ErrLimit over it), then per mark its uid
// (non-decreasing, 1..players, at most engine.MaxBotMarks marks each),
// kind, cells, colour and text (appendMarks).
func (r *Reader) readMarks(marks *[]engine.BotMark) error {
	np := len(r.hdr.Players)
	n, err := binary.ReadUvarint(r.br)
	if err != nil {
		return fmt.Errorf("mark record: %w", err)
	}
	if limit := uint64(np * engine.MaxBotMarks); n > limit {
		return fmt.Errorf("mark record of %d marks, limit %d (%d seats × %d): %w", n, limit, np, engine.MaxBotMarks, ErrLimit)
	}
	if n == 0 {
		return fmt.Errorf("mark record without marks: %w", ErrCorrupt)
	}
	out := (*marks)[:0]
	last, run := uint64(0), 0
	coord := func(what string) (int, error) {
		v, err := binary.ReadUvarint(r.br)
		if err != nil {
			return 0, fmt.Errorf("mark record: %s: %w", what, err)
		}
		if v > MaxMarkCoord {
			return 0, fmt.Errorf("mark record: %s %d, limit %d: %w", what, v, MaxMarkCoord, ErrLimit)
		}
		return int(v), nil
	}
	for k := uint64(0); k < n; k++ {
		uid, err := r.uvarint(uint64(np))
		if err != nil {
			return fmt.Errorf("mark record: %w", err)
		}
		if uid == 0 || uid < last {
			return fmt.Errorf("mark record: uid %d after uid %d: %w", uid, last, ErrCorrupt)
		}
		if uid != last {
			last, run = uid, 0
		}
		if run++; run > engine.MaxBotMarks {
			return fmt.Errorf("mark record: uid %d drew more than %d marks: %w", uid, engine.MaxBotMarks, ErrLimit)
		}
		kb, err := r.br.ReadByte()
		if err != nil {
			return fmt.Errorf("mark record: %w", err)
		}
		m := engine.BotMark{Player: int(uid - 1), Kind: engine.BotMarkKind(kb &^ markColored), Color: -1}
		if kb&^markColored < byte(engine.MarkDot) || kb&^markColored > byte(engine.MarkText) {
			return fmt.Errorf("mark record: uid %d: mark kind 0x%02x: %w", uid, kb, ErrCorrupt)
		}
		if m.X, err = coord("x"); err != nil {
			return err
		}
		if m.Y, err = coord("y"); err != nil {
			return err
		}
		if m.Kind == engine.MarkLine {
			if m.X2, err = coord("x2"); err != nil {
				return err
			}
			if m.Y2, err = coord("y2"); err != nil {
				return err
			}
		}
		if kb&markColored != 0 {
			var rgb [3]byte
			if err := r.br.full(rgb[:]); err != nil {
				return fmt.Errorf("mark record: %w", err)
			}
			m.Color = int32(rgb[0])<<16 | int32(rgb[1])<<8 | int32(rgb[2])
		}
		if m.Kind == engine.MarkText {
			l, err := binary.ReadUvarint(r.br)
			if err != nil {
				return fmt.Errorf("mark record: %w", err)
			}
			if l == 0 || l > engine.MaxBotMarkTextBytes {
				return fmt.Errorf("mark record: uid %d: a text of %d bytes, limit 1..%d: %w", uid, l, engine.MaxBotMarkTextBytes, ErrLimit)
			}
			var tb [engine.MaxBotMarkTextBytes]byte
			if err := r.br.full(tb[:l]); err != nil {
				return fmt.Errorf("mark record: %w", err)
			}
			if !utf8.Valid(tb[:l]) {
				return fmt.Errorf("mark record: uid %d: a text not UTF-8: %w", uid, ErrCorrupt)
			}
			m.Text = string(tb[:l])
		}
		out = append(out, m)
	}
	*marks = out
	return nil
}

// readReplyTimes reads a reply-time record after its tag into *times
// (TextRound.ReplyTimes, reusing its storage): the number of players,
// then per player 0 (not timed) or its time in ReplyTimeUnits plus one,
// at most MaxReplyTime.
func (r *Reader) readReplyTimes(times *[]time.Duration) error {
	np := len(r.hdr.Players)
	n, err := r.uvarint(uint64(np))
	if err != nil {
		return fmt.Errorf("reply-time record: %w", err)
	}
	if n != uint64(np) {
		return fmt.Errorf("reply-time record of %d seats in a game of %d: %w", n, np, ErrCorrupt)
	}
	t := (*times)[:0]
	some := false
	for p := range np {
		v, err := binary.ReadUvarint(r.br)
		if err != nil {
			return fmt.Errorf("reply-time record: %w", err)
		}
		if v > uint64(MaxReplyTime/ReplyTimeUnit)+1 {
			return fmt.Errorf("reply-time record: uid %d took %v, limit %v: %w", p+1, time.Duration(v-1)*ReplyTimeUnit, MaxReplyTime, ErrLimit)
		}
		d := time.Duration(-1)
		if v > 0 {
			d, some = time.Duration(v-1)*ReplyTimeUnit, true
		}
		t = append(t, d)
	}
	if !some {
		return fmt.Errorf("reply-time record without a timed seat: %w", ErrCorrupt)
	}
	*times = t
	return nil
}

// readLogs reads a log record after its tag into *logs (Round.Logs or
// TextRound.Logs): a count, then per entry a uid (increasing,
// 1..players), a length (1..MaxRoundLogBytes) and the bytes.
func (r *Reader) readLogs(logs *[][]byte) error {
	np := len(r.hdr.Players)
	if len(*logs) != np {
		*logs = make([][]byte, np)
		r.logBuf = make([][]byte, np)
	}
	n, err := r.uvarint(uint64(np))
	if err != nil {
		return fmt.Errorf("log record: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("log record without logs: %w", ErrCorrupt)
	}
	last := uint64(0)
	for k := uint64(0); k < n; k++ {
		uid, err := r.uvarint(uint64(np))
		if err != nil {
			return fmt.Errorf("log record: %w", err)
		}
		if uid <= last {
			return fmt.Errorf("log record: uid %d after uid %d: %w", uid, last, ErrCorrupt)
		}
		last = uid
		size, err := binary.ReadUvarint(r.br)
		if err != nil {
			return fmt.Errorf("log record: %w", err)
		}
		if size == 0 {
			return fmt.Errorf("log record: empty log of uid %d: %w", uid, ErrCorrupt)
		}
		if size > MaxRoundLogBytes {
			return fmt.Errorf("log record: uid %d's log is %d bytes, limit %d: %w", uid, size, MaxRoundLogBytes, ErrLimit)
		}
		p := uid - 1
		if cap(r.logBuf[p]) < int(size) {
			r.logBuf[p] = make([]byte, MaxRoundLogBytes)
		}
		l := r.logBuf[p][:size]
		if err := r.br.full(l); err != nil {
			return fmt.Errorf("log record: %w", err)
		}
		(*logs)[p] = l
	}
	return nil
}

func (r *Reader) uvarint(max uint64) (uint64, error) {
	v, err := binary.ReadUvarint(r.br)
	if err != nil {
		return 0, err
	}
	if v > max {
		return 0, fmt.Errorf("value %d over %d: %w", v, max, ErrCorrupt)
	}
	return v, nil
}

func (r *Reader) readFooter() error {
	t, err := binary.ReadUvarint(r.br)
	if err != nil {
		return r.fail(err)
	}
	if t != uint64(r.turn) {
		return r.fail(fmt.Errorf("footer says turn %d after %d rounds: %w", t, r.turn, ErrCorrupt))
	}
	var hb [8]byte
	if err := r.br.full(hb[:]); err != nil {
		return r.fail(err)
	}
	n, err := r.uvarint(uint64(len(r.hdr.Players)))
	if err != nil {
		return r.fail(err)
	}
	f := &Footer{Turn: int(t), Hash: binary.LittleEndian.Uint64(hb[:]), Gold: make([]int64, len(r.hdr.Players))}
	for i := uint64(0); i < n; i++ {
		uid, err := r.uvarint(uint64(len(r.hdr.Players)))
		if err != nil {
			return r.fail(err)
		}
		if uid == 0 {
			return r.fail(fmt.Errorf("footer uid 0: %w", ErrCorrupt))
		}
		g, err := binary.ReadVarint(r.br)
		if err != nil {
			return r.fail(err)
		}
		f.Ranking = append(f.Ranking, int(uid))
		f.Gold[uid-1] = g
	}
	// The stream must end here; reading on checks the zstd checksum.
	r.footerRead = true
	if _, err := r.br.ReadByte(); err != io.EOF {
		if err == nil {
			return r.fail(fmt.Errorf("data after the footer: %w", ErrCorrupt))
		}
		return r.fail(err)
	}
	r.footer = f
	r.err = io.EOF
	if r.content != nil {
		r.contentSum = hex.EncodeToString(r.content.Sum(nil))
	}
	return io.EOF
}

// Seek positions the reader so that NextText returns the round played at
// turn. Seeking forward reads and discards rounds; seeking backward, or
// seeking at all after a read error, needs the source to be an
// io.ReadSeeker (NewReader was given the file from its start) and restarts
// the body — so a recording that was still being written when a read hit
// its end is read again as it is now.
func (r *Reader) Seek(turn int) error {
	if turn < 0 || turn > r.hdr.Config.MaxTurn {
		return fmt.Errorf("replay: seek to turn %d outside 0..%d", turn, r.hdr.Config.MaxTurn)
	}
	if turn < r.turn || (r.err != nil && r.err != io.EOF) {
		rs, ok := r.src.(io.ReadSeeker)
		if !ok {
			return errors.New("replay: seeking backward needs an io.ReadSeeker")
		}
		if _, err := rs.Seek(r.bodyOff, io.SeekStart); err != nil {
			return fmt.Errorf("replay: seek: %w", err)
		}
		if r.zr != nil {
			releaseBodyDecoder(r.zr)
			r.zr = nil
		}
		if err := r.startBody(rs); err != nil {
			return err
		}
	}
	for r.turn < turn {
		if _, err := r.NextText(); err != nil {
			return err
		}
	}
	return nil
}
