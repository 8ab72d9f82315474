package source

import (
	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/replay"
)

// PlayedNames returns the names of the players of the .rwd read from r
// (from its start), in uid order: the names its header gives them, each
// replaced by the name its player goes by once the recording is played
// (engine.PlayerName) for a game whose players name themselves during
// play (engine.Registration.NamedInPlay: a ColorFight v1 seat, "seat 2"
// in the header, joins as "Zed"). Such a recording is played to its end, or to the last
// round before damage or a cut, and the names are those of that round; a
// seat rejoined under another name goes by the latest. The recording of
// any other game is read no further than its header. An error says why
// the header cannot be read or its game started.
func PlayedNames(r io.Reader) ([]string, error) {
	sim, err := replay.OpenSim(r)
	if err != nil {
		return nil, err
	}
	defer sim.Close()
	h := sim.Header()
	names := make([]string, len(h.Players))
	for i, p := range h.Players {
		names[i] = p.Name
	}
	if !namedInPlay(h.Ruleset) {
		return names, nil
	}
	sim.SkipText()
	for sim.Next() == nil {
	}
	for i := range names {
		names[i] = engine.PlayerName(sim.Game(), i, names[i])
	}
	return names, nil
}

// namedInPlay reports whether the players of the game ruleset names
// itself during play (engine.Registration.NamedInPlay).
func namedInPlay(ruleset string) bool {
	r, _ := engine.About(ruleset)
	return r.NamedInPlay
}
