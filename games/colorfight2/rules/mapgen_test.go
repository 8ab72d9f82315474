package rules

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"testing"
)

// mapHash is FNV-1a 64 over a decimal text rendering of the map and spawns:
// "W H\n", then "ng ne nc\n" per cell in row-major order, then "x y\n" per
// spawn point in order.
func mapHash(m *Map, spawns []Point) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d\n", m.Width, m.Height)
	for i := range m.NaturalGold {
		fmt.Fprintf(h, "%d %d %d\n", m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i])
	}
	for _, p := range spawns {
		fmt.Fprintf(h, "%d %d\n", p.X, p.Y)
	}
	return h.Sum64()
}

func mustGenerate(t *testing.T, w, h, maxPlayer int, seed uint64) (*Map, []Point) {
	t.Helper()
	m, spawns, err := GenerateMap(w, h, maxPlayer, seed)
	if err != nil {
		t.Fatalf("GenerateMap(%d, %d, %d, %d): %v", w, h, maxPlayer, seed, err)
	}
	return m, spawns
}

// TestGenerateMapGolden pins seed -> map. The hashes were computed once from
// this implementation and cross-checked against an independent Python 3
// transcription of GenerateMap's doc comment (which used the reference's
// float form int(x * 0.05) in the blur), which gave the same hashes and spawn
// lists. If this test fails, the generator has drifted: the same seed no
// longer means the same map. Do not update the constants unless a deliberate,
// versioned change to the algorithm is intended.
func TestGenerateMapGolden(t *testing.T) {
	cases := []struct {
		w, h, maxPlayer int
		seed            uint64
		hash            uint64
		spawns          []Point
	}{
		{30, 30, 8, 0, 11979868802676959585, []Point{{3, 1}, {1, 26}, {26, 1}, {3, 28}, {28, 3}, {26, 28}, {28, 26}, {1, 3}}},
		{30, 30, 8, 1, 1956493270013753189, []Point{{8, 23}, {23, 21}, {6, 21}, {21, 23}, {21, 6}, {6, 8}, {8, 6}, {23, 8}}},
		{30, 30, 2, 42, 8056008474787946922, []Point{{17, 7}, {12, 7}}},
		{30, 30, 4, 12345, 2496355846762579019, []Point{{19, 21}, {10, 21}, {19, 8}, {10, 8}}},
		{20, 13, 4, 7, 3742264930743582465, []Point{{11, 7}, {11, 5}, {8, 7}, {8, 5}}},
		{4, 4, 8, 99, 9199059682057184991, []Point{{3, 1}, {1, 0}, {3, 2}, {0, 1}, {2, 0}, {1, 3}, {2, 3}, {0, 2}}},
	}
	for _, c := range cases {
		m, spawns := mustGenerate(t, c.w, c.h, c.maxPlayer, c.seed)
		if got := mapHash(m, spawns); got != c.hash {
			t.Errorf("GenerateMap(%d, %d, %d, %d): hash %d, want %d (the generator drifted)",
				c.w, c.h, c.maxPlayer, c.seed, got, c.hash)
		}
		if fmt.Sprint(spawns) != fmt.Sprint(c.spawns) {
			t.Errorf("GenerateMap(%d, %d, %d, %d): spawns %v, want %v", c.w, c.h, c.maxPlayer, c.seed, spawns, c.spawns)
		}
	}
}

// sizes used by the property tests: square even/odd, non-square both ways,
// and the smallest maps.
var mapgenSizes = []struct{ w, h, maxPlayer int }{
	{30, 30, 8}, {30, 30, 2}, {31, 31, 8}, {25, 25, 4}, {4, 4, 8}, {5, 5, 8},
	{20, 13, 4}, {13, 20, 4}, {4, 5, 2}, {40, 30, 4}, {1000, 4, 4},
}

func TestGenerateMapSymmetry(t *testing.T) {
	for _, sz := range mapgenSizes {
		for seed := uint64(0); seed < 5; seed++ {
			m, _ := mustGenerate(t, sz.w, sz.h, sz.maxPlayer, seed)
			w, h := m.Width, m.Height
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					i := y*w + x
					images := [][2]int{{w - 1 - x, y}, {x, h - 1 - y}, {w - 1 - x, h - 1 - y}}
					if w == h {
						images = append(images, [2]int{y, x}, [2]int{h - 1 - y, x}, [2]int{y, w - 1 - x}, [2]int{h - 1 - y, w - 1 - x})
					}
					for _, p := range images {
						j := p[1]*w + p[0]
						if m.NaturalGold[i] != m.NaturalGold[j] || m.NaturalEnergy[i] != m.NaturalEnergy[j] || m.NaturalCost[i] != m.NaturalCost[j] {
							t.Fatalf("%dx%d seed %d: cell (%d,%d) differs from its image (%d,%d)", w, h, seed, x, y, p[0], p[1])
						}
					}
				}
			}
		}
	}
}

