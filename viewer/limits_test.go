package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/recording"
	"github.com/rewind-game/rewind/replay/source"
)

// flood is issue 13's hostile recording at reduced size: two players each
// send n failing attacks every round.
func flood(tb testing.TB, rounds, n int) []byte {
	tb.Helper()
	seed := uint64(3)
	names := []string{"a", "b"}
	eg, err := colorfight2.Ruleset.New(seed, engine.Settings{Players: 2, MaxTurns: rounds, Names: names})
	if err != nil {
		tb.Fatal(err)
	}
	g := eg.(*colorfight2.Game)
	h, err := replay.GameHeader(colorfight2.Ruleset, g, seed, nil, rounds, names, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewGameWriter(&buf, h)
	if err != nil {
		tb.Fatal(err)
	}
	list := make([]colorfight2.Command, n)
	for i := range list {
		list[i] = colorfight2.Command{Kind: colorfight2.CmdAttack, X: i % 30, Y: i / 30 % 30, Energy: 1 << 40}
	}
	for t := range rounds {
		cmds := [][]colorfight2.Command{nil, nil}
		if t > 0 {
			cmds = [][]colorfight2.Command{list, list}
		}
		g.PlayApplied(cmds)
		if err := w.WriteRound(nil, g); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(g); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func loadData(tb testing.TB, data []byte, textBudget int64) *Replay {
	tb.Helper()
	a, err := analyzeReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	src, err := source.New(bytes.NewReader(data), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	rep, err := load(src, a, textBudget)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestLoadCommandsBounded: a flood of MaxCommandsPerRound failing commands
// a player a round is listed MaxCommandsShown at a time with exact counts
// ("…and N more"), so Load allocates per round what the listed commands
// cost, not what the flood sent: 40 rounds cost about 30 more than 10, far
// from the 40 × 20,000 commands' text.
func TestLoadCommandsBounded(t *testing.T) {
	n := replay.MaxCommandsPerRound
	short, long := flood(t, 10, n), flood(t, 40, n)
	var rep *Replay
	a := allocated(func() { loadData(t, short, MaxCommandText) })
	b := allocated(func() { rep = loadData(t, long, MaxCommandText) })
	// Per extra round: two players' listed commands, their strings and
	// JSON several times over, the errors of the listed ones, a frame.
	perRound := uint64(2*MaxCommandsShown*(commandOverhead+16)*8 + 200<<10)
	t.Logf("%d bytes on disk: Load allocates %.1f MB for 10 rounds, %.1f MB for 40 (bound %.1f MB more)", len(long), float64(a)/1e6, float64(b)/1e6, float64(30*perRound)/1e6)
	if b > a+30*perRound {
		t.Errorf("40 rounds allocate %d bytes, 10 rounds %d: more than %d a round", b, a, perRound)
	}
	m, err := ReadManifest(rep.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Notice == "" || m.ShortenedNote == "" || !strings.Contains(rep.Notice, fmt.Sprint(MaxCommandsShown)) {
		t.Errorf("notice %q, manifest note %q: want them to say what is left out", rep.Notice, m.ShortenedNote)
	}
	// The flood's first round has no commands.
	for turn := 2; turn < m.Frames; turn++ {
		for s := range 2 {
			if got := len(m.Commands[turn][s]); got != MaxCommandsShown {
				t.Fatalf("turn %d slot %d: %d commands listed, want %d", turn, s+1, got, MaxCommandsShown)
			}
		}
		if len(m.Errors[turn]) != 2*MaxCommandsShown {
			t.Fatalf("turn %d: %d errors listed, want those of the %d listed commands", turn, len(m.Errors[turn]), 2*MaxCommandsShown)
		}
		want := [][3]int{{1, n, n}, {2, n, n}}
		if fmt.Sprint(m.Shortened[turn]) != fmt.Sprint(want) {
			t.Fatalf("turn %d: shortened %v, want %v (exact counts)", turn, m.Shortened[turn], want)
		}
	}
}

// TestLoadTextBudget: past the replay's command text budget, later rounds
// list no command but keep their counts, and the page says from when.
func TestLoadTextBudget(t *testing.T) {
	budget := int64(2 * MaxCommandsShown * (commandOverhead + 10) * 5) // about 5 rounds
	rep := loadData(t, flood(t, 20, 300), budget)
	m, err := ReadManifest(rep.Blob)
	if err != nil {
		t.Fatal(err)
	}
	var text int64
	cut := 0
	for turn := 2; turn < m.Frames; turn++ {
		for s := range 2 {
			for _, c := range m.Commands[turn][s] {
				text += int64(len(c)) + commandOverhead
			}
			if len(m.Commands[turn][s]) == 0 && cut == 0 {
				cut = turn
			}
		}
		for _, sh := range m.Shortened[turn] {
			if sh[1] != 300 || sh[2] != 300 {
				t.Fatalf("turn %d: shortened %v, want 300 commands, 300 failed", turn, sh)
			}
		}
		if len(m.Shortened[turn]) != 2 {
			t.Fatalf("turn %d: shortened %v, want both players", turn, m.Shortened[turn])
		}
	}
	if text > budget || cut == 0 || cut > 8 {
		t.Errorf("%d bytes of command text listed (budget %d); first round with none listed: %d", text, budget, cut)
	}
	if !strings.Contains(rep.Notice, "listed up to turn") {
		t.Errorf("notice %q: want it to say until when commands are listed", rep.Notice)
	}
}

// matchRWD records a short match of the built-in bots.
func matchRWD(tb testing.TB, rounds int, seed uint64) []byte {
	tb.Helper()
	var buf bytes.Buffer
	playCF2(tb, seed, rounds, recording.NewSeam(&buf, time.Time{}, "rewind test"), cf2Seat(tb, "greedy", "greedy"), cf2Seat(tb, "random", "random"))
	return buf.Bytes()
}

// heapSampler records the largest HeapInuse seen until stop.
type heapSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func sampleHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > h.peak.Load() {
				h.peak.Store(ms.HeapInuse)
			}
			select {
			case <-h.stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return h
}

func (h *heapSampler) end() uint64 {
	close(h.stop)
	<-h.done
	return h.peak.Load()
}

// checkAnswer fails unless resp is a 200, or a 503 with Retry-After.
func checkAnswer(t *testing.T, what string, resp *http.Response, err error) int {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return 0
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
	default:
		t.Errorf("%s: %s (Retry-After %q): %.500q", what, resp.Status, resp.Header.Get("Retry-After"), body)
	}
	return resp.StatusCode
}

// TestServerUnderLoad is issue 13's server acceptance at reduced size: 64
// concurrent requests for 64 different replays, then 50 clients reading a
// replay that the test records round by round into the library, finish
// with every request answered (200, or 503 with Retry-After) and the
// process's heap growth and the budget's accounting under the configured
// budget. The growing replay is decoded once however many rounds and
// requests come (the re-decode interval is set beyond the test).
func TestServerUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("records 65 matches")
	}
	dir := t.TempDir()
	const rounds = 120
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			write(t, filepath.Join(dir, fmt.Sprintf("g%02d.rwd", i)), matchRWD(t, rounds, uint64(i+1)))
		}()
	}
	wg.Wait()
	growing := matchRWD(t, 300, 99)

	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	// Room for one decode's estimated peak and a few replays: a second
	// decode at once is refused (503).
	peak := LoadPeakBytes(2, 900, 300)
	budget := peak + peak/2
	base := serve(t, lib, Options{MemoryBudget: budget, CacheBytes: 4 << 20, ClientRate: -1})
	lib.mu.Lock()
	lib.growEvery = time.Hour
	lib.mu.Unlock()
	client := &http.Client{Timeout: 5 * time.Minute}

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	baseline := ms.HeapInuse
	heap := sampleHeap()

	var ok, busy atomic.Int64
	count := func(code int) {
		switch code {
		case http.StatusOK:
			ok.Add(1)
		case http.StatusServiceUnavailable:
			busy.Add(1)
		}
	}
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(fmt.Sprintf("%s/data/g%02d.rwd", base, i))
			count(checkAnswer(t, fmt.Sprintf("g%02d", i), resp, err))
		}()
	}
	wg.Wait()
	t.Logf("64 replays: %d answered 200, %d 503", ok.Load(), busy.Load())
	if ok.Load() == 0 {
		t.Error("no replay was served")
	}

	// A recording grows in the library while 50 clients read it.
	path := filepath.Join(dir, "live.rwd")
	const steps = 30
	chunk := len(growing) / steps
	write(t, path, growing[:chunk])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	var growOK, growBusy atomic.Int64
	stop := make(chan struct{})
	var clients sync.WaitGroup
	for i := range 50 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for n := 0; ; n++ {
				resp, err := client.Get(base + "/data/live.rwd")
				switch checkAnswer(t, fmt.Sprintf("client %d request %d", i, n), resp, err) {
				case http.StatusOK:
					growOK.Add(1)
				case http.StatusServiceUnavailable:
					growBusy.Add(1)
				default:
					return
				}
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
	}
	for i := 1; i < steps; i++ {
		end := (i + 1) * chunk
		if i == steps-1 {
			end = len(growing)
		}
		if _, err := f.Write(growing[i*chunk : end]); err != nil {
			t.Fatal(err)
		}
		// Each round is read by some client before the next.
		resp, err := client.Get(base + "/data/live.rwd")
		checkAnswer(t, "the writer's read", resp, err)
	}
	f.Close()
	close(stop)
	clients.Wait()
	peakHeap := heap.end()
	used, accounted, refused := lib.mem.stats()
	lib.mu.Lock()
	decodes := lib.decodes
	lib.mu.Unlock()
	t.Logf("growing replay: %d answered 200, %d 503; decodes of the library %d; budget %d MiB: accounted peak %.1f MiB, now %.1f MiB, %d refused; heap in use peaked %.1f MiB over a baseline of %.1f MiB",
		growOK.Load(), growBusy.Load(), decodes, budget>>20, float64(accounted)/(1<<20), float64(used)/(1<<20), refused, float64(peakHeap)/(1<<20), float64(baseline)/(1<<20))
	if accounted > budget {
		t.Errorf("the budget accounted %d bytes at most, over the budget %d", accounted, budget)
	}
	if refused == 0 {
		t.Log("no decode was refused (the machine was slow enough to serialise them)")
	}
	if peakHeap > baseline+uint64(budget) {
		t.Errorf("heap in use peaked at %d bytes, over the baseline %d + the budget %d", peakHeap, baseline, budget)
	}
	if growOK.Load() == 0 {
		t.Error("the growing replay was never served")
	}
	// 64 replays decoded at most once each (a refused one is not
	// decoded), the growing one once while it grew and once finished.
	if decodes > 64+2 {
		t.Errorf("%d decodes: want at most one per replay, two of the growing one", decodes)
	}
}

