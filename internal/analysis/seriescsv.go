package analysis

import (
	"strconv"

	"github.com/rewind-game/rewind/engine"
)

// SeriesCSV is the layout of the series CSV that `rewind analyze
// --format csv` writes for a replay: Document.WriteCSV's "series" for a
// game with a document of its own (StreamMeta.Document), else
// Analysis.WriteSeriesCSV's. Both writers follow it, and a page that
// writes a part of that CSV (the viewer's CSV button) reads it
// from here, so the format's wording is in this one place:
//
//   - the header is Head, then a comma and Columns[i] for each metric
//     written (i indexes StreamMeta.Metrics; the writers write every
//     metric, Document.WriteCSV in the document's order);
//   - then, for every turn from First to the last frame's, one row per
//     player in order: the turn, a comma, Keys[p], then a comma and the
//     player's value (Frame.Values) for each metric of the header.
//
// Every field of Head, Columns and Keys is already quoted as the CSV
// needs (RFC 4180; a leading = + - @ neutralised).
type SeriesCSV struct {
	Head    string   `json:"head"`
	Columns []string `json:"columns"`
	First   int      `json:"first"`
	Keys    []string `json:"keys"`
}

// SeriesCSVLayout is the layout of the series CSV analyze writes for a
// replay of meta m with its len(m.Players) players.
func SeriesCSVLayout(m *engine.StreamMeta) SeriesCSV {
	if m.Document != nil {
		return documentCSV(m, len(m.Players))
	}
	return analysisCSV(m, len(m.Players))
}

// documentCSV is Document.WriteCSV's series layout for n players: turn
// and uid (the document's player numbers, from FirstPlayer), turns from
// 1, the metrics' names as they are.
func documentCSV(m *engine.StreamMeta, n int) SeriesCSV {
	l := SeriesCSV{Head: "turn,uid", First: 1}
	fp := 0
	if m.Document != nil {
		fp = m.Document.FirstPlayer
	}
	for _, mt := range m.Metrics {
		l.Columns = append(l.Columns, mt.Name)
	}
	for p := range n {
		l.Keys = append(l.Keys, strconv.Itoa(p+fp))
	}
	return l
}

// analysisCSV is Analysis.WriteSeriesCSV's layout for n players: turn,
// player (0..n-1) and name (playerName), turns from 0.
func analysisCSV(m *engine.StreamMeta, n int) SeriesCSV {
	l := SeriesCSV{Head: "turn,player,name", First: 0}
	for _, mt := range m.Metrics {
		l.Columns = append(l.Columns, string(csvField(nil, mt.Name)))
	}
	for p := range n {
		l.Keys = append(l.Keys, strconv.Itoa(p)+","+string(csvField(nil, playerName(m, p))))
	}
	return l
}

// playerName is player p's name in an analysis of a stream of
// meta m: its StreamMeta name, "player P" when it has none.
func playerName(m *engine.StreamMeta, p int) string {
	if p < len(m.Players) && m.Players[p].Name != "" {
		return m.Players[p].Name
	}
	return "player " + strconv.Itoa(p)
}
