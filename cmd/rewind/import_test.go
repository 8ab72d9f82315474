package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/bots/hidingbot"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestImportVerifyAudit: import writes a .rwd that verifies against its
// source and says where it came from; an existing output is kept unless
// --force; audit passes a clean replay (exit 0), lists a tampered one's
// violation (exit 1), refuses junk (exit 2) and points a .rwd to verify.
func TestImportVerifyAudit(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c06.rwd")
	fixed := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	var out bytes.Buffer
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, stdout: &out, now: fixed}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "200 rounds") || !strings.Contains(out.String(), "sha256 ") {
		t.Errorf("import said %q", out.String())
	}
	out.Reset()
	if err := runVerify(&verifyOptions{file: rwd, against: c06 + ".cfr", stdout: &out}); err != nil || !strings.Contains(out.String(), "201 frames equal") {
		t.Fatalf("verify --against: %v %q", err, out.String())
	}
	out.Reset()
	if err := runInfo(&infoOptions{stdout: &out}, rwd); err != nil || !strings.Contains(out.String(), "imported: from c06.cfr") || !strings.Contains(out.String(), "commands inferred") {
		t.Fatalf("info: %v %q", err, out.String())
	}

	// No overwrite without --force; the file is untouched.
	before, _ := os.ReadFile(rwd)
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("overwrite without --force: %v", err)
	}
	if after, _ := os.ReadFile(rwd); !bytes.Equal(before, after) {
		t.Fatal("refused import changed the file")
	}
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, force: true, stdout: &out, now: time.Now}); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*partial")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}

	out.Reset()
	if err := runAudit(&auditOptions{in: c06 + ".cfr", stdout: &out}); err != nil || !strings.HasPrefix(out.String(), "OK ") {
		t.Fatalf("audit clean: %v %q", err, out.String())
	}
	var ee *exitError
	junk := filepath.Join(dir, "junk.cfr")
	os.WriteFile(junk, []byte("not a replay"), 0o644)
	out.Reset()
	if err := runAudit(&auditOptions{in: junk, stdout: &out}); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(out.String(), "UNREADABLE") {
		t.Fatalf("audit junk: %v %q", err, out.String())
	}
	out.Reset()
	if err := runAudit(&auditOptions{in: rwd, stdout: &out}); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(out.String(), "rewind verify") {
		t.Fatalf("audit .rwd: %v %q", err, out.String())
	}
	// A replay whose gold was raised at turn 120: audit lists it (exit 1),
	// import refuses it and writes nothing.
	tampered := filepath.Join(dir, "tampered.cfr")
	writeTampered(t, c06+".cfr", tampered, 120)
	out.Reset()
	if err := runAudit(&auditOptions{in: tampered, stdout: &out}); !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(out.String(), "turn 120, user 1: gold") {
		t.Fatalf("audit with a violation: %v %q", err, out.String())
	}
	bad := filepath.Join(dir, "tampered.rwd")
	if err := runImport(&importOptions{in: tampered, out: bad, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "turn 120") {
		t.Fatalf("import of a violating replay: %v", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("output written for a refused import: %v", err)
	}
	if err := runImport(&importOptions{in: dir, out: bad, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("import of a directory: %v", err)
	}
}

// writeTampered copies the official replay src to dst with user 1's gold
// raised by 1 at turn.
func writeTampered(t *testing.T, src, dst string, turn int) {
	t.Helper()
	editCFR(t, src, dst, func(fr *colorfight2.Frame) {
		if fr.Turn == turn {
			for k := range fr.Users {
				if fr.Users[k].UID == 1 {
					fr.Users[k].Gold++
				}
			}
		}
	})
}

// TestAuditUnexplained: a round the inference finds no commands for, and no
// rule refutes, is not called a violation: audit says the file may still
// be legal (exit 3) and import refuses it in the same words, writing
// nothing. The round: the gold of a player who lost its Home, raised by 1
// (a Home's capture moves a third of its owner's gold, so no rule in
// hundreds bounds that player's gold).
func TestAuditUnexplained(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/conformance/c03.cfr"
	turn, uid := homeLoss(t, src)
	odd := filepath.Join(dir, "odd.cfr")
	editCFR(t, src, odd, func(f *colorfight2.Frame) {
		if f.Turn == turn {
			for k := range f.Users {
				if f.Users[k].UID == uid {
					f.Users[k].Gold++
				}
			}
		}
	})
	var out bytes.Buffer
	want := fmt.Sprintf("turn %d: no commands found that explain this round; the file may still be legal", turn)
	if err := runAudit(&auditOptions{in: odd, stdout: &out}); err != nil || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "UNEXPLAINED") || strings.Contains(out.String(), "VIOLATION") {
		t.Fatalf("audit: %v %q", err, out.String())
	}
	bad := filepath.Join(dir, "odd.rwd")
	err := runImport(&importOptions{in: odd, out: bad, stdout: &out, now: time.Now})
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "breaks the rules") {
		t.Fatalf("import: %v", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("output written for a refused import: %v", err)
	}
}

// homeLoss finds the first turn of an official replay in which a player
// lost a Home to a capture, and that player.
func homeLoss(t *testing.T, path string) (turn int, uid int64) {
	t.Helper()
	b := testutil.ReadFile(t, path)
	d, err := cfr.NewDecoder(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var prev, fr colorfight2.Frame
	for d.Next(&fr) == nil {
		if len(prev.Cells) == len(fr.Cells) {
			for i := range fr.Cells {
				if a := &prev.Cells[i]; a.Building == colorfight2.Home && fr.Cells[i].Owner != a.Owner {
					return fr.Turn, a.Owner
				}
			}
		}
		prev.CopyFrom(&fr)
	}
	t.Fatalf("%s: no Home is captured", path)
	return 0, 0
}

// editCFR copies the official replay src to dst with edit applied to every
// frame.
func editCFR(t *testing.T, src, dst string, edit func(*colorfight2.Frame)) {
	t.Helper()
	if err := os.WriteFile(dst, cfrtest.Rewrite(t, src, edit), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImportHiddenGame: a game of the hiding bot (games/colorfight2/bots/hidingbot:
// builds and upgrades on cells about to fall, Homes lost with what stood
// on them), written as the reference writes a .cfr, goes through the
// user's path: import, verify --against the .cfr, audit (exit 0).
func TestImportHiddenGame(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "hidden.cfr")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	cfg := colorfight2.Config{Width: 12, Height: 12, MaxTurn: 150, MaxPlayer: 4}
	seats := []hidingbot.Seat{{Hider: true, Bot: "greedy"}, {Hider: true, Bot: "raider"}, {Hider: true, Bot: "raider"}, {Bot: "greedy"}}
	st, err := hidingbot.Game(f, cfg, 43, seats)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if st.Builds == 0 || st.Upgrades == 0 || st.HomeFalls == 0 || st.Removed == 0 {
		t.Fatalf("the game hides too little: %+v", st)
	}
	rwd := filepath.Join(dir, "hidden.rwd")
	var out bytes.Buffer
	if err := runImport(&importOptions{in: src, out: rwd, stdout: &out, now: time.Now}); err != nil {
		t.Fatalf("import: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runVerify(&verifyOptions{file: rwd, against: src, stdout: &out}); err != nil || !strings.Contains(out.String(), "151 frames equal") {
		t.Fatalf("verify --against: %v %q", err, out.String())
	}
	out.Reset()
	if err := runAudit(&auditOptions{in: src, stdout: &out}); err != nil || !strings.HasPrefix(out.String(), "OK ") {
		t.Fatalf("audit: %v %q", err, out.String())
	}
}
