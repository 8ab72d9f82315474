package cfrimport

import (
	"io"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/replay"
)

// RecordVector plays a loaded conformance vector (cf2vectors.Load) and
// writes it to w as a .rwd replay with the vector's map stored explicitly
// and its .cfr info object kept, so that exporting the replay gives back
// the official file. tool names the recording program; created is stored
// as the recording time.
func RecordVector(g *cf2vectors.Game, w io.Writer, created time.Time, tool string) error {
	return RecordVectorRounds(g, w, created, tool, nil)
}

// RecordVectorRounds is RecordVector with a hook called after each round
// is written (with the turn reached); a hook error stops the recording
// unfinished.
func RecordVectorRounds(g *cf2vectors.Game, w io.Writer, created time.Time, tool string, after func(turn int) error) error {
	rg, rw, err := newRecording(w, colorfight2.Setup{Config: g.Config, Map: g.Map, Players: g.Players}, func(h *replay.Header) {
		h.Created, h.Tool, h.CFRInfo = created, tool, g.Header.Info
	})
	if err != nil {
		return err
	}
	var cmds [][]colorfight2.Command
	for t := 0; t < g.Config.MaxTurn; t++ {
		cmds = g.Commands(t, cmds)
		if err := playRound(rw, rg, cmds, nil); err != nil {
			return err
		}
		if after != nil {
			if err := after(rg.Turn()); err != nil {
				return err
			}
		}
	}
	return rw.Close(rg)
}

// LoadVector reads a conformance vector from its command log and its
// official replay, the files at commands and ref (cf2vectors.Load), for
// RecordVector.
func LoadVector(commands, ref string) (*cf2vectors.Game, error) {
	return cf2vectors.Load(commands, ref)
}
