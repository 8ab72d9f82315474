// Package replay reads and writes rewind's own replay format, .rwd: a
// whole match of any registered game as a compact, zstd-compressed log
// of the commands the engine applied each round, which re-simulates
// bit-exactly. It knows every game only through the seam (package
// engine): ColorfightII's legacy header too (engine.LegacyHeader).
//
// The format is specified byte by byte in docs/replay-format.md. In short:
//
//	magic "RWD1" | version u16 | header (JSON, length-prefixed) |
//	map blob (zstd, length-prefixed, empty for seeded maps) |
//	body: one zstd stream of records — a Round per round, a Checkpoint
//	(turn and state hash) every CheckpointEvery rounds, a Footer at the end;
//	in version 2, a log record (the bots' logs, TextRound.Logs) before a
//	round; in version 4, a reply-time record (TextRound.ReplyTimes) too;
//	in version 5, a mark record (TextRound.Marks) too.
//
// The Writer flushes the body after every round, so a recorder killed
// mid-game leaves a file whose whole rounds all read back. The Reader
// bounds every allocation by the limits below, and reports damage as a
// *FormatError naming the round and byte offset.
package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rewind-game/rewind/engine"
)

// Magic opens every .rwd file.
const Magic = "RWD1"

// Version is the newest format version this package reads and writes. A
// reader accepts files whose version is at most Version and rejects newer
// ones with ErrNewerVersion (the header of a newer file may still be shown:
// see ReadHeader). A writer writes the lowest version that holds what it
// records: 2 when the header keeps round logs (Header.Logs), 3 for the
// text codec, 4 when it keeps reply times (Header.ReplyTimes), 5 when it
// keeps bot marks (Header.Marks), else 1, so a recording without logs is
// the very file version 1 wrote.
const Version = 5

// VersionLogs is the first format version with log records: the bots'
// debug output of a round (Round.Logs), not part of the game.
const VersionLogs = 2

// VersionText is the first format version with the generic text codec
// (Header.Codec CodecText): any ruleset's rounds as the commands' text.
// A file of that codec is always written as this version, so an older
// reader refuses it as newer rather than misreading it.
const VersionText = 3

// VersionReplyTimes is the first format version with reply-time
// records: how long each seat's bot took to answer each round
// (TextRound.ReplyTimes), not part of the game. Only a file whose header
// keeps reply times is written as this version.
const VersionReplyTimes = 4

// VersionMarks is the first format version with mark records: what each
// seat's bot drew over the board for a round (TextRound.Marks,
// docs/bot-protocol.md "Marks"), not part of the game. Only a file whose
// header keeps marks is written as this version; an older reader refuses
// it as newer (ErrNewerVersion) rather than misreading it.
const VersionMarks = 5

// CodecText is the Header.Codec of the generic round record: each
// player's commands as the text they sent (TextRound), for any ruleset
// registered with engine.Register. The empty codec is the ruleset's own
// compact record (ColorfightII's, or another's through engine.Codec).
const CodecText = "text"

