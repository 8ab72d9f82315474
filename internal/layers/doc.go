// Package layers holds no code: its test checks that imports point one
// way, as docs/development.md ("Layers") lays them out. Bottom up:
//
//  1. engine (and engine/...): the seam, its types and registration,
//     with the leaf helpers every layer may use (internal/bitio,
//     internal/satint, internal/resize, internal/rating);
//  2. the game-facing packages the shell publishes for games: replay
//     (the .rwd container), internal/match, internal/recording,
//     internal/subprocess and internal/rooms (the
//     room engine's adapter API);
//  3. the games, games/<id>/...: each imports the layers below and its
//     own packages, never another game nor games/all;
//  4. the rest of the shell (internal/...), which imports no game;
//  5. games/all, the one list of games, and cmd/..., which may import
//     anything.
//
// Packages that exist only for tests (acceptance suites, examples, test
// helpers) are outside the layers.
package layers
