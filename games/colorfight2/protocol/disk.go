package protocol

import (
	"path/filepath"
	"strings"

	"github.com/rewind-game/rewind/internal/rooms"
)

// recFile is a recording's file, as the recorder writes it. Tests
// replace os.Create to make a disk fill up (Options.create).
type recFile = rooms.File

// ownRecording reports whether name is a finished recording of this
// server's naming: ROOM-GAMEID.rwd with a room id and a numeric game id.
func ownRecording(name string) bool {
	base, ok := strings.CutSuffix(name, ".rwd")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(base, '-')
	if i <= 0 || i == len(base)-1 || !validRoomID(base[:i]) {
		return false
	}
	for _, c := range base[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// splitRecording names the room and game id of a recording ROOM-GAMEID.
func splitRecording(base string) (room, id string) {
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		return base[:i], base[i+1:]
	}
	return "", base
}

// gameIDLess orders two recordings by their game ids (numbers of the same
// magnitude: milliseconds).
func gameIDLess(a, b string) bool {
	id := func(p string) string {
		base := strings.TrimSuffix(filepath.Base(p), ".rwd")
		return base[strings.LastIndexByte(base, '-')+1:]
	}
	x, y := id(a), id(b)
	if len(x) != len(y) {
		return len(x) < len(y)
	}
	return x < y
}
