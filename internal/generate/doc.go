// Package generate makes benchmark tasks from templates over the
// sandbox's applications (internal/sandbox): a template names its
// parameters, draws them from the application's seeded data, and returns
// for each instance the instruction in a user's words, the contract, the
// reference solution by target, and near-miss controls that must fail on
// the clause meant to catch them.
//
// Draw is deterministic: the same seed and count give the same instances,
// byte for byte, so a committed suite can be regenerated and checked, and
// a new seed gives instances nobody has seen (contractbench generate).
// See docs/benchmarks/generated.md for how to write a template.
package generate
