package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"slices"
	"time"

	"github.com/chromedp/cdproto/page"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
	"contractbench/internal/spare"
)

// The rules of query.js decide what a person sees from the computed style;
// the renderer has the last word on the strings they found. For each
// string a query found, the judge looks at the words it was read from:
// it brings them into view as a person would (scrolling the boxes and the
// page that scroll), takes a picture of them, makes their ink transparent
// (paint.js), takes another, and puts everything back. A word is painted
// when its pixels change: whatever covers it (a top-layer dialog's
// backdrop, a pseudo-element, a shadow, a header it cannot be scrolled
// from under), erases it (a blend mode, a mask, a clip path) or matches
// its colour (text on a gradient or an SVG shape) leaves the picture as
// it was. A string whose words are not all painted is read again with
// those words left out, so a copy of it that is painted elsewhere is
// still found (docs/decisions/0017-visibility-by-pixels.md).

// word is a piece of the page paint.js can look at: [node, start, end) of
// a text node's data, or [element, -1 | -2, 0] for the text of its
// ::before or ::after.
type word [3]int

func (w word) generated() bool { return w[1] < 0 }

// How many times a query is read again after words were refused.
const paintRounds = 4

// A pixel changes when one of its channels changes by at least inkDelta
// (of 255): about the difference between white and a grey of contrast
// ratio 1.2 with it, the least the rules read as ink.
const inkDelta = 24

// confirm checks by pixels the words of every string the rules found, and
// reads again without the words that are not painted, until every string
// found is painted (or no longer found). It restores the page's ink and
// scroll positions before it returns.
func (j *Judge) confirm(ctx context.Context, v *pageView, queries []contract.Query, results []queryResult) (out []queryResult, err error) {
	looked := false
	defer func() {
		if !looked {
			return
		}
		if rerr := j.paint(ctx, v, "restore", nil, nil); rerr != nil && err == nil {
			err = fmt.Errorf("restoring the page: %w", rerr)
		}
	}()
	painted := map[word]bool{}
	var refused []word
	for round := 0; ; round++ {
		found := foundHits(results)
		if len(found) == 0 {
			return results, nil
		}
		looked = true
		wordsOf, err := j.wordsOf(ctx, v, found)
		if err != nil {
			return nil, err
		}
		// The words not looked at yet.
		var todo []word
		for _, words := range wordsOf {
			for _, w := range words {
				if _, ok := painted[w]; !ok {
					painted[w] = false
					todo = append(todo, w)
				}
			}
		}
		if err := j.look(ctx, v, todo, painted); errors.Is(err, errNoFrame) {
			return results, nil // the rules decide alone
		} else if err != nil {
			return nil, err
		}
		var unpainted []word
		for f, h := range found {
			n := len(unpainted)
			for _, w := range wordsOf[f] {
				if !painted[w] {
					unpainted = append(unpainted, w)
				}
			}
			if n < len(unpainted) && round == paintRounds {
				*h = hit{} // still found only on words not painted: not seen
			}
		}
		if len(unpainted) == 0 || round == paintRounds {
			return results, nil
		}
		refused = append(refused, unpainted...)
		// The rules read the page as the agent left it, not as the judge
		// scrolled it to look.
		if err := j.paint(ctx, v, "restore", nil, nil); err != nil {
			return nil, err
		}
		if results, err = j.read(ctx, v, queries, refused); err != nil {
			return nil, err
		}
	}
}

// foundHits are the strings found on words paint.js can look at.
func foundHits(results []queryResult) []*hit {
	var found []*hit
	for i := range results {
		for k := range results[i].hits {
			if h := &results[i].hits[k]; h.match > 0 && len(h.spans) > 0 {
				found = append(found, h)
			}
		}
	}
	return found
}

// wordsOf asks paint.js for the words of each string found.
func (j *Judge) wordsOf(ctx context.Context, v *pageView, found []*hit) ([][]word, error) {
	var spans []word
	for _, h := range found {
		spans = append(spans, h.spans...)
	}
	var bySpan [][]word
	if err := j.paint(ctx, v, "words", map[string]any{"spans": spans}, &bySpan); err != nil {
		return nil, err
	}
	if len(bySpan) != len(spans) {
		return nil, fmt.Errorf("paint.js: words of %d spans for %d", len(bySpan), len(spans))
	}
	out := make([][]word, len(found))
	at := 0
	for f, h := range found {
		for range h.spans {
			out[f] = append(out[f], bySpan[at]...)
			at++
		}
	}
	return out, nil
}

