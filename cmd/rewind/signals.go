package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interruptSignals end a command as cleanly as Ctrl-C: a match finishes its
// replay at the last whole round, a tournament keeps its finished games, a
// server shuts down. syscall.SIGTERM and SIGHUP exist on every platform Go
// supports (on Windows they are never delivered, which is harmless).
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// interruptContext is cancelled by the first of interruptSignals.
func interruptContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, interruptSignals...)
}
