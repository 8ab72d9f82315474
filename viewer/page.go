package viewer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/internal/assets"
	"github.com/rewind-game/rewind/templates"
)

// PageData is the replay page's view of rep, titled after id (a file name
// or library id). The caller sets where the frames come from.
func PageData(rep *Replay, id string) templates.ReplayPage {
	a := rep.Analysis
	p := templates.ReplayPage{Title: path.Base(id), Warning: rep.Warning, Notice: rep.Notice}
	for _, c := range rep.Charts {
		p.Charts = append(p.Charts, templates.Chart{ID: c.ID, Title: c.Title, Option: json.RawMessage(c.Option)})
	}
	p.Summary = fmt.Sprintf("%s · %s · %d rounds · %d players", a.Format, a.ConfigText(), a.Rounds, len(a.Players))
	if len(a.Summary.Ranking) > 0 {
		w := a.Summary.Ranking[0]
		p.Summary += fmt.Sprintf(" · %s with %d %s", analysis.FirstPlace(a.Incomplete(), "round", a.Rounds, w.Username), w.Score, a.Unit())
	}
	if o := a.Outcome(); o != "" {
		p.Summary += " · " + o
	}
	if rep.Provenance != "" {
		p.Summary += " · " + rep.Provenance
	}
	return p
}

// WriteHTML writes rep's replay page as one self-contained file: styles,
// scripts, ECharts and the frames are all inlined, and a
// Content-Security-Policy forbids any request, so it works opened from
// disk with no network.
func WriteHTML(ctx context.Context, w io.Writer, rep *Replay, id string) error {
	css, err := fs.ReadFile(staticFS, "static/viewer.css")
	if err != nil {
		return err
	}
	js, err := pageScript("viewer.js")
	if err != nil {
		return err
	}
	ech := string(assets.ECharts())
	for name, s := range map[string]string{"viewer.css": string(css), "shell.js and viewer.js": js, "echarts": ech} {
		if l := strings.ToLower(s); strings.Contains(l, "</script") || strings.Contains(l, "</style") || strings.Contains(l, "<!--") {
			return fmt.Errorf("viewer: %s cannot be inlined: it contains a closing tag or comment opener", name)
		}
	}
	p := PageData(rep, id)
	p.DataB64 = base64.StdEncoding.EncodeToString(rep.Gzip)
	p.Assets = templates.Assets{Inline: true, CSS: string(css), ViewerJS: js, ECharts: ech, EChartsVersion: assets.EChartsVersion()}
	return templates.Replay(p).Render(ctx, w)
}

// decoded returns the replay id as the library last decoded it (or why it
// could not), when that decode is of the file as it is now and finished;
// ok is false when opening id would have to wait for a decode.
func (l *Library) decoded(id string) (rep *Replay, err error, ok bool) {
	if !ValidID(id) || (l.only != "" && id != l.only) {
		return nil, nil, false
	}
	fi, err := l.root.Stat(id)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s, found := l.loaded[id]
	if !found || !s.finished() || s.size != fi.Size() || !s.mod.Equal(fi.ModTime()) {
		return nil, nil, false
	}
	return s.rep, s.err, true
}

// shellEntry returns the library's summary of id when its replay page can
// be sent before the replay is decoded (a shell, filled in from the data
// answer): a whole ColorfightII recording (.rwd or .cfr) that the
// summary reads well and that is not decoded yet. Anything else (an
// error, a recording cut short or still being written) is answered as
// before, once decoded, so a replay that the summary finds broken still
// gets its 422 page.
func (l *Library) shellEntry(id string) *Entry {
	if !IsReplayName(id) || !ValidID(id) || (l.only != "" && id != l.only) {
		return nil
	}
	if _, _, ok := l.decoded(id); ok {
		return nil
	}
	fi, err := l.root.Stat(id)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	e := l.summary(id, fi.Size(), fi.ModTime())
	if e.Err != "" || !e.Complete || e.Damage != nil || e.Ruleset != "" {
		return nil
	}
	return e
}

// pageHeaders are the replay page's header lines that a shell page
// (templates.ReplayPage.Shell) takes from the data answer: the summary,
// the warning and the notice, each percent-encoded (decodeURIComponent
// reads them back) since they may hold any player name.
func pageHeaders(h http.Header, rep *Replay, id string) {
	p := PageData(rep, id)
	for k, v := range map[string]string{"X-Rewind-Summary": p.Summary, "X-Rewind-Warning": p.Warning, "X-Rewind-Notice": p.Notice} {
		if v != "" {
			h.Set(k, url.PathEscape(v))
		}
	}
}

// pageScript is a replay page's script as an inlined page runs it: the
// viewer shell (static/shell.js, which every game's page loads first)
// followed by the page's own (static/NAME).
func pageScript(name string) (string, error) {
	shell, err := fs.ReadFile(staticFS, "static/shell.js")
	if err != nil {
		return "", err
	}
	js, err := fs.ReadFile(staticFS, "static/"+name)
	if err != nil {
		return "", err
	}
	return string(shell) + "\n" + string(js), nil
}
