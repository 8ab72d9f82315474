// Package cfr reads and writes the official ColorfightII ".cfr" replay format
// (replay_version 2), using the shared frame model of package colorfight2.
//
// A .cfr file is the gzip compression of one JSON array. Element 0 holds the
// game information, the map header and every cell in full; each later element
// i holds the users and, for every cell, the prefix of its field array up to
// the last field that changed since element i-1. See docs/rules.md, section
// "The official .cfr replay format".
//
// Decoder streams over the array one element at a time and never holds more
// than the current frame and its input buffers (for gzip input, up to 384
// KiB decompressed ahead by a background goroutine). Encoder writes a stream whose decompressed JSON is
// byte-identical to the official server's for the same frames.
//
// What the Decoder accepts beyond the letter of the format, so that every
// file the official server wrote opens:
//
//   - users may be listed in any uid order (the server lists them in
//     registration order, and a uid freed during turn 0 is reused by a
//     later registrant, listed last). Frame.Users keeps the file's order
//     and the Encoder writes users in the frame's order, so the export is
//     byte-identical; a uid listed twice in one element is an error.
//   - "ranking" may be any JSON number (verified players have a float,
//     mean - 3*dev, e.g. 1.000000082740371e-8). FrameUser.Ranking keeps its
//     exact text, at most MaxRankingBytes long; the text 0 is stored as "".
//   - unknown keys, in element 0, in later elements, in game_map and in
//     user objects (including "cells" after element 0), are skipped: their
//     values are checked to be JSON within MaxRawBytes and MaxRawDepth and
//     dropped, so the Encoder does not write them back. Unknown keys inside
//     info, chat and error are kept, since those are kept byte for byte.
//     Known keys may come in any order; a known key twice is an error.
//     building_number stays strict: its keys are data (the four building
//     types), and an unknown one is an error rather than a lost count.
package cfr

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Limits enforced by the Decoder (and by the Encoder, so that everything it
// writes can be read back).
const (
	// MinSize and MaxSize bound the map width and height (inclusive):
	// the ruleset's own bound, so every map the engine accepts is readable.
	MinSize = 1
	MaxSize = colorfight2.MaxSide
	// MaxUsers is the largest number of users one element may hold: the
	// ruleset's player bound.
	MaxUsers = colorfight2.MaxPlayers
	// MaxUID is the largest accepted user id; uids start at 1.
	MaxUID = 1<<31 - 1
	// MaxUsernameBytes is the longest accepted username, in UTF-8 bytes
	// after JSON unescaping.
	MaxUsernameBytes = 1024
	// MaxRawBytes bounds each of the raw element-0 values info, chat and
	// error, in bytes as written in the file.
	MaxRawBytes = 1 << 20
	// MaxRawDepth bounds the nesting depth of info, chat and error, and of
	// the values of unknown keys (which are skipped under MaxRawBytes too,
	// as are the unknown keys themselves).
	MaxRawDepth = 64
	// MaxRankingBytes bounds the text of a user's "ranking" number.
	MaxRankingBytes = 64
	// MaxCellRounds bounds the work of decoding a replay and everything
	// that follows its frames (analysis, inference, the viewer): map cells
	// × rounds (frames after frame 0), the same bound as a .rwd's
	// re-simulation (replay.MaxCellRounds). A real game (30×30, at most
	// 2000 rounds) is 1.8M; a header whose info promises more is refused
	// when the decoder opens, and frames past the bound as they come.
	MaxCellRounds = 200_000_000
	// MaxHeaderCells bounds the element-0 "cells" lists of all users
	// together (one entry per owned cell of the largest map).
	MaxHeaderCells = MaxSize * MaxSize
	// NumFields is the number of fields of a full cell array.
	NumFields = colorfight2.NumCellFields
)

// Headers is the game_map "headers" list every file must carry, in order.
var Headers = colorfight2.CellHeaders

// Sentinel errors. Decoding errors are *FormatError values whose Err wraps
// one of these, io.ErrUnexpectedEOF (input ended early) or the error of the
// underlying reader or gzip stream; test with errors.Is.
var (
	// ErrSyntax reports input that is not well-formed JSON.
	ErrSyntax = errors.New("cfr: syntax error")
	// ErrInvalid reports well-formed JSON that breaks the .cfr format
	// (missing or duplicate keys, wrong types, impossible values, a turn
	// number that is not the element index, a position that is not the
	// cell's place...).
	ErrInvalid = errors.New("cfr: invalid replay")
	// ErrLimit reports a value beyond one of the package limits (MaxSize,
	// MaxUsers, MaxUsernameBytes, MaxRawBytes, NumFields fields per cell...).
	ErrLimit = errors.New("cfr: limit exceeded")
	// ErrNoFrames is returned by Encoder.Close when no frame was written.
	ErrNoFrames = errors.New("cfr: no frames written")
	// ErrClosed is returned by Encoder methods after Close, and by
	// Decoder.Next after Decoder.Close.
	ErrClosed = errors.New("cfr: closed")
	// ErrBadFrame reports a frame the Encoder refuses to write because the
	// Decoder would reject it (wrong size, turn, position, building...).
	ErrBadFrame = errors.New("cfr: bad frame")
)

// FormatError is the error type of every Decoder failure: it says which
// element (frame) of the array was being read, where inside it, and at which
// byte offset of the decompressed JSON the problem was detected.
type FormatError struct {
	// Frame is the index of the array element being read, or -1 when the
	// error is outside any element (the array brackets, trailing data, the
	// gzip header).
	Frame int
	// Where locates the error inside the element, outermost first, e.g.
	// "cell (3,4): field 2" or `users: "2": gold`. It may be empty.
	Where string
	// Offset is the byte offset in the decompressed JSON text.
	Offset int64
	// Err is the cause; see the sentinel errors.
	Err error
}

// Error returns "cfr: frame N: where: cause (offset K)".
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("cfr: ")
	if e.Frame >= 0 {
		b.WriteString("frame ")
		b.WriteString(strconv.Itoa(e.Frame))
		b.WriteString(": ")
	}
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	msg := "<nil>"
	if e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "cfr: ")
	}
	b.WriteString(msg)
	b.WriteString(" (offset ")
	b.WriteString(strconv.FormatInt(e.Offset, 10))
	b.WriteString(")")
	return b.String()
}

