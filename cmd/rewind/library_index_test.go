package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

// analyzeRanks runs `rewind analyze DIR --format csv` and returns, per bot,
// the games (file names) it played and those where its seat did not rank
// first.
func analyzeRanks(t *testing.T, dir string) (played, lost map[string][]string) {
	t.Helper()
	var out bytes.Buffer
	if err := runCLITo(&out, io.Discard, "analyze", dir, "--format", "csv"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	played, lost = map[string][]string{}, map[string][]string{}
	for _, r := range recs[1:] {
		bot, game := r[col["bot"]], r[col["game"]]
		played[bot] = append(played[bot], game)
		if r[col["rank"]] != "1" {
			lost[bot] = append(lost[bot], game)
		}
	}
	for _, m := range []map[string][]string{played, lost} {
		for k := range m {
			slices.Sort(m[k])
		}
	}
	return played, lost
}

// TestLibraryIndexBrowser: rewind serve on a tournament's folder; in
// Chromium, the filter "games my bot lost" lists exactly the games where
// that bot's seat did not rank first by `rewind analyze DIR`, the bot
// filter every game it played; a replay copied in appears on the open
// page (pushed, no reload) and one deleted leaves it; the standings page
// rates every bot.
func TestLibraryIndexBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tournament")
	}
	dir := t.TempDir()
	if out, err := runCLIOut(t, "tournament", "--bot", "greedy", "--bot", "raider", "--bot", "economist", "--bot", "turtle",
		"--players", "3", "--games", "10", "--turns", "200", "--dir", dir); err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	played, lost := analyzeRanks(t, dir)
	if len(lost["greedy"]) == 0 || len(lost["greedy"]) == len(played["greedy"]) {
		t.Fatalf("greedy lost %d of %d games: want some of each to tell the filter apart", len(lost["greedy"]), len(played["greedy"]))
	}

	base := serveForTest(t, "serve "+dir, &serveOptions{dir: dir, stderr: &bytes.Buffer{}}, runServe)

	b := browsertest.Start(t, 4*time.Minute)
	ids := func() []string {
		t.Helper()
		var got []string
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#library-rows tr')).map(r => r.dataset.id)`, &got)); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		return got
	}
	// The first sync may still be reading: wait until every game is listed.
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	for range 120 {
		if len(ids()) == 10 {
			break
		}
		time.Sleep(500 * time.Millisecond)
		chromedp.Run(b.Ctx, chromedp.Reload())
	}
	if n := len(ids()); n != 10 {
		t.Fatalf("%d games listed, want 10", n)
	}
	filter := func(bot string, lostOnly bool) []string {
		t.Helper()
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"),
			chromedp.SetValue(`#filters input[name=bot]`, bot, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector('#filters input[name=lost]').checked = `+map[bool]string{true: "true", false: "false"}[lostOnly], nil),
			chromedp.Evaluate(`document.getElementById('apply').click()`, nil)); err != nil {
			t.Fatal(err)
		}
		want := "bot=" + bot
		if lostOnly {
			want += "&lost=1"
		}
		if err := b.WaitJS(`location.search.includes('`+want+`') && document.readyState === 'complete' && !!document.getElementById('filters')`, 20*time.Second); err != nil {
			var loc string
			chromedp.Run(b.Ctx, chromedp.Location(&loc))
			t.Fatalf("the filter form did not load its page (at %s): %v", loc, err)
		}
		var loc string
		chromedp.Run(b.Ctx, chromedp.Location(&loc))
		if !strings.Contains(loc, "bot="+bot) {
			t.Fatalf("the form went to %s", loc)
		}
		return ids()
	}
	for _, bot := range []string{"greedy", "raider", "economist", "turtle"} {
		if got := filter(bot, true); !slices.Equal(got, lost[bot]) {
			t.Errorf("%s lost: the page lists %v, analyze says %v", bot, got, lost[bot])
		}
		if got := filter(bot, false); !slices.Equal(got, played[bot]) {
			t.Errorf("%s played: the page lists %v, analyze says %v", bot, got, played[bot])
		}
	}

	// Pushed: a new replay shows on the open page, a deleted one goes.
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "game-0003.rwd"))
	if err := os.WriteFile(filepath.Join(dir, "added.rwd"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitJS(`!!document.querySelector('#library-rows tr[data-id="added.rwd"]')`, 2*time.Minute); err != nil {
		t.Fatalf("the added replay never showed on the open page: %v", err)
	}
	os.Remove(filepath.Join(dir, "game-0001.rwd"))
	if err := b.WaitJS(`!document.querySelector('#library-rows tr[data-id="game-0001.rwd"]')`, 2*time.Minute); err != nil {
		t.Fatalf("the deleted replay stayed on the open page: %v", err)
	}

	// The standings page rates the four bots; a bot's page draws its rating.
	var bots []string
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/standings"),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('table.standings tr[data-bot]')).map(r => r.dataset.bot)`, &bots)); err != nil {
		t.Fatal(err)
	}
	slices.Sort(bots)
	if !slices.Equal(bots, []string{"economist", "greedy", "raider", "turtle"}) {
		t.Errorf("standings list %v", bots)
	}
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/bot/greedy")); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitJS(`!!(window.echarts && echarts.getInstanceByDom(document.getElementById('rating-chart')))`, time.Minute); err != nil {
		t.Errorf("no rating chart: %v", err)
	}
	b.CheckRequests(t, base, "data:") // data: the date inputs' icons
	b.CheckProblems(t)
}

