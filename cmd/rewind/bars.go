package main

import (
	"io"

	"github.com/schollz/progressbar/v3"
)

// turnsBar is the progress bar of a match being played (play, every
// game): turns of turns, on w.
func turnsBar(w io.Writer, turns int) *progressbar.ProgressBar {
	return progressbar.NewOptions(turns, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("playing"), progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30), progressbar.OptionClearOnFinish())
}

// filesBar is the progress bar of analyze DIR: files analysed of n, on w.
func filesBar(w io.Writer, n int) *progressbar.ProgressBar {
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("analyzing"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
}
