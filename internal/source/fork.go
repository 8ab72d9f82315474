package source

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/replay"
)

// Fork is what a new match needs to play on from turn Turn of a replay:
// the game's beginning (its ruleset, the setup it starts from, its
// players, the rounds up to Turn as the replay records them) and the
// parent's provenance for the new replay's header.
type Fork struct {
	Ruleset engine.Ruleset
	// Setup starts the parent's game (engine.Ruleset.NewFromSetup: its map and
	// players' homes) and Prefix are its rounds 0..Turn-1 as it recorded
	// them: what match.GameConfig's Setup and Prefix take.
	Setup  []byte
	Prefix []match.GameRound
	// Names are the players' names (uid order); MaxTurns is the game's
	// turn limit.
	Names    []string
	MaxTurns int
	Parent   replay.Parent
	// Info is the parent's official info object, if any.
	Info json.RawMessage
	// Verified and Ranking are the players' ratings (uid order), if the
	// parent records them.
	Verified []bool
	Ranking  []string
	// Bots are the players' bots as the parent records them (uid order):
	// a built-in's name, an external bot's command, match.OfficialClient,
	// or "" when the parent does not say (an official .cfr).
	Bots []string
	// BotSeeds are the seeds the parent's bots were started with (uid
	// order), nil for a seat whose seed the parent does not record (a
	// file written before seeds were, an official file).
	BotSeeds []*uint64
	// GameSeed is the seed the parent's game was drawn from, for a
	// game whose Setup is empty (its seed is enough: the toy game's);
	// SeedKnown says the parent records it (a .rwd of the text codec,
	// or a legacy header's map seed).
	GameSeed  uint64
	SeedKnown bool
}

// BotSeed is the seed seat i's (from 0) bot was started with in the
// parent: the one it records, else the one rewind play would have given
// it, derived from the parent's game seed when it records one, else from
// fallback (match.BotSeed); recorded says it was recorded.
func (f *Fork) BotSeed(i int, fallback uint64) (seed uint64, recorded bool) {
	var rec *uint64
	if i >= 0 && i < len(f.BotSeeds) {
		rec = f.BotSeeds[i]
	}
	return botSeed(rec, f.GameSeed, f.SeedKnown, i, fallback)
}

// HeaderBotSeed is the seed seat i's (from 0) bot was started with in
// the game h heads, as Fork.BotSeed finds it.
func HeaderBotSeed(h *replay.Header, i int, fallback uint64) (seed uint64, recorded bool) {
	var rec *uint64
	if i >= 0 && i < len(h.Players) {
		rec = h.Players[i].BotSeed
	}
	game, known := headerGameSeed(h)
	return botSeed(rec, game, known, i, fallback)
}

// headerGameSeed is the seed h says its game was drawn from: a text
// codec's, or a legacy header's map seed; known false when it keeps none
// (a setup holds the game).
func headerGameSeed(h *replay.Header) (seed uint64, known bool) {
	switch {
	case h.Codec == replay.CodecText:
		return h.GameSeed, true
	case h.Seed != nil:
		return *h.Seed, true
	}
	return 0, false
}

// botSeed is the recorded seed rec, else the seed rewind play gives seat
// i of a match of seed game (known) or fallback.
func botSeed(rec *uint64, game uint64, known bool, i int, fallback uint64) (uint64, bool) {
	if rec != nil {
		return *rec, true
	}
	if known {
		fallback = game
	}
	return match.BotSeed(fallback, i+1), false
}

// Limits on what a fork holds: the commands of the parent's rounds up to
// the fork's turn are kept in memory (Fork.Prefix, as text) until the new
// match has replayed them. A real ColorfightII game sends a few hundred
// commands a round, at most 600,000 in 2000 rounds, about 7 MB of text;
// MaxForkCommands allows seven times that many, MaxForkTextBytes nine
// times that text (commands' and faults' text together). A parent beyond
// either is refused (replay.ErrLimit).
const (
	MaxForkCommands  = 1 << 22
	MaxForkTextBytes = 64 << 20
	// MaxForkLogBytes bounds the parent's bot logs a fork keeps (a .rwd
	// that keeps them); past it, later rounds' logs are left out.
	MaxForkLogBytes = 16 << 20
)

// NewFork reads the replay in data (named name, for the header) up to
// turn: a .rwd's recorded rounds, of any game whose ruleset restarts a
// game from its setup (Game.Setup, Ruleset.NewFromSetup), or the
// rounds of an official file whose format infers them
// (engine.Format.InferRounds), as rewind import infers them. turn must
// be in 1..max_turn-1 and the replay must reach it; an official file
// whose rounds up to turn the rules do not explain cannot be forked (the
// error is an *engine.RulesError).
func NewFork(name string, data []byte, turn int) (*Fork, error) {
	if turn < 1 {
		return nil, fmt.Errorf("fork: turn %d outside 1..max_turn-1", turn)
	}
	return ForkAt(name, data, turn)
}

