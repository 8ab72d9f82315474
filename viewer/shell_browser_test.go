package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserShellPage: a replay not decoded yet gets its page before the
// decode (a shell), which fills in its summary line and its charts from
// the data and charts answers, exactly as a page sent after the decode
// has them; a shell whose replay then cannot be opened shows the data
// answer's reason in place of the board.
func TestBrowserShellPage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c03.rwd")
	write(t, path, vectorRWD(t, "c03"))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	code, page := get(t, base+"/replay/c03.rwd")
	if code != 200 || !strings.Contains(page, `data-shell="1"`) || strings.Contains(page, `data-testid="chart"`) {
		t.Fatalf("a replay not decoded yet: %d, want a shell page\n%.600s", code, page)
	}
	rep, err := lib.Load("c03.rwd")
	if err != nil {
		t.Fatal(err)
	}
	want := PageData(rep, "c03.rwd")
	if !strings.Contains(want.Summary, "winner") {
		t.Fatalf("summary %q", want.Summary)
	}

	b := browsertest.Start(t, 3*time.Minute)
	for _, shell := range []bool{true, false} {
		if shell { // a new version of the file: not decoded yet
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/")); err != nil {
			t.Fatal(err)
		}
		openReplay(t, b, base+"/replay/c03.rwd")
		if err := b.WaitJS(`window.rewind.chartsReady`, time.Minute); err != nil {
			t.Fatal(err)
		}
		// The file touched, the page is a shell (not decoded yet); then,
		// decoded, the whole page.
		var got struct {
			Summary string
			Charts  []string
		}
		evalJS(t, b, `({summary: document.querySelector('[data-testid=summary]').textContent,
			charts: [...document.querySelectorAll('[data-chart]')].map(d => d.dataset.chart)})`, &got)
		var ids []string
		for _, c := range want.Charts {
			ids = append(ids, c.ID)
		}
		if got.Summary != want.Summary || strings.Join(got.Charts, " ") != strings.Join(ids, " ") {
			t.Errorf("shell %v: summary %q, charts %q; want %q, %q", shell, got.Summary, got.Charts, want.Summary, ids)
		}
		if shell && strings.Contains(got.Summary, "<") {
			t.Errorf("summary %q", got.Summary)
		}
	}

	// Over the whole memory budget: the summary reads the file, the page
	// is sent, and the decode is refused; the page says why.
	small := serve(t, lib, Options{MemoryBudget: 1 << 20})
	later := time.Now().Add(2 * time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(small+"/replay/c03.rwd")); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitJS(`window.rewind && (window.rewind.ready || window.rewind.error)`, time.Minute); err != nil {
		t.Fatal(err)
	}
	var shown, errText string
	evalJS(t, b, `document.getElementById('loading').hidden ? '' : document.getElementById('loading').textContent`, &shown)
	evalJS(t, b, `window.rewind.error || ''`, &errText)
	if !strings.HasPrefix(shown, "Cannot show this replay: c03.rwd: ") || !strings.Contains(shown, "more than the viewer's whole memory budget") || errText == "" {
		t.Errorf("over the budget: the board's place says %q (error %q)", shown, errText)
	}
	b.CheckProblems(t, "422 (Unprocessable Entity)")
}
