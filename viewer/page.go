package viewer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

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
	p.Summary = fmt.Sprintf("%s · %dx%d · %d rounds · %d players", a.Format, a.Config.Width, a.Config.Height, a.Rounds, len(a.Players))
	if len(a.Summary.Ranking) > 0 {
		w := a.Summary.Ranking[0]
		p.Summary += fmt.Sprintf(" · winner %s with %d gold", w.Username, w.Gold)
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
	js, err := fs.ReadFile(staticFS, "static/viewer.js")
	if err != nil {
		return err
	}
	ech := string(assets.ECharts())
	for name, s := range map[string]string{"viewer.css": string(css), "viewer.js": string(js), "echarts": ech} {
		if l := strings.ToLower(s); strings.Contains(l, "</script") || strings.Contains(l, "</style") || strings.Contains(l, "<!--") {
			return fmt.Errorf("viewer: %s cannot be inlined: it contains a closing tag or comment opener", name)
		}
	}
	p := PageData(rep, id)
	p.DataB64 = base64.StdEncoding.EncodeToString(rep.Gzip)
	p.Assets = templates.Assets{Inline: true, CSS: string(css), ViewerJS: string(js), ECharts: ech, EChartsVersion: assets.EChartsVersion()}
	return templates.Replay(p).Render(ctx, w)
}
