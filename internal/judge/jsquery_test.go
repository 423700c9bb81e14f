package judge

import (
	"testing"

	"github.com/dop251/goja"
)

// The parts of query.js's rules that need a page's computed style and
// boxes, not its text, are tested here without a browser, each through
// what it is given and what it returns: on a fake page whose elements are
// plain objects (their computed style, parent and box given), in a
// JavaScript engine written in Go. Each case builds its own page and its
// own parts, so no part's cache carries over. What needs real layout,
// text and ranges (query/words.js, the scripts whole) is tested in
// Chromium (fixtures_test.go, traps_test.go).

// fakePage makes a fake page and what query.js gives the parts on it:
// mk(css, parent, box) adds an element (box {l, t, r, b}, css over a
// computed style's defaults), html and body exist, the viewport is 800 by
// 600 and unscrolled, and every element is a root's match in the order
// made. DOMMatrixReadOnly reads a matrix3d() alone.
const fakePage = `
const minTextPx = 6;
const designMode = false;
const all = [];
const DEFAULTS = {
  display: 'block', position: 'static', visibility: 'visible', opacity: '1', filter: 'none',
  maskImage: 'none', transform: 'none', backfaceVisibility: 'visible', overflowX: 'visible',
  overflowY: 'visible', contain: 'none', contentVisibility: 'visible', clip: 'auto', clipPath: 'none',
  zIndex: 'auto', isolation: 'auto', mixBlendMode: 'normal', perspective: 'none',
  backgroundColor: 'rgba(0, 0, 0, 0)', backgroundImage: 'none', backgroundClip: 'border-box',
  color: 'rgb(0, 0, 0)', webkitTextFillColor: 'rgb(0, 0, 0)', webkitTextStrokeWidth: '0px',
  webkitTextStrokeColor: 'rgb(0, 0, 0)', fontSize: '16px',
};
const mk = (css, parent, box) => {
  const b = box || { l: 0, t: 0, r: 100, b: 20 };
  const e = {
    nodeType: 1, localName: 'div', namespaceURI: 'http://www.w3.org/1999/xhtml',
    css: Object.assign({}, DEFAULTS, css), parentNode: parent || null,
    clientWidth: b.r - b.l, clientHeight: b.b - b.t,
    getBoundingClientRect: () => ({ left: b.l, top: b.t, right: b.r, bottom: b.b, width: b.r - b.l, height: b.b - b.t }),
    checkVisibility() { return this.css.display !== 'none' && this.css.visibility === 'visible' && this.css.opacity !== '0'; },
  };
  all.push(e);
  return e;
};
const html = mk({}, null, { l: 0, t: 0, r: 800, b: 2000 });
const body = mk({}, html, { l: 0, t: 0, r: 800, b: 2000 });
html.scrollWidth = 800; html.scrollHeight = 2000;
const doc = { documentElement: html, body, scrollingElement: html, getElementById: () => null, createRange: () => ({}) };
const view = { innerWidth: 800, innerHeight: 600, scrollX: 0, scrollY: 0, getComputedStyle: (e) => e.css };
const roots = [{ querySelectorAll: () => all.slice(2) }];
const orderOf = () => new Map(all.map((e, i) => [e, i]));
// The one entry of a matrix the parts read: m33, from a matrix3d().
class DOMMatrixReadOnly {
  constructor(s) {
    const m = /^matrix3d\(([^)]*)\)$/.exec(s);
    this.m33 = m ? parseFloat(m[1].split(',')[10]) : 1;
  }
}
`

// parts makes the parts of query.js under test on the fake page, each
// given what it reads, as query.js makes them.
const parts = `
const draw = drawing({ view, designMode });
const clip = clipping({ doc, view, minTextPx }, draw);
const cover = covering({ doc, view, roots, orderOf }, draw, clip);
const ink = inking(draw, cover);
`

// queryVM is an engine with the modules of query.js's parts loaded, the
// fake page and the elements setup makes on it, and the parts made on it.
func queryVM(t *testing.T, setup string) *goja.Runtime {
	t.Helper()
	vm := goja.New()
	loadModules(t, vm, "query/draw.js", "query/clip.js", "query/cover.js", "query/ink.js")
	if _, err := vm.RunScript("fake page", fakePage+setup+parts); err != nil {
		t.Fatalf("the fake page: %v", err)
	}
	return vm
}

