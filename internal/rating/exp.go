package rating

import "math"

// Constants of exp's argument reduction and its Remez polynomial on
// [-ln2/2, ln2/2] (the coefficients of FreeBSD's e_exp.c, as published in
// fdlibm).
const (
	ln2Hi  = 6.93147180369123816490e-01
	ln2Lo  = 1.90821492927058770002e-10
	log2e  = 1.44269504088896338700e+00
	expP1  = 1.66666666666666657415e-01
	expP2  = -2.77777777770155933842e-03
	expP3  = 6.61375632143793436117e-05
	expP4  = -1.65339022054652515390e-06
	expP5  = 4.13813679705723846039e-08
	expMax = 7.09782712893383973096e+02
	expMin = -7.45133219101941108420e+02
)

// exp returns e**x computed the same way on every architecture (fdlibm's
// algorithm: x = k·ln2 + r, then a rational approximation of e**r; error
// below 1 ulp). Every product is converted explicitly, so the compiler
// may not fuse it into a multiply-add on one architecture and not on
// another.
func exp(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x > expMax:
		return math.Inf(1)
	case x < expMin:
		return 0
	case -1.0/(1<<28) < x && x < 1.0/(1<<28):
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	default:
		k = int(float64(log2e*x) + 0.5)
	}
	kf := float64(k)
	hi := x - float64(kf*ln2Hi)
	lo := float64(kf * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	p := float64(t * expP5)
	p = float64(t * (expP4 + p))
	p = float64(t * (expP3 + p))
	p = float64(t * (expP2 + p))
	p = float64(t * (expP1 + p))
	c := r - p
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}
