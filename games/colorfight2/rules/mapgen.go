package rules

import (
	"fmt"

	"github.com/rewind-game/rewind/engine/rng"
)

// Map sizes GenerateMap accepts. MinMapSide is the smallest side for which the
// spawn-point draw (x in [1, width/2)) is non-empty; MaxMapSide matches the
// engine's MaxSide.
const (
	MinMapSide = 4
	MaxMapSide = MaxSide
)

// Constants of the terrain draw and the blur, in GenerateMap's integer form.
const (
	mapgenMaxNatural = 10   // natural gold and energy are uniform in 1..10
	mapgenKLo        = 600  // k is uniform in [600, 1500): u = k/1000 in [0.6, 1.5)
	mapgenKSpan      = 900  // 1500 - 600
	mapgenBlurPasses = 3    // number of blur passes on natural_cost
	mapgenBlurDiv    = 20   // x/20 is the integer form of int(x * 0.05)
	mapgenCostScale  = 20   // natural_cost = (ng+ne) * 20 * k / 1000
	mapgenKDiv       = 1000 // see mapgenCostScale
)

// GenerateMap returns a new map of width × height cells and maxPlayer spawn
// points, determined entirely by seed. It follows RULES.md "Map generation"
// in integer arithmetic only. The algorithm below is a contract: the same
// (width, height, maxPlayer, seed) must give the same map forever, so any
// change to it is a breaking change (the golden hashes in mapgen_test.go pin
// it).
//
// # Validation
//
// width and height must be in MinMapSide..MaxMapSide; maxPlayer must be 2, 4
// or 8, and 8 only on a square map (width == height). Otherwise GenerateMap
// returns a nil map, nil spawns and a descriptive error, and draws nothing.
//
// # Random numbers
//
// All draws come from one rng.New(seed) (SplitMix64; Intn and Shuffle as
// specified in package rng), consumed in exactly this order: terrain, then
// spawn points, then the spawn shuffle. Below, W = width, H = height, and "/"
// is integer division (all operands are non-negative, so it truncates like
// Python's int()).
//
// # 1. Terrain
//
// The map has the symmetries x -> W-1-x and y -> H-1-y and, when W == H,
// also the transpose (x, y) -> (y, x). A cell's canonical cell is
//
//	cx = min(x, W-1-x), cy = min(y, H-1-y), and, if W == H and cx > cy,
//	swap cx and cy.
//
// The canonical cells are visited once each in row-major order:
//
//	for cy := 0; cy < (H+1)/2; cy++ {
//	    for cx := 0; cx < (W+1)/2 && (W != H || cx <= cy); cx++ {
//	        ng := 1 + Intn(10)   // natural_gold, 1..10
//	        ne := 1 + Intn(10)   // natural_energy, 1..10
//	        k := 600 + Intn(900) // 600..1499
//	        nc := (ng + ne) * 20 * k / 1000
//	    }
//	}
//
// (nc is the integer counterpart of the reference's int((ng+ne)*20*u) with u
// uniform in [0.6, 1.5).) Every cell of the map then takes the three values of
// its canonical cell.
//
// # 2. Blur
//
// Three passes over natural_cost. Each pass reads a snapshot of the costs as
// they were after the previous pass and writes, for every cell,
//
//	nc' = nc + sum over in-map neighbours nb of (nb.nc / 20) - nc * count / 20
//
// where the neighbours are north, south, west and east, those off the map
// dropped, and count is how many remain (2, 3 or 4). x/20 is the integer form
// of the reference's int(x * 0.05). The blur keeps every symmetry above, as
// the neighbour relation and count are invariant under them. Costs stay
// positive: the initial cost is at least 2*20*600/1000 = 24 and a pass
// removes at most nc*4/20 < nc.
//
// # 3. Spawn points
//
// Draw
//
//	x := 1 + Intn(W/2 - 1)     // x in [1, W/2)
//	y := Intn(x)               // square map: y in [0, x)
//	y := Intn(min(x, H/2))     // non-square map: y in [0, min(x, H/2))
//
// and list the images of (x, y) in this order:
//
//	(x, y), (W-1-x, y), (x, H-1-y), (W-1-x, H-1-y),
//	(y, x), (W-1-y, x), (y, H-1-x), (W-1-y, H-1-x)
//
// the last four only when W == H (a non-square map has only the four mirror
// images, hence maxPlayer <= 4 there). Keep the first maxPlayer of them. If
// any two kept points coincide, discard them and draw x and y again. (With the
// ranges above this cannot happen: x and y are both below W/2 and y < x, or
// y < H/2 on a non-square map, so all images differ. The rule is part of the
// algorithm only as a guard.)
//
// # 4. Spawn order
//
// Shuffle the kept points with rng's Shuffle (Fisher–Yates: for i from
// maxPlayer-1 down to 1, swap points i and Intn(i+1)). The result is the
// spawn list: player i (in registration order) starts on spawns[i].
func GenerateMap(width, height, maxPlayer int, seed uint64) (*Map, []Point, error) {
	if width < MinMapSide || width > MaxMapSide || height < MinMapSide || height > MaxMapSide {
		return nil, nil, fmt.Errorf("colorfight2: map size %dx%d: width and height must be in %d..%d",
			width, height, MinMapSide, MaxMapSide)
	}
	if maxPlayer != 2 && maxPlayer != 4 && maxPlayer != 8 {
		return nil, nil, fmt.Errorf("colorfight2: max_player %d is not 2, 4 or 8", maxPlayer)
	}
	square := width == height
	if !square && maxPlayer > 4 {
		return nil, nil, fmt.Errorf("colorfight2: max_player %d needs a square map, got %dx%d (a non-square map has only 4 symmetric spawn points)",
			maxPlayer, width, height)
	}

	r := rng.New(seed)
	m := NewMap(width, height)
	generateTerrain(m, r)
	blurCost(m)
	spawns := drawSpawns(width, height, maxPlayer, r)
	return m, spawns, nil
}

