package phash

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math/rand/v2"
	"testing"
)

// The generators below draw stand-ins for the screenshots the judge hashes.
// They take the size as a parameter and place everything in proportion,
// with a fixed random seed, so every run draws the same pixels.

// fill paints the rectangle (x0,y0)-(x1,y1), given as fractions of the
// image's width and height, in c.
func fill(img *image.RGBA, x0, y0, x1, y1 float64, c color.Color) {
	b := img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	r := image.Rect(int(x0*w), int(y0*h), int(x1*w), int(y1*h)).Add(b.Min)
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

func blank(w, h int, c color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	return img
}

func grayImage(w, h int, y uint8) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = y
	}
	return img
}

// textBars draws lines of grey bars of random lengths, like paragraphs of
// text seen from afar, in the column (x0,y0)-(x1,y1).
func textBars(img *image.RGBA, rng *rand.Rand, x0, y0, x1, y1 float64) {
	const line = 0.03 // line pitch, as a fraction of the height
	for y := y0; y+line <= y1; y += line {
		if rng.IntN(6) == 0 {
			continue // paragraph break
		}
		end := x0 + (x1-x0)*(0.4+0.6*rng.Float64())
		fill(img, x0, y, end, y+line*0.55, color.RGBA{0x50, 0x50, 0x58, 0xff})
	}
}

// page draws an article page: a header bar, a navigation sidebar on the
// left, a title, paragraphs and a button.
func page(w, h int) *image.RGBA {
	img := blank(w, h, color.White)
	rng := rand.New(rand.NewPCG(1, 2))
	fill(img, 0, 0, 1, 0.09, color.RGBA{0x1a, 0x3d, 0x7c, 0xff})          // header
	fill(img, 0.03, 0.025, 0.15, 0.065, color.White)                      // logo
	fill(img, 0, 0.09, 0.2, 1, color.RGBA{0xee, 0xef, 0xf2, 0xff})        // sidebar
	textBars(img, rng, 0.02, 0.13, 0.17, 0.6)                             // nav links
	fill(img, 0.25, 0.13, 0.7, 0.19, color.RGBA{0x11, 0x11, 0x11, 0xff})  // title
	textBars(img, rng, 0.25, 0.24, 0.95, 0.82)                            // article
	fill(img, 0.25, 0.86, 0.38, 0.93, color.RGBA{0x2e, 0x7d, 0x32, 0xff}) // button
	return img
}

// searchPage draws a different layout of similar ink: a centred search box
// under a large logo, and a footer.
func searchPage(w, h int) *image.RGBA {
	img := blank(w, h, color.White)
	rng := rand.New(rand.NewPCG(3, 4))
	fill(img, 0.35, 0.22, 0.65, 0.36, color.RGBA{0x42, 0x85, 0xf4, 0xff}) // logo
	fill(img, 0.25, 0.42, 0.75, 0.48, color.RGBA{0xdd, 0xdd, 0xdd, 0xff}) // search box
	fill(img, 0.255, 0.43, 0.745, 0.47, color.White)
	fill(img, 0.42, 0.53, 0.58, 0.58, color.RGBA{0xf1, 0xf3, 0xf4, 0xff}) // button
	fill(img, 0, 0.92, 1, 1, color.RGBA{0xf2, 0xf2, 0xf2, 0xff})          // footer
	textBars(img, rng, 0.05, 0.94, 0.4, 0.99)
	return img
}

// gradient shades diagonally from dark at the top left to light at the
// bottom right, with a bend so the shading is not a plain plane.
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			fx, fy := float64(x)/float64(w), float64(y)/float64(h)
			v := 255 * (0.6*fx*fx + 0.4*fy)
			img.SetRGBA(x, y, color.RGBA{uint8(v), uint8(v * 0.9), uint8(255 - v*0.5), 0xff})
		}
	}
	return img
}

// checkerboard draws squares of a side of one tenth of the height.
func checkerboard(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	side := max(h/3, 1)
	for y := range h {
		for x := range w {
			if (x/side+y/side)%2 == 0 {
				img.SetRGBA(x, y, color.RGBA{0x20, 0x20, 0x20, 0xff})
			} else {
				img.SetRGBA(x, y, color.RGBA{0xe0, 0xe0, 0xe0, 0xff})
			}
		}
	}
	return img
}

