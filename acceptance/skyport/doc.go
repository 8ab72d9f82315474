// Package skyport holds Skyport's acceptance tests: a Skyport player's
// path through the real rewind binary (built by internal/clitest), from
// `rewind conform` on Skyport's vectors, play, verify, info, analyze,
// report, export and tournament, `rewind view` in Chromium, to a client
// written from the protocol document playing through `rewind server
// --game skyport`, and the reference's observer recordings (.jsn) read
// by info, analyze, report and view.
//
// The tests that read Skyport's vectors, maps or recordings
// (../shared/skyport beside the module root, or $REWIND_SKYPORT) skip
// without them (testutil.Shared); the browser tests skip without
// Chromium, except under CI=true (internal/browsertest).
//
//	go test ./acceptance/skyport
//
// There is no code here outside the tests.
package skyport