// TestRateLimiter: a client gets its burst at once, then its rate; other
// clients are not affected; the wait it is told is until its next token.
func TestRateLimiter(t *testing.T) {
	l := newRateLimiter(2, 3)
	now := time.Unix(1000, 0)
	for i := range 3 {
		if ok, _ := l.allow("a", now); !ok {
			t.Fatalf("request %d of the burst refused", i)
		}
	}
	ok, wait := l.allow("a", now)
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("past the burst: allowed %v, wait %v; want refused, 500ms", ok, wait)
	}
	if ok, _ := l.allow("b", now); !ok {
		t.Fatal("another client refused")
	}
	if ok, _ := l.allow("a", now.Add(500*time.Millisecond)); !ok {
		t.Fatal("refused after its token came back")
	}
	if newRateLimiter(-1, 3) != nil {
		t.Fatal("a negative rate still limits")
	}
}

// TestClientLimitHTTP: past its burst a client's expensive requests get
// 429 with Retry-After; the library page is not limited.
func TestClientLimitHTTP(t *testing.T) {
	lib, err := OpenLibrary(fixtureLibrary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{ClientRate: 1e-6, ClientBurst: 2})
	for i := range 2 {
		resp, err := http.Get(base + "/data/hostile.rwd")
		if checkAnswer(t, fmt.Sprint("request ", i), resp, err) != http.StatusOK {
			t.Fatal("within the burst: not served")
		}
	}
	resp, err := http.Get(base + "/data/hostile.rwd")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("past the burst: %s, Retry-After %q; want 429 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	for range 3 {
		resp, err := http.Get(base + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("library page: %s", resp.Status)
		}
	}
}

