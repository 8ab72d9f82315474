// Package all links every game's network protocol server into the
// program that imports it: each package below registers itself with
// internal/protocols when it is initialised. Adding a game's protocol is one
// line here.
package all

import (
	_ "github.com/rewind-game/rewind/games/skyport/protocol" // Skyport Rev 1 (docs/skyport.md, "Server")
)
