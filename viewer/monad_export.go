package viewer

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/rewind-game/rewind/internal/assets"
	"github.com/rewind-game/rewind/templates"
)

// WriteMonadHTML writes a Monad replay's page (rep from LoadMonad) as one
// self-contained file, as WriteHTML does a ColorfightII one: the styles
// (viewer.css and monad.css), shell.js and monad-page.js, ECharts and the packed blob are
// inlined, and a Content-Security-Policy forbids any request, so it works
// opened from disk with no network.
func WriteMonadHTML(ctx context.Context, w io.Writer, rep *Replay, id string) error {
	if rep.Monad == nil {
		return errors.New("viewer: not a Monad replay")
	}
	var src [2]string
	for i, name := range []string{"static/viewer.css", "static/monad.css"} {
		b, err := fs.ReadFile(staticFS, name)
		if err != nil {
			return err
		}
		src[i] = string(b)
	}
	js, err := pageScript("monad-page.js")
	if err != nil {
		return err
	}
	css, ech := src[0]+"\n"+src[1], string(assets.ECharts())
	for name, s := range map[string]string{"viewer.css and monad.css": css, "shell.js and monad-page.js": js, "echarts": ech} {
		if l := strings.ToLower(s); strings.Contains(l, "</script") || strings.Contains(l, "</style") || strings.Contains(l, "<!--") {
			return fmt.Errorf("viewer: %s cannot be inlined: it contains a closing tag or comment opener", name)
		}
	}
	p := MonadPageData(rep, id)
	p.DataB64 = base64.StdEncoding.EncodeToString(rep.Gzip)
	p.Assets = templates.Assets{Inline: true, CSS: css, ViewerJS: js, ECharts: ech, EChartsVersion: assets.EChartsVersion()}
	return templates.MonadReplay(p).Render(ctx, w)
}
