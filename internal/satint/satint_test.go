package satint

import "testing"

// TestSum: extreme values saturate instead of wrapping around.
func TestSum(t *testing.T) {
	const max, min = int64(1<<63 - 1), int64(-1 << 63)
	for _, c := range []struct {
		in   []int64
		want int64
	}{
		{[]int64{1, 2, -3}, 0},
		{[]int64{max, 1}, max},
		{[]int64{min, -1}, min},
		{[]int64{max, max, -max}, 0},
		{[]int64{max - 5, 3}, max - 2},
	} {
		if got := Sum(c.in...); got != c.want {
			t.Errorf("Sum(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}
