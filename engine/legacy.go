package engine

// Legacy is a game's setup as the header of a .rwd of its ruleset's own
// codec kept it before setups existed (ColorfightII's files, every one
// recorded so far: docs/replay-format.md, "Header"): the board's size,
// the turn and player limits, a map seed or an explicit map, and each
// player's name and home. A LegacyHeader ruleset says what these fields
// mean; the shell only stores them.
type Legacy struct {
	Width, Height, MaxTurn, MaxPlayer int
	// Seed is set when the map is the one the ruleset draws from it.
	Seed *uint64
	// Map is the explicit map, nil when Seed draws it: its first byte,
	// which a .rwd stores as it is, then the bytes it stores as one zstd
	// frame (the "map blob"). Its layout is the ruleset's.
	Map []byte
	// Names and Homes are the players', in player order (Homes may be
	// longer: the homes a map offers).
	Names []string
	Homes []Point
}

// LegacyHeader is a Codec ruleset whose .rwd files of its own codec keep
// their game's setup in a header's Legacy fields rather than as a setup
// object under the ruleset's ID: the shell reads and writes these files
// through it, byte for byte as they have always been.
type LegacyHeader interface {
	Codec
	// CheckLegacy checks l's fields against the ruleset's limits before
	// its map is read (l.Map may then be empty but not nil when the file
	// has an explicit map): an error says which field is out of range;
	// it is a *LimitError when a limit of the format is exceeded.
	CheckLegacy(l *Legacy) error
	// LegacyMapLimit is the most bytes l's explicit map may take after
	// its first byte (the decompressed blob), so that a reader bounds
	// the decompression before OpenLegacy sees it.
	LegacyMapLimit(l *Legacy) int
	// OpenLegacy decodes l (which CheckLegacy accepted): its map, or the
	// map l.Seed draws, and its players. An error says what is damaged.
	OpenLegacy(l *Legacy) (LegacyStart, error)
	// LegacyOf returns the Legacy fields a game g of the ruleset, before
	// its first round, is recorded under: for a game drawn from a seed
	// (its Setup nil: SetupSaver) that seed, else its setup's map (or
	// the seed the setup names) and homes. Names are left empty.
	LegacyOf(g Game, seed uint64) (*Legacy, error)
}

// LegacyStart starts the game of a Legacy header, decoded once
// (LegacyHeader.OpenLegacy), as often as a reader needs it.
type LegacyStart interface {
	// NewGame returns the game at turn 0, with s applied as
	// Restorer.NewFromSetup applies it.
	NewGame(s Settings) (Game, error)
}