// jsCase is a page and what expressions on it evaluate to, as JSON.
type jsCase struct {
	name, setup string
	want        map[string]string
}

func (c jsCase) check(t *testing.T) {
	t.Run(c.name, func(t *testing.T) {
		t.Parallel()
		vm := queryVM(t, c.setup)
		for expr, want := range c.want {
			if got := evalJSON(t, vm, expr); got != want {
				t.Errorf("%s = %s, want %s", expr, got, want)
			}
		}
	})
}

// How opaque an element is drawn, and whether it is rendered or blurred.
func TestQueryDraw(t *testing.T) {
	t.Parallel()
	for _, c := range []jsCase{
		{"opacity and filter: opacity() multiply down the tree", `
			const a = mk({ opacity: '0.5' }, body);
			const b = mk({ filter: 'opacity(50%)' }, a);
			const c = mk({ opacity: '0.1' }, b);`,
			map[string]string{"draw.alpha(b)": "0.25", "draw.isRendered(b)": "true", "draw.alpha(c)": "0.025", "draw.isRendered(c)": "false"}},
		{"a mask of transparent gradients only lets nothing through", `
			const a = mk({ maskImage: 'linear-gradient(rgba(0, 0, 0, 0), transparent)' }, body);
			const b = mk({ maskImage: 'linear-gradient(rgb(0, 0, 0), transparent)' }, body);
			const c = mk({ maskImage: 'url("m.png"), linear-gradient(transparent, transparent)' }, body);`,
			map[string]string{"draw.alpha(a)": "0", "draw.alpha(b)": "1", "draw.alpha(c)": "1"}},
		{"blurs combine as Gaussians, against a fifth of the font size", `
			const a = mk({ filter: 'blur(3px)' }, body);
			const b = mk({ filter: 'blur(4px)', fontSize: '25px' }, a);
			const c = mk({ filter: 'blur(4px)', fontSize: '26px' }, a);`,
			map[string]string{"ink.blurred(a)": "false", "ink.blurred(b)": "true", "ink.blurred(c)": "false"}},
		{"a back face turned away hides what it holds", `
			const a = mk({ backfaceVisibility: 'hidden', transform: 'matrix3d(-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1)' }, body);
			const b = mk({}, a);
			const c = mk({ backfaceVisibility: 'hidden', transform: 'rotate(10deg)' }, body);`,
			map[string]string{"draw.turnedAway(b)": "true", "draw.isRendered(b)": "false", "draw.turnedAway(c)": "false"}},
		{"display: contents has no box; its parent decides", `
			const a = mk({ display: 'none' }, body);
			const b = mk({ display: 'contents' }, a);
			const c = mk({ display: 'contents' }, body);`,
			map[string]string{"draw.isRendered(b)": "false", "draw.isRendered(c)": "true"}},
	} {
		c.check(t)
	}
}

