package match

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxRoundLog bounds one seat's log of one round (Logger.RoundLog, and
// the runner's notes in front of it), the cut marker included: the limit
// of every game's bot logs (replay.MaxRoundLogBytes).
const MaxRoundLog = 4096

// CutLog appends to dst the round log of a bot that wrote total bytes,
// of which kept are the first ones: kept whole when it is all of them
// and at most MaxRoundLog bytes, else its head, never cut inside a UTF-8
// sequence, then a line "… [N bytes cut]" (on a line of its own) that
// counts the bytes left out, MaxRoundLog bytes in all. It is the one cut
// rule of round logs.
func CutLog(dst, kept []byte, total int64) []byte {
	if total <= int64(len(kept)) && len(kept) <= MaxRoundLog {
		return append(dst, kept...)
	}
	total = max(total, int64(len(kept)))
	// The marker is at most as long as with total bytes cut.
	room := MaxRoundLog - len(fmt.Sprintf("\n… [%d bytes cut]\n", total))
	keep := min(len(kept), room)
	for keep > 0 && keep < len(kept) && !utf8.RuneStart(kept[keep]) {
		keep--
	}
	dst = append(dst, kept[:keep]...)
	if keep > 0 && kept[keep-1] != '\n' {
		dst = append(dst, '\n')
	}
	return fmt.Appendf(dst, "… [%d bytes cut]\n", total-int64(keep))
}

// withNotes returns notes (the runner's lines about a seat's round)
// followed by log, the round log of the seat's bot as CutLog gives it,
// cut again by CutLog when the two are over MaxRoundLog: the bytes of
// log's head left out are then added to the count of log's marker, if it
// ends in one, and the line end ahead of that marker is taken as the
// cut's own. It may reuse notes' storage.
func withNotes(notes, log []byte) []byte {
	if len(notes)+len(log) <= MaxRoundLog {
		return append(notes, log...)
	}
	body, cut := cutMarker(log)
	kept := append(notes, body...)
	return CutLog(nil, kept, int64(len(kept))+cut)
}

// cutMarker splits a round log CutLog gave into the bot's head (without
// the line end CutLog puts ahead of its marker) and the count of its
// marker; a log without a marker is all head, with nothing cut.
func cutMarker(log []byte) (head []byte, cut int64) {
	const open, end = "… [", " bytes cut]\n"
	if !bytes.HasSuffix(log, []byte(end)) {
		return log, 0
	}
	i := bytes.LastIndex(log, []byte(open))
	if i < 0 || i > 0 && log[i-1] != '\n' {
		return log, 0
	}
	n, err := strconv.ParseInt(string(log[i+len(open):len(log)-len(end)]), 10, 64)
	if err != nil || n < 0 {
		return log, 0
	}
	return log[:max(0, i-1)], n
}
