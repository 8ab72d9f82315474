package recording

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestDirStoreConcurrent: games stored at once in one folder (a
// tournament's coordinator) share the folder's syncs and all end up in
// place, whole, each under its own name.
func TestDirStoreConcurrent(t *testing.T) {
	d := &Dir{Path: t.TempDir()}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := d.Store(i, []byte(fmt.Sprintf("game %d", i))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range 40 {
		b, err := os.ReadFile(d.GamePath(i))
		if err != nil || string(b) != fmt.Sprintf("game %d", i) {
			t.Errorf("game %d: %q %v", i, b, err)
		}
	}
	if n := d.folder.done; n == 0 || n > 40 {
		t.Errorf("%d folder syncs for 40 games", n)
	}
	left, _ := filepath.Glob(filepath.Join(d.Path, "*.partial"))
	if len(left) != 0 {
		t.Errorf("partial files left: %v", left)
	}
}
