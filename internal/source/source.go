// Package source opens any replay rewind understands — its own .rwd, or
// an official file of a game (a .cfr, a Skyport .jsn, a Monad log) — as
// one stream of frames, so everything downstream (export, comparison,
// analysis, the viewer) is the same code whichever file a game came from.
package source

import (
	"errors"
	"io"

	"github.com/rewind-game/rewind/replay"
)

// Format names a replay format.
type Format string

// Formats.
const (
	RWD Format = "rwd"
	CFR Format = "cfr"
)

// Player is a player as the replay names it.
type Player struct {
	UID  int
	Name string
	Bot  string // "" when unknown
	// Rank (1 best) and Score (final gold; resources in Monad) are the
	// player's result as a Summary reads it: the footer's ranking of a
	// .rwd, the last frame's gold (most first, lowest uid on a tie) of a
	// .cfr; Rank is 0 when unknown (a recording without its footer).
	Rank  int
	Score int64
}

// Sniff reports the format of a replay from its first bytes.
func Sniff(prefix []byte) (Format, error) {
	switch {
	case len(prefix) >= 4 && string(prefix[:4]) == replay.Magic:
		return RWD, nil
	case len(prefix) >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b:
		return CFR, nil
	}
	for _, c := range prefix {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return CFR, nil
		}
		break
	}
	return "", errors.New("not a replay: neither .rwd nor .cfr (gzip or JSON)")
}

// CutShort reports whether err, from reading a replay, says only that the
// file ends early — a recording killed mid-game, or a download cut off —
// so that the whole rounds before it can be used, as verify, analyze and
// the viewer do. Damage inside the file is not a cut.
func CutShort(err error) bool {
	return errors.Is(err, replay.ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF)
}
