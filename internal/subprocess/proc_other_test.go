//go:build !unix && !windows

package subprocess

import (
	"runtime"
	"testing"
)

func treeMembers(t *testing.T, b *Bot) []int {
	t.Skip("process trees are not inspected on " + runtime.GOOS)
	return nil
}

func assertTreeGone(t *testing.T, b *Bot) {
	t.Skip("process trees are not inspected on " + runtime.GOOS)
}
