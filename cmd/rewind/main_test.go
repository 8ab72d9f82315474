package main

import (
	"os"
	"testing"
)

// runMainEnv makes the test binary run rewind's main instead of the
// tests, so that a test can start rewind as a process of its own (and
// kill it) with os.Args[0].
const runMainEnv = "REWIND_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