// TestIndexCommandDamagedAndNewer: rewind index builds the index, reads
// nothing the second time, rebuilds a damaged one with a warning and
// refuses one from a newer schema, leaving it as it is.
func TestIndexCommandDamagedAndNewer(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", "raider", "--games", "3", "--turns", "200", "--dir", dir)
	out, err := runCLIOut(t, "index", dir)
	if err != nil || !strings.Contains(out, "3 replays indexed; 3 read") {
		t.Fatalf("index: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "index", dir)
	if err != nil || !strings.Contains(out, "3 replays indexed; 0 read") {
		t.Fatalf("index again: %v\n%s", err, out)
	}
	db := filepath.Join(dir, filepath.FromSlash(index.File))
	b := testutil.ReadFile(t, db)
	dam := slices.Clone(b)
	for i := 100; i < len(dam); i += 5 {
		dam[i] ^= 0xa5
	}
	os.WriteFile(db, dam, 0o644)
	out, err = runCLIOut(t, "index", dir)
	if err != nil || !strings.Contains(out, "warning: index") || !strings.Contains(out, "rebuilt") || !strings.Contains(out, "3 replays indexed; 3 read") {
		t.Fatalf("damaged index: %v\n%s", err, out)
	}
	// A newer schema: SQLite's user_version is the header's bytes 60..63.
	b, _ = os.ReadFile(db)
	binary.BigEndian.PutUint32(b[60:], index.SchemaVersion+1)
	os.WriteFile(db, b, 0o644)
	out, err = runCLIOut(t, "index", dir)
	if err == nil || !strings.Contains(err.Error(), "newer rewind") || !strings.Contains(err.Error(), fmt.Sprintf("schema version %d", index.SchemaVersion+1)) {
		t.Fatalf("newer index: %v\n%s", err, out)
	}
	after, _ := os.ReadFile(db)
	if !bytes.Equal(after, b) {
		t.Fatal("the newer index was changed")
	}
	// serve refuses it too, with the same message.
	err = runServe(context.Background(), &serveOptions{dir: dir, addr: "127.0.0.1:0", stdout: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "newer rewind") {
		t.Fatalf("serve of a newer index: %v", err)
	}
}

// TestAnalyzeDirReusesIndex: `rewind analyze DIR` keeps each game's
// analysis in the folder's index and a second run gives the same output
// from it without reading the replays again: a file overwritten with
// garbage of the same size and modification time is not read (and
// changing its time makes analyze read it, and report it).
func TestAnalyzeDirReusesIndex(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", "raider", "--bot", "economist", "--games", "4", "--turns", "200", "--dir", dir)
	run := func(format string) (string, string, error) {
		var out, errb bytes.Buffer
		err := runCLITo(&out, &errb, "analyze", dir, "--format", format)
		return out.String(), errb.String(), err
	}
	csv1, std1, err := run("csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(index.File))); err != nil {
		t.Fatalf("no index after analyze: %v", err)
	}
	p := filepath.Join(dir, "game-0002.rwd")
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	for _, f := range []string{"csv", "table"} {
		out2, std2, err := run(f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "csv" && (out2 != csv1 || std2 != std1) {
			t.Errorf("analyze from the index differs:\n%s\n%s\nwant\n%s\n%s", out2, std2, csv1, std1)
		}
		if f == "table" && !strings.Contains(out2, "4 replays analyzed, 0 skipped") {
			t.Errorf("table from the index: %s", out2)
		}
	}
	os.Chtimes(p, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	_, std3, _ := run("csv")
	if !strings.Contains(std3, "skipped") || !strings.Contains(std3, "game-0002.rwd") {
		t.Errorf("a changed file was not read again: %s", std3)
	}
}

// TestServeWithoutIndex: a folder where the index cannot be kept (here
// .rewind is a file) is still served, listed by reading it, with a note.
func TestServeWithoutIndex(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", "raider", "--games", "1", "--turns", "200", "--dir", dir)
	os.WriteFile(filepath.Join(dir, ".rewind"), []byte("a file, not a folder"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var serr bytes.Buffer
	go func() {
		done <- runServe(ctx, &serveOptions{dir: dir, addr: "127.0.0.1:0", stdout: io.Discard, stderr: &serr, ready: ready})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	cancel()
	<-done
	if res.StatusCode != 200 || !strings.Contains(string(b), `data-id="game-0000.rwd"`) || strings.Contains(string(b), "data-indexed") {
		t.Errorf("page %d without an index: %.300s", res.StatusCode, b)
	}
	if !strings.Contains(serr.String(), "note: no library index") {
		t.Errorf("stderr: %s", serr.String())
	}
}

// TestAnalyzeDirReadsSubfolders: `rewind analyze DIR` reads the replays
// of DIR's sub-folders, as the library lists them (none under a folder
// whose name starts with "."), and keeps two files of one name in two
// sub-folders apart in the index: a second run, with both overwritten by
// garbage of the same size and time, gives the same CSV from the index.
func TestAnalyzeDirReadsSubfolders(t *testing.T) {
	dir := t.TempDir()
	for i, sub := range []string{"a", filepath.Join("b", "deeper")} {
		out, err := runCLIOut(t, "tournament", "--bot", "greedy", "--bot", "raider", "--games", strconv.Itoa(2+i), "--turns", "200", "--seed", strconv.Itoa(3+i), "--dir", filepath.Join(dir, sub))
		if err != nil {
			t.Fatalf("tournament: %v\n%s", err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".hidden"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".hidden", "game.rwd"), []byte("not a replay"), 0o644)
	run := func(format string) (string, string) {
		var out, errb bytes.Buffer
		if err := runCLITo(&out, &errb, "analyze", dir, "--format", format); err != nil {
			t.Fatalf("analyze %s: %v\n%s%s", format, err, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	table, _ := run("table")
	if !strings.Contains(table, "5 replays analyzed, 0 skipped") {
		t.Fatalf("analyze of a folder with sub-folders:\n%s", table)
	}
	csv1, _ := run("csv")
	for _, p := range []string{filepath.Join(dir, "a", "game-0001.rwd"), filepath.Join(dir, "b", "deeper", "game-0001.rwd")} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644)
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
	}
	if csv2, std2 := run("csv"); csv2 != csv1 {
		t.Errorf("analyze from the index differs:\n%s%s\nwant\n%s", csv2, std2, csv1)
	}
}

// TestAnalyzeDirReusesIndexEveryGame: for every game, not only those
// with a document of their own, `rewind analyze DIR` keeps each replay's
// analysis in the folder's index, and a second run gives the same output
// from it without reading the replays again (a file overwritten with
// garbage of the same size and time is not read; with a new time it is,
// and is reported).
func TestAnalyzeDirReusesIndexEveryGame(t *testing.T) {
	for _, tc := range []struct{ game, a, b, turns string }{
		{"monad", "miner", "rusher", "200"},
		{"skyport", "hunter", "miner", "40"},
		{"colorfight1", "expander", "aggressor", "300"},
		{"toy", "painter", "idler", "30"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			mustRunCLI(t, "tournament", "--game", tc.game, "--bot", tc.a, "--bot", tc.b, "--games", "3", "--turns", tc.turns, "--dir", dir)
			run := func() (string, string) {
				var out, errb bytes.Buffer
				runCLITo(&out, &errb, "analyze", dir)
				return out.String(), errb.String()
			}
			out1, err1 := run()
			if !strings.Contains(out1, "3 replays analyzed, 0 skipped") {
				t.Fatalf("analyze:\n%s%s", out1, err1)
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(index.File))); err != nil {
				t.Fatalf("no index after analyze: %v", err)
			}
			p := filepath.Join(dir, "game-0001.rwd")
			fi, _ := os.Stat(p)
			os.WriteFile(p, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644)
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
			if out2, err2 := run(); out2 != out1 || err2 != err1 {
				t.Errorf("analyze from the index differs:\n%s%s\nwant\n%s%s", out2, err2, out1, err1)
			}
			os.Chtimes(p, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
			if out3, err3 := run(); !strings.Contains(out3+err3, "skipped "+p) || !strings.Contains(out3, ": 2 games") {
				t.Errorf("a changed file was not read again:\n%s%s", out3, err3)
			}
		})
	}
}