// look decides for each word whether it is painted, and records it in
// painted. A word that cannot be brought into view is not.
func (j *Judge) look(ctx context.Context, v *pageView, todo []word, painted map[word]bool) error {
	// Each pass settles at least the first word: the words of the strings
	// bound the passes.
	for len(todo) > 0 {
		var loc struct {
			Shown []struct {
				I     int          `json:"i"`
				Rects [][4]float64 `json:"rects"`
			} `json:"shown"`
			Gone     []int      `json:"gone"`
			Scroll   [2]float64 `json:"scroll"`
			Viewport [2]float64 `json:"viewport"`
		}
		if err := j.paint(ctx, v, "locate", map[string]any{"words": todo}, &loc); err != nil {
			return err
		}
		done := map[int]bool{}
		for _, i := range loc.Gone {
			painted[todo[i]] = false
			done[i] = true
		}
		if len(loc.Shown) > 0 {
			clip := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
			shown := make([]word, len(loc.Shown))
			for k, s := range loc.Shown {
				shown[k] = todo[s.I]
				for _, r := range s.Rects {
					clip = clip.union(box(r))
				}
			}
			clip = clip.meet(box{0, 0, loc.Viewport[0], loc.Viewport[1]})
			with, err := j.picture(ctx, v, clip, loc.Scroll)
			if err != nil {
				return err
			}
			if err := j.paint(ctx, v, "ink", map[string]any{"words": shown, "hide": true}, nil); err != nil {
				return err
			}
			without, err := j.picture(ctx, v, clip, loc.Scroll)
			if err != nil {
				return err
			}
			if err := j.paint(ctx, v, "ink", map[string]any{"words": shown, "hide": false}, nil); err != nil {
				return err
			}
			for k, s := range loc.Shown {
				// Every box of a word must show its ink; generated text
				// is somewhere in its element's boxes, so one is enough.
				gen := shown[k].generated()
				ok := !gen
				for _, r := range s.Rects {
					if gen {
						ok = ok || inked(with, without, clip, box(r), true)
					} else {
						ok = ok && inked(with, without, clip, box(r), false)
					}
				}
				painted[shown[k]] = ok
				done[s.I] = true
			}
		}
		if len(done) == 0 {
			return fmt.Errorf("paint.js located none of %d words", len(todo))
		}
		var rest []word
		for i, w := range todo {
			if !done[i] {
				rest = append(rest, w)
			}
		}
		todo = rest
	}
	return nil
}

// box is a rectangle [left, top, right, bottom] in CSS pixels.
type box [4]float64

func (a box) union(b box) box {
	return box{min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])}
}

func (a box) meet(b box) box {
	return box{max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])}
}

func (a box) empty() bool { return a[2]-a[0] < 1 || a[3]-a[1] < 1 }

// errNoFrame says the page paints no new frame: its clock was stopped
// (Emulation.setVirtualTimePolicy pause) by something other than the
// judge's own run of it, which leaves the page painting.
var errNoFrame = errors.New("the page paints no new frame")

// pictureMax bounds the wait for a picture, in the machine's spare time
// (internal/spare): a page that paints does it in a frame or two, later
// only on a machine with no processor free to paint it.
const pictureMax = 3 * time.Second

// picture takes the pixels of clip (in viewport coordinates; the page is
// scrolled by scroll) as they are on the screen.
func (j *Judge) picture(ctx context.Context, v *pageView, clip box, scroll [2]float64) (*image.RGBA, error) {
	if clip.empty() {
		return image.NewRGBA(image.Rectangle{}), nil
	}
	pctx, cancel := spare.WithTimeout(ctx, pictureMax)
	defer cancel()
	shot, err := cdpconn.Send(pctx, j.conn, v.page.session, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format:           page.CaptureScreenshotFormatPng,
		OptimizeForSpeed: new(true),
		Clip: &page.Viewport{
			X: clip[0] + scroll[0], Y: clip[1] + scroll[1],
			Width: clip[2] - clip[0], Height: clip[3] - clip[1],
			Scale: 1,
		},
	})
	if err != nil && ctx.Err() == nil && pctx.Err() != nil {
		return nil, errNoFrame
	}
	if err != nil {
		return nil, fmt.Errorf("picture of %s: %w", v.state.URL, err)
	}
	img, err := png.Decode(bytes.NewReader(shot.Data))
	if err != nil {
		return nil, fmt.Errorf("picture of %s: %w", v.state.URL, err)
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	}
	return rgba, nil
}

