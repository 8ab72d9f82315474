package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/source"
)

const hostile = `<script>alert(1)</script>`

// hostileAnalysis analyzes a short match whose first player has a hostile
// name.
func hostileAnalysis(t testing.TB) *analysis.Analysis {
	t.Helper()
	g, _ := bot.Builtin("greedy")
	r, _ := bot.Builtin("random")
	var buf bytes.Buffer
	_, err := match.Run(context.Background(), match.Config{Game: colorfight2.Config{MaxTurn: 60}, Seed: 1,
		Seats: []match.Seat{{Bot: g, Name: hostile}, {Bot: r, Name: "</script><img src=x onerror=alert(2)>"}}, Replay: &buf})
	if err != nil {
		t.Fatal(err)
	}
	src, err := source.New(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestReportSelfContainedAndEscaped(t *testing.T) {
	a := hostileAnalysis(t)
	var out bytes.Buffer
	if err := Write(&out, a, "test report"); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(page, `data-testid="chart"`); n != 4 {
		t.Errorf("%d charts, want 4", n)
	}
	for _, id := range []string{"chart-gold", "chart-energy", "chart-cells", "chart-tax"} {
		if !strings.Contains(page, id) {
			t.Errorf("no %s", id)
		}
	}
	// No name reaches the page unescaped.
	if strings.Contains(page, hostile) || strings.Contains(page, "<img src=x") {
		t.Error("a hostile player name is in the page raw")
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile name is not shown as text in the ranking")
	}
	// Exactly the scripts we wrote: ECharts, then one per chart.
	if n := strings.Count(page, "<script"); n != 5 {
		t.Errorf("%d <script> tags, want 5", n)
	}
	// Self-contained: no remote resources.
	for _, bad := range []string{`src="http`, `href="http`, "cdn.", `src="//`} {
		if strings.Contains(page, bad) {
			t.Errorf("page references a remote resource (%q)", bad)
		}
	}
}
