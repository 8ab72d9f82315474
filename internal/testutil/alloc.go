package testutil

import "runtime"

// Allocated runs fn and returns the bytes allocated meanwhile (the growth
// of runtime.MemStats.TotalAlloc, after a collection), for tests that
// bound what a decoder or a command allocates. Other goroutines'
// allocations count too.
func Allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