// Limits every reader enforces; a file exceeding one is rejected before
// anything is allocated for it.
const (
	MaxHeaderBytes  = 1 << 20 // JSON header
	MaxMapBlobBytes = 16 << 20
	MaxPlayers      = 64
	MaxTurns        = 100000
	MaxNameBytes    = engine.MaxNameBytes
	// MaxCommandsPerRound is the most commands one player may send in one
	// round (a bot's whole answer is at most 1 MiB: docs/bot-protocol.md).
	// A real bot sends a few hundred at most.
	MaxCommandsPerRound = engine.MaxCommandsPerRound
	// MaxRoundLogBytes bounds one player's log of one round (a log
	// record's entry): match.MaxRoundLog, the cut marker included. The
	// writer cuts longer logs; the reader refuses them.
	MaxRoundLogBytes = 4096
	// MaxReplyTime bounds one seat's reply time of one round (a
	// reply-time record's entry): the writer records a longer one as
	// this, the reader refuses more.
	MaxReplyTime = time.Hour
	// ReplyTimeUnit is the resolution of a recorded reply time: the
	// writer rounds each to the nearest 0.1 ms (a fast bot's 30 µs is
	// 0), which keeps a timed seat to about a byte a round.
	ReplyTimeUnit = 100 * time.Microsecond
	// MaxMarkCoord bounds a mark's cell coordinates in a record (the
	// runner keeps only cells on the board; the reader refuses larger).
	MaxMarkCoord = 1<<16 - 1
	// MaxCellRounds bounds the work of re-simulating a recording: map
	// cells × max_turn. A real game (30×30, at most 2000 rounds) is 1.8M;
	// the bound allows a 1000×1000 map for 200 rounds or a 100×100 map for
	// 20000, each a few seconds of CPU, and refuses a few-byte header that
	// would promise hours.
	MaxCellRounds = 200_000_000
	// DefaultCheckpointEvery is the checkpoint interval the Writer uses
	// when the header does not set one.
	DefaultCheckpointEvery = 50
)

// Errors. Reader errors wrap these inside a *FormatError.
var (
	ErrNotReplay     = errors.New("replay: not a .rwd file (bad magic)")
	ErrNewerVersion  = errors.New("replay: file written by a newer format version")
	ErrTruncated     = errors.New("replay: file is truncated")
	ErrCorrupt       = errors.New("replay: file is corrupt")
	ErrLimit         = errors.New("replay: file exceeds a format limit")
	ErrDiverged      = errors.New("replay: re-simulation diverges from the recorded hash")
	ErrUnknownRecord = errors.New("replay: unknown record tag")
	// ErrRuleset: the file is a recording of another ruleset or codec
	// than the reading code plays (a Monad recording given to Open, a
	// Reader's rounds read with Next and NextText both).
	ErrRuleset = errors.New("replay: recording of another ruleset")
)

// FormatError reports where a file is damaged.
type FormatError struct {
	// Round is the round being read (the turn its commands were sent
	// at), or -1 in the header.
	Round int
	// Offset is the byte offset: in the file for header errors, in the
	// decompressed body for body errors.
	Offset int64
	Err    error
}

