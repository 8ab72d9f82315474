package main

import (
	"fmt"

	"github.com/rewind-game/rewind/engine/match"
)

// externalSeat starts an external bot for --bot spec.
func externalSeat(spec string, uid int, opts *playOptions) (match.Seat, error) {
	return match.Seat{}, fmt.Errorf("--bot %q: external bots are not available in this build", spec)
}