// The boxes an element is clipped to, and what a person can scroll into
// view.
func TestQueryClip(t *testing.T) {
	t.Parallel()
	for _, c := range []jsCase{
		{"overflow hidden clips the flow, not an absolute box it does not contain", `
			const outer = mk({ position: 'relative' }, body, { l: 0, t: 0, r: 400, b: 400 });
			const box = mk({ overflowX: 'hidden', overflowY: 'hidden' }, outer, { l: 10, t: 10, r: 110, b: 60 });
			const flow = mk({}, box);
			const abs = mk({ position: 'absolute' }, box);
			const fixed = mk({ position: 'fixed' }, box);`,
			map[string]string{
				"clip.boxClip(flow)":  `{"l":10,"t":10,"r":110,"b":60}`,
				"clip.boxClip(abs)":   `{"l":null,"t":null,"r":null,"b":null}`, // INF: JSON has no Infinity
				"clip.boxClip(fixed)": `{"l":0,"t":0,"r":800,"b":600}`,
			}},
		{"a scroll container that shows a line frees its axis; one that shows less shuts it", `
			const free = mk({ overflowX: 'hidden', overflowY: 'auto' }, body, { l: 0, t: 100, r: 200, b: 300 });
			const shut = mk({ overflowX: 'visible', overflowY: 'scroll' }, body, { l: 0, t: 100, r: 200, b: 103 });
			const inFree = mk({}, free);
			const inShut = mk({}, shut);`,
			map[string]string{
				"clip.contentClip(free)": `{"l":0,"t":null,"r":200,"b":null}`,
				"clip.contentClip(shut)": `{"l":null,"t":100,"r":null,"b":103}`,
				"clip.areaOf(inFree)":    `{"l":0,"r":800,"t":null,"b":null}`,
				"clip.areaOf(inShut)":    `{"l":0,"r":800,"t":0,"b":2000}`,
			}},
		{"the clip property and a clip-path cut the box", `
			const a = mk({ position: 'absolute', clip: 'rect(0px, 1px, 1px, 0px)' }, body, { l: 50, t: 50, r: 150, b: 70 });
			const b = mk({ clipPath: 'inset(0px 50% 0px 0px)' }, body, { l: 0, t: 0, r: 100, b: 20 });`,
			map[string]string{
				"clip.contentClip(a)": `{"l":50,"t":50,"r":51,"b":51}`,
				"clip.contentClip(b)": `{"l":0,"t":0,"r":50,"b":20}`,
			}},
		{"readable text keeps its width, less a fifth of a line, and half its height", `
			const r = { left: 0, top: 0, right: 100, bottom: 10, width: 100, height: 10 };`,
			map[string]string{
				"clip.readable(r, {l: 0, t: 0, r: 99, b: 10})":  "true",
				"clip.readable(r, {l: 0, t: 0, r: 97, b: 10})":  "false",
				"clip.readable(r, {l: 0, t: 4, r: 100, b: 10})": "true",
				"clip.readable(r, {l: 0, t: 5, r: 100, b: 10})": "false", // 5px: under minTextPx
				"clip.shows(r, {l: 0, t: 0, r: 2, b: 2}, 2, 2)": "true",
			}},
	} {
		c.check(t)
	}
}

// Whether text leaves ink on what is behind it.
func TestQueryInk(t *testing.T) {
	t.Parallel()
	for _, c := range []jsCase{
		{"text the colour of its background leaves none; a positioned box painted under it gives it one", `
			const panel = mk({ backgroundColor: 'rgb(250, 250, 250)' }, body, { l: 0, t: 0, r: 400, b: 400 });
			const pale = mk({ color: 'rgb(255, 255, 255)', webkitTextFillColor: 'rgb(255, 255, 255)' }, panel, { l: 10, t: 10, r: 110, b: 30 });
			const dark = mk({ color: 'rgb(20, 20, 20)', webkitTextFillColor: 'rgb(20, 20, 20)' }, panel, { l: 10, t: 40, r: 110, b: 60 });
			const hero = mk({ position: 'absolute', zIndex: '-1', backgroundColor: 'rgb(0, 0, 80)' }, body, { l: 0, t: 500, r: 800, b: 700 });
			const onHero = mk({ color: 'rgb(255, 255, 255)', webkitTextFillColor: 'rgb(255, 255, 255)' }, body, { l: 10, t: 550, r: 110, b: 570 });`,
			map[string]string{"ink.noInk(pale)": "true", "ink.noInk(dark)": "false", "ink.noInk(onHero)": "false"}},
		{"transparent ink, a stroke, and background-clip: text", `
			const clear = mk({ webkitTextFillColor: 'rgba(0, 0, 0, 0)' }, body);
			const stroked = mk({ webkitTextFillColor: 'rgba(0, 0, 0, 0)', webkitTextStrokeWidth: '1px' }, body);
			const clipped = mk({ webkitTextFillColor: 'rgba(0, 0, 0, 0)', backgroundClip: 'text' }, body);`,
			map[string]string{"ink.noInk(clear)": "true", "ink.noInk(stroked)": "false", "ink.noInk(clipped)": "false"}},
		{"behind an image the judge does not guess", `
			const pic = mk({ backgroundImage: 'url("a.png")' }, body);
			const grad = mk({ backgroundImage: 'linear-gradient(rgb(255, 255, 255), rgb(250, 250, 250))' }, body);`,
			map[string]string{"ink.backdrop(pic)": "null", "ink.backdrop(grad)": "[[255,255,255,1],[250,250,250,1]]"}},
	} {
		c.check(t)
	}
}