func (e *FormatError) Error() string {
	if e.Round < 0 {
		return fmt.Sprintf("replay: header, offset %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("replay: round %d, body offset %d: %v", e.Round, e.Offset, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// Config is a header's configuration: the turn limit and the number of
// players of any game; the map's width and height of a legacy header
// (engine.Legacy), 0 in any other.
type Config struct {
	Width, Height int
	MaxTurn       int
	MaxPlayer     int
}

// Header is everything known before the first round. It is stored
// uncompressed at the start of the file, so it can be read without
// decompressing the body.
type Header struct {
	Ruleset        string
	RulesetVersion int
	Config         Config
	// Seed and Map are a legacy header's map (engine.Legacy, whose
	// ruleset says what they mean): Seed is set when the ruleset draws
	// the map from this seed; otherwise Map is the explicit map, its first
	// byte then the bytes the file's map blob compresses (a Reader fills
	// it in; nil for a seeded map).
	Seed    *uint64
	Map     []byte
	Players []Player
	// Created is when recording started; Tool names the program that
	// wrote the file ("rewind 0.1.0").
	Created time.Time
	Tool    string
	// CheckpointEvery is the checkpoint interval in rounds.
	CheckpointEvery int
	// CFRInfo is the "info" object of an official replay the game came
	// from (or should be exported with), kept verbatim; may be nil.
	CFRInfo json.RawMessage
	// Import is set when the game was imported from an official replay
	// (rewind import): its commands were inferred, not recorded.
	Import *Import
	// Parent is set for a game that plays on from another (rewind fork):
	// its first Parent.Turn rounds are the parent's.
	Parent *Parent
	// Codec is the round record's codec: "" for the ruleset's own compact
	// record (its engine.Codec: Compact; ColorfightII's too), CodecText
	// for the generic one. Any header but a legacy one (codec "" of an
	// engine.LegacyHeader ruleset: ColorfightII's) names its game by
	// Ruleset (any registered ruleset), is drawn from GameSeed and, when
	// set, Setup (engine.Ruleset.NewFromSetup), keeps Config.MaxTurn (the turn limit)
	// and Config.MaxPlayer (the number of players) and nothing else of
	// Config, and has no Seed, Map, CFRInfo or Import. A compact header's
	// Setup is a JSON object, kept in the file under the ruleset's ID
	// (and its GameSeed is not kept: the setup holds the seed).
	Codec    string
	GameSeed uint64
	Setup    []byte
	// Logs is set when the file may hold the bots' round logs (log
	// records, Round.Logs or TextRound.Logs): a recording of any
	// game whose bots keep logs (match.Logger). The file is then format version VersionLogs; the
	// reader sets Logs for every file of that version or later.
	Logs bool
	// ReplyTimes is set when the file may hold the seats' reply times
	// (reply-time records, TextRound.ReplyTimes): a recording with a bot
	// the runner times (one outside the process: match.Preparer). The
	// file is then format version VersionReplyTimes; the reader sets
	// ReplyTimes for every file of that version or later.
	ReplyTimes bool
	// Marks is set when the file may hold the bots' marks (mark records,
	// TextRound.Marks): a recording with a bot that can draw (one outside
	// the process: match.Marker). The file is then format version
	// VersionMarks; the reader sets Marks for every file of that version
	// or later.
	Marks bool
	// start starts the game of a legacy header a Reader decoded
	// (engine.LegacyHeader.Open); nil for any other.
	start engine.LegacyStart
}

// Provenance says in one line where the game came from, for people: a
// fork's parent ("played on from turn N of FILE (sha256 …)") or the
// official replay an import inferred its commands from ("commands
// inferred from FILE (sha256 …)"); "" for a game recorded as played.
func (h *Header) Provenance() string {
	switch {
	case h.Parent != nil:
		return fmt.Sprintf("played on from turn %d of %s (sha256 %.12s…)", h.Parent.Turn, h.Parent.Source, h.Parent.SHA256)
	case h.Import != nil && h.Import.Inferred:
		return fmt.Sprintf("commands inferred from %s (sha256 %.12s…)", h.Import.Source, h.Import.SHA256)
	}
	return ""
}

// Parent names the game a fork plays on from.
type Parent struct {
	// Source is the parent replay's file name, SHA256 the hex SHA-256 of
	// its bytes, and Turn the turn from which this game goes its own way.
	Source, SHA256 string
	Turn           int
}

// Import records where an imported game came from.
type Import struct {
	// Source is the official replay's file name (no directory).
	Source string
	// SHA256 is the hex SHA-256 of the source file's bytes.
	SHA256 string
	// Inferred is true: the commands are a canonical inference
	// (docs/import.md), the frames they give are the source's.
	Inferred bool
}

// Player is one registered player.
type Player struct {
	UID  int
	Name string
	// Home is the player's home in a legacy header (engine.Legacy).
	Home engine.Point
	// Bot identifies who played: a built-in strategy name, an external
	// command line, or "" when unknown (e.g. an imported game).
	Bot string
	// Verified and Ranking are the player's account rating as the
	// official server wrote it in every frame (Ranking is the exact text
	// of the JSON number, "" for 0); not part of the game.
	Verified bool
	Ranking  string
	// BotSeed is the seed the player's bot was started with
	// (match.GameSeat.Seed, by default match.BotSeed of the match
	// seed), so a built-in can be asked again exactly as it played
	// (rewind rerun, rewind fork); nil in a file written before it was
	// recorded, or when unknown (an imported game).
	BotSeed *uint64
}

// legacyRuleset returns h's ruleset and its engine.LegacyHeader when h
// is a legacy header (its ruleset's own codec, a ruleset whose files keep
// their setup in Legacy fields: ColorfightII's), else nil.
func (h *Header) legacyRuleset() (engine.Ruleset, *engine.LegacyHeader) {
	if h.Codec != "" {
		return nil, nil
	}
	r, err := engine.Get(h.Ruleset)
	if err != nil {
		return nil, nil
	}
	lh := engine.LegacyHeaderOf(r)
	if lh == nil {
		return nil, nil
	}
	return r, lh
}

// legacy returns the Legacy fields of h.
func (h *Header) legacy() *engine.Legacy {
	c := h.Config
	l := &engine.Legacy{Width: c.Width, Height: c.Height, MaxTurn: c.MaxTurn, MaxPlayer: c.MaxPlayer, Seed: h.Seed, Map: h.Map,
		Names: make([]string, len(h.Players)), Homes: make([]engine.Point, len(h.Players))}
	for i, p := range h.Players {
		l.Names[i], l.Homes[i] = p.Name, p.Home
	}
	return l
}

// checkWork refuses, with ErrLimit, a legacy header whose map cells
// × max_turn exceed MaxCellRounds: re-simulating it would take too long.
func (h *Header) checkWork() error {
	if !h.Legacy() {
		return nil
	}
	if c := h.Config; int64(c.Width)*int64(c.Height)*int64(c.MaxTurn) > MaxCellRounds {
		return fmt.Errorf("re-simulating %dx%d cells for %d rounds exceeds the limit of %d cell-rounds; see docs/limits.md: %w",
			c.Width, c.Height, c.MaxTurn, MaxCellRounds, ErrLimit)
	}
	return nil
}

// Footer closes a complete recording.
type Footer struct {
	// Turn is the final turn (the number of rounds played).
	Turn int
	// Hash is the state hash after the last round.
	Hash uint64
	// Ranking lists the uids best first.
	Ranking []int
	// Gold lists the final gold per uid (index uid-1).
	Gold []int64
}

// headerJSON is the on-disk JSON form of Header.
type headerJSON struct {
	Ruleset        string          `json:"ruleset"`
	RulesetVersion int             `json:"ruleset_version"`
	Width          int             `json:"width"`
	Height         int             `json:"height"`
	MaxTurn        int             `json:"max_turn"`
	MaxPlayer      int             `json:"max_player"`
	Seed           *uint64         `json:"map_seed,omitempty"`
	Players        []playerJSON    `json:"players"`
	Created        string          `json:"created,omitempty"`
	Tool           string          `json:"tool,omitempty"`
	Checkpoint     int             `json:"checkpoint_every"`
	CFRInfo        json.RawMessage `json:"cfr_info,omitempty"`
	// CFRGameID stands for a CFRInfo equal to OfficialInfo(config, id).
	CFRGameID *string     `json:"cfr_game_id,omitempty"`
	Import    *importJSON `json:"import,omitempty"`
	Parent    *parentJSON `json:"parent,omitempty"`
	Codec     string      `json:"codec,omitempty"`
	GameSeed  *uint64     `json:"seed,omitempty"`
	Setup     []byte      `json:"setup,omitempty"`
}

type parentJSON struct {
	Source string `json:"source"`
	SHA256 string `json:"sha256"`
	Turn   int    `json:"turn"`
}

type importJSON struct {
	Source   string `json:"source"`
	SHA256   string `json:"sha256"`
	Commands string `json:"commands"` // "inferred"
}

type playerJSON struct {
	UID      int     `json:"uid"`
	Name     string  `json:"name"`
	Home     [2]int  `json:"home"`
	Bot      string  `json:"bot,omitempty"`
	Verified bool    `json:"verified,omitempty"`
	Ranking  string  `json:"ranking,omitempty"`
	BotSeed  *uint64 `json:"bot_seed,omitempty"`
}

func (h *Header) toJSON() headerJSON {
	j := headerJSON{
		Ruleset: h.Ruleset, RulesetVersion: h.RulesetVersion,
		Width: h.Config.Width, Height: h.Config.Height, MaxTurn: h.Config.MaxTurn, MaxPlayer: h.Config.MaxPlayer,
		Seed: h.Seed, Tool: h.Tool, Checkpoint: h.CheckpointEvery, CFRInfo: h.CFRInfo,
	}
	if h.CFRInfo != nil {
		var id struct {
			GameID *string `json:"game_id"`
		}
		if json.Unmarshal(h.CFRInfo, &id) == nil && id.GameID != nil && string(OfficialInfo(h.Config, *id.GameID)) == string(h.CFRInfo) {
			j.CFRInfo, j.CFRGameID = nil, id.GameID
		}
	}
	if !h.Created.IsZero() {
		j.Created = h.Created.UTC().Format(time.RFC3339)
	}
	for _, p := range h.Players {
		j.Players = append(j.Players, playerJSON{UID: p.UID, Name: p.Name, Home: [2]int{p.Home.X, p.Home.Y}, Bot: p.Bot, Verified: p.Verified, Ranking: p.Ranking, BotSeed: p.BotSeed})
	}
	if h.Parent != nil {
		j.Parent = &parentJSON{Source: h.Parent.Source, SHA256: h.Parent.SHA256, Turn: h.Parent.Turn}
	}
	if h.Codec != "" {
		seed := h.GameSeed
		j.Codec, j.GameSeed, j.Setup = h.Codec, &seed, h.Setup
	}
	if h.Import != nil {
		j.Import = &importJSON{Source: h.Import.Source, SHA256: h.Import.SHA256}
		if h.Import.Inferred {
			j.Import.Commands = "inferred"
		}
	}
	return j
}

// validate checks a header against the format limits and its ruleset:
// a legacy header's fields through its engine.LegacyHeader.
func (h *Header) validate() error {
	r, lh := h.legacyRuleset()
	if lh == nil {
		return h.validateOwnSetup()
	}
	if h.RulesetVersion != r.Version() {
		return fmt.Errorf("ruleset %s version %d not supported", h.Ruleset, h.RulesetVersion)
	}
	if err := lh.Check(h.legacy()); err != nil {
		if le := (*engine.LimitError)(nil); errors.As(err, &le) {
			return fmt.Errorf("%v: %w", err, ErrLimit)
		}
		return err
	}
	c := h.Config
	if c.MaxTurn < 1 || c.MaxTurn > MaxTurns {
		return fmt.Errorf("max_turn %d outside 1..%d: %w", c.MaxTurn, MaxTurns, ErrLimit)
	}
	return h.validatePlayers()
}

// validatePlayers checks what every codec's header shares: the players
// numbered 1..n in order with names, bots and rankings within the
// limits, and the checkpoint interval within 1..MaxTurns.
func (h *Header) validatePlayers() error {
	for i, p := range h.Players {
		if p.UID != i+1 {
			return fmt.Errorf("player %d has uid %d, want %d", i, p.UID, i+1)
		}
		if len(p.Name) > MaxNameBytes || len(p.Bot) > MaxNameBytes*4 || len(p.Ranking) > 64 {
			return fmt.Errorf("player %d name or bot longer than the limit: %w", p.UID, ErrLimit)
		}
	}
	if h.CheckpointEvery < 1 || h.CheckpointEvery > MaxTurns {
		return fmt.Errorf("checkpoint_every %d outside 1..%d", h.CheckpointEvery, MaxTurns)
	}
	return nil
}

// OfficialInfo returns the "info" object the official server writes into
// element 0 of a .cfr for a game with this configuration, in its key
// order, with the given game_id.
func OfficialInfo(c Config, gameID string) json.RawMessage {
	id, _ := json.Marshal(gameID)
	return json.RawMessage(fmt.Sprintf(`{"max_turn":%d,"max_player":%d,"width":%d,"height":%d,"round_time":1,"start_count_down":1,"allow_manual_mode":true,"game_id":%s,"replay_version":2,"game_version":2}`,
		c.MaxTurn, c.MaxPlayer, c.Width, c.Height, id))
}
