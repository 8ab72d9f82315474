package viewer

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/testutil"
)

const (
	testdata = "../../testdata"
	hostile  = `<script>alert(1)</script>`
	hostile2 = `</script><img src=x onerror=alert(2)>`
	// referenceCFR is a .cfr the reference server wrote (a conformance
	// vector: 8 players, 500 rounds, won by bot4_greedy with
	// 591533 gold), the library's official replay.
	referenceCFR = testdata + "/conformance/c04.cfr"
)

// vectorRWD records conformance vector name (e.g. "c03") as a .rwd.
func vectorRWD(tb testing.TB, name string) []byte {
	tb.Helper()
	vs, err := conform.Find([]string{filepath.Join(testdata, "conformance", name+".cfr")})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := cf2vectors.Load(vs[0].Input, vs[0].Expected)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cfrimport.RecordVector(g, &buf, time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), "rewind test"); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// cf2Seat seats ColorfightII's built-in called bot as the player called
// name ("": RunGame's default).
func cf2Seat(tb testing.TB, bot, name string) match.GameSeat {
	tb.Helper()
	info, _ := engine.About("colorfight2")
	b, ok := info.FindBot(bot)
	if !ok {
		tb.Fatalf("no built-in %q", bot)
	}
	return match.GameSeat{Bot: match.BuiltinPlayer(b), Name: name}
}

// playCF2 plays a ColorfightII match of turns rounds through RunGame,
// recorded by rec.
func playCF2(tb testing.TB, seed uint64, turns int, rec match.GameRecorder, seats ...match.GameSeat) {
	tb.Helper()
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: seed, MaxTurns: turns, Seats: seats, Recorder: rec}); err != nil {
		tb.Fatal(err)
	}
}

// hostileRWD is a short match whose players have hostile names.
func hostileRWD(tb testing.TB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	playCF2(tb, 1, 60, recording.NewRecorder(&buf, time.Time{}, "rewind test"), cf2Seat(tb, "greedy", hostile), cf2Seat(tb, "random", hostile2))
	return buf.Bytes()
}

func write(tb testing.TB, path string, b []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// fixtureLibrary is a library folder holding c03.rwd (8 players, 500
// rounds), hostile.rwd, sub/c04.cfr (referenceCFR), a truncated .rwd and a
// file that is no replay.
func fixtureLibrary(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	c03 := vectorRWD(tb, "c03")
	write(tb, filepath.Join(dir, "c03.rwd"), c03)
	write(tb, filepath.Join(dir, "hostile.rwd"), hostileRWD(tb))
	write(tb, filepath.Join(dir, "sub", "c04.cfr"), testutil.ReadFile(tb, referenceCFR))
	write(tb, filepath.Join(dir, "cut.rwd"), c03[:len(c03)/3])
	write(tb, filepath.Join(dir, "junk.cfr"), []byte("this is not a replay"))
	return dir
}

// fixtureServer serves a fixtureLibrary folder with opts, the library
// closed with the test; it returns the folder and the base URL.
func fixtureServer(tb testing.TB, opts Options) (dir, base string) {
	tb.Helper()
	dir = fixtureLibrary(tb)
	return dir, serveDir(tb, dir, opts)
}

// serveFile serves a library of one file, name holding data, with opts
// (serveDir); it returns the base URL.
func serveFile(tb testing.TB, name string, data []byte, opts Options) string {
	tb.Helper()
	dir := tb.TempDir()
	write(tb, filepath.Join(dir, name), data)
	return serveDir(tb, dir, opts)
}

// serveDir serves the library of the folder dir with opts (serve), the
// library closed with the test; it returns the base URL.
func serveDir(tb testing.TB, dir string, opts Options) string {
	tb.Helper()
	return serve(tb, openLib(tb, dir), opts)
}

// openLib opens the library of dir for a test; it is closed when the
// test ends. Any error fails tb.
func openLib(tb testing.TB, dir string) *Library {
	tb.Helper()
	lib, err := OpenLibrary(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { lib.Close() })
	return lib
}

// indexedLib is openLib with the library's index opened (no warning
// allowed) and brought up to date with dir.
func indexedLib(tb testing.TB, dir string) *Library {
	tb.Helper()
	lib := openLib(tb, dir)
	if warn, err := lib.OpenIndex(); err != nil || warn != nil {
		tb.Fatal(warn, err)
	}
	if _, err := lib.Sync(nil); err != nil {
		tb.Fatal(err)
	}
	return lib
}

// serve starts a viewer server for lib on a loopback port and returns its
// base URL; the per-client rate is off unless opts sets one.
func serve(tb testing.TB, lib *Library, opts Options) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	opts.Addr = ln.Addr().String()
	if opts.ClientRate == 0 {
		opts.ClientRate = -1 // a test's pace is the machine's: no rate
	}
	hs := NewServer(lib, opts).HTTPServer()
	go hs.Serve(ln)
	tb.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

type served struct {
	base string
	s    *Server
}

// serveWith is serve, keeping the Server for the test to reach into.
func serveWith(t *testing.T, lib *Library, opts Options) served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Addr, opts.ClientRate = ln.Addr().String(), -1
	s := NewServer(lib, opts)
	hs := s.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return served{base: "http://" + ln.Addr().String(), s: s}
}

// playedRWD records a match of turns rounds of registered game id, its
// first built-in bots in its fewest seats, as match.RunGame plays it: in
// the generic text codec (text), else in the codec the ruleset records
// in by default (its own compact one, where it has one).
func playedRWD(tb testing.TB, id string, turns int, text bool) []byte {
	tb.Helper()
	rs, err := engine.Get(id)
	if err != nil {
		tb.Fatal(err)
	}
	info, _ := engine.About(id)
	var seats []match.GameSeat
	for i := range info.MinPlayers {
		seats = append(seats, match.GameSeat{Bot: match.BuiltinPlayer(info.Bots[i%len(info.Bots)])})
	}
	var buf bytes.Buffer
	var rec match.GameRecorder = recording.NewRecorder(&buf, time.Unix(0, 0), "rewind test")
	if text {
		rec = &textRecorder{w: &buf}
	}
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: rs, Seed: 5, MaxTurns: turns, Seats: seats, Recorder: rec}); err != nil {
		tb.Fatalf("%s: %v", id, err)
	}
	return buf.Bytes()
}