// ForkAt is NewFork, turn 0 allowed: a game played again from its
// beginning, the parent's setup and players kept (rewind rerun --follow
// of a bot that differs in the first round).
func ForkAt(name string, data []byte, turn int) (*Fork, error) {
	prefix := data[:min(len(data), SniffBytes)]
	format, err := Sniff(prefix)
	official, _ := LookupStreamFormat(prefix)
	if format != RWD && err == nil && official.InferRounds == nil {
		return nil, fmt.Errorf("fork: a %s file; a game plays on from a .rwd or an official file whose commands rewind infers", official.Name)
	}
	if err != nil {
		return nil, err
	}
	digest := sha256.Sum256(data)
	f := &Fork{Parent: replay.Parent{Source: filepath.Base(name), SHA256: hex.EncodeToString(digest[:]), Turn: turn}}
	if turn < 0 {
		return nil, fmt.Errorf("fork: turn %d outside 0..max_turn-1", turn)
	}
	if format == RWD {
		return f, f.fromRWD(data, turn)
	}
	return f, f.fromOfficial(official, data, turn)
}

func (f *Fork) fromRWD(data []byte, turn int) error {
	sim, err := replay.OpenSim(bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer sim.Close()
	h, g := sim.Header(), sim.Game()
	if turn >= g.MaxTurns() {
		return fmt.Errorf("fork: turn %d outside 1..%d", turn, g.MaxTurns()-1)
	}
	f.Ruleset, f.Setup, f.MaxTurns, f.Info = sim.Ruleset(), bytes.Clone(g.Setup()), g.MaxTurns(), h.CFRInfo
	f.GameSeed, f.SeedKnown = headerGameSeed(h)
	for _, p := range h.Players {
		f.Names = append(f.Names, p.Name)
		f.Bots = append(f.Bots, p.Bot)
		f.BotSeeds = append(f.BotSeeds, p.BotSeed)
		f.Verified = append(f.Verified, p.Verified)
		f.Ranking = append(f.Ranking, p.Ranking)
	}
	f.Prefix = make([]match.GameRound, turn)
	var held heldRounds
	for t := 0; t < turn; t++ {
		if err := sim.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("fork: the replay ends at turn %d, before %d", t, turn)
			}
			return err
		}
		r := sim.Round()
		if err := held.keep(&f.Prefix[t], t, r.Active, r.Commands, r.Faults, r.FaultText); err != nil {
			return err
		}
		// The parent's bot logs go with their rounds, within
		// MaxForkLogBytes.
		if len(r.Logs) > 0 && held.logs < MaxForkLogBytes {
			l := make([][]byte, len(r.Logs))
			for i, b := range r.Logs {
				if len(b) > 0 {
					l[i] = bytes.Clone(b)
					held.logs += len(b)
				}
			}
			f.Prefix[t].Logs = l
		}
		// So do their reply times (8 bytes a seat).
		if len(r.ReplyTimes) > 0 {
			f.Prefix[t].ReplyTimes = slices.Clone(r.ReplyTimes)
		}
		// And their marks.
		if len(r.Marks) > 0 {
			f.Prefix[t].Marks = slices.Clone(r.Marks)
		}
	}
	return nil
}

func (f *Fork) fromOfficial(format engine.Format, data []byte, turn int) error {
	// The prefix grows as the walk goes: turn is not known to be in range
	// yet.
	var held heldRounds
	st, reached, err := format.InferRounds(bytes.NewReader(data), turn, func(t int, cmds [][]string, faults []engine.Fault, faultText []string) error {
		f.Prefix = append(f.Prefix, match.GameRound{})
		return held.keep(&f.Prefix[t], t, -1, cmds, faults, faultText)
	})
	if err != nil {
		return err
	}
	if turn >= st.MaxTurns {
		return fmt.Errorf("fork: turn %d outside 1..%d", turn, st.MaxTurns-1)
	}
	if reached < turn || len(f.Prefix) != turn {
		return fmt.Errorf("fork: the replay ends at turn %d, before %d", reached, turn)
	}
	f.Ruleset, f.Setup, f.Names, f.MaxTurns = st.Ruleset, st.Setup, st.Names, st.MaxTurns
	f.Info, f.Verified, f.Ranking = st.Info, st.Verified, st.Ranking
	f.Bots = make([]string, len(st.Names))
	return nil
}

// heldRounds copies the rounds a fork keeps, within MaxForkCommands and
// MaxForkTextBytes, and counts the logs kept (MaxForkLogBytes).
type heldRounds struct {
	n, text, logs int
}

// keep makes r a copy of round t: the active player, each player's
// commands as text and faults with their text.
func (h *heldRounds) keep(r *match.GameRound, t, active int, cmds [][]string, faults []engine.Fault, faultText []string) error {
	r.Active = active
	r.Commands = make([][]string, len(cmds))
	for i, l := range cmds {
		h.n += len(l)
		for _, c := range l {
			h.text += len(c)
		}
		if i < len(faultText) {
			h.text += len(faultText[i])
		}
		if h.n > MaxForkCommands || h.text > MaxForkTextBytes {
			return fmt.Errorf("fork: the rounds up to turn %d hold more than %d commands or %d bytes of their text, which exceeds the limit of what a fork keeps; see docs/limits.md: %w",
				t+1, MaxForkCommands, MaxForkTextBytes, replay.ErrLimit)
		}
		if len(l) > 0 {
			r.Commands[i] = append([]string(nil), l...)
		}
	}
	if slices.ContainsFunc(faults, func(f engine.Fault) bool { return f != 0 }) {
		r.Faults, r.FaultText = slices.Clone(faults), slices.Clone(faultText)
	}
	return nil
}