// Unwrap returns Err.
func (e *FormatError) Unwrap() error { return e.Err }

// Header is what element 0 of a replay carries besides frame 0 itself.
type Header struct {
	// Info, Chat and Error are the element-0 values "info", "chat" and
	// "error", byte for byte as in the file (for example info's
	// "round_time": 1.0 stays 1.0). The Encoder writes them verbatim; nil
	// means {} for Info and Error and [] for Chat.
	Info  json.RawMessage
	Chat  json.RawMessage
	Error json.RawMessage
	// Width and Height are the map size (the dimensions of element 0's
	// data). For the Encoder they may be left zero; otherwise every frame
	// must have this size.
	Width, Height int
	// Users are element 0's users in file order, with their "cells" lists. Official replays record element 0 before anyone
	// registers, so this is usually empty. The Encoder takes the users
	// of element 0 from the first frame and only the Cells from here
	// (matched by UID).
	Users []HeaderUser
}

// HeaderUser is a user of element 0.
type HeaderUser struct {
	colorfight2.FrameUser
	// Cells is the user's "cells" list of [x, y] positions in file order;
	// nil when the key is absent (a non-nil empty slice stands for []).
	Cells [][2]int64
}

// Config returns the game configuration the header describes: the map
// size, and max_turn and max_player from the info object (0 when absent).
func (h Header) Config() colorfight2.Config {
	var info struct {
		MaxTurn   int `json:"max_turn"`
		MaxPlayer int `json:"max_player"`
	}
	_ = json.Unmarshal(h.Info, &info)
	return colorfight2.Config{Width: h.Width, Height: h.Height, MaxTurn: info.MaxTurn, MaxPlayer: info.MaxPlayer}
}

// Playable returns c with what playing the game needs filled in: an
// official replay whose info object lacks max_turn is taken as the default
// length, and max_player is at least the number of players.
func Playable(c colorfight2.Config, players int) colorfight2.Config {
	if c.MaxTurn <= 0 {
		c.MaxTurn = colorfight2.DefaultMaxTurn
	}
	c.MaxPlayer = max(c.MaxPlayer, players)
	return c
}

// locErr carries an error with the location path collected while it
// propagates up the parser (innermost first).
type locErr struct {
	where []string
	err   error
}

func (e *locErr) Error() string { return e.err.Error() }
func (e *locErr) Unwrap() error { return e.err }

// at prefixes the location of err with where.
func at(err error, where string) error {
	if le, ok := err.(*locErr); ok {
		le.where = append(le.where, where)
		return le
	}
	return &locErr{where: []string{where}, err: err}
}

// splitLoc returns the joined location (outermost first) and the cause.
func splitLoc(err error) (string, error) {
	le, ok := err.(*locErr)
	if !ok {
		return "", err
	}
	parts := make([]string, len(le.where))
	for i, w := range le.where {
		parts[len(le.where)-1-i] = w
	}
	return strings.Join(parts, ": "), le.err
}
