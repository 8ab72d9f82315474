//go:build unix && !linux

package subprocess

// setSubreaper does nothing where there is no child-subreaper facility
// (darwin, the BSDs...); bots' process groups are still killed and reaped.
func setSubreaper() {}
