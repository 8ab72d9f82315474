package vectors_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestBrokenInputs: rewind conform (conform.Find and conform.Run, through
// the registry) names the file a broken vector is wrong in.
func TestBrokenInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := conform.Find([]string{write("notes.txt", "hi")}); err == nil || !strings.Contains(err.Error(), "not a vector file") || !strings.Contains(err.Error(), "NAME.commands.json + NAME.cfr (colorfight2)") {
		t.Errorf("non-vector file: %v", err)
	}
	if _, err := conform.Find([]string{filepath.Join(dir, "missing.cfr")}); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := conform.Find([]string{write("orphan.cfr", "")}); err == nil || !strings.Contains(err.Error(), "orphan.commands.json") {
		t.Errorf("replay without a command log: %v", err)
	}
	os.Remove(filepath.Join(dir, "orphan.cfr"))
	// A command log alone is ColorfightII's (the first game whose input
	// it is) and lacks its replay.
	write("lone.commands.json", "{}")
	if _, err := conform.Find([]string{filepath.Join(dir, "lone.commands.json")}); err == nil || !strings.Contains(err.Error(), "lone.cfr") {
		t.Errorf("command log without a replay: %v", err)
	}
	os.Remove(filepath.Join(dir, "lone.commands.json"))
	// A broken command log next to a real replay.
	c := testutil.ReadFile(t, filepath.Join(vectors.VectorDir, "c06.cfr"))
	for name, body := range map[string]string{
		"badjson":  "{not json",
		"badturn":  `{"max_turn":200,"max_player":4,"players":3,"turns":[{"turn":900,"commands":{}}]}`,
		"baduid":   `{"max_turn":200,"max_player":4,"players":3,"turns":[{"turn":3,"commands":{"7":["a 1 1 1"]}}]}`,
		"nofields": `{"turns":[]}`,
	} {
		log := write(name+".commands.json", body)
		write(name+".cfr", string(c))
		v, err := conform.Find([]string{filepath.Join(dir, name+".cfr")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conform.Run(v[0]); err == nil || !strings.Contains(err.Error(), "vector "+name+": "+log+": command log: ") {
			t.Errorf("%s: got %v, want a command log error naming %s", name, err, log)
		}
	}
	// A truncated replay.
	write("trunc.commands.json", mustRead(t, filepath.Join(vectors.VectorDir, "c06.commands.json")))
	trunc := write("trunc.cfr", string(c[:len(c)/2]))
	v, err := conform.Find([]string{filepath.Join(dir, "trunc.cfr")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conform.Run(v[0]); err == nil || !strings.Contains(err.Error(), "vector trunc: "+trunc+": cfr: ") {
		t.Errorf("truncated replay: got %v, want an error naming %s", err, trunc)
	}
}

// TestConformRegistered: ColorfightII's vectors are rewind conform's
// through the registry (engine.Registration.Vectors): a directory's vectors
// are found among another game's and each passes with every round.
func TestConformRegistered(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"c06.commands.json", "c06.cfr", "../monad/m05.commands.json", "../monad/m05.states.json.gz"} {
		b := testutil.ReadFile(t, filepath.Join(vectors.VectorDir, f))
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vs, err := conform.Find([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range vs {
		got[v.Name] = v.Game
	}
	if len(vs) != 2 || got["c06"] != colorfight2.Ruleset.ID() || got["m05"] != "monad" {
		t.Fatalf("found %+v, want c06 (colorfight2) and m05 (monad)", vs)
	}
	for _, v := range vs {
		res, err := conform.Run(v)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Pass() {
			t.Errorf("%s diverges: %s", v.Name, res.Divergence)
		}
		if v.Name == "c06" && res.Rounds != 200 {
			t.Errorf("c06: compared %d rounds, want 200", res.Rounds)
		}
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b := testutil.ReadFile(t, p)
	return string(b)
}
