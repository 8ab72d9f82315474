//go:build !linux

package bot

// setSubreaper does nothing where there is no child-subreaper facility;
// bots' process groups are still killed on Close.
func setSubreaper() {}
