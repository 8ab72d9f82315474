// Package skyport is Skyport Rev 1, the rules of the reference
// competition server (pilsprog/skyport-logic at cf40a95) as
// RULES-SKYPORT.md and PROTOCOL-SKYPORT.md state them, bit for bit: the
// six conformance vectors and probes.json replay field for field
// (package skyport/vectors).
//
// The pieces:
//
//   - ParseMap reads a .skyportmap file into a Map (tiles (j, k),
//     neighbours, Distance); GenerateMap draws rewind's own maps from a
//     seed, Draw the spawns and turn ring.
//   - State is a game: New starts it from a Setup (map, names, spawns,
//     ring); the loadout phase (Loadout, or LoadoutLine and
//     FinishLoadout) comes first; then Begin and PlayTurn play one
//     player-turn with the raw lines the actor sent, and Log tells the
//     fate of every line, the hits, penalties and events.
//   - Lines are read as the reference's org.json (2012-12-01) reads
//     them, leniencies, refusals and error texts included; Handshake
//     checks a handshake line.
//   - AppendGamestate and AppendBroadcast write what the server sends.
//   - Ruleset and Game are the game through rewind's seam (package
//     engine), one Round per player-turn (see Game).
//
// Contracts: no I/O, clock, goroutines or map iteration; a State is not
// safe for concurrent use; bad input never panics (it is rejected as the
// reference rejects it, or, where the reference crashes, with a
// documented error). Floating point appears only where the reference's
// Java double arithmetic must be copied: the damage bonus and the
// mortar's range test (rules.go, bonusDamage and mortarInRange) and the
// reading and printing of numbers in lines (json.go). A warm State plays
// a player-turn without allocating.
package rules
