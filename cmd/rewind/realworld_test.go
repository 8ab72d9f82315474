package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/analysis/report"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer"
)

// variant rewrites an official replay with every user's ranking a float
// (as for verified players) and the users in another order than uids
// (as after a uid is reused), keeping everything else.
func variant(t *testing.T, src, dst string) {
	t.Helper()
	out := cfrtest.Rewrite(t, src, func(f *colorfight2.Frame) {
		if n := len(f.Users); n > 1 {
			rot := append(append([]colorfight2.FrameUser(nil), f.Users[1:]...), f.Users[0])
			f.Users = rot
			for k := range f.Users {
				f.Users[k].Verified = true
				f.Users[k].Ranking = "1.000000082740371e-8"
			}
		}
	})
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEveryOfficialReplay: the real tournament replays (when present), a
// float-ranking reordered-users variant of each and of c06, and every
// conformance vector's replay
// decode; analyze gives the last frame's leader and gold; the report and
// the viewer are made; export gives back the same JSON byte for byte;
// import writes a .rwd that verify --against accepts; audit is clean.
func TestEveryOfficialReplay(t *testing.T) {
	dir := t.TempDir()
	paths, _ := filepath.Glob("../../testdata/conformance/*.cfr")
	// A variant of a vector always; the real replays and theirs when
	// present.
	for _, p := range append([]string{"../../testdata/conformance/c06.cfr"}, testutil.RealWorldOptional(t)...) {
		v := filepath.Join(dir, "variant-"+filepath.Base(p))
		variant(t, p, v)
		if !strings.Contains(p, "conformance") {
			paths = append(paths, p)
		}
		paths = append(paths, v)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			// Decode every frame; keep the last.
			s, err := cfrimport.OpenFrames(bytes.NewReader(testutil.ReadFile(t, p)))
			if err != nil {
				t.Fatal(err)
			}
			var f, last colorfight2.Frame
			n := testutil.EachFrame(t, &f, s.Next, func(int) { last.CopyFrom(&f) })
			s.Close()
			best := last.Users[0]
			for _, u := range last.Users {
				if u.Gold > best.Gold || u.Gold == best.Gold && u.UID < best.UID {
					best = u
				}
			}

			a, err := analysis.AnalyzeDocumentFile(p)
			if err != nil || a.Truncated != nil {
				t.Fatalf("analyze: %v %v", err, a.Truncated)
			}
			w := a.Summary.Ranking[0]
			if gold, _ := w.Get("gold"); w.UID != int(best.UID) || gold != best.Gold || a.Rounds != n-1 {
				t.Fatalf("analyze: winner %d with %d gold over %d rounds; last frame %d with %d over %d", w.UID, gold, a.Rounds, best.UID, best.Gold, n-1)
			}
			var page bytes.Buffer
			if err := report.WriteDocument(&page, a, "t"); err != nil || !strings.Contains(page.String(), best.Username) {
				t.Fatalf("report: %v", err)
			}

			vf, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := openStreamFile(vf)
			if err != nil {
				t.Fatal(err)
			}
			packed, err := viewer.PackStream(vs, viewer.StreamLimits{})
			vs.Close()
			if err != nil || len(packed.Frames) != n || packed.Warning != "" {
				t.Fatalf("viewer: %v, %d frames of %d, %q", err, len(packed.Frames), n, packed.Warning)
			}

			cfrOut := filepath.Join(dir, "export-"+filepath.Base(p))
			var out bytes.Buffer
			es, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			ef, _ := os.Create(cfrOut)
			_, err = cfrimport.Export(es, ef)
			ef.Close()
			es.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(testutil.GunzipFile(t, cfrOut), testutil.GunzipFile(t, p)) {
				t.Fatal("export is not byte-identical to the original JSON")
			}

			rwd := filepath.Join(dir, filepath.Base(p)+".rwd")
			if err := runImport(&importOptions{in: p, out: rwd, stdout: &out, now: time.Now}); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			if err := runVerify(&verifyOptions{file: rwd, against: p, stdout: &out}); err != nil || !strings.HasPrefix(out.String(), "OK ") {
				t.Fatalf("verify --against: %v %q", err, out.String())
			}
			out.Reset()
			if err := runAudit(&auditOptions{in: p, stdout: &out}); err != nil || !strings.HasPrefix(out.String(), "OK ") {
				t.Fatalf("audit: %v %q", err, out.String())
			}
			// The imported replay plays on: a fork from its middle keeps it.
			if filepath.Base(p) == "c06.cfr" {
				fo := &forkOptions{in: rwd, turn: 100, fill: "greedy"}
				fo.play.out, fo.play.stdout = filepath.Join(dir, "c06-fork.rwd"), &out
				if _, err := runFork(context.Background(), fo); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestCutShortReplay: a .cfr cut in the middle works in every command with
// a warning, on the rounds it has, and each says so by exit status 3.
func TestCutShortReplay(t *testing.T) {
	dir := t.TempDir()
	raw := testutil.GunzipFile(t, c06+".cfr")
	cut := filepath.Join(dir, "cut.cfr")
	os.WriteFile(cut, raw[:len(raw)/2], 0o644)
	var out, errOut bytes.Buffer
	cutShort := func(err error) bool {
		var ee *exitError
		return errors.As(err, &ee) && ee.code == exitIncomplete
	}
	if err := runAnalyze(&analyzeOptions{path: cut, format: "table", stdout: &out, stderr: &errOut}); !cutShort(err) {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "cut short") {
		t.Fatalf("analyze warning: %q", errOut.String())
	}
	out.Reset()
	if err := runAnalyze(&analyzeOptions{path: cut, format: "json", stdout: &out}); !cutShort(err) || !strings.Contains(out.String(), `"truncated":"frame `) {
		t.Fatalf("analyze json: %v %.300q", err, out.String())
	}
	out.Reset()
	if err := runReport(&reportOptions{in: cut, out: filepath.Join(dir, "r.html"), stdout: &out}); !cutShort(err) || !strings.Contains(out.String(), "cut short") {
		t.Fatalf("report: %v %q", err, out.String())
	}
	out.Reset()
	if err := runInfo(&infoOptions{stdout: &out}, cut); !cutShort(err) || !strings.Contains(out.String(), "incomplete:") {
		t.Fatalf("info: %v %q", err, out.String())
	}
	out.Reset()
	if err := runImport(&importOptions{in: cut, out: filepath.Join(dir, "cut.rwd"), stdout: &out, now: time.Now}); !cutShort(err) || !strings.Contains(out.String(), "cut short") {
		t.Fatalf("import: %v %q", err, out.String())
	}
	out.Reset()
	if err := runAudit(&auditOptions{in: cut, stdout: &out}); !cutShort(err) || !strings.Contains(out.String(), "cut short") {
		t.Fatalf("audit: %v %q", err, out.String())
	}
}
