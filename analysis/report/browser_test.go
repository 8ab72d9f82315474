package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// findChromium returns the browser to drive, or skips the test — except
// under CI=true, where a missing browser fails it.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH (CI must install Debian's chromium)")
	}
	t.Skip("no chromium on PATH")
	return ""
}

// TestReportInBrowser opens a report from disk in headless Chromium: it
// renders four charts with one series per player, logs no console error,
// and no request leaves the machine (only the file itself is loaded).
func TestReportInBrowser(t *testing.T) {
	chrome := findChromium(t)
	a := hostileAnalysis(t)
	var page bytes.Buffer
	if err := Write(&page, a, "browser test"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(filepath.Join(dir, "profile")))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	var mu sync.Mutex
	var requests, consoleErrors []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *runtime.EventExceptionThrown:
			consoleErrors = append(consoleErrors, e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				consoleErrors = append(consoleErrors, string(e.Type))
			}
		}
	})
	var canvases, series []int
	err := chromedp.Run(ctx,
		network.Enable(),
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(`#chart-tax canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => document.querySelectorAll("#chart-"+id+" canvas").length)`, &canvases),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => echarts.getInstanceByDom(document.getElementById("chart-"+id)).getOption().series.length)`, &series),
	)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range canvases {
		if n < 1 {
			t.Errorf("chart %d has no canvas", i)
		}
	}
	for i, n := range series {
		if n != len(a.Players) {
			t.Errorf("chart %d has %d series, want %d", i, n, len(a.Players))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Fatal("no request seen at all: the network listener is not working")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("request left the page's file: %s", u)
		}
	}
	if len(consoleErrors) > 0 {
		t.Errorf("console errors: %v", consoleErrors)
	}
}
