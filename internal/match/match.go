// Package match runs matches of every game (RunGame),
// and tournaments of them: it starts the game from its seed (or a setup),
// registers the players, asks each bot for its commands every round,
// plays the round and hands it to a GameRecorder as it goes (package
// internal/recording provides the ones that write a .rwd; match itself
// never writes files).
//
// What is recorded is what the engine applied: a bot that answers late,
// crashes or prints garbage is reported to the game (Game.Fault) and
// recorded with the round, so re-simulation never depends on timing and
// the fault shows up as that player's.
package match

import "github.com/rewind-game/rewind/engine/rng"

// SetupPlayer is one seat as registered.
type SetupPlayer struct {
	UID      int
	Name     string
	Identity string
	// BotSeed is the seed the seat's bot was started with, nil when it
	// was given none (a client of an official protocol a server seats).
	BotSeed *uint64
}

// OfficialClient is the bot identity recorded for a player who played
// through a game's official client protocol (rewind server): rewind sees
// its commands but not its process, so such a seat never has a round log.
const OfficialClient = "official client"

// BotSeed derives seat uid's bot seed from the match seed:
// the first output of rng.New(seed XOR uid*0x9E3779B97F4A7C15).
func BotSeed(seed uint64, uid int) uint64 {
	return rng.New(seed ^ uint64(uid)*0x9E3779B97F4A7C15).Uint64()
}

// maxFaultText bounds the description of a bot fault in the replay.
const maxFaultText = 200

// answer is a bot's answer to one round: its commands, or why it gave
// none.
type answer struct {
	cmds []string
	err  error
}
