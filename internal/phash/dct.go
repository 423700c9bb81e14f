package phash

import (
	"math"
	"math/bits"
)

const (
	// gridSize is the side of the shrunken luminance block the DCT runs on.
	gridSize = 32
	// keepSize is the side of the block of low frequencies the hash keeps.
	keepSize = 8
)

// basis describes how to project a gridSize-sample vector onto one DCT-II
// frequency u.
//
// Over a mirrored pair of samples x and n-1-x the cosine of frequency u is
// either symmetric or antisymmetric, so the pair can be folded into one sum
// or one difference before multiplying, halving the work. For u = 2^t·odd
// the vector folds t times by sums and then once by a difference, leaving
// gridSize>>(t+1) samples (u = 0 folds by sums down to one).
//
// The folds are not only cheaper: a difference of two equal samples is
// exactly zero, so constant or mirror-symmetric structure gives exactly
// zero coefficients instead of rounding noise. Without that, the bits of a
// blank page would be decided by the last bit of a floating-point sum, and
// could differ between platforms.
type basis struct {
	sums int       // folds by sums before the difference
	diff bool      // whether a fold by difference follows
	cos  []float64 // α(u)·cos((2x+1)uπ/(2·gridSize)) for the folded samples
}

// bases holds the projection of every kept frequency; computed once.
var bases = func() [keepSize]basis {
	var out [keepSize]basis
	for u := range keepSize {
		var b basis
		if u == 0 {
			b.sums = bits.TrailingZeros(gridSize) // fold down to 1 sample
		} else {
			b.sums, b.diff = bits.TrailingZeros(uint(u)), true
		}
		n := gridSize >> b.sums
		if b.diff {
			n /= 2
		}
		// Orthonormal scale: α(0) = √(1/N), α(u>0) = √(2/N).
		alpha := math.Sqrt(2.0 / gridSize)
		if u == 0 {
			alpha = math.Sqrt(1.0 / gridSize)
		}
		b.cos = make([]float64, n)
		for x := range n {
			b.cos[x] = alpha * math.Cos(float64((2*x+1)*u)*math.Pi/(2*gridSize))
		}
		out[u] = b
	}
	return out
}()

// project returns the DCT-II coefficient of frequency u of f.
func project(f *[gridSize]float64, u int) float64 {
	b := &bases[u]
	buf := *f
	n := gridSize
	for range b.sums {
		n /= 2
		for x := range n {
			buf[x] += buf[2*n-1-x]
		}
	}
	if b.diff {
		n /= 2
		for x := range n {
			buf[x] -= buf[2*n-1-x]
		}
	}
	var acc float64
	for x, c := range b.cos {
		// The explicit conversion forbids fusing the multiply and add
		// into one FMA instruction, which Go allows on some
		// architectures; hashes must not depend on the machine.
		acc += float64(buf[x] * c)
	}
	return acc
}

// lowDCT returns the keepSize x keepSize lowest frequencies of the
// orthonormal 2-D DCT-II of block, indexed [vertical][horizontal]. The
// transform is separable: rows first, then the columns of the result.
// Only the kept frequencies are computed.
func lowDCT(block *[gridSize][gridSize]float64) [keepSize][keepSize]float64 {
	var rows [keepSize][gridSize]float64 // rows[u][y]: frequency u of row y
	for y := range gridSize {
		for u := range keepSize {
			rows[u][y] = project(&block[y], u)
		}
	}
	var out [keepSize][keepSize]float64
	for u := range keepSize {
		for v := range keepSize {
			out[v][u] = project(&rows[u], v)
		}
	}
	return out
}
