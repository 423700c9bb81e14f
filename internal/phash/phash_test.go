package phash

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const (
	// nearMax is the largest distance the tests accept between an image
	// and a slightly altered copy. The largest measured is 6, the
	// checkerboard shifted by one pixel; structured pages measure 0..2.
	nearMax = 6
	// farMin is the smallest distance the tests accept between different
	// images. The smallest measured is 22.
	farMin = 20
)

// viewportW×viewportH is the size of the screenshots the judge takes.
const viewportW, viewportH = 1280, 800

// base is a test image at viewport size and its hash.
type base struct {
	img  *image.RGBA
	hash Hash
}

// testImages are the test images, drawn and hashed once per test binary.
var testImages = sync.OnceValue(func() map[string]base {
	imgs := map[string]*image.RGBA{
		"page":         page(viewportW, viewportH),
		"search":       searchPage(viewportW, viewportH),
		"gradient":     gradient(viewportW, viewportH),
		"checkerboard": checkerboard(viewportW, viewportH),
		"dark-icon":    darkIcon(viewportW, viewportH),
		"white":        blank(viewportW, viewportH, color.White),
	}
	out := make(map[string]base, len(imgs))
	for name, img := range imgs {
		out[name] = base{img, fromImage(img)}
	}
	return out
})

func TestNearDuplicatesScoreLow(t *testing.T) {
	t.Parallel()
	reencode := func(t *testing.T, img *image.RGBA) Hash {
		h, err := FromPNG(encodePNG(t, img, png.BestSpeed))
		if err != nil {
			t.Fatalf("FromPNG(re-encoded): %v", err)
		}
		return h
	}
	hashOf := func(f func(*image.RGBA) image.Image) func(*testing.T, *image.RGBA) Hash {
		return func(_ *testing.T, img *image.RGBA) Hash { return fromImage(f(img)) }
	}
	transforms := map[string]func(*testing.T, *image.RGBA) Hash{
		"brighter":       hashOf(func(m *image.RGBA) image.Image { return brighten(m, 12) }),
		"darker":         hashOf(func(m *image.RGBA) image.Image { return brighten(m, -12) }),
		"tinted":         hashOf(func(m *image.RGBA) image.Image { return tint(m, 0.93, 1.07) }),
		"shifted-1px":    hashOf(func(m *image.RGBA) image.Image { return shift(m, 1, 1) }),
		"shifted-2px":    hashOf(func(m *image.RGBA) image.Image { return shift(m, 2, -2) }),
		"noisy":          hashOf(func(m *image.RGBA) image.Image { return noise(m, 8, 7) }),
		"resized-1270":   hashOf(func(m *image.RGBA) image.Image { return resize(m, 1270, 795) }),
		"png-re-encoded": reencode,
	}
	all := slices.Sorted(maps.Keys(transforms))
	// Which transforms each image is expected to survive. The package doc
	// explains the gaps: the icon page is nearly mirror-symmetric, so a
	// shift flips the bits of its near-zero coefficients (measured 10 and
	// 16); noise on a blank page is all the structure it has (31); a
	// smooth gradient has few coefficients that stand out from the median
	// (12 to 34 under every lossy change).
	survives := map[string][]string{
		"page":         all,
		"search":       all,
		"checkerboard": all,
		"dark-icon":    {"brighter", "darker", "tinted", "noisy", "resized-1270", "png-re-encoded"},
		"white":        {"brighter", "darker", "tinted", "shifted-1px", "shifted-2px", "resized-1270", "png-re-encoded"},
		"gradient":     {"png-re-encoded"},
	}
	for imgName, transformNames := range survives {
		for _, tfName := range transformNames {
			t.Run(imgName+"/"+tfName, func(t *testing.T) {
				t.Parallel()
				b := testImages()[imgName]
				transform, ok := transforms[tfName]
				if !ok {
					t.Fatalf("no transform named %q", tfName)
				}
				got := transform(t, b.img)
				if d := Distance(b.hash, got); d > nearMax {
					t.Errorf("distance(%s, %s copy) = %d (%s vs %s), want <= %d", imgName, tfName, d, b.hash, got, nearMax)
				}
				if tfName == "png-re-encoded" && got != b.hash {
					t.Errorf("lossless re-encoding changed the hash: %s, want %s", got, b.hash)
				}
			})
		}
	}
}

