package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataGz: /data/ID?gz=1 (what the replay page fetches) is the blob
// gzip'd, sent as it is (application/gzip, no Content-Encoding) for the
// page to inflate; without gz=1 it is the blob, gzip-encoded on the wire.
func TestDataGz(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	rep, err := lib.Load("hostile.rwd")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", base+"/data/hostile.rwd?gz=1", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/gzip" || res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("?gz=1: %d, Content-Type %q, Content-Encoding %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	blob, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(blob, rep.Blob) {
		t.Errorf("?gz=1 inflates to %d bytes (%v), the blob is %d", len(blob), err, len(rep.Blob))
	}
	res, err = http.Get(base + "/data/hostile.rwd")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if !bytes.Equal(body, rep.Blob) || res.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("without gz: %d bytes, Content-Type %q", len(body), res.Header.Get("Content-Type"))
	}
}

// TestChartsURL: a served replay page leaves its charts' options out of
// the HTML and names /charts/ID, which answers them (as the exported page
// inlines them).
func TestChartsURL(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	code, page := getBytes(t, base+"/replay/hostile.rwd")
	if html := string(page); code != 200 || !strings.Contains(html, `data-charts="/charts/hostile.rwd"`) || strings.Contains(html, `"rw-charts"`) {
		t.Fatalf("page %d: data-charts missing or charts inlined", code)
	}
	rep, err := lib.Load("hostile.rwd")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := chartsJSON(rep)
	if err != nil {
		t.Fatal(err)
	}
	code, body := getBytes(t, base+"/charts/hostile.rwd")
	var charts []struct {
		ID     string          `json:"id"`
		Option json.RawMessage `json:"option"`
	}
	if err := json.Unmarshal(body, &charts); code != 200 || err != nil || !bytes.Equal(body, want) || len(charts) != len(rep.Charts) || len(charts) == 0 {
		t.Errorf("/charts: %d %v, %d charts (want %d)", code, err, len(charts), len(rep.Charts))
	}
	if code, _ := getBytes(t, base+"/charts/none.rwd"); code != http.StatusNotFound {
		t.Errorf("/charts of no replay: %d", code)
	}
	var buf bytes.Buffer
	if err := WriteHTML(t.Context(), &buf, rep, "hostile.rwd"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"rw-charts"`) || strings.Contains(buf.String(), `data-charts="`) {
		t.Error("the exported page does not inline its charts")
	}
}
