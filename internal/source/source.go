// Package source opens any replay rewind understands — its own .rwd, or
// an official file of a game (a .cfr, a Skyport .jsn, a Monad log) — as
// one stream of frames, so everything downstream (export, comparison,
// analysis, the viewer) is the same code whichever file a game came from.
package source

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rewind-game/rewind/replay"
)

// Format names a replay format: RWD, or an official format's
// engine.Format.Name.
type Format string

// RWD is rewind's own format (package replay).
const RWD Format = "rwd"

// Player is a player as the replay names it.
type Player struct {
	UID  int
	Name string
	Bot  string // "" when unknown
	// Rank (1 best) and Score (the final score: the metric Summary.Unit
	// names) are the player's result as a Summary reads it: the footer's
	// ranking of a .rwd, the last whole round's of an official file;
	// Rank is 0 when unknown (a recording without its footer).
	Rank  int
	Score int64
}

// Sniff reports the format of a replay from its first bytes (up to
// SniffBytes): RWD, or the registered official format whose Sniff claims
// them (LookupStreamFormat). It is the one test of "is this a replay?".
func Sniff(prefix []byte) (Format, error) {
	if len(prefix) >= 4 && string(prefix[:4]) == replay.Magic {
		return RWD, nil
	}
	if f, ok := LookupStreamFormat(prefix); ok {
		return Format(f.Name), nil
	}
	return "", fmt.Errorf("%w: neither .rwd nor an official format rewind reads (%s)", ErrNotReplay, strings.Join(StreamExts(), ", "))
}

// ErrNotReplay is Sniff's error for bytes that begin no replay rewind
// reads.
var ErrNotReplay = errors.New("not a replay")

// CutShort reports whether err, from reading a replay, says only that the
// file ends early — a recording killed mid-game, or a download cut off —
// so that the whole rounds before it can be used, as verify, analyze and
// the viewer do. Damage inside the file is not a cut.
func CutShort(err error) bool {
	return errors.Is(err, replay.ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF)
}
