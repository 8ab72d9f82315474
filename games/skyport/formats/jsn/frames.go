package jsn

import (
	"fmt"

	"github.com/rewind-game/rewind/engine"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// resourceIndex is 0, 1, 2 for rubidium, explosium, scrap, -1 otherwise.
func resourceIndex(c byte) int {
	switch c {
	case skyport.Rubidium:
		return 0
	case skyport.Explosium:
		return 1
	case skyport.Scrap:
		return 2
	}
	return -1
}

func clamp(v, d int) int { return min(max(v, 0), d-1) }

// derive turns the broadcasts of d.cur's turn and the change from d.cur
// to d.next into events, effects and totals. The actions are replayed on
// the actor's position only (moves step it; mortars and droids start
// from it); nothing else of the rules is applied: hits, kills and
// respawns are read from the health each gamestate shows.
func (d *decoder) derive() {
	d.events, d.fx = d.events[:0], d.fx[:0]
	D := d.d
	a := d.cur.order[0]
	d.actor = a
	pl := &d.cur.players[a]
	j, k := pl.J, pl.K
	t := &d.tot[a]
	in := func(j, k int) bool { return j >= 0 && k >= 0 && j < D && k < D }
	tile := func(j, k int) byte { return d.cur.tiles[j*D+k] }
	ev := func(kind string, x, y int, v int64) {
		d.events = append(d.events, engine.Event{Kind: kind, Player: a, Other: -1, X: x, Y: y, Value: v})
	}
	for i := range d.acts {
		x := &d.acts[i]
		switch x.typ {
		case "move":
			dir, _ := skyport.ParseDir(x.dir)
			dj, dk := dir.Delta()
			if in(j+dj, k+dk) {
				j, k = j+dj, k+dk
			}
			t.moves++
		case "mine":
			t.mines++
			if r := resourceIndex(tile(j, k)); r >= 0 {
				t.mined[r]++
				if d.units[j*D+k] > 0 {
					d.units[j*D+k]--
				}
				ev("mined", j, k, int64(r))
			}
		case "upgrade":
			t.upgrades++
			w := map[string]skyport.Weapon{"laser": skyport.Laser, "mortar": skyport.Mortar, "droid": skyport.Droid}[x.weapon]
			if lvl := d.next.players[a].Level(w); lvl > 0 {
				ev("upgraded", j, k, int64(lvl))
			}
		case "laser":
			t.shots++
			lvl := pl.Level(skyport.Laser)
			sj, sk, ej, ek := j, k, j, k
			if x.hasStartStop {
				sj, sk, ej, ek = x.start[0], x.start[1], x.stop[0], x.stop[1]
			} else {
				// The beam as Rev 1 walks it: up to its range, stopped by
				// rock and the map's edge.
				dir, _ := skyport.ParseDir(x.dir)
				dj, dk := dir.Delta()
				for range [4]int{5, 5, 6, 7}[min(lvl, 3)] {
					if !in(ej+dj, ek+dk) || tile(ej+dj, ek+dk) == skyport.Rock {
						break
					}
					ej, ek = ej+dj, ek+dk
				}
			}
			d.fx = append(d.fx, engine.Effect{Kind: engine.Line, Name: "laser", Player: a, X: sj, Y: sk, X2: ej, Y2: ek})
			ev("laser", ej, ek, int64(lvl))
		case "mortar":
			t.shots++
			lj, lk := clamp(j+x.dj, D), clamp(k+x.dk, D)
			// Drawn with its splash even on rock, void or spawn, where
			// Rev 1 would make it a dud: older servers splashed there,
			// and the hits come from the healths anyway.
			d.fx = append(d.fx, engine.Effect{Kind: engine.Area, Name: "mortar", Player: a, X: lj, Y: lk, Radius: 1})
			ev("mortar", lj, lk, int64(pl.Level(skyport.Mortar)))
		case "droid":
			t.shots++
			lvl := pl.Level(skyport.Droid)
			steps := len(x.seq)
			if lvl > 0 {
				steps = min(steps, lvl+2)
			}
			pts := []engine.Point{{X: j, Y: k}}
			ej, ek := j, k
			for _, s := range x.seq[:steps] {
				dir, _ := skyport.ParseDir(s)
				dj, dk := dir.Delta()
				if !in(ej+dj, ek+dk) {
					break
				}
				if c := tile(ej+dj, ek+dk); c == skyport.Spawn || c == skyport.Rock || c == skyport.Void {
					break
				}
				ej, ek = ej+dj, ek+dk
				pts = append(pts, engine.Point{X: ej, Y: ek})
			}
			d.fx = append(d.fx, engine.Effect{Kind: engine.Path, Name: "droid", Player: a, X: j, Y: k, X2: ej, Y2: ek, Points: pts},
				engine.Effect{Kind: engine.Area, Name: "droid_blast", Player: a, X: ej, Y: ek, Radius: 1})
			ev("droid", ej, ek, int64(lvl))
		}
	}
	for q := 0; q < d.n; q++ {
		h0, h1 := d.cur.players[q].Health, d.next.players[q].Health
		np := &d.next.players[q]
		switch {
		case h0 <= 0 && h1 > 0:
			d.events = append(d.events, engine.Event{Kind: "respawn", Player: q, Other: -1, X: np.J, Y: np.K})
		case h0 > 0 && h1 < h0:
			dmg := int64(h0 - max(h1, 0))
			d.events = append(d.events, engine.Event{Kind: "hit", Player: a, Other: q, X: np.J, Y: np.K, Value: dmg})
			d.fx = append(d.fx, engine.Effect{Kind: engine.Mark, Name: "damage", Player: a, X: np.J, Y: np.K, Value: dmg})
			d.tot[q].taken += dmg
			if q != a {
				t.dealt += dmg
			}
			if h1 <= 0 {
				d.events = append(d.events, engine.Event{Kind: "kill", Player: a, Other: q, X: np.J, Y: np.K})
				t.kills++
				d.tot[q].deaths++
			}
		}
	}
	for i, c := range d.next.tiles {
		switch {
		case !isResource(c):
			d.units[i] = 0
		case d.units[i] == 0:
			d.units[i] = 1 // still shown: at least one unit left
		}
	}
}

// fill describes d.cur (the gamestate after the turn derive read) in f.
func (d *decoder) fill(f *engine.Frame) error {
	s := &d.cur
	n := d.n
	f.Reset(n)
	f.Turn = s.turn - 1
	if d.frames > 0 {
		f.Active = d.actor
	}
	f.Events = append(f.Events, d.events...)
	m := len(d.meta.Metrics)
	for p := 0; p < n; p++ {
		v := f.Values[p][:0]
		for range m {
			v = append(v, 0)
		}
		pl, t := &s.players[p], &d.tot[p]
		set := func(name string, x int64) {
			if i, ok := d.slot[name]; ok {
				v[i] = x
			}
		}
		set("score", int64(pl.Score))
		set("health", int64(pl.Health))
		set("damage_dealt", t.dealt)
		set("damage_taken", t.taken)
		set("kills", t.kills)
		set("deaths", t.deaths)
		set("rubidium_mined", t.mined[0])
		set("explosium_mined", t.mined[1])
		set("scrap_mined", t.mined[2])
		set("laser_level", int64(pl.Level(skyport.Laser)))
		set("mortar_level", int64(pl.Level(skyport.Mortar)))
		set("droid_level", int64(pl.Level(skyport.Droid)))
		set("moves", t.moves)
		set("mines", t.mines)
		set("upgrades", t.upgrades)
		set("shots", t.shots)
		f.Values[p] = v
	}
	d.view = skyport.View{Turn: s.turn, Size: d.d, Tiles: s.tiles, Units: d.units, Players: s.players, Order: s.order}
	st, err := skyport.FromView(d.view)
	if err != nil {
		return fmt.Errorf("line %d: the gamestate of turn %d: %w", s.line, s.turn, err)
	}
	(&skyport.Game{State: st}).Board(&f.Board)
	f.Board.Effects = append(f.Board.Effects, d.fx...)
	// Ranking: by score, best first, ties by player number.
	f.Ranking = f.Ranking[:0]
	for p := 0; p < n; p++ {
		f.Ranking = append(f.Ranking, p)
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && s.players[f.Ranking[j]].Score > s.players[f.Ranking[j-1]].Score; j-- {
			f.Ranking[j], f.Ranking[j-1] = f.Ranking[j-1], f.Ranking[j]
		}
	}
	return nil
}