func TestDifferentImagesScoreHigh(t *testing.T) {
	t.Parallel()
	names := slices.Sorted(maps.Keys(testImages()))
	for i, a := range names {
		for _, b := range names[i+1:] {
			t.Run(a+"-vs-"+b, func(t *testing.T) {
				t.Parallel()
				ha, hb := testImages()[a].hash, testImages()[b].hash
				if d := Distance(ha, hb); d < farMin {
					t.Errorf("distance(%s, %s) = %d (%s vs %s), want >= %d", a, b, d, ha, hb, farMin)
				}
			})
		}
	}
	// The same page scrolled by a quarter of the viewport is a different
	// picture: the hash follows the layout on screen, not the document.
	t.Run("page-vs-page-scrolled", func(t *testing.T) {
		t.Parallel()
		p := testImages()["page"]
		scrolled := shift(p.img, 0, -viewportH/4)
		if d := Distance(p.hash, fromImage(scrolled)); d < farMin {
			t.Errorf("distance(page, page scrolled by %d px) = %d, want >= %d", viewportH/4, d, farMin)
		}
	})
}

// TestStepImages pins the bit layout and the sign conventions with images
// whose hashes follow from the definition by hand. A two-tone image split
// at the centre has exactly four nonzero AC coefficients, all in the first
// row (or column) at odd frequencies; the 59 zeros make the median 0, so
// the set bits are DC and the positive ones. With dark on the left,
// frequencies 3 and 7 are positive: bits 63, 63-3 and 63-7.
func TestStepImages(t *testing.T) {
	t.Parallel()
	dark, light := color.RGBA{0x30, 0x30, 0x30, 0xff}, color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	split := func(w, h int, vertical bool, first, second color.Color) *image.RGBA {
		img := blank(w, h, second)
		if vertical {
			fill(img, 0, 0, 1, 0.5, first)
		} else {
			fill(img, 0, 0, 0.5, 1, first)
		}
		return img
	}
	midGrey := func(img *image.RGBA, x int, c color.RGBA) image.Image {
		for y := range img.Bounds().Dy() {
			img.SetRGBA(x, y, c)
		}
		return img
	}
	tests := []struct {
		name string
		img  image.Image
		want Hash
	}{
		{"dark-left", split(viewportW, viewportH, false, dark, light), 0x9100000000000000},
		{"dark-right", split(viewportW, viewportH, false, light, dark), 0xc400000000000000},
		// Column 0 of rows 3 and 7: k = 24 and 56.
		{"dark-top", split(viewportW, viewportH, true, dark, light), 1<<63 | 1<<(63-24) | 1<<(63-56)},
		// Two pixels: each covers half of the grid.
		{"two-pixels", split(2, 1, false, dark, light), 0x9100000000000000},
		// A width that is not a multiple of the grid puts the split
		// inside a cell; it is still at the centre.
		{"34-wide", split(34, 7, false, dark, light), 0x9100000000000000},
		// An odd width with a middle column of the mean grey is still
		// antisymmetric about the centre.
		{"33-wide", midGrey(split(33, 7, false, dark, light), 16, color.RGBA{0x90, 0x90, 0x90, 0xff}), 0x9100000000000000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := fromImage(tt.img); got != tt.want {
				t.Errorf("FromImage = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestUniformImages checks that images without structure hash to DC only,
// exactly, whatever their shade, size or pixel format.
func TestUniformImages(t *testing.T) {
	t.Parallel()
	const onlyDC Hash = 1 << 63
	transparent := image.NewNRGBA(image.Rect(0, 0, 64, 48)) // all zero: transparent
	tests := []struct {
		name string
		img  image.Image
		want Hash
	}{
		{"white-viewport", blank(viewportW, viewportH, color.White), onlyDC},
		{"grey-odd-size", blank(1271, 797, color.RGBA{0x80, 0x80, 0x80, 0xff}), onlyDC},
		{"dark-blue", blank(300, 200, color.RGBA{0x10, 0x10, 0x40, 0xff}), onlyDC},
		{"one-pixel", blank(1, 1, color.RGBA{0x80, 0x00, 0x00, 0xff}), onlyDC},
		{"gray-pixels", grayImage(50, 30, 0x77), onlyDC},
		{"transparent-is-white", transparent, onlyDC},
		{"black", blank(640, 400, color.Black), 0},
		{"empty", image.NewRGBA(image.Rectangle{}), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := fromImage(tt.img); got != tt.want {
				t.Errorf("FromImage = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestFromImageReadsOnlyTheBounds(t *testing.T) {
	t.Parallel()
	// A sub-image has a nonzero origin and shares its parent's pixels;
	// it must hash like a copy of the same pixels at the origin.
	src := testImages()["page"].img
	r := image.Rect(100, 50, 1100, 750)
	sub := src.SubImage(r)
	cp := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(cp, cp.Bounds(), src, r.Min, draw.Src)
	if got, want := fromImage(sub), fromImage(cp); got != want {
		t.Errorf("FromImage(sub-image) = %s, FromImage(copy) = %s, want equal", got, want)
	}
}

func TestTransparencyCompositesOverWhite(t *testing.T) {
	t.Parallel()
	// A dark box on a transparent background must hash like the same box
	// on white, as a page without a background colour renders.
	box := image.Rect(300, 200, 700, 500)
	ink := color.NRGBA{0x20, 0x40, 0x60, 0xff}
	clear := image.NewNRGBA(image.Rect(0, 0, 1000, 700))
	draw.Draw(clear, box, image.NewUniform(ink), image.Point{}, draw.Src)
	white := blank(1000, 700, color.White)
	draw.Draw(white, box, image.NewUniform(ink), image.Point{}, draw.Src)
	if got, want := fromImage(clear), fromImage(white); got != want {
		t.Errorf("FromImage(box on transparent) = %s, FromImage(box on white) = %s, want equal", got, want)
	}
}

func TestFromPNG(t *testing.T) {
	t.Parallel()
	img := page(320, 200)
	good := encodePNG(t, img, png.DefaultCompression)
	tests := []struct {
		name    string
		data    []byte
		want    Hash
		wantErr string // substring; empty means success
	}{
		{"decodes", good, fromImage(img), ""},
		{"empty", nil, 0, "decode PNG header"},
		{"not-png", []byte("GIF89a not a png"), 0, "decode PNG header"},
		{"truncated", good[:len(good)/2], 0, "decode PNG"},
		{"too-large", withSize(t, good, 40000, 40000), 0, "40000x40000 pixels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := FromPNG(tt.data)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("FromPNG = %s, %v; want %s, nil", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "phash: ") {
				t.Fatalf("FromPNG error = %v, want one starting %q and containing %q", err, "phash: ", tt.wantErr)
			}
		})
	}
}

// withSize returns a copy of the PNG data whose header claims w×h pixels,
// with a valid header checksum, and whose pixel data no longer matches.
func withSize(t testing.TB, data []byte, w, h uint32) []byte {
	t.Helper()
	// Signature (8), IHDR length (4), "IHDR" (4), width, height, ...
	if len(data) < 33 || string(data[12:16]) != "IHDR" {
		t.Fatalf("unexpected PNG layout")
	}
	out := bytes.Clone(data)
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b Hash
		want int
	}{
		{"equal", 0x0123456789abcdef, 0x0123456789abcdef, 0},
		{"one-bit", 0, 1 << 40, 1},
		{"top-and-bottom", 1<<63 | 1, 0, 2},
		{"complement", 0x00ff00ff00ff00ff, 0xff00ff00ff00ff00, 64},
		{"symmetric", 0xf0, 0x0f, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Distance(tt.a, tt.b); got != tt.want {
				t.Errorf("Distance(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := Distance(tt.b, tt.a); got != tt.want {
				t.Errorf("Distance(%s, %s) = %d, want %d", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestHashText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		text    string
		hash    Hash
		wantErr string // substring; empty means the text is valid
	}{
		{"zero", "0000000000000000", 0, ""},
		{"only-dc", "8000000000000000", 1 << 63, ""},
		{"all-digits", "0123456789abcdef", 0x0123456789abcdef, ""},
		{"all-ones", "ffffffffffffffff", ^Hash(0), ""},
		{"empty", "", 0, "got 0 characters"},
		{"short", "8000", 0, "got 4 characters"},
		{"long", "80000000000000000", 0, "got 17 characters"},
		{"upper-case", "0123456789ABCDEF", 0, `got 'A' at offset 10`},
		{"prefixed", "0x23456789abcdef", 0, `got 'x' at offset 1`},
		{"sign", "+123456789abcdef", 0, `got '+' at offset 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseHash(tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.text) {
					t.Fatalf("ParseHash(%q) = %s, %v; want an error naming the input and containing %q", tt.text, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.hash {
				t.Fatalf("ParseHash(%q) = %s, %v; want %s", tt.text, got, err, tt.hash)
			}
			if s := tt.hash.String(); s != tt.text {
				t.Errorf("Hash(%#x).String() = %q, want %q", uint64(tt.hash), s, tt.text)
			}
		})
	}
}

func FuzzFromPNG(f *testing.F) {
	// Seeds: small images in each colour type the decoder produces, and
	// the damaged forms a fuzzer would take a while to reach.
	rgba := page(40, 25)
	nrgba := image.NewNRGBA(image.Rect(0, 0, 9, 7))
	for i := range nrgba.Pix {
		nrgba.Pix[i] = uint8(i * 37)
	}
	gray := image.NewGray(image.Rect(0, 0, 33, 2))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 11)
	}
	gray16 := image.NewGray16(image.Rect(0, 0, 5, 40))
	for i := range gray16.Pix {
		gray16.Pix[i] = uint8(i * 13)
	}
	paletted := image.NewPaletted(image.Rect(0, 0, 6, 6), color.Palette{color.Black, color.White, color.RGBA{0xff, 0, 0, 0xff}})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 3)
	}
	for _, img := range []image.Image{rgba, nrgba, gray, gray16, paletted} {
		data := encodePNG(f, img, png.BestSpeed)
		f.Add(data)
		f.Add(data[:len(data)-12]) // without IEND
		f.Add(data[:40])
	}
	f.Add(withSize(f, encodePNG(f, gray, png.BestSpeed), 1<<20, 1<<20))
	f.Add([]byte{})
	f.Add([]byte("\x89PNG\r\n\x1a\n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := FromPNG(data)
		if err != nil {
			if h != 0 {
				t.Errorf("FromPNG returned hash %s with error %v", h, err)
			}
			return
		}
		// Whatever FromPNG accepts must decode, and hash like the
		// decoded image.
		img, derr := png.Decode(bytes.NewReader(data))
		if derr != nil {
			t.Fatalf("FromPNG accepted data that png.Decode rejects: %v", derr)
		}
		if want := fromImage(img); h != want {
			t.Errorf("FromPNG = %s, FromImage(decoded) = %s", h, want)
		}
	})
}

// BenchmarkFromPNG hashes a viewport screenshot from its PNG bytes, the
// judge's path; most of the time is PNG decoding.
func BenchmarkFromPNG(b *testing.B) {
	data := encodePNG(b, page(viewportW, viewportH), png.DefaultCompression)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromPNG(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromImage measures the hash alone on a decoded screenshot.
func BenchmarkFromImage(b *testing.B) {
	img := page(viewportW, viewportH)
	b.ReportAllocs()
	for b.Loop() {
		fromImage(img)
	}
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
