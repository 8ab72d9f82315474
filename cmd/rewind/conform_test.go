package main

import (
	"bytes"
	"github.com/rewind-game/rewind/internal/testutil"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConformCommand(t *testing.T) {
	var out bytes.Buffer
	err := runConform(&conformOptions{paths: []string{"../../testdata/conformance"}, out: &out})
	if err != nil {
		t.Fatalf("conform failed: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("got %d lines, want 6:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, ": PASS (") {
			t.Errorf("line %q is not a PASS", l)
		}
	}
}

func TestConformCommandFails(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/conformance/c06"
	cmds := testutil.ReadFile(t, src+".commands.json")
	replay := testutil.ReadFile(t, src+".cfr")
	// c06's replay with c06's log minus one command: frame 2 differs.
	bad := strings.Replace(string(cmds), `"a `, `"u `, 1)
	os.WriteFile(filepath.Join(dir, "bad.commands.json"), []byte(bad), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.cfr"), replay, 0o644)
	os.WriteFile(filepath.Join(dir, "good.commands.json"), cmds, 0o644)
	os.WriteFile(filepath.Join(dir, "good.cfr"), replay, 0o644)
	var out bytes.Buffer
	err := runConform(&conformOptions{paths: []string{dir}, out: &out})
	if err == nil {
		t.Fatalf("a diverging vector did not fail the command:\n%s", out.String())
	}
	got := out.String()
	if !strings.Contains(got, "bad: FAIL round ") || !strings.Contains(got, "good: PASS (200 rounds)") {
		t.Errorf("output:\n%s", got)
	}
	exit := newRootCmd()
	exit.SetArgs([]string{"conform", filepath.Join(dir, "nonexistent.cfr")})
	exit.SetOut(&out)
	if err := exit.Execute(); err == nil {
		t.Error("missing file did not fail")
	}
}

func TestConformMonad(t *testing.T) {
	var out bytes.Buffer
	err := runConform(&conformOptions{paths: []string{"../../testdata/monad"}, out: &out})
	if err != nil {
		t.Fatalf("conform failed: %v\n%s", err, out.String())
	}
	want := "m01: PASS (300 turns)\nm02: PASS (318 turns)\nm03: PASS (500 turns)\n" +
		"m04: PASS (1000 turns)\nm05: PASS (100 turns)\nm06: PASS (548 turns)\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestConformMonadFails(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/monad/m05"
	cmds := testutil.ReadFile(t, src+".commands.json")
	states := testutil.ReadFile(t, src+".states.json.gz")
	// m05 with player 0's first command (turn 0) moving east, not
	// north-west.
	first := `"turns":[{"turn":0,"commands":{"0":[{"l":[1,1],"c":"MOVE","d":4`
	bad := strings.Replace(string(cmds), first, strings.TrimSuffix(first, "4")+"1", 1)
	if bad == string(cmds) {
		t.Fatal("m05 does not start as expected")
	}
	os.WriteFile(filepath.Join(dir, "bad.commands.json"), []byte(bad), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.states.json.gz"), states, 0o644)
	os.WriteFile(filepath.Join(dir, "good.commands.json"), cmds, 0o644)
	os.WriteFile(filepath.Join(dir, "good.states.json.gz"), states, 0o644)
	var out bytes.Buffer
	err := runConform(&conformOptions{paths: []string{dir}, out: &out})
	if err == nil {
		t.Fatalf("a diverging Monad vector did not fail the command:\n%s", out.String())
	}
	got := out.String()
	if !strings.Contains(got, "bad: FAIL turn 0: log.turns.cmd[") || !strings.Contains(got, "good: PASS (100 turns)") {
		t.Errorf("output:\n%s", got)
	}
	os.Remove(filepath.Join(dir, "good.states.json.gz"))
	out.Reset()
	if err := runConform(&conformOptions{paths: []string{filepath.Join(dir, "good.commands.json")}, out: &out}); err == nil {
		t.Error("a Monad vector without its states file did not fail")
	}
}
