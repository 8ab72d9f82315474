//go:build !unix && !windows

package subprocess

import (
	"os"
	"os/exec"
	"time"
)

// procTree is only the bot process itself where the system offers no
// portable way to group its descendants.
type procTree struct {
	p *os.Process
}

func (t *procTree) prepare(*exec.Cmd) error { return nil }

func (t *procTree) attach(p *os.Process) error {
	t.p = p
	return nil
}

func (t *procTree) kill() {
	if t.p != nil {
		t.p.Kill()
	}
}

func (t *procTree) reap(time.Duration) {}

func (t *procTree) release() {}
