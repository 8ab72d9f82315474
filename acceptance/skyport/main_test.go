package skyport_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }

// serving is the line `rewind view` prints once it listens, the page's
// URL its submatch.
var serving = regexp.MustCompile(` at (http://\S+/replay/\S+)  \(Ctrl-C stops\)$`)

// viewPage runs `rewind view FILE --addr 127.0.0.1:0` until the test ends
// (then Ctrl-C, which must end it with status 0) and returns the URL of
// the replay's page it prints.
func viewPage(t *testing.T, file string) string {
	t.Helper()
	url := clitest.Start(t, serving, "view", file, "--addr", "127.0.0.1:0")
	if want := "/replay/" + filepath.Base(file); !strings.HasSuffix(url, want) {
		t.Fatalf("view %s prints %s, want its page %s", file, url, want)
	}
	return url
}
