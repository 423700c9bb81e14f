package phash

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Hash is a 64-bit perceptual hash. Similar images have hashes that differ
// in few bits; see Distance.
type Hash uint64

// Distance returns the Hamming distance between a and b: the number of bits
// in which they differ, from 0 (same hash) to 64.
func Distance(a, b Hash) int {
	return bits.OnesCount64(uint64(a ^ b))
}

// String returns h as 16 lower-case hex digits, the form ParseHash reads
// and reports store.
func (h Hash) String() string {
	return fmt.Sprintf("%016x", uint64(h))
}

// ParseHash reads a hash in the form String writes: exactly 16 lower-case
// hex digits. The form is strict so that a stored hash has one spelling and
// compares equal as text.
func ParseHash(s string) (Hash, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("phash: parse hash %q: want 16 lower-case hex digits, got %d characters", s, len(s))
	}
	for i := range len(s) {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return 0, fmt.Errorf("phash: parse hash %q: want 16 lower-case hex digits, got %q at offset %d", s, c, i)
		}
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		// Unreachable after the checks above; kept so a future change to
		// them cannot turn into a silent zero hash.
		return 0, fmt.Errorf("phash: parse hash %q: %w", s, err)
	}
	return Hash(v), nil
}
