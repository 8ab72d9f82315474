// Package monad holds Monad's acceptance tests: a Monad player's path
// through the real rewind binary (built by internal/clitest) — play and
// tournament with the built-in bots and with external bots (a Python bot
// over the subprocess protocol, one that crashes), verify and info of a
// recording and of a cut or damaged copy, analyze (table, JSON, CSV) and
// report of a recording and of the reference engine's own logs, analyze
// DIR on a folder mixing Monad and ColorfightII games, view of a played
// recording, of an old-layout .rwd and of the reference logs on the
// generic page in Chromium (board colours and commands against the
// re-simulated frames, events, charts, scrubber), and export --html, the
// exported page opened from disk in Chromium; and a Monad .rwd written
// before Monad moved onto the generic path, re-simulated and rewritten
// byte for byte (codec_test.go); and the reference engine's own log of
// each conformance vector, read as a stream, against rewind's recording
// of the same game frame by frame (logvectors_test.go). The events
// games/monad reports (Game.Events, BoardEvents) are checked in
// games/monad itself.
//
// The fixtures are read from the module's testdata/monad, and the
// vectors also from ../shared/monad when present (never copied);
// the external-bot tests skip without python3; the browser test skips
// without Chromium, except under CI=true (internal/browsertest).
//
//	go test ./acceptance/monad
//
// There is no code here outside the tests.
package monad
