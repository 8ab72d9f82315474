// Command gobot is an example rewind external bot (protocol 1), Go standard
// library only. Build and play it with:
//
//	go build -o gobot ./examples/bots/go
//	rewind play --bot greedy --bot ./gobot
//
// The runner writes one JSON message per line on stdin ("start" once, then
// one "turn" per round) and expects exactly one JSON line on stdout for
// every "turn": {"cmd_list": [...], "turn": T}. See docs/bot-protocol.md.
// Debug output must go to stderr, which the runner logs.
//
// Strategy (deliberately simple): attack the affordable cells next to our
// territory, cheapest first (ties: richest first), paying exactly the
// attack cost; rebuild a lost Home when 1000 gold allow; otherwise build
// gold mines on our richest empty cells while gold allows.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"sort"
	"strconv"
)

// message is the part of a runner message this bot uses. Cells are decoded
// generically and read by header name, so extra fields never break us.
type message struct {
	Type    string `json:"type"`
	Turn    int    `json:"turn"`
	UID     int    `json:"uid"`
	Users   map[string]user
	GameMap struct {
		Headers []string              `json:"headers"`
		Data    [][][]json.RawMessage `json:"data"` // data[y][x][field]
	} `json:"game_map"`
}

type user struct {
	Energy    int64 `json:"energy"`
	Gold      int64 `json:"gold"`
	Dead      bool  `json:"dead"`
	TechLevel int64 `json:"tech_level"`
}

// cell is the decoded form of one cell array.
type cell struct {
	cost, owner, ng, ne int64
	building            string // " ", "h", "g", "e" or "f"
}

// decodeCell reads a cell array using the header positions in col.
func decodeCell(raw []json.RawMessage, col map[string]int) (c cell) {
	num := func(name string) int64 {
		var v int64
		if i, ok := col[name]; ok && i < len(raw) {
			json.Unmarshal(raw[i], &v)
		}
		return v
	}
	c.cost, c.owner = num("attack_cost"), num("owner")
	c.ng, c.ne = num("natural_gold"), num("natural_energy")
	var b []json.RawMessage // ["letter", level]
	if i, ok := col["building"]; ok && i < len(raw) && json.Unmarshal(raw[i], &b) == nil && len(b) > 0 {
		json.Unmarshal(b[0], &c.building)
	}
	return c
}

// decide returns the commands for one turn message.
func decide(m *message) []string {
	me, ok := m.Users[strconv.Itoa(m.UID)]
	if !ok || me.Dead {
		return []string{}
	}
	col := map[string]int{}
	for i, h := range m.GameMap.Headers {
		col[h] = i
	}
	rows := m.GameMap.Data
	h := len(rows)
	w := 0
	if h > 0 {
		w = len(rows[0])
	}
	grid := make([][]cell, h)
	for y := range rows {
		grid[y] = make([]cell, len(rows[y]))
		for x := range rows[y] {
			grid[y][x] = decodeCell(rows[y][x], col)
		}
	}
	owner := int64(m.UID)
	type target struct {
		x, y        int
		cost, value int64
	}
	var targets []target
	seen := map[[2]int]bool{}
	type spot struct {
		x, y int
		ng   int64
	}
	var empty []spot // our cells without a building
	for y := 0; y < h; y++ {
		for x := 0; x < len(grid[y]); x++ {
			if grid[y][x].owner != owner {
				continue
			}
			if grid[y][x].building == " " {
				empty = append(empty, spot{x, y, grid[y][x].ng})
			}
			for _, d := range [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || ny >= h || nx >= w || nx >= len(grid[ny]) || seen[[2]int{nx, ny}] {
					continue
				}
				if c := grid[ny][nx]; c.owner != owner {
					seen[[2]int{nx, ny}] = true
					targets = append(targets, target{nx, ny, c.cost, c.ng + c.ne})
				}
			}
		}
	}
	cmds := []string{}
	// 1. Attacks, cheapest first, then richest, then by position.
	sort.Slice(targets, func(i, j int) bool {
		a, b := targets[i], targets[j]
		if a.cost != b.cost {
			return a.cost < b.cost
		}
		if a.value != b.value {
			return a.value > b.value
		}
		if a.x != b.x {
			return a.x < b.x
		}
		return a.y < b.y
	})
	energy := me.Energy
	for _, t := range targets {
		if t.cost > energy {
			break
		}
		cmds = append(cmds, fmt.Sprintf("a %d %d %d", t.x, t.y, t.cost))
		energy -= t.cost
	}
	// 2. Buildings on our richest empty cells.
	sort.SliceStable(empty, func(i, j int) bool { return empty[i].ng > empty[j].ng })
	gold := me.Gold
	if me.TechLevel == 0 { // no Home: only a new Home can be built
		if gold >= 1000 && len(empty) > 0 {
			cmds = append(cmds, fmt.Sprintf("b %d %d h", empty[0].x, empty[0].y))
		}
		return cmds
	}
	for _, s := range empty {
		if gold < 200 {
			break
		}
		cmds = append(cmds, fmt.Sprintf("b %d %d g", s.x, s.y))
		gold -= 200
	}
	return cmds
}

func main() {
	log.SetPrefix("gobot: ")
	log.SetFlags(0) // log writes to stderr, which the runner records
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out) // Encode writes one line, newline included
	for {
		line, err := in.ReadBytes('\n') // one message per line
		if len(line) > 0 {
			var m message
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				log.Printf("ignoring a line that is not a message: %v", jerr)
			} else if m.Type == "start" {
				log.Printf("playing as uid %d", m.UID)
			} else if m.Type == "turn" {
				reply := struct {
					CmdList []string `json:"cmd_list"`
					Turn    int      `json:"turn"`
				}{decide(&m), m.Turn}
				if err := enc.Encode(reply); err != nil {
					log.Fatal(err)
				}
				if err := out.Flush(); err != nil { // the runner waits for it
					log.Fatal(err)
				}
			} // other message types are ignored (forward compatible)
		}
		if err == io.EOF {
			return // stdin closed: the game is over
		}
		if err != nil {
			log.Fatal(err)
		}
	}
}
