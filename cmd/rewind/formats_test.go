package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A command that needs an operation of an official format (engine.Format)
// the file's format does not have says so, naming the formats that have
// it; a .rwd given to import is pointed to verify.
func TestFormatWithoutOperation(t *testing.T) {
	dir := t.TempDir()
	log := "../../testdata/monad/official/m01.mp.gz"
	out, err := runCLIOut(t, "audit", log)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(out, "monad-log (Monad, .json, .mp.gz) files have no audit; audit takes: cfr (ColorfightII, .cfr)") {
		t.Errorf("audit of a Monad log: %v\n%s", err, out)
	}
	_, err = runCLIOut(t, "import", log, "-o", filepath.Join(dir, "m.rwd"))
	wantErr(t, err, "files have no import; import takes: cfr")
	_, err = runCLIOut(t, "verify", log)
	wantErr(t, err, "is an official .mp.gz replay; verify takes a .rwd")
	if err != nil && strings.Contains(err.Error(), "audit") {
		t.Errorf("verify points a format without an audit to it: %v", err)
	}

	monad := filepath.Join(dir, "m.rwd")
	mustRunCLI(t, "play", "--game", "monad", "--turns", "10", "-o", monad)
	_, err = runCLIOut(t, "export", monad, "-o", filepath.Join(dir, "m.out"))
	wantErr(t, err, "Monad has no official format rewind writes (export writes: cfr (ColorfightII, .cfr))")
	_, err = runCLIOut(t, "export", monad, "--format", "monad-log", "-o", filepath.Join(dir, "m.out"))
	wantErr(t, err, "--format monad-log: monad-log (Monad, .json, .mp.gz) files have no export")
	_, err = runCLIOut(t, "export", monad, "--format", "nope", "-o", filepath.Join(dir, "m.out"))
	wantErr(t, err, "--format nope: no such format; known: ")
	_, err = runCLIOut(t, "verify", monad, "--against", log)
	wantErr(t, err, "files have no comparison; verify --against takes: cfr")
	_, err = runCLIOut(t, "import", monad, "-o", filepath.Join(dir, "i.rwd"))
	wantErr(t, err, "a .rwd, which holds its commands")
	// --format reads a file as the format named, whatever its content.
	out, err = runCLIOut(t, "audit", "--format", "cfr", log)
	if !errors.As(err, &ee) || ee.code != 2 || !strings.HasPrefix(out, "UNREADABLE "+log+": cfr: ") {
		t.Errorf("audit --format cfr of a Monad log: %v\n%s", err, out)
	}
}

// record-vector finds the game by the vector files' endings, and with
// none matching, the one game whose vectors record.
func TestRecordVectorGame(t *testing.T) {
	v, err := vectorsOf("a.commands.json", "a.cfr")
	if err != nil || v.Expected != ".cfr" {
		t.Fatalf("vectorsOf(.commands.json, .cfr) = %v, %v", v, err)
	}
	if v2, err := vectorsOf("x.log", "y.bin"); err != nil || v2 != v {
		t.Errorf("vectorsOf of other endings = %v, %v; want the one game that records", v2, err)
	}
}
