package engine

import "io"

// Codec is a Ruleset whose games record their rounds in a compact record
// of their own, a fast path beside the commands' text (ColorfightII's and
// Monad's): a .rwd of such a ruleset holds these records unless it was
// written with the text codec (docs/replay-format.md, "Codecs"). Its
// games' setup (Game.Setup) is a JSON object, which the file's header
// keeps under the ruleset's ID, or, for a Codec with a LegacyHeader, in
// the header's fields of its own. CodecOf is the one check for it.
//
// A game's records are self-delimiting and their first bit is 0. They
// form one stream, from the game's first round: a record may be coded
// against the game and the records before it (ColorfightII codes a cell
// on its map's width and height and near the player's previous one,
// from its home on).
type Codec interface {
	// AppendRecord appends the record of the round g (a Game of the
	// ruleset) last played: the commands as the game took them and the
	// faults it was given before that round. A Game that has not played
	// a round, or one of another ruleset, appends nothing.
	AppendRecord(g Game, dst []byte) []byte
	// PlayRecord reads one record from r and plays it on g, as Fault and
	// Round would have played the round it records, returning the
	// command errors (valid until the next round). When cmds is not nil
	// the round's commands are appended to cmds[p] and faults and
	// faultText set, as a RecordDecoder does; when cmds is nil but
	// faults and faultText are not, only they are set (a reader that
	// wants the faults but not the commands' text). Errors are a
	// RecordDecoder's, and a damaged record leaves the game unplayed; a
	// Game of another ruleset is an error.
	PlayRecord(g Game, r io.ByteReader, cmds [][]string, faults []Fault, faultText []string) ([]CommandError, error)
	// NewDecoder returns a decoder of the records of one recording
	// whose game, at turn 0, is g (as the recording's header starts it;
	// the decoder neither plays nor changes it).
	NewDecoder(g Game) (RecordDecoder, error)
	// FooterMetric is the index in Metrics of the value a file's footer
	// keeps per player: the one its files have always kept, which may
	// predate its score (Ruleset.ScoreMetric).
	FooterMetric() int
	// LegacyHeader is how the ruleset's files keep their game's setup in
	// a header's Legacy fields, nil when they keep a setup object.
	LegacyHeader() *LegacyHeader
}

// CodecOf returns r as a Codec, nil for a ruleset whose files hold the
// commands' text only.
func CodecOf(r Ruleset) Codec {
	c, _ := r.(Codec)
	return c
}

// RecordDecoder reads the next record of one recording, in order from
// its first, without playing it (Codec.NewDecoder): player p's commands,
// as text Round would take, are appended to cmds[p], and the fault the
// round recorded for p (the Fault before Round) is set in faults[p] and
// its text in faultText[p] (all three of length Players). A record that
// ends early returns r's error (io.EOF); one that exceeds a limit of the
// format a *LimitError; any other damage an error saying what.
type RecordDecoder func(r io.ByteReader, cmds [][]string, faults []Fault, faultText []string) error

// LimitError is a record a codec refuses because it exceeds one of the
// format's limits (more than MaxCommandsPerRound commands, a longer text
// than the format keeps) rather than because it is damaged; its message
// is Err's, saying which limit and where.
type LimitError struct{ Err error }

func (e *LimitError) Error() string { return e.Err.Error() }

func (e *LimitError) Unwrap() error { return e.Err }

// FooterIndex is the index of the metric whose final values a .rwd
// footer of r keeps: its Codec's FooterMetric for a file of r's own codec
// (compact true), else its score (ScoreIndex).
func FooterIndex(r Ruleset, compact bool) int {
	if c := CodecOf(r); c != nil && compact {
		if i := c.FooterMetric(); i >= 0 && i < len(r.Metrics()) {
			return i
		}
	}
	return ScoreIndex(r)
}

// Legacy is a game's setup as the header of a .rwd of its ruleset's own
// codec kept it before setups existed (ColorfightII's files, every one
// recorded so far: docs/replay-format.md, "Header"): the board's size,
// the turn and player limits, a map seed or an explicit map, and each
// player's name and home. A LegacyHeader says what these fields mean;
// the shell only stores them.
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

// LegacyHeader is how a Codec's .rwd files of its own codec keep their
// game's setup in a header's Legacy fields rather than as a setup
// object under the ruleset's ID (ColorfightII's: Codec.LegacyHeader):
// the shell reads and writes these files through it, byte for byte as
// they have always been. LegacyHeaderOf is the one check for it.
type LegacyHeader struct {
	// Check checks l's fields against the ruleset's limits before its
	// map is read (l.Map may then be empty but not nil when the file has
	// an explicit map): an error says which field is out of range; it is
	// a *LimitError when a limit of the format is exceeded.
	Check func(l *Legacy) error
	// MapLimit is the most bytes l's explicit map may take after its
	// first byte (the decompressed blob), so that a reader bounds the
	// decompression before Open sees it.
	MapLimit func(l *Legacy) int
	// Open decodes l (which Check accepted): its map, or the map l.Seed
	// draws, and its players. An error says what is damaged.
	Open func(l *Legacy) (LegacyStart, error)
	// Of returns the Legacy fields a game g of the ruleset, before its
	// first round, is recorded under: for a game drawn from a seed (its
	// Setup nil) that seed, else its setup's map (or the seed the setup
	// names) and homes. Names are left empty.
	Of func(g Game, seed uint64) (*Legacy, error)
}

// LegacyHeaderOf returns the LegacyHeader of r's Codec, nil for a
// ruleset whose files keep a setup object (or that has no Codec).
func LegacyHeaderOf(r Ruleset) *LegacyHeader {
	if c := CodecOf(r); c != nil {
		return c.LegacyHeader()
	}
	return nil
}

// LegacyStart starts the game of a Legacy header, decoded once
// (LegacyHeader.Open), as often as a reader needs it: the game at turn
// 0, with s applied as Ruleset.NewFromSetup applies it.
type LegacyStart func(s Settings) (Game, error)