// TestUploadQuotas: uploads past the hour's count get 429, past the
// folder's bytes 507, each saying why; no temporary file is left.
func TestUploadQuotas(t *testing.T) {
	dir := t.TempDir()
	good := hostileRWD(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{MaxUploadsPerHour: 1, ClientRate: -1})
	if code, body := post(t, base+"/api/upload?name=one.rwd", good); code != 200 {
		t.Fatalf("first upload: %d %s", code, body)
	}
	if code, body := post(t, base+"/api/upload?name=two.rwd", good); code != http.StatusTooManyRequests || !strings.Contains(body, "uploads an hour") {
		t.Errorf("second upload in the hour: %d %s", code, body)
	}

	dir2 := t.TempDir()
	lib2, err := OpenLibrary(dir2)
	if err != nil {
		t.Fatal(err)
	}
	defer lib2.Close()
	base2 := serve(t, lib2, Options{MaxFolderBytes: int64(len(good)) + 10, ClientRate: -1})
	if code, body := post(t, base2+"/api/upload?name=one.rwd", good); code != 200 {
		t.Fatalf("first upload: %d %s", code, body)
	}
	if code, body := post(t, base2+"/api/upload?name=two.rwd", good); code != http.StatusInsufficientStorage || !strings.Contains(body, "may hold") {
		t.Errorf("upload past the folder's bytes: %d %s", code, body)
	}
	for _, d := range []string{dir, dir2} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("%s left in the folder", e.Name())
			}
		}
	}
}

