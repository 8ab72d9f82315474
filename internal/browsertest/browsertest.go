// Package browsertest drives Debian's headless Chromium through chromedp
// for the browser tests, recording every request the page makes and
// every console error, exception or JavaScript dialog.
//
// A missing browser skips the test, except under CI=true, where it fails:
// CI must install chromium.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/testutil"
)

// Find returns the browser to drive, or skips tb (fails it under CI=true)
// by the policy of testutil.NeedTool.
func Find(tb testing.TB) string {
	tb.Helper()
	return testutil.NeedTool(tb, "chromium", "chromium-browser", "google-chrome")
}

// Browser is one headless Chromium tab.
type Browser struct {
	// Ctx runs chromedp actions in the tab.
	Ctx context.Context

	mu       sync.Mutex
	requests []string
	problems []string
}

// Start launches Chromium with a fresh profile and opens a tab with the
// network, log and runtime domains watched. It is closed at the end of
// tb; the whole session is bounded by timeout.
func Start(tb testing.TB, timeout time.Duration) *Browser {
	tb.Helper()
	chrome := Find(tb)
	// Not tb.TempDir: Chromium may still be writing its profile when the
	// test ends, and TempDir fails the test if it cannot remove it.
	dir, err := os.MkdirTemp("", "rewind-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1400, 1000),
		chromedp.UserDataDir(filepath.Join(dir, "profile")))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	tb.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		for range 20 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	b := &Browser{Ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			b.problems = append(b.problems, "exception: "+msg)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.problems = append(b.problems, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.LevelError {
				b.problems = append(b.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
			}
		case *page.EventJavascriptDialogOpening:
			b.problems = append(b.problems, "dialog opened: "+e.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(false))
		}
	})
	if err = chromedp.Run(ctx, network.Enable(), log.Enable(), runtime.Enable(), page.Enable()); err != nil {
		tb.Fatalf("starting chromium: %v", err)
	}
	return b
}

// Requests returns every URL the tab has requested so far.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...)
}

// Problems returns the console errors, uncaught exceptions, error log
// entries and dialogs seen so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// CheckRequests fails tb for any request whose URL does not start with
// one of the allowed prefixes, and when there was no request at all (the
// listener would then be broken).
func (b *Browser) CheckRequests(tb testing.TB, allowed ...string) {
	tb.Helper()
	reqs := b.Requests()
	if len(reqs) == 0 {
		tb.Error("no request seen at all: the network listener is not working")
	}
	for _, u := range reqs {
		ok := false
		for _, p := range allowed {
			ok = ok || strings.HasPrefix(u, p)
		}
		if !ok {
			tb.Errorf("request outside %v: %s", allowed, u)
		}
	}
}

// CheckProblems fails tb for every console error, exception or dialog,
// except those containing one of the expected substrings (say, the
// network log line of a request the test made fail on purpose).
func (b *Browser) CheckProblems(tb testing.TB, expected ...string) {
	tb.Helper()
	for _, p := range b.Problems() {
		ok := false
		for _, e := range expected {
			ok = ok || strings.Contains(p, e)
		}
		if !ok {
			tb.Errorf("browser: %s", p)
		}
	}
}

// Screenshot saves a PNG of the page as name under the directory named by
// $REWIND_SCREENSHOTS (CI keeps it as an artifact), or nowhere when that is
// unset. It returns the path written ("" when none).
func (b *Browser) Screenshot(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("REWIND_SCREENSHOTS")
	if dir == "" {
		return ""
	}
	var png []byte
	if err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		tb.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Error(err)
		return ""
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		tb.Error(err)
		return ""
	}
	return p
}

// WaitJS polls expr (a JavaScript boolean expression) until it is true or
// the timeout passes. A page navigating while it polls is waited through:
// the expression is evaluated again in the page that loads.
func (b *Browser) WaitJS(expr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		var ok bool
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate("!!("+expr+")", &ok)); err != nil {
			// A page navigating (a link or button that opens another
			// page, a reload) destroys the context the expression ran
			// in; the next poll runs in the new page.
			if b.Ctx.Err() != nil || !navigating(err) {
				return err
			}
			last, ok = err, false
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			if last != nil {
				return fmt.Errorf("timed out after %v waiting for %s (last error: %v)", timeout, expr, last)
			}
			return fmt.Errorf("timed out after %v waiting for %s", timeout, expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Wait is WaitJS, failing tb when expr is not true in time.
func (b *Browser) Wait(tb testing.TB, expr string, timeout time.Duration) {
	tb.Helper()
	if err := b.WaitJS(expr, timeout); err != nil {
		tb.Fatal(err)
	}
}

// Eval evaluates the JavaScript expression expr in the page, its value
// decoded into out (nil: not kept); an error fails tb, naming expr.
func (b *Browser) Eval(tb testing.TB, expr string, out any) {
	tb.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(expr, out)); err != nil {
		tb.Fatalf("%s: %v", expr, err)
	}
}

// CaptureTop scrolls the page to its top, waits two animation frames (so
// that what changed last is laid out and painted) and returns a PNG of
// the viewport, or of the whole page when full is set. An error fails tb.
func (b *Browser) CaptureTop(tb testing.TB, full bool) []byte {
	tb.Helper()
	var png []byte
	capture := chromedp.CaptureScreenshot(&png)
	if full {
		capture = chromedp.FullScreenshot(&png, 100)
	}
	if err := chromedp.Run(b.Ctx,
		chromedp.Evaluate(`window.scrollTo(0, 0), new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		capture); err != nil {
		tb.Fatal(err)
	}
	return png
}

// navigating reports whether err is what the DevTools protocol answers
// when the page an expression ran in went away mid-evaluation.
func navigating(err error) bool {
	msg := err.Error()
	for _, s := range []string{"navigated or closed", "Execution context was destroyed", "Cannot find context with specified id"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
