package hidingbot_test

// Every game is registered for this package's tests, as the program
// registers them.
import _ "github.com/rewind-game/rewind/games/all"