// The opaque boxes painted over text, in the painting order.
func TestQueryCover(t *testing.T) {
	t.Parallel()
	for _, c := range []jsCase{
		{"a positioned opaque box over the flow covers it; one under it does not", `
			const text = mk({}, body, { l: 10, t: 10, r: 110, b: 30 });
			const over = mk({ position: 'absolute', backgroundColor: 'rgb(255, 255, 255)' }, body, { l: 0, t: 0, r: 200, b: 50 });
			const under = mk({ position: 'absolute', zIndex: '-1', backgroundColor: 'rgb(255, 255, 255)' }, body, { l: 0, t: 0, r: 200, b: 50 });
			const r = text.getBoundingClientRect();`,
			map[string]string{"cover.above(over, text)": "true", "cover.above(under, text)": "false", "cover.coveredBy(r, text)": "true"}},
		{"a higher z-index wins; among equals, the later in tree order", `
			const low = mk({ position: 'relative', zIndex: '1' }, body);
			const lowText = mk({}, low, { l: 0, t: 0, r: 100, b: 20 });
			const high = mk({ position: 'absolute', zIndex: '2', backgroundColor: 'rgb(0, 0, 0)' }, body);
			const same = mk({ position: 'absolute', zIndex: '1', backgroundColor: 'rgb(0, 0, 0)' }, body);
			const later = mk({ position: 'relative', zIndex: '1' }, body);`,
			map[string]string{"cover.above(high, lowText)": "true", "cover.above(same, lowText)": "true", "cover.above(low, later)": "false"}},
		{"a fixed bar covers nothing; a fixed wall filling the viewport covers the page", `
			const bar = mk({ position: 'fixed', backgroundColor: 'rgb(0, 0, 0)' }, body, { l: 0, t: 0, r: 800, b: 40 });
			const wall = mk({ position: 'fixed', backgroundColor: 'rgb(0, 0, 0)' }, body, { l: 0, t: 0, r: 800, b: 600 });
			const text = mk({}, body, { l: 0, t: 1500, r: 100, b: 1520 });`,
			map[string]string{"cover.covers().map((c) => c.el === wall)": "[true]", "cover.coveredBy(text.getBoundingClientRect(), text)": "true"}},
		{"a negative z-index sinks text under its ancestors' opaque backgrounds", `
			const card = mk({ backgroundColor: 'rgb(255, 255, 255)' }, body, { l: 0, t: 0, r: 300, b: 100 });
			const sunkText = mk({ position: 'relative', zIndex: '-1' }, card, { l: 10, t: 10, r: 110, b: 30 });
			const plain = mk({}, card, { l: 10, t: 40, r: 110, b: 60 });`,
			map[string]string{
				"cover.sunkUnder(sunkText)":                                   `[{"l":0,"t":0,"r":300,"b":100}]`,
				"cover.coveredBy(sunkText.getBoundingClientRect(), sunkText)": "true",
				"cover.coveredBy(plain.getBoundingClientRect(), plain)":       "false",
			}},
		{"an element's own box lies wholly under a cover, or shows", `
			const item = mk({}, body, { l: 10, t: 10, r: 50, b: 30 });
			const lid = mk({ position: 'absolute', backgroundColor: 'rgb(9, 9, 9)' }, body, { l: 0, t: 0, r: 60, b: 40 });
			const wide = mk({}, body, { l: 10, t: 10, r: 90, b: 30 });
			const all4 = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };`,
			map[string]string{
				"cover.buried(item.getBoundingClientRect(), all4, item)": "true",
				"cover.buried(wide.getBoundingClientRect(), all4, wide)": "false",
			}},
	} {
		c.check(t)
	}
}
