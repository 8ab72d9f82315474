// Package rating is rewind's one place for rating arithmetic: the
// multiplayer Elo tournaments have always shown (Elo) and a Bayesian skill
// rating with uncertainty, Weng–Lin's Plackett–Luce model as OpenSkill
// implements it (Model), whose conservative score μ − 3σ (Rating.Ordinal)
// heads the standings. docs/ratings.md gives the formulas and parameters.
//
// The package is pure arithmetic on float64: no I/O, no map iteration, no
// clock. Its results are identical on every GOARCH: every exponential goes
// through this package's own exp (math.Exp has assembly on some
// architectures and not on others), square roots are IEEE-exact, and each
// product that could be fused into a multiply-add is rounded explicitly.
// It imports nothing of rewind, so every layer may use it (a leaf, as
// internal/bitio).
package rating
