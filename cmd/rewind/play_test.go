package main

import (
	"bytes"
	"context"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayAndDemo(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	opts := &playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 9, out: filepath.Join(dir, "g.rwd"), stdout: &out}
	res, err := runPlay(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turn != 200 || !strings.Contains(out.String(), "rank  seat") || !strings.Contains(out.String(), "replay: ") {
		t.Fatalf("output:\n%s", out.String())
	}
	out.Reset()
	if err := runVerify(&verifyOptions{file: opts.out, stdout: &out}); err != nil {
		t.Fatalf("%v %s", err, out.String())
	}
	for _, bad := range [][]string{{"greedy"}, {"nosuchbot", "greedy"}} {
		opts.bots = bad
		if _, err := runPlay(context.Background(), opts); err == nil {
			t.Errorf("--bot %v accepted", bad)
		}
	}

	// The demo plays, verifies, then serves its replay until cancelled.
	out.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var demoOut bytes.Buffer
	go func() {
		done <- runDemo(ctx, &demoOptions{dir: dir, stdout: &demoOut, serve: serveOptions{addr: "127.0.0.1:0", ready: ready}})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("demo ended before serving: %v\n%s", err, demoOut.String())
	}
	code, body := testutil.Get(t, base+"/replay/demo.rwd")
	if code != 200 || !strings.Contains(string(body), "ColorfightII · ") {
		t.Errorf("demo replay page: %d\n%.300s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(demoOut.String(), "verified: 500 rounds") || !strings.Contains(demoOut.String(), base+"/replay/demo.rwd") {
		t.Fatalf("demo output:\n%s", demoOut.String())
	}
	// Its first line names the bots it plays: every one its table ranks.
	lines := strings.Split(demoOut.String(), "\n")
	ranked := 0
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) > 4 && f[0] != "rank" && f[1] != "" && strings.HasPrefix(f[2], f[1]+"_") {
			ranked++
			if !strings.Contains(lines[0], f[3]) {
				t.Errorf("the demo plays %s but says %q", f[3], lines[0])
			}
		}
	}
	if ranked < 2 {
		t.Errorf("the demo's table ranks %d bots:\n%s", ranked, demoOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "demo.rwd")); err != nil {
		t.Fatal(err)
	}
}

func TestTournamentCommand(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	opts := &tournamentOptions{play: playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 3, stdout: &out}, games: 4, parallel: 2, ahead: defaultAhead, dir: dir}
	if err := runTournament(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "4 games (0 already played") || !strings.Contains(out.String(), "elo") {
		t.Fatalf("output:\n%s", out.String())
	}
	out.Reset()
	if err := runTournament(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "4 games (4 already played") {
		t.Fatalf("second run did not resume:\n%s", out.String())
	}
}

func TestAnalyzeAndReport(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	rw := "../../testdata/conformance/c04.cfr"
	if err := runAnalyze(&analyzeOptions{path: rw, format: "json", stdout: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"username":"bot4_greedy"`) {
		t.Errorf("json lacks the winner")
	}
	out.Reset()
	if err := runAnalyze(&analyzeOptions{path: rw, format: "table", stdout: &out}); err != nil || !strings.Contains(out.String(), "591533") {
		t.Fatalf("table: %v\n%s", err, out.String())
	}
	// A folder: one CSV row per (game, player) and the per-bot aggregate.
	opts := &tournamentOptions{play: playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 3, stdout: io.Discard}, games: 3, parallel: 2, ahead: defaultAhead, dir: dir}
	if err := runTournament(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	var agg bytes.Buffer
	if err := runAnalyze(&analyzeOptions{path: dir, format: "csv", parallel: 2, stdout: &out, stderr: &agg}); err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(out.String(), "\n"); rows != 1+3*2 {
		t.Errorf("%d CSV lines, want 7:\n%s", rows, out.String())
	}
	if !strings.Contains(agg.String(), `"greedy"`) || !strings.Contains(agg.String(), "3 replays analyzed") {
		t.Errorf("aggregate:\n%s", agg.String())
	}
	html := filepath.Join(dir, "r.html")
	if err := runReport(&reportOptions{in: rw, out: html, stdout: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(html); strings.Count(string(b), `data-testid="chart"`) != 4 {
		t.Error("report lacks its four charts")
	}
}
