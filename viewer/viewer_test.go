package viewer

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay/source"
)

// unpack reads field f of a packed blob back as int64s, undoing the delta
// or sparse coding of frames (ncell values each, frames of them).
func unpack(t *testing.T, blob []byte, f Field, ncell, frames int) []int64 {
	t.Helper()
	if f.Sparse {
		vals := unpack(t, blob, Field{Name: f.Name, Type: f.Type, Offset: f.Offset, Length: f.Length}, ncell, frames)
		changes := f.Length - ncell
		if f.CountsOffset%4 != 0 || f.CellsOffset%2 != 0 || changes < 0 || f.CountsOffset+4*frames > len(blob) || f.CellsOffset+2*changes > len(blob) {
			t.Fatalf("field %s: counts or cells misaligned or out of the blob", f.Name)
		}
		out := make([]int64, frames*ncell)
		copy(out, vals[:ncell])
		j := ncell
		for fr := 1; fr < frames; fr++ {
			copy(out[fr*ncell:], out[(fr-1)*ncell:fr*ncell])
			n := int(binary.LittleEndian.Uint32(blob[f.CountsOffset+4*fr:]))
			if j+n > f.Length {
				t.Fatalf("field %s: frame %d: %d changes past the %d in the blob", f.Name, fr, j+n-ncell, changes)
			}
			for i := 0; n > 0; n-- {
				i += int(binary.LittleEndian.Uint16(blob[f.CellsOffset+2*(j-ncell):]))
				if i >= ncell {
					t.Fatalf("field %s: frame %d: cell %d of %d", f.Name, fr, i, ncell)
				}
				out[fr*ncell+i] = wrap(f.Type, out[fr*ncell+i]+vals[j])
				j++
			}
		}
		if j != f.Length {
			t.Fatalf("field %s: %d changes counted, %d in the blob", f.Name, j-ncell, changes)
		}
		return out
	}
	out := make([]int64, f.Length)
	size := map[string]int{"u8": 1, "u16": 2, "i32": 4, "f64": 8}[f.Type]
	if f.Offset%size != 0 || f.Offset+size*f.Length > len(blob) {
		t.Fatalf("field %s: offset %d misaligned or out of the blob", f.Name, f.Offset)
	}
	for i := range out {
		b := blob[f.Offset+size*i:]
		switch f.Type {
		case "u8":
			out[i] = int64(b[0])
		case "u16":
			out[i] = int64(binary.LittleEndian.Uint16(b))
		case "i32":
			out[i] = int64(int32(binary.LittleEndian.Uint32(b)))
		case "f64":
			out[i] = int64(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
	}
	return out
}

// wrap is v as a typed array of type typ holds it.
func wrap(typ string, v int64) int64 {
	switch typ {
	case "u8":
		v &= 0xff
	case "u16":
		v &= 0xffff
	case "i32":
		v = int64(int32(v))
	}
	return v
}

// TestPackMatchesFrames checks the packed blob field by field against the
// frames of the replay, for a .rwd (re-simulated) and the real .cfr.
func TestPackMatchesFrames(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c03.rwd")
	write(t, rwd, vectorRWD(t, "c03"))
	for _, path := range append([]string{rwd, referenceCFR}, testutil.RealWorldOptional(t)...) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			rep, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Warning != "" {
				t.Errorf("warning on a whole replay: %s", rep.Warning)
			}
			m, err := ReadManifest(rep.Blob)
			if err != nil {
				t.Fatal(err)
			}
			fields := map[string][]int64{}
			static := map[string]bool{}
			for _, f := range m.Fields {
				fields[f.Kind+"."+f.Name] = unpack(t, rep.Blob, f, m.Width*m.Height, m.Frames)
				static[f.Kind+"."+f.Name] = f.Static
			}
			slot := map[int64]int{}
			for i, p := range m.Players {
				slot[int64(p.UID)] = i + 1
			}
			np, n := len(m.Players), m.Width*m.Height
			src, err := source.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			var f colorfight2.Frame
			frames := 0
			for ; ; frames++ {
				err := src.Next(&f)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for i := range f.Cells {
					c := &f.Cells[i]
					want := map[string]int64{"owner": int64(slot[c.Owner]), "building": int64(c.Building), "level": c.Level,
						"force_field": c.ForceField, "attack_cost": c.AttackCost, "gold": c.Gold, "energy": c.Energy,
						"natural_gold": c.NaturalGold, "natural_energy": c.NaturalEnergy, "natural_cost": c.NaturalCost}
					for name, w := range want {
						k := frames*n + i
						if static["cell."+name] {
							k = i
						}
						if got := fields["cell."+name][k]; got != w {
							t.Fatalf("frame %d cell %d %s: packed %d, frame %d", frames, i, name, got, w)
						}
					}
				}
				present := make([]bool, np+1)
				for i := range f.Users {
					u := &f.Users[i]
					s := slot[u.UID]
					present[s] = true
					want := map[string]int64{"present": 1, "gold": u.Gold, "energy": u.Energy, "gold_source": u.GoldSource,
						"energy_source": u.EnergySource, "tax_amount": u.TaxAmount, "tax_level": u.TaxLevel, "tech_level": u.TechLevel,
						"cells": u.CellNumber, "dead": b2i(u.Dead), "homes": u.Buildings[colorfight2.Home], "mines": u.Buildings[colorfight2.GoldMine],
						"wells": u.Buildings[colorfight2.EnergyWell], "fortresses": u.Buildings[colorfight2.Fortress]}
					for name, w := range want {
						if got := fields["user."+name][frames*np+s-1]; got != w {
							t.Fatalf("frame %d uid %d %s: packed %d, frame %d", frames, u.UID, name, got, w)
						}
					}
				}
				for s := 1; s <= np; s++ {
					if !present[s] && fields["user.present"][frames*np+s-1] != 0 {
						t.Fatalf("frame %d: slot %d packed as present", frames, s)
					}
				}
			}
			if frames != m.Frames || frames != 501 {
				t.Errorf("%d frames, manifest says %d", frames, m.Frames)
			}
			if !static["cell.natural_gold"] || static["cell.owner"] {
				t.Error("natural values should pack once, owners per frame")
			}
			for _, f := range m.Fields {
				if f.Kind == "cell" && f.Sparse == f.Static {
					t.Errorf("field %s: sparse %v, static %v", f.Name, f.Sparse, f.Static)
				}
			}
			// A .cfr's commands are inferred, every round of it explained.
			cfr := filepath.Ext(path) == ".cfr"
			if !m.HasCommands || m.CommandsInferred != cfr || (m.CommandsNote != "") != cfr || len(m.Unexplained) != 0 {
				t.Errorf("%s: has_commands %v, inferred %v (%q), unexplained %v", path, m.HasCommands, m.CommandsInferred, m.CommandsNote, m.Unexplained)
			}
			if m.HasCommands {
				total := 0
				for _, r := range m.Commands {
					for _, cs := range r {
						total += len(cs)
					}
				}
				if total == 0 || len(m.Commands) != 501 {
					t.Errorf("%d commands over %d turns", total, len(m.Commands))
				}
			}
		})
	}
}