// canonical returns the canonical cell of (x, y) (see GenerateMap).
func canonical(x, y, w, h int) (int, int) {
	cx, cy := min(x, w-1-x), min(y, h-1-y)
	if w == h && cx > cy {
		cx, cy = cy, cx
	}
	return cx, cy
}

// generateTerrain draws the canonical cells and copies them to every cell.
func generateTerrain(m *Map, r *rng.Source) {
	w, h := m.Width, m.Height
	hw, hh := (w+1)/2, (h+1)/2
	type terrain struct{ ng, ne, nc int64 }
	canon := make([]terrain, hw*hh) // indexed cy*hw+cx
	for cy := 0; cy < hh; cy++ {
		for cx := 0; cx < hw && (w != h || cx <= cy); cx++ {
			ng := int64(1 + r.Intn(mapgenMaxNatural))
			ne := int64(1 + r.Intn(mapgenMaxNatural))
			k := int64(mapgenKLo + r.Intn(mapgenKSpan))
			canon[cy*hw+cx] = terrain{ng, ne, (ng + ne) * mapgenCostScale * k / mapgenKDiv}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cx, cy := canonical(x, y, w, h)
			t := canon[cy*hw+cx]
			i := y*w + x
			m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = t.ng, t.ne, t.nc
		}
	}
}

// blurCost runs the blur passes on natural_cost, each from a snapshot.
func blurCost(m *Map) {
	w, h := m.Width, m.Height
	prev := make([]int64, len(m.NaturalCost))
	for pass := 0; pass < mapgenBlurPasses; pass++ {
		copy(prev, m.NaturalCost)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				nc := prev[y*w+x]
				var sum, count int64
				add := func(nx, ny int) {
					if nx >= 0 && nx < w && ny >= 0 && ny < h {
						sum += prev[ny*w+nx] / mapgenBlurDiv
						count++
					}
				}
				add(x, y-1) // north
				add(x, y+1) // south
				add(x-1, y) // west
				add(x+1, y) // east
				m.NaturalCost[y*w+x] = nc + sum - nc*count/mapgenBlurDiv
			}
		}
	}
}

// drawSpawns draws the spawn points and shuffles them (see GenerateMap).
func drawSpawns(w, h, maxPlayer int, r *rng.Source) []Point {
	for {
		x := 1 + r.Intn(w/2-1)
		var y int
		if w == h {
			y = r.Intn(x)
		} else {
			y = r.Intn(min(x, h/2))
		}
		images := []Point{
			{x, y}, {w - 1 - x, y}, {x, h - 1 - y}, {w - 1 - x, h - 1 - y},
			{y, x}, {w - 1 - y, x}, {y, h - 1 - x}, {w - 1 - y, h - 1 - x},
		}
		spawns := images[:maxPlayer:maxPlayer]
		if !distinct(spawns) {
			continue
		}
		r.Shuffle(len(spawns), func(i, j int) { spawns[i], spawns[j] = spawns[j], spawns[i] })
		return spawns
	}
}

// distinct reports whether no two points of ps are equal.
func distinct(ps []Point) bool {
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if ps[i] == ps[j] {
				return false
			}
		}
	}
	return true
}
