// Package resize sizes slices for reuse, keeping their storage: the
// frames and rounds a stream refills for every round.
package resize

// Lists makes l hold n empty lists, reusing its storage and theirs.
func Lists[T any](l [][]T, n int) [][]T {
	if cap(l) < n {
		l = append(l[:cap(l)], make([][]T, n-cap(l))...)
	}
	l = l[:n]
	for i := range l {
		l[i] = l[i][:0]
	}
	return l
}

// N makes l hold n zero values, reusing its storage.
func N[T any](l []T, n int) []T {
	if cap(l) < n {
		l = make([]T, n)
	}
	l = l[:n]
	clear(l)
	return l
}