// TestManifestWording: the manifest carries every event with analysis's
// wording of it, and the engine's building names and letters by number, so
// the page words nothing itself.
func TestManifestWording(t *testing.T) {
	rep, err := LoadReader(bytes.NewReader(hostileRWD(t)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(rep.Blob)
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Analysis
	if len(a.Events) == 0 || len(m.Events) != len(a.Events) {
		t.Fatalf("%d events in the manifest, %d in the analysis", len(m.Events), len(a.Events))
	}
	named := false
	for i, e := range m.Events {
		w := a.Events[i]
		if got := e.Event; got.Turn != w.Turn || got.Kind != w.Kind || got.UID != w.UID || got.Other != w.Other || got.Value != w.Value || e.Text != a.EventText(w, a.Name) {
			t.Errorf("event %d: %+v, want %+v worded %q", i, e, w, a.EventText(w, a.Name))
		}
		named = named || strings.Contains(e.Text, hostile) || strings.Contains(e.Text, hostile2)
	}
	if !named {
		t.Error("no event text names a (hostile) player verbatim")
	}
	want := []ManifestBuilding{{"none", ""}, {"home", "H"}, {"gold mine", "G"}, {"energy well", "E"}, {"fortress", "F"}}
	if len(m.Buildings) != int(colorfight2.NumBuildings) {
		t.Fatalf("buildings %+v", m.Buildings)
	}
	for b, w := range want {
		if m.Buildings[b] != w {
			t.Errorf("building %d: %+v, want %+v", b, m.Buildings[b], w)
		}
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"a.rwd": true, "sub/b.cfr": true, "G.RWD": true,
		"../a.rwd": false, "/etc/a.rwd": false, "a/../../b.rwd": false, "a.txt": false, "": false,
		".hidden.rwd": false, "sub/.x/a.rwd": false, `a\..\b.rwd`: false, "a//b.rwd": false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v", id, got)
		}
	}
}

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	return request(t, "GET", url, nil, header...)
}

