// Package colorfight1 holds the acceptance tests of ColorFight v1: the
// rewind binary driven as its users drive it.
package colorfight1
