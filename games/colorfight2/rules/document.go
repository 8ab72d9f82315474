package rules

import (
	"strconv"

	"github.com/rewind-game/rewind/engine"
)

// Document is ColorfightII's analysis document (its
// engine.Registration's): the layout `rewind analyze` has written for
// ColorfightII games since before the analysis
// (docs/analysis-json.md, "ColorfightII"), which the analysis builds
// from the generic frames. Players are numbered by uid, from 1.
var Document = engine.Document{
	FirstPlayer: 1,
	Config:      []string{"width", "height", "max_turn", "max_player"},
	Series: func() []string {
		names := make([]string, len(AccountMetrics))
		for i, m := range AccountMetrics {
			names[i] = m.Name
		}
		return names
	}(),
	Standing: []engine.StandingField{
		{Key: "gold", Name: "gold"}, {Key: "cells", Name: "cells"}, {Key: "energy", Name: "energy"},
		{Key: "tech_level", Name: "tech_level"}, {Key: "dead", Of: engine.Flag, Name: "dead"},
		{Key: "peak_cells", Of: engine.Peak, Name: "cells"}, {Key: "peak_turn", Of: engine.PeakTurn, Name: "cells"},
		{Key: "died_turn", Of: engine.EventTurn, Name: EventDied},
		{Key: "captured", Name: "captured"}, {Key: "lost", Name: "lost"}, {Key: "gold_spent", Name: "gold_spent"},
		{Key: "stolen_in", Name: "stolen_in"}, {Key: "stolen_out", Name: "stolen_out"}, {Key: "refund", Name: "refund"},
		{Key: "mine_bonus", Name: "mine_bonus"}, {Key: "attack_energy", Name: "attack_energy"},
		{Key: "capture_energy", Name: "capture_energy"}, {Key: "wasted_energy", Name: "wasted_energy"},
		{Key: "commands", Name: "commands"}, {Key: "errors", Name: "errors"},
	},
	Table: [][2]string{{"gold", "gold"}, {"cells", "cells"}, {"energy", "energy"}, {"tech", "tech_level"},
		{"peak cells", "peak_cells"}, {"peak turn", "peak_turn"}, {"total captured", "captured"}, {"total lost", "lost"}, {"total stolen", "stolen_in"}},
	Corpus: []string{"gold", "cells", "energy", "peak_cells", "captured", "lost", "stolen_in", "stolen_out"},
	Mean:   "cells",
	Charts: [][2]string{{"gold", "Gold"}, {"energy", "Energy"}, {"cells", "Cells"}, {"tax", "Tax per round"}},
}

// Setting describes the game's configuration (engine.Game): its
// width, height, max_turn and max_player, as integers.
func (g *Game) Setting() [][2]string {
	c := g.State.Config()
	return [][2]string{{"width", strconv.Itoa(c.Width)}, {"height", strconv.Itoa(c.Height)},
		{"max_turn", strconv.Itoa(c.MaxTurn)}, {"max_player", strconv.Itoa(c.MaxPlayer)}}
}