// inked tells whether the ink of a word's box r changed the picture of
// clip: enough pixels changed, and (for a word of a text node) across its
// whole width, all but what a narrow letter's side may leave blank. The
// box of generated text is its element's, so there any change counts.
func inked(with, without *image.RGBA, clip, r box, generated bool) bool {
	if with.Bounds() != without.Bounds() || with.Bounds().Empty() {
		return false
	}
	scale := float64(with.Bounds().Dx()) / (clip[2] - clip[0])
	px := func(x, from float64) int { return int(math.Floor((x - from) * scale)) }
	b := with.Bounds()
	x0, x1 := max(px(r[0], clip[0]), b.Min.X), min(px(r[2], clip[0])+1, b.Max.X)
	y0, y1 := max(px(r[1], clip[1]), b.Min.Y), min(px(r[3], clip[1])+1, b.Max.Y)
	changed, left, right := 0, math.MaxInt, -1
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			i := with.PixOffset(x, y)
			p, q := with.Pix[i:i+3:i+3], without.Pix[i:i+3:i+3]
			if absDiff(p[0], q[0]) >= inkDelta || absDiff(p[1], q[1]) >= inkDelta || absDiff(p[2], q[2]) >= inkDelta {
				changed++
				left, right = min(left, x), max(right, x)
			}
		}
	}
	width, height := (r[2]-r[0])*scale, (r[3]-r[1])*scale
	// A word as narrow as a comma has few pixels to change.
	need := minInkPixels
	if width < height/2 {
		need = 1
	}
	if changed < need {
		return false
	}
	if generated {
		return true
	}
	return float64(right-left+1) >= width-max(2*scale, height/2)
}

// minInkPixels is the least number of changed pixels that make a word
// wider than half its line's height.
const minInkPixels = 3

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// see reads queries on v by the rules and, where the page paints,
// confirms by pixels what they found. Content the page skips until it is
// near the viewport (content-visibility: auto) is rendered first, as it
// is when a person scrolls near it, and skipped again after (paint.js
// reveal, conceal): at once when the browser reported some (page_state's
// skipped), and otherwise when the rules did not see text inside it.
// ready is called before anything changes what the page shows, and says
// whether the page paints.
func (j *Judge) see(ctx context.Context, v *pageView, queries []contract.Query, ready func() (paints bool, err error)) (results []queryResult, err error) {
	skips := v.state.Skipped > 0
	if !skips {
		results, err = j.read(ctx, v, queries, nil)
	}
	paints, rerr := ready()
	if err = errors.Join(err, rerr); err != nil {
		return nil, err
	}
	if skips || slices.ContainsFunc(results, func(r queryResult) bool { return r.Skips }) {
		if err := j.paint(ctx, v, "reveal", nil, nil); err != nil {
			return nil, err
		}
		defer func() {
			if cerr := j.paint(ctx, v, "conceal", nil, nil); cerr != nil && err == nil {
				err = fmt.Errorf("skipping again what the judge rendered: %w", cerr)
			}
		}()
		if results, err = j.read(ctx, v, queries, nil); err != nil {
			return nil, err
		}
	}
	if paints {
		if results, err = j.confirm(ctx, v, queries, results); err != nil {
			return nil, fmt.Errorf("looking at %s: %w", v.state.URL, err)
		}
	}
	return results, nil
}

// paint calls paint.js's operation op with arg in the judge's world of v,
// and decodes its answer into out, unless out is nil.
func (j *Judge) paint(ctx context.Context, v *pageView, op string, arg, out any) error {
	if err := j.call(ctx, v, paintJS, out, op, arg); err != nil {
		return fmt.Errorf("paint.js %s: %w", op, err)
	}
	return nil
}
