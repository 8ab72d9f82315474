package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// runMainEnv makes the test binary run rewind's main instead of the
// tests, so that a test can start rewind as a process of its own (and
// kill it) with os.Args[0].
const runMainEnv = "REWIND_TEST_RUN_MAIN"

// stallBotArg makes the test binary, run as `BINARY stallBotArg N
// MARKER`, an external bot of the JSON-lines protocol that answers its
// first N turns with no command, then creates MARKER on the next turn
// message and answers nothing more: a match waits on it until killed.
const stallBotArg = "--rewind-test-stall-bot"

func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == stallBotArg {
		os.Exit(stallBot(os.Args[2], os.Args[3]))
	}
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stallBot is stallBotArg's bot; its result is the process's exit status.
func stallBot(answers, marker string) int {
	n, err := strconv.Atoi(answers)
	if err != nil {
		return 2
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	for in.Scan() {
		if !strings.Contains(in.Text(), `"type":"turn"`) {
			continue
		}
		if n == 0 {
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				return 1
			}
			for in.Scan() {
			}
			return 0
		}
		n--
		os.Stdout.WriteString("{\"cmd_list\":[]}\n")
	}
	return 0
}