func post(t *testing.T, url string, body []byte, header ...string) (int, string) {
	t.Helper()
	return request(t, "POST", url, body, header...)
}

// request sends a request with header name/value pairs ("Host" sets the
// Host) and returns the status and body.
func request(t *testing.T, method, url string, body []byte, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestServerSafety: ids cannot leave the library (.., encoded .., absolute
// paths, symlinks out), foreign Host headers are refused, pages carry a
// CSP, and hostile names reach the HTML only escaped.
func TestServerSafety(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.rwd")
	hostileBytes := hostileRWD(t)
	write(t, secret, hostileBytes)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileBytes)
	if err := os.Symlink(secret, filepath.Join(dir, "link.rwd")); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})

	for _, p := range []string{"/data/..%2fsecret.rwd", "/data/%2e%2e/secret.rwd", "/replay/..%2F..%2F" + strings.TrimPrefix(secret, "/"),
		"/data/link.rwd", "/replay/link.rwd", "/data//etc/passwd", "/static/..%2fserver.go", "/data/missing.rwd"} {
		code, body := get(t, base+p)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404\n%.200s", p, code, body)
		}
		if strings.Contains(body, "RWD") || strings.Contains(body, "package viewer") {
			t.Errorf("GET %s leaked a file", p)
		}
	}
	entries, _ := lib.List()
	for _, e := range entries {
		if e.ID == "link.rwd" {
			t.Error("the library lists a symlink that leaves the folder")
		}
	}

	if code, _ := get(t, base+"/", "Host", "evil.example:80"); code != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host: %d", code)
	}
	if code, _ := get(t, base+"/", "Host", strings.Replace(strings.TrimPrefix(base, "http://"), "127.0.0.1", "localhost", 1)); code != http.StatusOK {
		t.Errorf("localhost Host: %d", code)
	}

	for _, p := range []string{"/", "/replay/hostile.rwd", "/library/rows"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", p, res.StatusCode)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP %q", p, csp)
		}
		page := string(body)
		if strings.Contains(page, hostile) || strings.Contains(page, "<img src=x") {
			t.Errorf("GET %s: a hostile name is in the HTML unescaped", p)
		}
		if p == "/replay/hostile.rwd" && strings.Contains(page, `data-shell="1"`) {
			// A page sent before the decode: the names come with the
			// frames, percent-encoded, and the script shows them as text.
			if sum := shellSummary(t, base+"/data/hostile.rwd?gz=1"); !strings.Contains(sum, hostile) {
				t.Errorf("GET %s: the data answer's summary %q lacks the hostile name", p, sum)
			}
			continue
		}
		if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") && !strings.Contains(page, `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
			t.Errorf("GET %s: the hostile name is not shown escaped", p)
		}
	}
}

