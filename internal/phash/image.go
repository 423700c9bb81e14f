package phash

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"slices"
)

// maxPixels bounds the images FromPNG decodes: 64 Mi pixels covers a
// full-page screenshot 1920 pixels wide and 34,000 tall, and stops a
// hostile header from making the decoder allocate gigabytes.
const maxPixels = 1 << 26

// FromPNG decodes a PNG and returns its hash. Images of more than 64 Mi
// pixels are refused before decoding.
func FromPNG(data []byte) (Hash, error) {
	h, err := hashPNG(data)
	if err != nil {
		return 0, fmt.Errorf("phash: %w", err)
	}
	return h, nil
}

// hashPNG is FromPNG without the package prefix on errors, so that callers
// inside the package can name the file instead.
func hashPNG(data []byte) (Hash, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, fmt.Errorf("decode PNG header: %w", err)
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return 0, fmt.Errorf("PNG is %dx%d pixels, more than the %d allowed", cfg.Width, cfg.Height, maxPixels)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return 0, fmt.Errorf("decode PNG: %w", err)
	}
	return fromImage(img), nil
}

// fromImage returns the hash of img. It reads every pixel once. An image
// with no pixels hashes to 0, as does an all-black one.
func fromImage(img image.Image) Hash {
	r := img.Bounds()
	if r.Empty() {
		return 0
	}
	w, h := r.Dx(), r.Dy()
	sums := areaSums(img)

	// Each cell sum is the luminance integral over the cell's area, and
	// every cell covers the same area, w·h in the units of cellSpans. Up
	// to 2^27 pixels (twice what FromPNG accepts) the sums and their total
	// are integers below 2^53, so they and the mean are exact and a
	// uniform image centres to exact zeros; larger images merely round.
	var total float64
	for y := range gridSize {
		for x := range gridSize {
			total += sums[y][x]
		}
	}
	mean := total / (gridSize * gridSize)
	scale := float64(w) * float64(h) * 0xffff // cell sum → luminance in [0, 1]
	var block [gridSize][gridSize]float64
	for y := range gridSize {
		for x := range gridSize {
			block[y][x] = (sums[y][x] - mean) / scale
		}
	}
	coef := lowDCT(&block)
	// Centring removed the DC term from the transform; restore it. The
	// orthonormal DC of an N×N block is N times its mean.
	coef[0][0] = gridSize * mean / scale

	var ac [keepSize*keepSize - 1]float64
	for k := 1; k < keepSize*keepSize; k++ {
		ac[k-1] = coef[k/keepSize][k%keepSize]
	}
	slices.Sort(ac[:])
	median := ac[len(ac)/2]

	var hash Hash
	for k := range keepSize * keepSize {
		if coef[k/keepSize][k%keepSize] > median {
			hash |= 1 << (63 - k)
		}
	}
	return hash
}

// span is the overlap of one source pixel with one grid cell along one
// axis. Lengths are measured in units of 1/gridSize of a source pixel, and
// a cell of an n-pixel axis is n units long, so every overlap is an
// integer and the averaging is exact.
type span struct {
	src    int    // source pixel index, from 0
	cell   int    // grid cell index
	weight uint64 // overlap length, 1..gridSize
}

// cellSpans returns the overlaps of the n pixels of an axis with the grid
// cells, ordered by source pixel. A pixel straddling a cell border yields
// two spans; when n < gridSize one pixel covers several cells.
func cellSpans(n int) []span {
	out := make([]span, 0, n+gridSize)
	for s := range n {
		lo, hi := s*gridSize, (s+1)*gridSize
		for c := lo / n; c < gridSize && c*n < hi; c++ {
			w := min(hi, (c+1)*n) - max(lo, c*n)
			out = append(out, span{src: s, cell: c, weight: uint64(w)})
		}
	}
	return out
}

// areaSums returns, for each grid cell, the sum over source pixels of
// luminance × overlap area. Rows are reduced horizontally once, then added
// to the one or two cell rows they overlap.
func areaSums(img image.Image) [gridSize][gridSize]float64 {
	r := img.Bounds()
	xs, ys := cellSpans(r.Dx()), cellSpans(r.Dy())
	read := rowReader(img)
	lum := make([]uint32, r.Dx())

	var sums [gridSize][gridSize]float64
	var rowSum [gridSize]uint64
	row := -1
	for _, sy := range ys {
		if sy.src != row {
			row = sy.src
			read(r.Min.Y+row, lum)
			rowSum = [gridSize]uint64{}
			for _, sx := range xs {
				rowSum[sx.cell] += sx.weight * uint64(lum[sx.src])
			}
		}
		for c := range gridSize {
			sums[sy.cell][c] += float64(sy.weight * rowSum[c])
		}
	}
	return sums
}

// rowReader returns a function that writes the 16-bit luminance of row y
// of img into dst. The common PNG decodings get loops over their pixel
// buffers; they compute exactly what the generic path through
// color.Color.RGBA computes, which the tests check.
func rowReader(img image.Image) func(y int, dst []uint32) {
	r := img.Bounds()
	switch m := img.(type) {
	case *image.RGBA:
		return func(y int, dst []uint32) {
			p := m.Pix[m.PixOffset(r.Min.X, y):]
			for x := range dst {
				q := p[4*x : 4*x+4 : 4*x+4]
				dst[x] = luminance(uint32(q[0])*0x101, uint32(q[1])*0x101, uint32(q[2])*0x101, uint32(q[3])*0x101)
			}
		}
	case *image.NRGBA:
		return func(y int, dst []uint32) {
			p := m.Pix[m.PixOffset(r.Min.X, y):]
			for x := range dst {
				q := p[4*x : 4*x+4 : 4*x+4]
				a := uint32(q[3])
				// Premultiply as color.NRGBA.RGBA does.
				dst[x] = luminance(uint32(q[0])*0x101*a/0xff, uint32(q[1])*0x101*a/0xff, uint32(q[2])*0x101*a/0xff, a*0x101)
			}
		}
	case *image.Gray:
		return func(y int, dst []uint32) {
			p := m.Pix[m.PixOffset(r.Min.X, y):]
			for x := range dst {
				dst[x] = uint32(p[x]) * 0x101
			}
		}
	case *image.Paletted:
		lut := make([]uint32, len(m.Palette))
		for i, c := range m.Palette {
			lut[i] = luminance(c.RGBA())
		}
		return func(y int, dst []uint32) {
			p := m.Pix[m.PixOffset(r.Min.X, y):]
			for x := range dst {
				if i := int(p[x]); i < len(lut) {
					dst[x] = lut[i]
				} else {
					// image/png never yields an index past the palette
					// (it pads the palette with opaque black); a
					// hand-built image that does reads as black rather
					// than panicking.
					dst[x] = 0
				}
			}
		}
	default:
		return func(y int, dst []uint32) {
			for x := range dst {
				dst[x] = luminance(img.At(r.Min.X+x, y).RGBA())
			}
		}
	}
}

// luminance returns the 16-bit Rec. 601 luma of a premultiplied colour
// composited over white. The weights sum to 1<<16, so compositing (adding
// the uncovered 0xffff-a to each channel) adds exactly 0xffff-a to the
// luma, and the result stays within 0..0xffff.
func luminance(r, g, b, a uint32) uint32 {
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 16
	return y + 0xffff - a
}