func TestGenerateMapRanges(t *testing.T) {
	for _, sz := range mapgenSizes {
		for seed := uint64(0); seed < 10; seed++ {
			m, spawns := mustGenerate(t, sz.w, sz.h, sz.maxPlayer, seed)
			if m.Width != sz.w || m.Height != sz.h || len(m.NaturalGold) != sz.w*sz.h ||
				len(m.NaturalEnergy) != sz.w*sz.h || len(m.NaturalCost) != sz.w*sz.h {
				t.Fatalf("%dx%d seed %d: wrong map shape", sz.w, sz.h, seed)
			}
			for i := range m.NaturalGold {
				if g, e, c := m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i]; g < 1 || g > 10 || e < 1 || e > 10 || c <= 0 {
					t.Fatalf("%dx%d seed %d cell %d: ng %d, ne %d, nc %d", sz.w, sz.h, seed, i, g, e, c)
				}
			}
			if len(spawns) != sz.maxPlayer {
				t.Fatalf("%dx%d seed %d: %d spawns, want %d", sz.w, sz.h, seed, len(spawns), sz.maxPlayer)
			}
			seen := map[Point]bool{}
			for _, p := range spawns {
				if p.X < 0 || p.X >= sz.w || p.Y < 0 || p.Y >= sz.h {
					t.Fatalf("%dx%d seed %d: spawn %v off the map", sz.w, sz.h, seed, p)
				}
				if seen[p] {
					t.Fatalf("%dx%d seed %d: spawn %v repeated in %v", sz.w, sz.h, seed, p, spawns)
				}
				seen[p] = true
			}
		}
	}
}

// TestGenerateMapSpawnsAreImages checks that the spawn points are symmetric
// images of one point with x in [1, W/2) and y < x.
func TestGenerateMapSpawnsAreImages(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		_, spawns := mustGenerate(t, 30, 30, 8, seed)
		var base Point
		for _, p := range spawns {
			if p.X < 15 && p.Y < 15 && p.Y < p.X {
				base = p
			}
		}
		if base.X < 1 || base.X >= 15 {
			t.Fatalf("seed %d: no base point in %v", seed, spawns)
		}
		want := map[Point]bool{}
		x, y := base.X, base.Y
		for _, p := range []Point{{x, y}, {29 - x, y}, {x, 29 - y}, {29 - x, 29 - y}, {y, x}, {29 - y, x}, {y, 29 - x}, {29 - y, 29 - x}} {
			want[p] = true
		}
		for _, p := range spawns {
			if !want[p] {
				t.Fatalf("seed %d: spawn %v is not an image of %v", seed, p, base)
			}
		}
	}
}

func TestGenerateMapDeterminism(t *testing.T) {
	hashes := map[uint64]uint64{}
	for seed := uint64(0); seed < 50; seed++ {
		m1, s1 := mustGenerate(t, 30, 30, 8, seed)
		m2, s2 := mustGenerate(t, 30, 30, 8, seed)
		h1, h2 := mapHash(m1, s1), mapHash(m2, s2)
		if h1 != h2 {
			t.Fatalf("seed %d: two runs differ", seed)
		}
		if other, dup := hashes[h1]; dup {
			t.Fatalf("seeds %d and %d give the same map", other, seed)
		}
		hashes[h1] = seed
	}
}

func TestGenerateMapErrors(t *testing.T) {
	for _, c := range []struct{ w, h, p int }{
		{3, 30, 2}, {30, 3, 2}, {0, 0, 2}, {-5, 30, 2}, {1001, 30, 2}, {30, 1001, 2},
		{30, 30, 0}, {30, 30, 1}, {30, 30, 3}, {30, 30, 6}, {30, 30, 16}, {30, 30, -2},
		{30, 20, 8}, {20, 30, 8},
	} {
		m, s, err := GenerateMap(c.w, c.h, c.p, 1)
		if err == nil || m != nil || s != nil {
			t.Errorf("GenerateMap(%d, %d, %d) = %v, %v, %v; want an error", c.w, c.h, c.p, m, s, err)
		}
	}
	for _, c := range []struct{ w, h, p int }{
		{MinMapSide, MinMapSide, 8}, {MaxMapSide, MinMapSide, 4}, {MinMapSide, MaxMapSide, 2}, {30, 20, 4},
	} {
		if _, _, err := GenerateMap(c.w, c.h, c.p, 1); err != nil {
			t.Errorf("GenerateMap(%d, %d, %d): %v", c.w, c.h, c.p, err)
		}
	}
}

