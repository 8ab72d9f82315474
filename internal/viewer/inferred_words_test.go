package viewer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestInferredCommandsWording: the page of an imported .cfr, whose
// commands are inferred, says its players have no bot log because the
// file holds none (not "Nothing logged", as of a bot that logged
// nothing), and its notice of a turn with more commands than the page
// lists counts inferred commands, not commands a player sent.
func TestInferredCommandsWording(t *testing.T) {
	_, base := fixtureServer(t, Options{})
	code, gz := testutil.Get(t, base+"/replay/sub/c04.cfr?data=1")
	if code != 200 {
		t.Fatalf("the page data: %d %s", code, gz)
	}
	var p Packed
	if err := json.Unmarshal(testutil.Gunzip(t, gz), &p); err != nil {
		t.Fatal(err)
	}
	if !p.CommandsInferred {
		t.Fatal("the .cfr's commands are not marked inferred")
	}
	for i, pl := range p.Players {
		if pl.NoLog != inferredNoLog {
			t.Errorf("player %d: the page says of its bot log %q, want %q", i+1, pl.NoLog, inferredNoLog)
		}
	}
	// Its turns hold fewer than MaxCommandsShown inferred commands a
	// player; with a bound of 2 many turns hold more.
	s, err := source.NewInferredStream(bytes.NewReader(testutil.ReadFile(t, referenceCFR)), nil)
	if err != nil {
		t.Fatal(err)
	}
	small, err := PackStream(s, StreamLimits{MaxCommandsShown: 2})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(small.Notice, "sent") {
		t.Errorf("the .cfr page says a player sent its inferred commands: %q", small.Notice)
	}
	if want := "inferred commands number more than 2"; !strings.Contains(small.Notice, want) {
		t.Errorf("the .cfr page's notice %q does not say %q", small.Notice, want)
	}
}

// TestOfficialFileNoLogWording: the page of a game's official file whose
// commands are recorded, not inferred (a Monad reference log), says its
// players have no bot log because the file holds none — not "Nothing
// logged", as of a bot that logged nothing.
func TestOfficialFileNoLogWording(t *testing.T) {
	base := serveFile(t, "m06.mp.gz", officialLog(t, "m06.mp.gz"), Options{})
	code, gz := testutil.Get(t, base+"/replay/m06.mp.gz?data=1")
	if code != 200 {
		t.Fatalf("the page data: %d %s", code, gz)
	}
	var p Packed
	if err := json.Unmarshal(testutil.Gunzip(t, gz), &p); err != nil {
		t.Fatal(err)
	}
	if p.CommandsInferred || !p.HasCommands || len(p.Players) < 2 {
		t.Fatalf("the log's commands: inferred %v, known %v, %d players", p.CommandsInferred, p.HasCommands, len(p.Players))
	}
	for i, pl := range p.Players {
		if pl.NoLog != officialFileNoLog {
			t.Errorf("player %d: the page says of its bot log %q, want %q", i+1, pl.NoLog, officialFileNoLog)
		}
	}
}
