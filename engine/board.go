package engine

// Topology is the shape of a board's cells.
type Topology uint8

// Topologies.
const (
	// Square: cell (x, y) touches (x±1, y) and (x, y±1).
	Square Topology = iota
	// Hex: rows of hexagons, odd rows (y = 1, 3, …) shifted left by half a
	// cell relative to even rows, as Monad's map (monad.Neighbor).
	Hex
	// HexAxial: a diamond of hexagons in axial coordinates, as Skyport's
	// map: X is j, Y is k, cell (j, k) touches (j±1, k), (j, k±1),
	// (j-1, k-1) and (j+1, k+1); drawn with (0, 0) at the top, j growing
	// down-left and k down-right.
	HexAxial
)

// String names the topology as the viewer's board scripts take it:
// "square", "hex" or "hex-axial".
func (t Topology) String() string {
	switch t {
	case Hex:
		return "hex"
	case HexAxial:
		return "hex-axial"
	}
	return "square"
}

// Board describes a board for display: its shape and, per cell, what a
// viewer colours and labels. Cells are in row-major order, index y*Width+x.
type Board struct {
	Topology      Topology
	Width, Height int
	// TerrainName, ValueName name what Cell.Terrain and Cell.Value hold
	// ("natural_cost", "units"); Badges names the badge bits (bit i of
	// Cell.Badges is Badges[i]; at most 32).
	TerrainName, ValueName string
	Badges                 []string
	Cells                  []Cell
	// Layers are further numbers per cell a viewer can show (ColorfightII's
	// natural gold and energy), optional: each has len(Cells) values, in
	// cell order, and a board keeps the same layers, by name and order,
	// from frame to frame. Most never change over a game; a viewer packs
	// a layer's values only when they do. At most MaxLayers.
	Layers []Layer
	// Entities and Effects are what is on the board beyond its cells
	// (Game.Board empties them first; a board of cells only leaves them
	// empty).
	Entities []Entity
	Effects  []Effect
}

// Cell is one cell of a Board.
type Cell struct {
	// Terrain is what the map gives the cell (ColorfightII's natural
	// cost, Monad's resource left).
	Terrain int64
	// Owner is the player holding the cell, or -1.
	Owner int
	// Value is the ruleset's main number for the cell (ColorfightII's
	// attack cost, Monad's unit count).
	Value int64
	// Badges is a bit set over Board.Badges (a building, a hive).
	Badges uint32
}

// Layer is one named number per cell of a Board (Board.Layers).
type Layer struct {
	// Name says what the values are ("natural_gold").
	Name   string
	Values []int64
}

// MaxLayers is the most layers a Board has.
const MaxLayers = 8

// ResizeLayers makes b.Layers the layers names, in that order, each of
// len(b.Cells) values (call it after Resize), reusing their storage;
// the values are the caller's to fill.
func (b *Board) ResizeLayers(names []string) {
	if cap(b.Layers) < len(names) {
		b.Layers = append(b.Layers[:cap(b.Layers)], make([]Layer, len(names)-cap(b.Layers))...)
	}
	b.Layers = b.Layers[:len(names)]
	n := len(b.Cells)
	for i, name := range names {
		l := &b.Layers[i]
		l.Name = name
		if cap(l.Values) < n {
			l.Values = make([]int64, n)
		}
		l.Values = l.Values[:n]
	}
}

// Resize makes b.Cells hold width*height cells, reusing its storage.
func (b *Board) Resize(width, height int) {
	b.Width, b.Height = width, height
	n := width * height
	if cap(b.Cells) < n {
		b.Cells = make([]Cell, n)
	}
	b.Cells = b.Cells[:n]
}

// Entity is a thing on the board that is not a cell: a unit, a player's
// avatar, a droid. X, Y are Board coordinates.
type Entity struct {
	Kind   string
	Player int // owner, or -1
	X, Y   int
	Health int64
	// Value is the kind's main number (level, count); Label a short
	// text the viewer may write beside it.
	Value int64
	Label string
}

// EffectKind is the shape of an Effect.
type EffectKind uint8

// Effect shapes.
const (
	// Line from (X, Y) to (X2, Y2): a laser.
	Line EffectKind = iota + 1
	// Area around (X, Y) of Radius cells: a blast.
	Area
	// Path through Points, in order: a droid's walk.
	Path
	// Mark at (X, Y): a number or a note (damage taken).
	Mark
)

// Effect is something drawn over the board for the round that produced
// it: a shot, a blast, a path, a damage number.
type Effect struct {
	Kind   EffectKind
	Name   string // what it is ("laser", "mortar", "damage")
	Player int    // who caused it, or -1
	X, Y   int
	X2, Y2 int
	Radius int
	Points []Point
	Value  int64
}

// Point is a board position.
type Point struct{ X, Y int }