// TestBlurIntegerFormMatchesReference checks that x/20 equals the reference's
// int(x * 0.05) over the values the blur can meet (costs stay below 1000, so
// x = nc*count is below 4000).
func TestBlurIntegerFormMatchesReference(t *testing.T) {
	for x := int64(0); x <= 100000; x++ {
		if a, b := x/mapgenBlurDiv, int64(float64(x)*0.05); a != b {
			t.Fatalf("x = %d: x/20 = %d, int(x*0.05) = %d", x, a, b)
		}
	}
}

// referenceMap reads frame 0 of a conformance replay: the reference server's
// own generated map.
func referenceMap(t *testing.T, path string) *Map {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reference replay (testdata/ of the project): %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(zr)
	// Decode only the first element of the array.
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		t.Fatalf("%s: not a JSON array: %v", path, err)
	}
	var frame0 struct {
		Info struct {
			Width  int `json:"width"`
			Height int `json:"height"`
		} `json:"info"`
		GameMap struct {
			Headers []string              `json:"headers"`
			Data    [][][]json.RawMessage `json:"data"`
		} `json:"game_map"`
	}
	if err := dec.Decode(&frame0); err != nil {
		t.Fatalf("%s: frame 0: %v", path, err)
	}
	col := map[string]int{}
	for i, name := range frame0.GameMap.Headers {
		col[name] = i
	}
	w, h := frame0.Info.Width, frame0.Info.Height
	m := NewMap(w, h)
	for y, row := range frame0.GameMap.Data {
		for x, c := range row {
			get := func(name string) int64 {
				i, ok := col[name]
				if !ok || i >= len(c) {
					t.Fatalf("%s: cell (%d,%d) has no %s", path, x, y, name)
				}
				var v int64
				if err := json.Unmarshal(c[i], &v); err != nil {
					t.Fatalf("%s: cell (%d,%d) %s: %v", path, x, y, name, err)
				}
				return v
			}
			i := y*w + x
			m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = get("natural_gold"), get("natural_energy"), get("natural_cost")
		}
	}
	return m
}

func mean(v []int64) float64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return float64(s) / float64(len(v))
}

// TestGenerateMapStatisticsMatchReference compares our maps with the map the
// reference server generated for conformance vector c01 (30x30).
func TestGenerateMapStatisticsMatchReference(t *testing.T) {
	ref := referenceMap(t, "../../../testdata/conformance/c01.cfr")
	if ref.Width != 30 || ref.Height != 30 {
		t.Fatalf("reference map is %dx%d, want 30x30", ref.Width, ref.Height)
	}
	var cost, gold, energy float64
	var minCost, maxCost int64 = 1 << 62, 0
	const seeds = 20
	for seed := uint64(0); seed < seeds; seed++ {
		m, _ := mustGenerate(t, 30, 30, 8, seed)
		cost += mean(m.NaturalCost) / seeds
		gold += mean(m.NaturalGold) / seeds
		energy += mean(m.NaturalEnergy) / seeds
		for _, c := range m.NaturalCost {
			minCost, maxCost = min(minCost, c), max(maxCost, c)
		}
	}
	refCost, refGold, refEnergy := mean(ref.NaturalCost), mean(ref.NaturalGold), mean(ref.NaturalEnergy)
	t.Logf("mean natural_cost %.1f (reference %.1f), gold %.2f (%.2f), energy %.2f (%.2f), cost range %d..%d",
		cost, refCost, gold, refGold, energy, refEnergy, minCost, maxCost)
	within := func(name string, got, want float64) {
		if got < want*0.85 || got > want*1.15 {
			t.Errorf("mean %s %.2f is not within 15%% of the reference's %.2f", name, got, want)
		}
	}
	within("natural_cost", cost, refCost)
	within("natural_gold", gold, refGold)
	within("natural_energy", energy, refEnergy)
	// The reference map has the same 8-fold symmetry as ours.
	for y := 0; y < 30; y++ {
		for x := 0; x < 30; x++ {
			i := y*30 + x
			for _, j := range []int{y*30 + 29 - x, (29-y)*30 + x, x*30 + y} {
				if ref.NaturalGold[i] != ref.NaturalGold[j] || ref.NaturalEnergy[i] != ref.NaturalEnergy[j] || ref.NaturalCost[i] != ref.NaturalCost[j] {
					t.Fatalf("reference map is not symmetric at (%d,%d)", x, y)
				}
			}
		}
	}
	// The reference's costs lie in the range our algorithm can produce.
	for _, c := range ref.NaturalCost {
		if c < 24 || c > 600 {
			t.Errorf("reference natural_cost %d outside the plausible range 24..600", c)
		}
	}
}
