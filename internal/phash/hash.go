package phash

import (
	"fmt"
	"math/bits"
)

// Hash is a 64-bit perceptual hash. Similar images have hashes that differ
// in few bits; see Distance.
type Hash uint64

// Distance returns the Hamming distance between a and b: the number of bits
// in which they differ, from 0 (same hash) to 64.
func Distance(a, b Hash) int {
	return bits.OnesCount64(uint64(a ^ b))
}

// String returns h as 16 lower-case hex digits, the form reports store.
func (h Hash) String() string {
	return fmt.Sprintf("%016x", uint64(h))
}