// darkIcon draws a dark page with a centred app icon: a rounded light
// tile holding a play triangle that points right, as on an error or
// splash screen.
func darkIcon(w, h int) *image.RGBA {
	img := blank(w, h, color.RGBA{0x20, 0x21, 0x24, 0xff})
	fill(img, 0.42, 0.37, 0.58, 0.63, color.RGBA{0xe8, 0xea, 0xed, 0xff})
	// Triangle: left edge at 46% of the width, apex at 55%.
	b := img.Bounds()
	cx0, cx1 := 0.46*float64(b.Dx()), 0.55*float64(b.Dx())
	cy0, cy1 := 0.42*float64(b.Dy()), 0.58*float64(b.Dy())
	mid := (cy0 + cy1) / 2
	for y := int(cy0); y < int(cy1); y++ {
		half := (cy1 - cy0) / 2
		reach := cx0 + (cx1-cx0)*(1-abs(float64(y)-mid)/half)
		for x := int(cx0); x < int(reach); x++ {
			img.SetRGBA(x, y, color.RGBA{0xd9, 0x30, 0x25, 0xff})
		}
	}
	fill(img, 0.36, 0.70, 0.64, 0.735, color.RGBA{0xbd, 0xc1, 0xc6, 0xff}) // caption
	return img
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// Transforms. Each returns a new image and leaves its input alone.

func brighten(src *image.RGBA, delta int) *image.RGBA {
	dst := image.NewRGBA(src.Bounds())
	for i, v := range src.Pix {
		if i%4 == 3 {
			dst.Pix[i] = v
			continue
		}
		dst.Pix[i] = uint8(min(max(int(v)+delta, 0), 255))
	}
	return dst
}

// tint scales the red and blue channels, a slight colour cast.
func tint(src *image.RGBA, red, blue float64) *image.RGBA {
	dst := image.NewRGBA(src.Bounds())
	copy(dst.Pix, src.Pix)
	for i := 0; i < len(dst.Pix); i += 4 {
		dst.Pix[i] = uint8(min(float64(dst.Pix[i])*red, 255))
		dst.Pix[i+2] = uint8(min(float64(dst.Pix[i+2])*blue, 255))
	}
	return dst
}

// shift moves the picture by (dx, dy), repeating the edge pixels into the
// uncovered strip.
func shift(src *image.RGBA, dx, dy int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sx := min(max(x-dx, b.Min.X), b.Max.X-1)
			sy := min(max(y-dy, b.Min.Y), b.Max.Y-1)
			dst.SetRGBA(x, y, src.RGBAAt(sx, sy))
		}
	}
	return dst
}

// noise adds uniform noise of up to ±amp to every colour channel.
func noise(src *image.RGBA, amp int, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, seed))
	dst := image.NewRGBA(src.Bounds())
	for i, v := range src.Pix {
		if i%4 == 3 {
			dst.Pix[i] = v
			continue
		}
		dst.Pix[i] = uint8(min(max(int(v)+rng.IntN(2*amp+1)-amp, 0), 255))
	}
	return dst
}

// resize resamples src to w×h bilinearly: a different filter from the
// hash's own area averaging, as a browser's zoom or a smaller window
// would give.
func resize(src *image.RGBA, w, h int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sx := float64(b.Dx()) / float64(w)
	sy := float64(b.Dy()) / float64(h)
	for y := range h {
		fy := (float64(y)+0.5)*sy - 0.5
		y0 := min(max(int(fy), 0), b.Dy()-1)
		y1 := min(y0+1, b.Dy()-1)
		ty := min(max(fy-float64(y0), 0), 1)
		for x := range w {
			fx := (float64(x)+0.5)*sx - 0.5
			x0 := min(max(int(fx), 0), b.Dx()-1)
			x1 := min(x0+1, b.Dx()-1)
			tx := min(max(fx-float64(x0), 0), 1)
			var px [4]uint8
			for c := range 4 {
				at := func(x, y int) float64 { return float64(src.Pix[src.PixOffset(b.Min.X+x, b.Min.Y+y)+c]) }
				top := at(x0, y0)*(1-tx) + at(x1, y0)*tx
				bot := at(x0, y1)*(1-tx) + at(x1, y1)*tx
				px[c] = uint8(top*(1-ty) + bot*ty + 0.5)
			}
			copy(dst.Pix[dst.PixOffset(x, y):], px[:])
		}
	}
	return dst
}

// encodePNG encodes img, failing the test on error.
func encodePNG(tb testing.TB, img image.Image, level png.CompressionLevel) []byte {
	tb.Helper()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: level}
	if err := enc.Encode(&buf, img); err != nil {
		tb.Fatalf("encode PNG: %v", err)
	}
	return buf.Bytes()
}
