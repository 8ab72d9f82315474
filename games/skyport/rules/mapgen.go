package rules

import (
	"strconv"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine/rng"
)

// GenerateMap draws a map for n players (1..MaxPlayers) from seed:
// rewind's own generator, since the reference's maps may not be shipped.
// The diamond has size D = max(10, n+9); the n spawn tiles are spread
// evenly along its border from a seeded starting point; the rest is
// grass with about 8% rock, 6% void and 4% each of rubidium, explosium
// and scrap, drawn with engine/rng, except that the tiles within two
// steps of a spawn are grass. Every accessible tile is reachable from
// every spawn: pockets cut off by rock and void become grass. The same
// seed and n always give the same map.
func GenerateMap(seed uint64, n int) *Map {
	if n < 1 {
		n = 1
	}
	if n > MaxPlayers {
		n = MaxPlayers
	}
	D := max(10, n+9)
	r := rng.New(seed)
	m := &Map{Players: n, Size: D, Description: "rewind map " + strconv.FormatUint(seed, 10), Tiles: make([]byte, D*D)}
	// Border tiles, clockwise from the top: k grows along j = 0, j along
	// k = D-1, k falls along j = D-1, j falls along k = 0.
	border := make([]int, 0, 4*(D-1))
	for k := 0; k < D-1; k++ {
		border = append(border, k)
	}
	for j := 0; j < D-1; j++ {
		border = append(border, j*D+D-1)
	}
	for k := D - 1; k > 0; k-- {
		border = append(border, (D-1)*D+k)
	}
	for j := D - 1; j > 0; j-- {
		border = append(border, j*D)
	}
	off := r.Intn(len(border))
	spawns := make([]int, n)
	for i := range spawns {
		spawns[i] = border[(off+i*len(border)/n)%len(border)]
	}
	near := make([]bool, D*D)
	for _, s := range spawns {
		sj, sk := s/D, s%D
		for j := 0; j < D; j++ {
			for k := 0; k < D; k++ {
				if Distance(sj, sk, j, k) <= 2 {
					near[j*D+k] = true
				}
			}
		}
	}
	for i := range m.Tiles {
		m.Tiles[i] = Grass
		if near[i] {
			continue
		}
		switch v := r.Intn(100); {
		case v < 8:
			m.Tiles[i] = Rock
		case v < 14:
			m.Tiles[i] = Void
		case v < 18:
			m.Tiles[i] = Rubidium
		case v < 22:
			m.Tiles[i] = Explosium
		case v < 26:
			m.Tiles[i] = Scrap
		}
	}
	for _, s := range spawns {
		m.Tiles[s] = Spawn
	}
	// Reachability from the first spawn's neighbours.
	seen := make([]bool, D*D)
	queue := m.flood(seen, nil, spawns[0])
	// Any accessible tile not yet reached is joined by turning the
	// blockers on a straight j-then-k path from the first spawn into
	// grass.
	for i, c := range m.Tiles {
		if !accessible(c) || seen[i] {
			continue
		}
		j, k := spawns[0]/D, spawns[0]%D
		tj, tk := i/D, i%D
		for j != tj || k != tk {
			switch {
			case j < tj:
				j++
			case j > tj:
				j--
			case k < tk:
				k++
			default:
				k--
			}
			if t := &m.Tiles[j*D+k]; *t == Rock || *t == Void {
				*t = Grass
			}
		}
		// Re-flood from scratch: cheap at these sizes.
		for x := range seen {
			seen[x] = false
		}
		queue = m.flood(seen, queue, spawns[0])
	}
	return m
}

// flood marks in seen (all false, one entry per tile) every accessible
// tile reachable from tile start, breadth first; queue is scratch space,
// returned for reuse.
func (m *Map) flood(seen []bool, queue []int, start int) []int {
	D := m.Size
	queue = append(queue[:0], start)
	seen[start] = true
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for d := Dir(0); d < NumDirs; d++ {
			nj, nk, ok := m.Neighbor(c/D, c%D, d)
			if !ok {
				continue
			}
			i := nj*D + nk
			if !seen[i] && accessible(m.Tiles[i]) {
				seen[i] = true
				queue = append(queue, i)
			}
		}
	}
	return queue
}

// AppendFile appends m as a .skyportmap file ParseMap reads back to the
// same tiles: the header, then one line per anti-diagonal (codes only,
// without the drawing's slashes).
func (m *Map) AppendFile(dst []byte) []byte {
	dst = append(dst, "players "...)
	dst = strconv.AppendInt(dst, int64(m.Players), 10)
	dst = append(dst, "\nsize "...)
	dst = strconv.AppendInt(dst, int64(m.Size), 10)
	dst = append(dst, "\ndescription \""...)
	for _, r := range m.Description {
		// Characters that would end the line for Scanner are left out.
		if r >= ' ' && r != 0x7f && r != 0x85 && r != 0x2028 && r != 0x2029 {
			dst = utf8.AppendRune(dst, r)
		}
	}
	dst = append(dst, "\"\n"...)
	D := m.Size
	for r := 0; r < D; r++ {
		for i := 0; i <= r; i++ {
			dst = append(dst, m.Tiles[(r-i)*D+i])
		}
		dst = append(dst, '\n')
	}
	for q := 1; q < D; q++ {
		for i := 0; i < D-q; i++ {
			dst = append(dst, m.Tiles[(D-1-i)*D+q+i])
		}
		dst = append(dst, '\n')
	}
	return dst
}
