// Package satint is int64 arithmetic that saturates at the type's range
// instead of wrapping, for figures a hostile replay may push to extremes:
// an extreme input gives an extreme, never a sign-flipped, result. Pure,
// no allocation; the engine packages may use it.
package satint

import "math"

// Sum adds the values, saturating at math.MaxInt64 and math.MinInt64.
// (-math.MinInt64 wraps too: callers negate values that come from int64
// fields bounded far inside the range, except the hostile case, where the
// result saturates the same way.)
func Sum(vs ...int64) int64 {
	var s int64
	for _, v := range vs {
		if v > 0 && s > math.MaxInt64-v {
			s = math.MaxInt64
		} else if v < 0 && s < math.MinInt64-v {
			s = math.MinInt64
		} else {
			s += v
		}
	}
	return s
}
