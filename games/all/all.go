// Package all links every game into the program that imports it: each
// package below registers itself with the engine when it is initialised
// (engine.Register). It is the one list of games; adding a game is one
// line here.
package all

import (
	"github.com/rewind-game/rewind/engine"
	_ "github.com/rewind-game/rewind/games/colorfight1" // ColorFight v1 (../shared/docs/RULES-COLORFIGHT1.md)
	_ "github.com/rewind-game/rewind/games/colorfight2" // ColorfightII (docs/rules.md)
	_ "github.com/rewind-game/rewind/games/monad"       // Monad (docs/monad.md)
	_ "github.com/rewind-game/rewind/games/skyport"     // Skyport Rev 1 (docs/skyport.md)
)

// The game a command plays when none is named (`rewind play`, `rewind
// server`, a tournament): the first game rewind played.
func init() { engine.SetDefault("colorfight2") }
