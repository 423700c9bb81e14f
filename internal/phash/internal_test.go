package phash

// White-box tests of the pieces whose errors the hash would hide: a wrong
// cosine or a fast path that reads a channel wrong changes few bits, if
// any, on the images of the black-box tests.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

// naiveDCT computes coefficient (v, u) of the orthonormal 2-D DCT-II
// straight from the definition.
func naiveDCT(block *[gridSize][gridSize]float64, v, u int) float64 {
	alpha := func(k int) float64 {
		if k == 0 {
			return math.Sqrt(1.0 / gridSize)
		}
		return math.Sqrt(2.0 / gridSize)
	}
	var sum float64
	for y := range gridSize {
		for x := range gridSize {
			sum += block[y][x] *
				math.Cos(math.Pi*float64((2*x+1)*u)/(2*gridSize)) *
				math.Cos(math.Pi*float64((2*y+1)*v)/(2*gridSize))
		}
	}
	return alpha(u) * alpha(v) * sum
}

func TestLowDCTMatchesDefinition(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	random := func() *[gridSize][gridSize]float64 {
		var b [gridSize][gridSize]float64
		for y := range gridSize {
			for x := range gridSize {
				b[y][x] = rng.Float64()*2 - 1
			}
		}
		return &b
	}
	ramp := func() *[gridSize][gridSize]float64 {
		var b [gridSize][gridSize]float64
		for y := range gridSize {
			for x := range gridSize {
				b[y][x] = float64(x*x) - 3*float64(y)
			}
		}
		return &b
	}
	tests := []struct {
		name  string
		block *[gridSize][gridSize]float64
	}{
		{"random-1", random()},
		{"random-2", random()},
		{"ramp", ramp()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := lowDCT(tt.block)
			for v := range keepSize {
				for u := range keepSize {
					want := naiveDCT(tt.block, v, u)
					if math.Abs(got[v][u]-want) > 1e-9 {
						t.Errorf("coefficient (%d,%d) = %.12g, want %.12g", v, u, got[v][u], want)
					}
				}
			}
		})
	}
}

// TestLowDCTExactZeros checks the reason for folding: structure that is
// constant or mirror-symmetric gives coefficients that are exactly zero,
// not merely small.
func TestLowDCTExactZeros(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		value    func(x, y int) float64
		nonzero  func(v, u int) bool // which coefficients may be nonzero
		describe string
	}{
		{
			name:     "constant",
			value:    func(x, y int) float64 { return 0.3 },
			nonzero:  func(v, u int) bool { return v == 0 && u == 0 },
			describe: "only DC",
		},
		{
			name:     "constant-rows",
			value:    func(x, y int) float64 { return math.Sin(float64(x)) },
			nonzero:  func(v, u int) bool { return v == 0 },
			describe: "only the first row",
		},
		{
			name: "mirror-symmetric",
			value: func(x, y int) float64 {
				dx, dy := math.Abs(float64(x)-15.5), math.Abs(float64(y)-15.5)
				return math.Exp(-dx*0.3) * math.Cos(dy*0.7)
			},
			nonzero:  func(v, u int) bool { return v%2 == 0 && u%2 == 0 },
			describe: "only even frequencies",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b [gridSize][gridSize]float64
			for y := range gridSize {
				for x := range gridSize {
					b[y][x] = tt.value(x, y)
				}
			}
			got := lowDCT(&b)
			for v := range keepSize {
				for u := range keepSize {
					if !tt.nonzero(v, u) && got[v][u] != 0 {
						t.Errorf("coefficient (%d,%d) = %g, want exactly 0 (%s)", v, u, got[v][u], tt.describe)
					}
				}
			}
		})
	}
}

func TestCellSpans(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3, 31, 32, 33, 795, 800, 1270, 1280} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			t.Parallel()
			perCell := make([]uint64, gridSize)
			perPixel := make([]uint64, n)
			prev := -1
			for _, s := range cellSpans(n) {
				if s.src < prev {
					t.Fatalf("n=%d: spans out of source order at pixel %d", n, s.src)
				}
				prev = s.src
				if s.weight == 0 || s.weight > gridSize {
					t.Errorf("n=%d: span %+v has weight outside 1..%d", n, s, gridSize)
				}
				perCell[s.cell] += s.weight
				perPixel[s.src] += s.weight
			}
			// Every cell is n units long and every pixel gridSize units:
			// the spans tile both exactly.
			for c, w := range perCell {
				if w != uint64(n) {
					t.Errorf("n=%d: cell %d covered by %d units, want %d", n, c, w, n)
				}
			}
			for p, w := range perPixel {
				if w != gridSize {
					t.Errorf("n=%d: pixel %d spread over %d units, want %d", n, p, w, gridSize)
				}
			}
		})
	}
}

// opaque hides an image's concrete type, so rowReader takes the generic
// path through color.Color.
type opaque struct{ image.Image }

func TestRowReaderFastPathsMatchGeneric(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	r := image.Rect(-3, 5, 61, 25) // a nonzero origin catches offset errors
	randomBytes := func(p []uint8) {
		for i := range p {
			p[i] = uint8(rng.Uint32())
		}
	}
	rgba := image.NewRGBA(r)
	randomBytes(rgba.Pix)
	for i := 0; i < len(rgba.Pix); i += 4 {
		// Keep the colour premultiplied: no channel above alpha.
		a := rgba.Pix[i+3]
		rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2] = min(rgba.Pix[i], a), min(rgba.Pix[i+1], a), min(rgba.Pix[i+2], a)
	}
	nrgba := image.NewNRGBA(r)
	randomBytes(nrgba.Pix)
	gray := image.NewGray(r)
	randomBytes(gray.Pix)
	palette := color.Palette{color.Black, color.White, color.NRGBA{0x80, 0x20, 0xf0, 0x40}, color.RGBA{0x10, 0x90, 0x30, 0xff}}
	paletted := image.NewPaletted(r, palette)
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(rng.IntN(len(palette)))
	}
	tests := []struct {
		name string
		img  image.Image
	}{
		{"rgba", rgba},
		{"nrgba", nrgba},
		{"gray", gray},
		{"paletted", paletted},
		{"rgba-sub-image", rgba.SubImage(image.Rect(0, 8, 40, 20))},
		{"nrgba-sub-image", nrgba.SubImage(image.Rect(-2, 10, 7, 11))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := tt.img.Bounds()
			fast, generic := rowReader(tt.img), rowReader(opaque{tt.img})
			got, want := make([]uint32, b.Dx()), make([]uint32, b.Dx())
			for y := b.Min.Y; y < b.Max.Y; y++ {
				fast(y, got)
				generic(y, want)
				for x := range got {
					if got[x] != want[x] {
						t.Fatalf("pixel (%d,%d): fast path %#x, generic %#x", b.Min.X+x, y, got[x], want[x])
					}
				}
			}
		})
	}
}

func TestLuminance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    color.Color
		want uint32
	}{
		{"black", color.Black, 0},
		{"white", color.White, 0xffff},
		{"transparent-is-white", color.Transparent, 0xffff},
		{"grey", color.Gray{0x80}, 0x8080},
		{"pure-green", color.RGBA{0, 0xff, 0, 0xff}, (38470*0xffff + 1<<15) >> 16},
		{"half-transparent-black", color.NRGBA{0, 0, 0, 0x80}, 0xffff - 0x8080},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := luminance(tt.c.RGBA()); got != tt.want {
				t.Errorf("luminance(%v) = %#x, want %#x", tt.c, got, tt.want)
			}
		})
	}
}
