// Package jsntest writes a small synthetic Skyport observer recording
// (.jsn) for tests that must run without the public recordings: two
// players on a 5×5 map (ann: laser and mortar, bob: laser and droid), 12 player-turns with a move, a mine, an upgrade,
// each shot (laser, mortar, droid), hits, a self-hit, a kill, the dead
// player's skipped turn and its respawn.
package jsntest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Map is the recording's map, map.data[j] as a string per row.
var Map = []string{
	"SGGGV",
	"GGRGG",
	"GGGEO",
	"GGGGG",
	"VGGGS",
}

// Turns is the number of player-turns the recording holds (its last
// gamestate opens turn Turns+1).
const Turns = 12

type player struct {
	j, k, health, score, laser int
}

// turn is one turn: the actor ("ann" or "bob"), its broadcast actions,
// and the state after it.
type turn struct {
	actor   string
	actions []string
	ann     player
	bob     player
}

var script = []turn{
	{"bob", []string{`{"type":"move","direction":"up"}`}, player{0, 0, 100, 0, 1}, player{3, 3, 100, 0, 1}},
	{"ann", []string{`{"type":"move","direction":"down"}`, `{"type":"move","direction":"right-down"}`, `{"type":"mine"}`}, player{1, 2, 100, 0, 1}, player{3, 3, 100, 0, 1}},
	{"bob", []string{`{"type":"move","direction":"left-up"}`, `{"type":"laser","direction":"right-up","start":"3, 2","stop":"0, 2"}`}, player{1, 2, 84, 0, 1}, player{3, 2, 100, 16, 1}},
	{"ann", []string{`{"type":"mortar","coordinates":"2,1"}`}, player{1, 2, 84, 18, 1}, player{3, 2, 82, 16, 1}},
	{"bob", []string{`{"type":"droid","sequence":["up","right-up"]}`}, player{1, 2, 70, 18, 1}, player{3, 2, 82, 30, 1}},
	{"ann", []string{`{"type":"upgrade","weapon":"laser"}`, `{"type":"move","direction":"left-up"}`}, player{1, 1, 70, 18, 2}, player{3, 2, 82, 30, 1}},
	{"bob", []string{`{"type":"laser","direction":"up","start":"3, 2","stop":"1, 0"}`}, player{1, 1, 70, 18, 2}, player{3, 2, 82, 30, 1}},
	{"ann", []string{`{"type":"mortar","coordinates":"1,1"}`}, player{1, 1, 52, 36, 2}, player{3, 2, 64, 30, 1}},
	{"bob", []string{`{"type":"laser","direction":"right-up","start":"3, 2","stop":"0, 2"}`}, player{1, 1, 52, 36, 2}, player{3, 2, 64, 30, 1}},
	{"ann", []string{`{"type":"mortar","coordinates":"2,1"}`}, player{1, 1, 52, 120, 2}, player{3, 2, 0, -10, 1}},
	{"ann", []string{`{"type":"move","direction":"right-down"}`}, player{1, 2, 52, 120, 2}, player{4, 4, 100, -10, 1}},
	{"bob", []string{`{"type":"move","direction":"up"}`}, player{1, 2, 52, 120, 2}, player{3, 3, 100, -10, 1}},
}

// Recording returns the recording's bytes, one message per line as the
// observer port sends them.
func Recording() []byte {
	var b strings.Builder
	var data [][]string
	for _, row := range Map {
		data = append(data, strings.Split(row, ""))
	}
	mp, _ := json.Marshal(map[string]any{"data": data, "j-length": len(Map), "k-length": len(Map)})
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	line(`{"message":"connect","status":true}`)
	line(fmt.Sprintf(`{"message":"gamestate","turn":0,"players":[{"name":"ann"},{"name":"bob"}],"map":%s}`, mp))
	line(`{"message":"endturn"}`)
	line(`{"message":"endactions"}`)
	pl := func(name string, p player) string {
		second := "mortar"
		if name == "bob" {
			second = "droid"
		}
		return fmt.Sprintf(`{"primary-weapon":{"level":%d,"name":"laser"},"position":"%d, %d","name":%q,"score":%d,"alive":true,"health":%d,"secondary-weapon":{"level":1,"name":%q}}`,
			p.laser, p.j, p.k, name, p.score, p.health, second)
	}
	state := func(t int, first string, ann, bob player) {
		ps := pl("ann", ann) + "," + pl("bob", bob)
		if first == "bob" {
			ps = pl("bob", bob) + "," + pl("ann", ann)
		}
		line(fmt.Sprintf(`{"message":"gamestate","turn":%d,"players":[%s],"map":%s}`, t, ps, mp))
	}
	state(1, "bob", player{0, 0, 100, 0, 1}, player{4, 4, 100, 0, 1})
	for i, tu := range script {
		line(`{"message":"endturn"}`)
		for _, a := range tu.actions {
			line(`{"message":"action","from":"` + tu.actor + `",` + a[1:])
		}
		line(`{"message":"endactions"}`)
		next := "ann"
		if i+1 < len(script) {
			next = script[i+1].actor
		}
		state(i+2, next, tu.ann, tu.bob)
	}
	return []byte(b.String())
}
