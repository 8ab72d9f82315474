package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// formatOp is one of the optional operations of an official format
// (engine.Format: Import, Audit, Export, Compare): its name in messages,
// and whether a format has it.
type formatOp struct {
	name string
	has  func(engine.Format) bool
}

var (
	importOp  = formatOp{"import", func(f engine.Format) bool { return f.Import != nil }}
	auditOp   = formatOp{"audit", func(f engine.Format) bool { return f.Audit != nil }}
	exportOp  = formatOp{"export", func(f engine.Format) bool { return f.Export != nil }}
	compareOp = formatOp{"comparison", func(f engine.Format) bool { return f.Compare != nil }}
)

// formatsWith lists the registered formats that have op, each with its
// game's name and file endings ("cfr (ColorfightII, .cfr)"), "none" when
// no format has it.
func formatsWith(op formatOp) string {
	var out []string
	for _, f := range engine.Formats() {
		if op.has(f) {
			out = append(out, describeFormat(f))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

// describeFormat names f with its game and file endings: "cfr
// (ColorfightII, .cfr)".
func describeFormat(f engine.Format) string {
	game := "?"
	if g, ok := engine.GameOf(f.Name); ok {
		game = g.Name
	}
	return fmt.Sprintf("%s (%s, %s)", f.Name, game, strings.Join(f.Exts, ", "))
}

// officialFormat returns the official format of the file whose bytes
// (or first bytes) are data: the registered format named name when name
// is not "" (--format), otherwise the one whose Sniff claims data. A
// .rwd is refused as no official format.
func officialFormat(data []byte, name string) (engine.Format, error) {
	if name != "" {
		for _, f := range engine.Formats() {
			if f.Name == name {
				return f, nil
			}
		}
		var known []string
		for _, f := range engine.Formats() {
			known = append(known, f.Name)
		}
		return engine.Format{}, usagef("--format %s: no such format; known: %s", name, strings.Join(known, ", "))
	}
	prefix := data[:min(len(data), source.SniffBytes)]
	if f, ok := source.LookupStreamFormat(prefix); ok {
		return f, nil
	}
	if _, err := source.Sniff(prefix); err != nil {
		return engine.Format{}, err
	}
	return engine.Format{}, errors.New("a .rwd, which holds its commands (re-simulated: rewind verify), not an official replay")
}

// withoutOp is the error for a file whose format f has no op: "x.jsn:
// skyport-jsn files (Skyport, .jsn) have no import; import takes: cfr
// (ColorfightII, .cfr)".
func withoutOp(path string, f engine.Format, op formatOp, cmd string) error {
	return fmt.Errorf("%s: %s files have no %s; %s takes: %s", path, describeFormat(f), op.name, cmd, formatsWith(op))
}

// formatFlagUsage is the usage of a command's --format flag.
func formatFlagUsage(op formatOp) string {
	return "the file's official format, when its content does not tell (formats with " + op.name + ": " + formatsWith(op) + ")"
}