// TestBudgetCache: the library keeps replays within its byte budget,
// least recently used dropped first, and the memory budget accounts
// exactly what it keeps once no decode runs.
func TestBudgetCache(t *testing.T) {
	lib, err := OpenLibrary(fixtureLibrary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	c03, err := lib.Load("c03.rwd")
	if err != nil {
		t.Fatal(err)
	}
	lib.mu.Lock()
	lib.cacheBytes = replayBytes(c03) + 1
	lib.mu.Unlock()
	if _, err := lib.Load("hostile.rwd"); err != nil {
		t.Fatal(err)
	}
	lib.mu.Lock()
	_, keptC03 := lib.loaded["c03.rwd"]
	cached := lib.cached
	lib.mu.Unlock()
	used, _, _ := lib.mem.stats()
	if keptC03 || cached > lib.cacheBytes || used != cached {
		t.Errorf("c03 kept %v; cached %d of %d bytes; the budget accounts %d", keptC03, cached, lib.cacheBytes, used)
	}
	// A decode bigger than the whole budget is refused outright; one that
	// does not fit beside the others, with ErrBusy.
	small := newBudget(100 << 20)
	if err := small.reserve(200 << 20); err == nil || errors.Is(err, ErrBusy) {
		t.Errorf("over the whole budget: %v", err)
	}
	small.charge(60 << 20)
	if err := small.reserve(60 << 20); !errors.Is(err, ErrBusy) {
		t.Errorf("beside 60 MiB held: %v", err)
	}
}

// TestUploadFloodBounded: issue 13's crafted upload (two bots sending
// MaxCommandsPerRound failing commands a round) is stored and opens, its
// page listing MaxCommandsShown commands a player a round.
func TestUploadFloodBounded(t *testing.T) {
	dir := t.TempDir()
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{ClientRate: -1})
	code, body := post(t, base+"/api/upload?name=flood.rwd", flood(t, 30, replay.MaxCommandsPerRound))
	if code != 200 {
		t.Fatalf("upload: %d %s", code, body)
	}
	resp, err := http.Get(base + "/replay/flood.rwd")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `data-testid="notice"`) {
		t.Errorf("flood page: %s, notice shown: %v", resp.Status, strings.Contains(string(page), `data-testid="notice"`))
	}
}

// TestLiveBusy: a live game whose next pack the memory budget cannot take
// is answered 503 with Retry-After before its first pack, and with its
// last pack after; it is not dropped as gone, and is packed again once
// there is room.
func TestLiveBusy(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	base, s := serveLive(t, f, Options{ClientRate: -1})
	g.Step(2)
	_, data := g.state()
	src, err := source.New(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	peak := loadPeak(src.Meta(), nil)
	src.Close()
	s.mem.mu.Lock()
	s.mem.limit = 2 * peak
	s.mem.mu.Unlock()
	s.mem.charge(2 * peak) // others hold the whole budget

	resp, err := http.Get(base + "/live/g1/data")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("no room: %s, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	s.mem.release(2 * peak)
	resp, err = http.Get(base + "/live/g1/data")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Rewind-Turn") != "2" {
		t.Fatalf("room again: %s at turn %q; want 200 at turn 2", resp.Status, resp.Header.Get("X-Rewind-Turn"))
	}
	g.Step(3)
	s.mem.charge(2 * peak)
	resp, err = http.Get(base + "/live/g1/data")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Rewind-Turn") != "2" {
		t.Fatalf("no room for turn 5: %s at turn %q; want the last pack (200 at turn 2)", resp.Status, resp.Header.Get("X-Rewind-Turn"))
	}
	s.mem.release(2 * peak)
	resp, err = http.Get(base + "/live/g1/data")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Rewind-Turn") != "5" {
		t.Fatalf("room again: %s at turn %q; want 200 at turn 5", resp.Status, resp.Header.Get("X-Rewind-Turn"))
	}
}
