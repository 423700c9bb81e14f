package judge

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Content the browser skips until it is near the viewport
// (content-visibility: auto) is rendered content waiting to be painted: a
// person scrolls to it and reads it, so the judge does. What stays hidden
// until a person acts (hidden=until-found, a closed <details>,
// content-visibility: hidden) is not seen, nor what no scrolling reaches.

const (
	skippedMsg = "Your parcel left the depot"
	far        = `<div style="height:4000px">Scroll down</div>`
	auto       = `content-visibility:auto`
)

// skippedPages are pages with skippedMsg where content-visibility: auto
// skips it when the page loads; the agent never scrolls near.
var skippedPages = map[string]string{
	"far down, its size given":    far + `<section style="` + auto + `;contain-intrinsic-size:auto 600px"><p>` + skippedMsg + `</p></section>`,
	"far down, no size":           far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section>` + far,
	"last on the page, no size":   far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section>`,
	"nested sections":             far + `<section style="` + auto + `;contain-intrinsic-size:auto 600px"><div style="height:3000px"></div><article style="` + auto + `"><div style="` + auto + `"><p>` + skippedMsg + `</p></div></article></section>`,
	"one row of many":             far + strings.Repeat(`<div style="`+auto+`;contain-intrinsic-size:auto 40px"><p>In transit</p></div>`, 300) + `<div style="` + auto + `;contain-intrinsic-size:auto 40px"><p>` + skippedMsg + `</p></div>` + strings.Repeat(`<div style="`+auto+`"><p>In transit</p></div>`, 300),
	"in a box that scrolls":       `<div style="height:12em;overflow:auto"><div style="height:4000px"></div><section style="` + auto + `"><p>` + skippedMsg + `</p></section></div>`,
	"in an open shadow root":      far + `<div id="h"></div><script>document.getElementById('h').attachShadow({mode:'open'}).innerHTML='<section style="` + auto + `"><p>` + skippedMsg + `</p></section>'</script>`,
	"in an app's scrolling pane":  `<style>html,body{height:100%;margin:0;overflow:hidden}</style><main style="height:80%;overflow:auto">` + far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section></main>`,
	"under a header fixed on top": `<div style="position:fixed;top:0;left:0;right:0;height:5em;background:#fff;z-index:1">Track</div>` + far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section>` + far,
}

// unseenPages hide skippedMsg from a person who scrolls: it is skipped
// too, and more than skipped.
var unseenPages = map[string]string{
	"until found":                far + `<section style="` + auto + `"><div hidden="until-found">` + skippedMsg + `</div></section>`,
	"until found, no section":    `<div hidden="until-found">` + skippedMsg + `</div>`,
	"in a closed details":        far + `<section style="` + auto + `"><details><summary>More</summary>` + skippedMsg + `</details></section>`,
	"content-visibility hidden":  far + `<section style="` + auto + `"><div style="content-visibility:hidden">` + skippedMsg + `</div></section>`,
	"in a box that shows none":   `<div style="height:0;overflow:hidden">` + far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section></div>`,
	"below an unscrollable page": `<style>html,body{overflow:hidden}</style>` + far + `<section style="` + auto + `"><p>` + skippedMsg + `</p></section>`,
	"white on white":             far + `<section style="` + auto + `;background:#fff"><p style="color:#fff">` + skippedMsg + `</p></section>`,
	"under a white overlay":      far + `<section style="` + auto + `;position:relative"><p>` + skippedMsg + `</p><div style="position:absolute;inset:0;background:#fff"></div></section>`,
}

func skippedSite(t *testing.T) (string, func(string) string) {
	t.Helper()
	routes := map[string]any{}
	path := func(name string) string { return "/" + strings.ReplaceAll(name, " ", "-") }
	for name, body := range skippedPages {
		routes[path(name)] = `<title>parcel</title><h1>Tracking</h1>` + body
	}
	for name, body := range unseenPages {
		routes["/unseen"+path(name)] = `<title>parcel</title><h1>Tracking</h1>` + body
	}
	srv := site(t, routes)
	return srv.URL, path
}

func TestSkippedContentIsReadAsAPersonScrollsToIt(t *testing.T) {
	base, path := skippedSite(t)
	for name := range skippedPages {
		t.Run(name, func(t *testing.T) {
			g := gradeOn(t, base+path(name), textContract("body", skippedMsg), nil)
			if !g.v.Passed {
				t.Errorf("dom_text failed on text a person scrolls to:\n%s", g.explain())
			}
		})
	}
	for name := range unseenPages {
		t.Run("unseen: "+name, func(t *testing.T) {
			g := gradeOn(t, base+"/unseen"+path(name), textContract("body", skippedMsg), nil)
			if g.v.Passed {
				t.Errorf("dom_text passed on text nobody sees by scrolling:\n%s", g.explain())
			}
		})
	}
}

// The agent scrolled to the end: what it left above is skipped, and a
// person scrolls back up to it. The judge leaves in view what the agent
// left in view, where it was.
func TestSkippedContentAboveTheViewport(t *testing.T) {
	srv := site(t, map[string]any{"/": `<title>parcel</title><h1>Tracking</h1><section style="` + auto + `"><p>` + skippedMsg + `</p></section>` +
		strings.Repeat(`<section style="`+auto+`;contain-intrinsic-size:auto 600px"><p>In transit</p><div style="height:900px"></div></section>`, 8) +
		`<p id="end">The end</p><div style="height:400px"></div>`})
	var tab context.Context
	var left float64
	g := gradeOn(t, srv.URL+"/", textContract("body", skippedMsg), func(agent context.Context) {
		tab = agent
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById('end').scrollIntoView(), true`)); err != nil {
			t.Fatalf("scrolling: %v", err)
		}
		// Sections the scroll left behind are skipped, and those it
		// reached are rendered, in the frames that follow: the page is
		// where the agent left it once five frames leave it in place.
		still := `new Promise((done) => { let at = scrollY, n = 0; const f = () => { n = scrollY === at ? n + 1 : 0; at = scrollY; if (n === 5) done(true); else requestAnimationFrame(f); }; requestAnimationFrame(f); })`
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](still, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("waiting for the page to stay in place: %v", err)
		}
		left = endAt(t, tab)
	})
	if !g.v.Passed {
		t.Errorf("dom_text failed on text a person scrolls back up to:\n%s", g.explain())
	}
	if now := endAt(t, tab); math.Abs(now-left) > 1 {
		t.Errorf("the end of the page is at %v in the viewport after grading, want %v where the agent left it", now, left)
	}
}

// endAt is where #end is in the viewport.
func endAt(t *testing.T, tab context.Context) float64 {
	t.Helper()
	y, err := chromedp.Run(tab, chromedp.Evaluate[float64](`document.getElementById('end').getBoundingClientRect().top`))
	if err != nil {
		t.Fatalf("reading where #end is: %v", err)
	}
	return y
}

// A page the judge reads itself is read the same way.
func TestSkippedContentOnThePageTheJudgeOpens(t *testing.T) {
	base, path := skippedSite(t)
	pc := fmt.Sprintf(`postconditions:
  - {kind: dom_text, contains: %[1]q, page: '%[2]s'}
  - {kind: not, child: {kind: dom_text, contains: %[1]q, page: '%[3]s'}}
`, skippedMsg, base+path("nested sections"), base+"/unseen"+path("until found"))
	if g := gradeOn(t, base+"/unseen"+path("until found"), pc, nil); !g.v.Passed {
		t.Errorf("want the skipped text seen and the text hidden until found not:\n%s", g.explain())
	}
}
