package main

import (
	"fmt"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// The help texts name no game: what they say of the games comes from
// the registry when the commands are built.

// officialFormats lists every registered official format
// (describeFormat), "none" when there is none.
func officialFormats() string {
	var out []string
	for _, f := range engine.Formats() {
		out = append(out, describeFormat(f))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

// documentedGames lists the names of the games with an analysis
// document of their own (engine.StreamMeta.Document), "none" when no game
// has one.
func documentedGames() string {
	var out []string
	for _, r := range engine.All() {
		if source.MetaOf(r, 2).Document != nil {
			info, _ := engine.About(r.ID())
			out = append(out, info.Name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// defaultGame names the game a command plays when --game is not given:
// "ColorfightII (colorfight2)".
func defaultGame() string {
	info := defaultInfo()
	if info.Ruleset == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%s)", info.Name, info.Ruleset.ID())
}

// vectorFiles lists the games with conformance vectors and each one's
// two files ("ColorfightII: NAME.commands.json + NAME.cfr").
func vectorFiles() string {
	var out []string
	for _, id := range engine.IDs() {
		g, _ := engine.About(id)
		if v := g.Vectors; v != nil {
			out = append(out, fmt.Sprintf("%s: NAME%s + NAME%s", g.Name, v.Input, v.Expected))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}
