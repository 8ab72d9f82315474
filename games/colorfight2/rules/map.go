package rules

// Point is a cell position.
type Point struct{ X, Y int }

// Map is the terrain of a game: the natural gold, energy and cost of every
// cell, row-major (index y*Width+x). It is what a new game starts from.
type Map struct {
	Width, Height int
	NaturalGold   []int64
	NaturalEnergy []int64
	NaturalCost   []int64
}

// NewMap returns a zeroed map of the given size.
func NewMap(width, height int) *Map {
	n := width * height
	return &Map{
		Width: width, Height: height,
		NaturalGold:   make([]int64, n),
		NaturalEnergy: make([]int64, n),
		NaturalCost:   make([]int64, n),
	}
}
