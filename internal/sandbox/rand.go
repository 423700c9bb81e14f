package sandbox

// gen is a SplitMix64 generator. It is written out here rather than taken
// from math/rand so that the sites' data cannot change with a Go release:
// tasks name items by the values this produces.
type gen struct{ s uint64 }

func (g *gen) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (g *gen) intn(n int) int { return int(g.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.intn(hi-lo+1) }

func pick[T any](g *gen, xs []T) T { return xs[g.intn(len(xs))] }
