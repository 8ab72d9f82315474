package protocol_test

// The games, registered for the tests of the package (a recording names
// its game).
import _ "github.com/rewind-game/rewind/games/all"
