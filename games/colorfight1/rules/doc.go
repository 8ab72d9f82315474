// Package rules is ColorFight v1 (the real-time predecessor of
// ColorfightII: a 30×30 map of cells taken by attacks that last seconds,
// gold and energy cells, bases, boosts, blasts and multiattacks) as its
// reference server plays it when the server's clock advances in fixed
// ticks and the world is polled once per tick: the definition of
// ../shared/docs/RULES-COLORFIGHT1.md §12, bit-exact with its
// conformance vectors.
//
// A State is the reference's three tables (cells, users, info) and its
// random generator. Time is float seconds, now(k) = t0 + k·tick; Advance
// moves to the next tick and runs the world update exactly as the
// reference's /getgameinfo does (UpdateGame); Do applies one request to
// an endpoint at the current tick, through the reference's own checks,
// in the order of its code, and answers what the reference answers.
//
// # Floats
//
// Unlike the other games' rules, these use floating point: the
// reference keeps every time, every take time, gold and energy as IEEE
// binary64 values and computes them with Python's float arithmetic, so
// the only way to be bit-exact with it is to do the same operations, in
// the same order, on the same doubles (RULES §12.5). Go's float64 is
// binary64 with round-to-nearest-even on every platform it supports
// (GOARCH=386 uses SSE2), and every product that the reference rounds
// before an addition is written float64(a*b), which the Go specification
// guarantees is not fused into an FMA. The one transcendental function,
// `2 ** x`, is Pow2 (exp2.go).
//
// # Determinism
//
// No clock, no goroutines and no map iteration: cells are scanned in
// ascending id and users in ascending uid, the orders of the reference's
// database (RULES §12.4). Relocation shuffles draw from CPython 2.7's
// Mersenne Twister (random.go) seeded as the reference seeds it.
package rules