// shellSummary is the summary line a shell page (data-shell) takes from
// its data answer: the X-Rewind-Summary header, percent-decoded. The raw
// header must hold no markup character.
func shellSummary(t *testing.T, dataURL string) string {
	t.Helper()
	res, err := http.Get(dataURL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	raw := res.Header.Get("X-Rewind-Summary")
	if res.StatusCode != 200 || strings.ContainsAny(raw, "<>\"") {
		t.Fatalf("GET %s: %s, X-Rewind-Summary %q", dataURL, res.Status, raw)
	}
	sum, err := url.PathUnescape(raw)
	if err != nil {
		t.Fatalf("X-Rewind-Summary %q: %v", raw, err)
	}
	return sum
}

// TestUpload: bounded, validated, never overwrites, names sanitised,
// cross-site uploads refused, off for a single-file server.
func TestUpload(t *testing.T) {
	dir := t.TempDir()
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{MaxUpload: 200 << 10})
	good := readFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))
	big := readFile(t, filepath.Join(testdata, "conformance", "c03.cfr"))

	cases := []struct {
		name   string
		body   []byte
		header []string
		code   int
		want   string
	}{
		{"game.cfr", good, nil, 200, `"id":"game.cfr"`},
		{"game.cfr", good, nil, 200, `"id":"game-2.cfr"`},
		{"../../../tmp/evil name.cfr", good, nil, 200, `"id":"evil_name.cfr"`},
		{"big.cfr", big, nil, 413, "big.cfr is larger than the upload limit of 200.0 KiB"},
		{"bad.cfr", good[:len(good)/2], nil, 422, "bad.cfr is not a replay rewind can open"},
		{"junk.rwd", []byte("RWD?junk"), nil, 422, "junk.rwd is not a replay rewind can open"},
		{"empty.rwd", nil, nil, 400, "empty.rwd is empty"},
		{"notes.txt", good, nil, 400, "is not named like a replay (.rwd, .cfr, "},
		{"x.cfr", good, []string{"Origin", "http://evil.example"}, 403, "another site"},
	}
	for _, c := range cases {
		code, body := post(t, base+"/api/upload?name="+urlQuery(c.name), c.body, c.header...)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("upload %q: %d %s, want %d with %q", c.name, code, body, c.code, c.want)
		}
	}
	if b := readFile(t, filepath.Join(dir, "game.cfr")); !bytes.Equal(b, good) {
		t.Error("the first upload was changed")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(names) != 3 || len(hidden) != 0 {
		t.Errorf("library holds %v (hidden %v), want the 3 good uploads and no temporary file", names, hidden)
	}
	code, body := get(t, base+"/replay/game-2.cfr")
	if code != 200 || !strings.Contains(body, "bot0_greedy") {
		t.Errorf("uploaded replay page: %d", code)
	}

	// One-file servers take no uploads.
	single, err := OpenFile(filepath.Join(dir, "game.cfr"))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	sbase := serve(t, single, Options{})
	if code, body := post(t, sbase+"/api/upload?name=x.cfr", good); code != 403 || !strings.Contains(body, "uploads are off") {
		t.Errorf("single-file upload: %d %s", code, body)
	}
	if code, _ := get(t, sbase+"/replay/game-2.cfr"); code != 404 {
		t.Errorf("a single-file server serves another file of its folder: %d", code)
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer(" ", "%20", "/", "%2F", "&", "%26", "?", "%3F", "#", "%23")
	return r.Replace(s)
}

// TestLibraryPicksUpFiles: new, grown and deleted files show on the next
// listing; a replay still being written lists as incomplete and opens with
// the rounds it has.
func TestLibraryPicksUpFiles(t *testing.T) {
	dir := t.TempDir()
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if es, err := lib.List(); err != nil || len(es) != 0 {
		t.Fatalf("empty library: %v %v", es, err)
	}
	full := vectorRWD(t, "c03")
	p := filepath.Join(dir, "live.rwd")
	write(t, p, full[:len(full)/2])
	es, _ := lib.List()
	if len(es) != 1 || es[0].Complete || es[0].Rounds == 0 || es[0].Rounds >= 500 {
		t.Fatalf("half-written replay listed as %+v", es)
	}
	rep, err := lib.Load("live.rwd")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Warning == "" || rep.Frames < 10 {
		t.Errorf("half-written replay: %d frames, warning %q", rep.Frames, rep.Warning)
	}
	write(t, p, full)
	es, _ = lib.List()
	if len(es) != 1 || !es[0].Complete || es[0].Rounds != 500 || es[0].Winner == 0 {
		t.Fatalf("finished replay listed as %+v", es[0])
	}
	if rep, err = lib.Load("live.rwd"); err != nil || rep.Frames != 501 || rep.Warning != "" {
		t.Fatalf("finished replay: %v", err)
	}
	os.Remove(p)
	if es, _ = lib.List(); len(es) != 0 {
		t.Errorf("deleted replay still listed")
	}
}

// TestExportHTMLSelfContained: the exported page inlines everything and
// forbids requests.
func TestExportHTMLSelfContained(t *testing.T) {
	rep, err := LoadReader(bytes.NewReader(hostileRWD(t)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteHTML(context.Background(), &buf, rep, "hostile.rwd"); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<script src", `rel="stylesheet"`, hostile, "<img src=x"} {
		if strings.Contains(page, bad) {
			t.Errorf("exported page contains %q", bad)
		}
	}
	if !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;`) && !strings.Contains(page, `content="default-src 'none'`) {
		t.Error("exported page has no CSP forbidding requests")
	}
	if n := strings.Count(page, "<script"); n != 4 {
		t.Errorf("%d script elements, want 4 (charts JSON, data, ECharts, viewer)", n)
	}
}

// FuzzLoad feeds arbitrary bytes through the decoders into Load: it may
// fail, never panic.
func FuzzLoad(f *testing.F) {
	f.Add(hostileRWD(f))
	f.Add(readFile(f, filepath.Join(testdata, "conformance", "c06.cfr")))
	f.Add([]byte(`[{"turn":0}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if rep, err := LoadReader(bytes.NewReader(data)); err == nil {
			if _, err := ReadManifest(rep.Blob); err != nil {
				t.Fatalf("Load succeeded with a blob whose manifest does not read: %v", err)
			}
		}
	})
}

// TestStaleTempsRemoved: temporary upload and fork files a dead server
// left behind are removed when the library opens; other files stay.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".upload-abc.tmp", ".fork-def.tmp", "keep.tmp", "game.rwd", ".upload-x.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	for n, want := range map[string]bool{".upload-abc.tmp": false, ".fork-def.tmp": false, "keep.tmp": true, "game.rwd": true, ".upload-x.txt": true} {
		if _, err := os.Stat(filepath.Join(dir, n)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", n, err == nil, want)
		}
	}
}

// TestConcurrentListingsShareSummaries: six listings at once of a folder
// with one new replay read it once.
func TestConcurrentListingsShareSummaries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c03.cfr"), readFile(t, filepath.Join(testdata, "conformance", "c03.cfr")), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			es, err := lib.List()
			if err != nil || len(es) != 1 || es[0].Rounds != 500 {
				t.Errorf("list: %v %v", err, es)
			}
		}()
	}
	wg.Wait()
	lib.mu.Lock()
	n := lib.summarized
	lib.mu.Unlock()
	if n != 1 {
		t.Fatalf("the file was summarised %d times", n)
	}
}
