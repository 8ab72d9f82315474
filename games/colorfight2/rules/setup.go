package rules

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rewind-game/rewind/engine"
)

// Setup is what a ColorfightII game starts from when Ruleset.New does not
// give it (a game played on from another, an imported one, a server's
// configuration): its configuration, its map and its players with their
// homes — or, with Seed set, the map and homes GenerateMap draws from it
// for the configuration (Map nil, homes ignored). It is the setup of
// engine.Ruleset.NewFromSetup, kept as JSON (MarshalSetup).
type Setup struct {
	Config  Config
	Seed    *uint64
	Map     *Map
	Players []Player // UIDs 1..n in order
}

// setupFile is a Setup's JSON: the configuration's fields, the map's
// three row-major arrays, and each player's name and home [x, y].
type setupFile struct {
	Width         int           `json:"width"`
	Height        int           `json:"height"`
	MaxTurn       int           `json:"max_turn"`
	MaxPlayer     int           `json:"max_player"`
	Seed          *uint64       `json:"seed,omitempty"`
	NaturalGold   []int64       `json:"natural_gold"`
	NaturalEnergy []int64       `json:"natural_energy"`
	NaturalCost   []int64       `json:"natural_cost"`
	Players       []setupPlayer `json:"players"`
}

type setupPlayer struct {
	Name string `json:"name"`
	Home [2]int `json:"home"`
}

// MarshalSetup encodes s as the JSON NewFromSetup reads.
func MarshalSetup(s Setup) ([]byte, error) {
	f := setupFile{Width: s.Config.Width, Height: s.Config.Height, MaxTurn: s.Config.MaxTurn, MaxPlayer: s.Config.MaxPlayer, Seed: s.Seed}
	switch {
	case s.Seed != nil:
	case s.Map == nil:
		return nil, fmt.Errorf("colorfight2: setup without a map or a seed")
	default:
		f.NaturalGold, f.NaturalEnergy, f.NaturalCost = s.Map.NaturalGold, s.Map.NaturalEnergy, s.Map.NaturalCost
	}
	for _, p := range s.Players {
		f.Players = append(f.Players, setupPlayer{Name: p.Name, Home: [2]int{p.Home.X, p.Home.Y}})
	}
	return json.Marshal(f)
}

// UnmarshalSetup decodes MarshalSetup's JSON. It checks the shape only
// (a map of the configuration's size); New checks the rest.
func UnmarshalSetup(b []byte) (Setup, error) {
	var f setupFile
	if err := json.Unmarshal(b, &f); err != nil {
		return Setup{}, fmt.Errorf("colorfight2: setup: %w", err)
	}
	cfg := Config{Width: f.Width, Height: f.Height, MaxTurn: f.MaxTurn, MaxPlayer: f.MaxPlayer}
	if err := cfg.ValidateLoose(); err != nil {
		return Setup{}, fmt.Errorf("colorfight2: setup: %w", err)
	}
	s := Setup{Config: cfg, Seed: f.Seed}
	for i, p := range f.Players {
		s.Players = append(s.Players, Player{UID: i + 1, Name: p.Name, Home: Point{X: p.Home[0], Y: p.Home[1]}})
	}
	if f.Seed != nil {
		m, spawns, err := GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, *f.Seed)
		if err != nil {
			return Setup{}, fmt.Errorf("colorfight2: setup: %w", err)
		}
		if len(s.Players) > len(spawns) {
			return Setup{}, fmt.Errorf("colorfight2: setup: %d players but only %d spawn points", len(s.Players), len(spawns))
		}
		for i := range s.Players {
			s.Players[i].Home = spawns[i]
		}
		s.Map = m
		return s, nil
	}
	n := cfg.Width * cfg.Height
	if len(f.NaturalGold) != n || len(f.NaturalEnergy) != n || len(f.NaturalCost) != n {
		return Setup{}, fmt.Errorf("colorfight2: setup: the map's arrays do not hold %d×%d cells", cfg.Width, cfg.Height)
	}
	s.Map = &Map{Width: cfg.Width, Height: cfg.Height, NaturalGold: f.NaturalGold, NaturalEnergy: f.NaturalEnergy, NaturalCost: f.NaturalCost}
	return s, nil
}

// NewFromSetup starts the game a Setup (MarshalSetup's JSON) describes
// (engine.Ruleset.NewFromSetup). Settings.Players, when not 0, must be the setup's
// number of players; a non-zero Settings.MaxTurns overrides its
// max_turn; Settings.Names that are not empty override its names. The
// game's Setup returns setup.
func (ruleset) NewFromSetup(setup []byte, s engine.Settings) (engine.Game, error) {
	su, err := UnmarshalSetup(setup)
	if err != nil {
		return nil, err
	}
	g, err := NewSetupGame(su, s)
	if err != nil {
		return nil, err
	}
	g.setup, g.pending = setup, nil
	return g, nil
}

// NewSetupGame starts the game su describes, with s applied as
// NewFromSetup applies it, without encoding su: the game's Setup encodes
// it (MarshalSetup) when first asked. su.Map must be set, also for a
// seeded setup (the map its seed gives, as UnmarshalSetup fills it in).
func NewSetupGame(su Setup, s engine.Settings) (*Game, error) {
	if s.Players != 0 && s.Players != len(su.Players) {
		return nil, fmt.Errorf("colorfight2: setup has %d players, settings ask for %d", len(su.Players), s.Players)
	}
	if su.Map == nil {
		return nil, fmt.Errorf("colorfight2: setup without a map")
	}
	if s.MaxTurns != 0 {
		su.Config.MaxTurn = s.MaxTurns
	}
	su.Players = slices.Clone(su.Players)
	for i, n := range s.Names {
		if i < len(su.Players) && n != "" {
			su.Players[i].Name = n
		}
	}
	st, err := New(su.Config, su.Map, su.Players)
	if err != nil {
		return nil, err
	}
	return &Game{State: st, pending: &su}, nil
}

// Setup returns the setup the game was started from
// (engine.Game), nil for a game drawn from its seed.
func (g *Game) Setup() []byte {
	if g.setup == nil && g.pending != nil {
		g.setup, _ = MarshalSetup(*g.pending) // it has a map: it encodes
		g.pending = nil
	}
	return g.setup
}
