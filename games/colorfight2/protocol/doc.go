// Package protocol is the engine of `rewind server`: it speaks the official
// ColorfightII server protocol (HTTP RPC plus two websockets per room, as
// the reference server does; see docs/server.md) so that the official
// clients and every bot written on them play unchanged, and it records
// every game as a .rwd replay as it is played.
//
// The rules stay in games/colorfight2 and games are run by
// internal/match's RunGame: each remote player is a match.GamePlayer (a
// match.Preparer) whose answer waits for the room's round trigger (a
// timer, or lock-step readiness) and is the player's pending command
// list. The server adds only timing around the engine, so
// every recording re-simulates exactly.
//
// A Server is safe for concurrent use. Rounds never wait on a socket: every
// websocket subscriber has its own bounded queue and writer goroutine, and
// a client that floods, sends garbage or reads slowly only loses its own
// connection.
package protocol
