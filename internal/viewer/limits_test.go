package viewer

import (
	"bytes"
	"encoding/json"
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
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
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

// matchRWD records a short match of the built-in bots.
func matchRWD(tb testing.TB, rounds int, seed uint64) []byte {
	tb.Helper()
	var buf bytes.Buffer
	playCF2(tb, seed, rounds, recording.NewRecorder(&buf, time.Time{}, "rewind test"), cf2Seat(tb, "greedy", "greedy"), cf2Seat(tb, "random", "random"))
	return buf.Bytes()
}

// heapSampler records the largest HeapInuse seen until end.
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

// end stops the sampling and returns the peak seen.
func (h *heapSampler) end() uint64 {
	close(h.stop)
	<-h.done
	return h.peak.Load()
}

// TestServerUnderLoad is issue 13's server acceptance at reduced size, on
// the replay page's data (/replay/ID?data=1): 64 concurrent requests for
// 64 different replays, then 50 clients reading a replay that the test
// writes into the library piece by piece, finish with every request
// answered (200, or 503 with Retry-After), the budget's accounting never
// over Options.MemoryBudget and back to nothing once the requests end,
// and the process's heap growth under the budget. The budget takes one
// packing's StreamPeakBytes at a time, so all but one of the requests
// that come together are refused rather than packed at once. Nothing
// here depends on how fast the machine is: whichever request reserves
// first is served.
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

	lib := openLib(t, dir)
	// Room for one packing's estimated peak, not two: a second packing
	// at once is refused (503).
	peak := StreamPeakBytes(StreamLimits{})
	budget := peak + peak/2
	sv := serveWith(t, lib, Options{MemoryBudget: budget, ClientRate: -1})
	base := sv.base
	client := &http.Client{Timeout: 5 * time.Minute}

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	baseline := ms.HeapInuse
	heap := sampleHeap()

	var ok, busy atomic.Int64
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(fmt.Sprintf("%s/replay/g%02d.rwd?data=1", base, i))
			switch checkAnswer(t, fmt.Sprintf("g%02d", i), resp, err) {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusServiceUnavailable:
				busy.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("64 replays: %d answered 200, %d 503", ok.Load(), busy.Load())
	if ok.Load() == 0 {
		t.Error("no replay was served")
	}

	// A recording grows in the library while 50 clients read it: each
	// read is of the file as far as it is written (a cut .rwd reads up to
	// its last whole round).
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
				resp, err := client.Get(base + "/replay/live.rwd?data=1")
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
		resp, err := client.Get(base + "/replay/live.rwd?data=1")
		checkAnswer(t, "the writer's read", resp, err)
	}
	f.Close()
	close(stop)
	clients.Wait()
	// A packing another request started may still be finishing for the
	// requests that share it after the last answer went out: its
	// reservation is released when it ends. Wait for that (the deadline
	// is a safety net, not a verdict).
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if used, _, _ := sv.s.mem.stats(); used == 0 {
			break
		}
	}
	peakHeap := heap.end()
	used, accounted, refused := sv.s.mem.stats()
	t.Logf("growing replay: %d answered 200, %d 503; budget %d MiB: accounted peak %.1f MiB, now %.1f MiB, %d refused; heap in use peaked %.1f MiB over a baseline of %.1f MiB",
		growOK.Load(), growBusy.Load(), budget>>20, float64(accounted)/(1<<20), float64(used)/(1<<20), refused, float64(peakHeap)/(1<<20), float64(baseline)/(1<<20))
	if accounted > budget {
		t.Errorf("the budget accounted %d bytes at most, over the budget %d", accounted, budget)
	}
	if used != 0 {
		t.Errorf("the budget accounts %d bytes once every request is answered, want 0", used)
	}
	if refused == 0 {
		t.Log("no packing was refused (the machine was slow enough to serialise them)")
	}
	if peakHeap > baseline+uint64(budget) {
		t.Errorf("heap in use peaked at %d bytes, over the baseline %d + the budget %d", peakHeap, baseline, budget)
	}
	if growOK.Load() == 0 {
		t.Error("the growing replay was never served")
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
	base := serveDir(t, fixtureLibrary(t), Options{ClientRate: 1e-6, ClientBurst: 2})
	for i := range 2 {
		resp, err := http.Get(base + "/replay/hostile.rwd?data=1")
		if checkAnswer(t, fmt.Sprint("request ", i), resp, err) != http.StatusOK {
			t.Fatal("within the burst: not served")
		}
	}
	resp, err := http.Get(base + "/replay/hostile.rwd?data=1")
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
	base := serveDir(t, dir, Options{MaxUploadsPerHour: 1, ClientRate: -1})
	if code, body := post(t, base+"/api/upload?name=one.rwd", good); code != 200 {
		t.Fatalf("first upload: %d %s", code, body)
	}
	if code, body := post(t, base+"/api/upload?name=two.rwd", good); code != http.StatusTooManyRequests || !strings.Contains(body, "new replays (uploads and forks) an hour") {
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

// TestUploadFloodBounded: issue 13's crafted upload (two bots sending
// MaxCommandsPerRound failing commands a round) is stored and opens, its
// page's data listing MaxCommandsShown commands a player a round and
// counting the rest.
func TestUploadFloodBounded(t *testing.T) {
	dir := t.TempDir()
	base := serveDir(t, dir, Options{ClientRate: -1})
	code, body := post(t, base+"/api/upload?name=flood.rwd", flood(t, 30, replay.MaxCommandsPerRound))
	if code != 200 {
		t.Fatalf("upload: %d %s", code, body)
	}
	if code, _ := testutil.Get(t, base+"/replay/flood.rwd"); code != 200 {
		t.Fatalf("flood page: %d", code)
	}
	code, gz := testutil.Get(t, base+"/replay/flood.rwd?data=1")
	if code != 200 {
		t.Fatalf("flood page's data: %d %s", code, gz)
	}
	var p Packed
	if err := json.Unmarshal(testutil.Gunzip(t, gz), &p); err != nil {
		t.Fatal(err)
	}
	checkFlood(t, &p, replay.MaxCommandsPerRound)
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
	peak := StreamPeakBytes(StreamLimits{})
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

// allocated is what fn allocates in all.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// packFlood packs a flood recording as the viewer reads it (or only reads
// its stream, pack false); the packed replay, nil for none.
func packFlood(tb testing.TB, data []byte, pack bool) *Packed {
	tb.Helper()
	s, err := source.NewStream(bytes.NewReader(data), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	if !pack {
		var f engine.Frame
		for {
			if err := s.Next(&f); errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				tb.Fatal(err)
			}
		}
	}
	p, err := PackStream(s, StreamLimits{})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// checkFlood fails unless p, the packed flood of n commands a player a
// round, lists each player's first MaxCommandsShown commands of every
// round and their errors, counts the rest exactly (Sent, Rejected) and
// says so in its notice.
func checkFlood(t *testing.T, p *Packed, n int) {
	t.Helper()
	if !strings.Contains(p.Notice, fmt.Sprintf("more than %d commands", MaxCommandsShown)) {
		t.Errorf("notice %q: want it to say what is left out", p.Notice)
	}
	// The flood's first round has no commands.
	for _, f := range p.Frames[2:] {
		for pl := range 2 {
			if got := len(f.Commands[pl]); got != MaxCommandsShown {
				t.Fatalf("turn %d player %d: %d commands listed, want %d", f.Turn, pl, got, MaxCommandsShown)
			}
		}
		if len(f.Errors) != 2*MaxCommandsShown {
			t.Fatalf("turn %d: %d errors listed, want those of the %d listed commands", f.Turn, len(f.Errors), 2*MaxCommandsShown)
		}
		if want := fmt.Sprint([]int{n, n}, []int{n - MaxCommandsShown, n - MaxCommandsShown}); fmt.Sprint(f.Sent, f.Rejected) != want {
			t.Fatalf("turn %d: sent and rejected %v %v, want %s (exact counts)", f.Turn, f.Sent, f.Rejected, want)
		}
	}
}

// TestPackStreamCommandsBounded: issue 13's flood (MaxCommandsPerRound
// failing commands a player a round) packs with what each extra round
// costs bounded by the commands and errors listed, not those sent; the
// counts of the rest are exact.
func TestPackStreamCommandsBounded(t *testing.T) {
	n := replay.MaxCommandsPerRound
	short, long := flood(t, 10, n), flood(t, 40, n)
	var p *Packed
	a := allocated(func() { packFlood(t, short, true) })
	b := allocated(func() { p = packFlood(t, long, true) })
	// What the stream alone allocates (re-simulating every command) is
	// not the page's.
	sa := allocated(func() { packFlood(t, short, false) })
	sb := allocated(func() { packFlood(t, long, false) })
	// Per extra round: two players' listed commands, their strings and
	// JSON several times over, the errors of the listed ones, a frame.
	perRound := uint64(2*MaxCommandsShown*(commandOverhead+16)*8 + 200<<10)
	t.Logf("%d bytes on disk: packing allocates %.1f MB for 10 rounds, %.1f MB for 40, the stream alone %.1f and %.1f MB (bound %.1f MB more)",
		len(long), float64(a)/1e6, float64(b)/1e6, float64(sa)/1e6, float64(sb)/1e6, float64(30*perRound)/1e6)
	if b-sb > a-sa+30*perRound {
		t.Errorf("beyond the stream, 40 rounds allocate %d bytes, 10 rounds %d: more than %d a round", b-sb, a-sa, perRound)
	}
	checkFlood(t, p, n)
}

// TestOverBudgetRefused: a budget smaller than what a replay's page
// reserves refuses its data (422, saying both sizes, no Retry-After)
// rather than telling the client to come back forever; the fork's 344
// MiB past a 300 MiB budget is refused too.
func TestOverBudgetRefused(t *testing.T) {
	dir := fixtureLibrary(t)
	lib := openLib(t, dir)
	for _, c := range []struct {
		budget int64
		path   string
		method string
	}{
		{StreamPeakBytes(StreamLimits{}) - 1, "/replay/c03.rwd?data=1", "GET"},
		{300 << 20, "/api/fork?id=c03.rwd&turn=10", "POST"},
	} {
		base := serve(t, lib, Options{MemoryBudget: c.budget})
		req, _ := http.NewRequest(c.method, base+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnprocessableEntity || res.Header.Get("Retry-After") != "" || !strings.Contains(string(body), "more than the viewer's whole memory budget of") {
			t.Errorf("%s %s with a budget of %d: %d, Retry-After %q: %s", c.method, c.path, c.budget, res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
}

// TestHeaderNotWholeYet: a recording that has not written its header
// whole yet (it has just started) is answered 503 with Retry-After, page
// and data alike, not 422; once its header and a round are there it is
// served. (TestServerUnderLoad met it one run in thirty as a 422.)
func TestHeaderNotWholeYet(t *testing.T) {
	dir := t.TempDir()
	data := matchRWD(t, 200, 7)
	path := filepath.Join(dir, "live.rwd")
	write(t, path, data[:40])
	lib := openLib(t, dir)
	sv := serveWith(t, lib, Options{ClientRate: -1})
	for _, q := range []string{"?data=1", ""} {
		resp, err := http.Get(sv.base + "/replay/live.rwd" + q)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "ends inside its header") {
			t.Errorf("GET live.rwd%s with its header cut: %s (Retry-After %q) %.300q", q, resp.Status, resp.Header.Get("Retry-After"), body)
		}
	}
	write(t, path, data[:len(data)/2])
	resp, err := http.Get(sv.base + "/replay/live.rwd?data=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET live.rwd?data=1 with its header whole: %s", resp.Status)
	}
}
