package judge

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// The traps: pages built to make a careless judge pass a task that was not
// done, or fail one that was. Each runs in real Chromium, through the same
// Grade the runner calls, with the page's clock run ahead as in a real run.

// graded is one trap's outcome.
type graded struct {
	v   contract.Verdict
	obs contract.Observation
}

// gradeOn attaches a judge, opens a tab, marks the agent's first tool call,
// loads url in the tab, lets act play the agent's part, and grades the
// contract.
func gradeOn(t *testing.T, url, contractYAML string, act func(tab context.Context)) graded {
	t.Helper()
	pc, err := contract.Parse([]byte(contractYAML))
	if err != nil {
		t.Fatalf("contract: %v", err)
	}
	j := attach(t, Options{})
	tab := openTab(t)
	j.MarkToolCall()
	navigate(t, tab, url)
	if act != nil {
		act(tab)
	}
	ctx, cancel := bounded(t)
	defer cancel()
	v, obs, err := j.Grade(ctx, pc, nil)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	return graded{v, obs}
}

func (g graded) explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "passed=%v failed=%s unstable=%q undecided=%v\n", g.v.Passed, g.v.FailedClause(), g.v.Unstable, g.v.Undecided)
	for _, e := range g.v.Evidence {
		fmt.Fprintf(&b, "  %s (%s) passed=%v: expected %s; saw %s\n", e.Path, e.Kind, e.Passed, e.Expected, e.Seen)
	}
	return b.String()
}

func textContract(selector, contains string) string {
	return fmt.Sprintf("postconditions:\n  - {kind: dom_text, selector: %q, contains: %q}\n", selector, contains)
}

// TestTextNobodySees: text that is in the document but not on the screen
// is not evidence, whatever hides it.
func TestTextNobodySees(t *testing.T) {
	const msg = "Added to your cart"
	pages := map[string]string{
		"hidden attribute":   `<div hidden>` + msg + `</div>`,
		"display none":       `<div style="display:none">` + msg + `</div>`,
		"noscript":           `<noscript>` + msg + `</noscript>`,
		"opacity 0":          `<div style="opacity:0">` + msg + `</div>`,
		"opacity 0 ancestor": `<div style="opacity:0"><section><p>` + msg + `</p></section></div>`,
		"visibility hidden":  `<div style="visibility:hidden">` + msg + `</div>`,
		"off the page":       `<div style="position:absolute;left:-9999px;top:0">` + msg + `</div>`,
		"screen reader only": `<div style="position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0">` + msg + `</div>`,
		"clipped by parent":  `<div style="height:0;overflow:hidden"><p>` + msg + `</p></div>`,
		"font size 0":        `<div style="font-size:0">` + msg + `</div>`,
		"transparent ink":    `<div style="color:transparent">` + msg + `</div>`,
		"closed details":     `<details><summary>More</summary>` + msg + `</details>`,
		"template":           `<template><p>` + msg + `</p></template>`,
		"zero size box":      `<div style="width:0;height:0;overflow:hidden">` + msg + `</div>`,
		"scaled to nothing":  `<div style="transform:scale(0.01);transform-origin:0 0">` + msg + `</div>`,
		"white on white":     `<div style="color:#fff;background:#fff">` + msg + `</div>`,
		"ink like the page":  `<div style="color:#fefefe">` + msg + `</div>`,
		"nearly transparent": `<div style="opacity:0.01">` + msg + `</div>`,
		"filter opacity 0":   `<div style="filter:opacity(0)">` + msg + `</div>`,
		"clip-path inset":    `<div style="clip-path:inset(50%)">` + msg + `</div>`,
		"fixed off screen":   `<div style="position:fixed;top:-200px;left:0">` + msg + `</div><div style="height:3000px"></div>`,
		"text-indent away":   `<h2 style="text-indent:-9999px">` + msg + `</h2>`,
		// Part of a text is shown, the rest is not: only the part counts.
		"cut after a line":    `<p style="width:12em;height:1.2em;line-height:1.2em;overflow:hidden">Thank you for shopping with us today. ` + msg + `</p>`,
		"line clamp":          `<p style="width:12em;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden">Thank you for shopping with us today, we hope to see you again soon. ` + msg + `</p>`,
		"cut by an ellipsis":  `<div style="width:9em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis">Your items: ` + msg + `</div>`,
		"partly off the page": `<div style="margin-left:-20em;white-space:nowrap">` + msg + ` and welcome back to the shop</div>`,
		// Boxes that clip without overflow:hidden.
		"scroller of no height":  `<div style="height:0;overflow:auto">` + msg + `</div>`,
		"paint containment":      `<div style="contain:paint;height:0">` + msg + `</div>`,
		"clip-path polygon":      `<div style="clip-path:polygon(0 0, 0 0, 0 0)">` + msg + `</div>`,
		"clip-path flat ellipse": `<div style="clip-path:ellipse(0 50%)">` + msg + `</div>`,
		"clip-path empty url":    `<svg width="0" height="0" style="position:absolute"><clipPath id="none"></clipPath></svg><div style="clip-path:url(#none)">` + msg + `</div>`,
		// Painted so nobody can read it.
		"transparent mask": `<div style="-webkit-mask-image:linear-gradient(transparent,transparent);mask-image:linear-gradient(transparent,transparent)">` + msg + `</div>`,
		"blurred":          `<div style="filter:blur(8px)">` + msg + `</div>`,
		"svg text no fill": `<svg width="400" height="40"><text x="0" y="20" fill="none">` + msg + `</text></svg>`,
		"svg text white":   `<svg width="400" height="40"><text x="0" y="20" fill="#fff">` + msg + `</text></svg>`,
		"turned edge-on":   `<div style="transform:rotateY(90deg)">` + msg + `</div>`,
		"back face hidden": `<div style="transform:rotateY(180deg);backface-visibility:hidden">` + msg + `</div>`,
		// Covered by something opaque painted over it.
		"covered by a box":    `<div style="position:relative"><p>` + msg + `</p><div style="position:absolute;inset:0;background:#fff"></div></div>`,
		"covered, no events":  `<div style="position:relative"><p>` + msg + `</p><div style="position:absolute;inset:0;background:#fff;pointer-events:none"></div></div>`,
		"behind a background": `<div style="background:#fff"><p style="position:relative;z-index:-1">` + msg + `</p></div>`,
		"under a wall, below": `<div style="position:fixed;inset:0;background:#fff;z-index:5">Subscribe to read</div><div style="height:3000px"></div><p>` + msg + `</p>`,
		// Where nobody can scroll to.
		"below an unscrollable page": `<style>html,body{overflow:hidden}</style><div style="height:3000px"></div><p>` + msg + `</p>`,
		// Ink the colour of a gradient background.
		"white on a white gradient": `<div style="color:#fff;background-image:linear-gradient(#fff,#fefefe)">` + msg + `</div>`,
		// Paint that covers or erases the text, each a kind the rules do not
		// name: the pixels decide.
		"under a modal's backdrop":         `<style>dialog::backdrop{background:#fff}</style><p>` + msg + `</p><dialog id="d">Sign in to continue</dialog><script>document.getElementById('d').showModal()</script>`,
		"under an ::after overlay":         `<style>.w{position:relative}.w::after{content:"";position:absolute;inset:0;background:#fff}</style><div class="w"><p>` + msg + `</p></div>`,
		"under a box's shadow":             `<div style="position:fixed;top:0;left:0;width:0;height:0;box-shadow:0 0 0 4000px #fff;z-index:9"></div><p>` + msg + `</p>`,
		"blended white on white":           `<div style="background:#fff"><p style="color:#000;mix-blend-mode:screen">` + msg + `</p></div>`,
		"blended away by lighten":          `<div style="background:#fff;isolation:isolate"><p style="color:#333;mix-blend-mode:lighten">` + msg + `</p></div>`,
		"mask sized to nothing":            `<div style="-webkit-mask-image:linear-gradient(#000,#000);mask-image:linear-gradient(#000,#000);-webkit-mask-size:0 0;mask-size:0 0;-webkit-mask-repeat:no-repeat;mask-repeat:no-repeat">` + msg + `</div>`,
		"clip-path path":                   `<div style="clip-path:path('M0 0 L1 0 L1 1 Z')">` + msg + `</div>`,
		"svg text like its shape":          `<svg width="400" height="40"><rect width="400" height="40" fill="#036"/><text x="4" y="24" fill="#036">` + msg + `</text></svg>`,
		"at the top, under a fixed header": `<div style="position:fixed;top:0;left:0;right:0;height:9em;background:#fff;z-index:1">Shop</div><p>` + msg + `</p><div style="height:3000px"></div>`,
		"white on white in a dark page":    `<div style="background:#111;padding:2em"><div style="color:#fff;background-image:linear-gradient(#fff,#fff)">` + msg + `</div></div>`,
		"generated text, transparent":      `<style>.s::before{content:"` + msg + `";color:transparent}</style><span class="s"></span>`,
		"generated text, covered":          `<style>dialog::backdrop{background:#fff}.s::before{content:"` + msg + `"}</style><span class="s"></span><dialog id="d">Sign in</dialog><script>document.getElementById('d').showModal()</script>`,
	}
	// What a person can see, or bring into view by scrolling: each passes.
	shown := map[string]string{
		"a long wrapped paragraph":     `<p style="width:12em">Thank you for shopping with us today, we hope to see you again soon. ` + msg + `</p>`,
		"in a box it scrolls":          `<div style="height:3em;overflow:auto"><p style="height:20em">Scroll down.</p><p>` + msg + `</p></div>`,
		"whole before an ellipsis":     `<div style="width:30em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis">` + msg + `</div>`,
		"scrolled from a fixed header": `<div style="position:fixed;top:0;left:0;right:0;height:6em;background:#fff;z-index:1">Shop</div><div style="height:1500px"></div><p>` + msg + `</p><div style="height:3000px"></div>`,
		"beside a positioned box":      `<div style="position:relative"><p>` + msg + `</p><div style="position:absolute;top:0;left:40em;width:5em;height:5em;background:#000"></div></div>`,
		"under a translucent box":      `<div style="position:relative"><p>` + msg + `</p><div style="position:absolute;inset:0;background:rgba(0,0,0,0.2)"></div></div>`,
		"svg text":                     `<svg width="400" height="40"><text x="0" y="20">` + msg + `</text></svg>`,
		"slightly blurred":             `<div style="filter:blur(0.3px)">` + msg + `</div>`,
		"descenders clipped":           `<div style="height:0.8em;line-height:0.8em;overflow:hidden">` + msg + `</div>`,
		"clip-path circle":             `<div style="display:inline-block;padding:2em;clip-path:circle(70%)">` + msg + `</div>`,
		"an opaque mask":               `<div style="-webkit-mask-image:linear-gradient(#000,#000);mask-image:linear-gradient(#000,#000)">` + msg + `</div>`,
		"in the wall's own box":        `<div style="position:fixed;inset:0;background:#fff;z-index:5"><p>` + msg + `</p></div>`,
		"white on a dark gradient":     `<div style="color:#fff;background-image:linear-gradient(#000,#333)">` + msg + `</div>`,
		"white on a dark backdrop":     `<div style="position:relative;padding:1em"><div style="position:absolute;inset:0;background:#123"></div><p style="position:relative;color:#fff">` + msg + `</p></div>`,
		"below a scrolling page":       `<div style="height:3000px"></div><p>` + msg + `</p>`,
		"deep in a box it scrolls":     `<div style="height:10em;overflow:auto"><div style="height:3000px"></div><p>` + msg + `</p></div>`,
		// Genuine pages: paint near the text that covers none of it.
		"beside a cookie banner":     `<div style="position:fixed;bottom:0;left:0;right:0;height:6em;background:#fff;box-shadow:0 0 8px #000;z-index:9">We use cookies <button>Accept</button></div><p>` + msg + `</p>`,
		"under a dimming backdrop":   `<style>dialog::backdrop{background:rgba(0,0,0,0.3)}</style><p>` + msg + `</p><dialog id="d">Saved</dialog><script>document.getElementById('d').showModal()</script>`,
		"in a modal dialog":          `<style>dialog::backdrop{background:#fff}</style><dialog id="d"><p>` + msg + `</p></dialog><script>document.getElementById('d').showModal()</script>`,
		"a card's shadow":            `<div style="box-shadow:0 2px 12px rgba(0,0,0,.4);padding:1em">` + msg + `</div>`,
		"blended by multiply":        `<div style="background:#fff"><p style="mix-blend-mode:multiply">` + msg + `</p></div>`,
		"svg text on a shape":        `<svg width="400" height="40"><rect width="400" height="40" fill="#036"/><text x="4" y="24" fill="#fff">` + msg + `</text></svg>`,
		"generated text":             `<style>.s::before{content:"` + msg + `"}</style><span class="s"></span>`,
		"a busy page":                strings.Repeat(`<div class="row"><span>Item</span> <b>in stock</b> <i>ships tomorrow</i></div>`, 400) + `<p>` + msg + `</p>`,
		"in an open shadow root":     `<div id="h"></div><script>document.getElementById('h').attachShadow({mode:'open'}).innerHTML='<p>` + msg + `</p>'</script>`,
		"in an app's scrolling pane": `<style>html,body{height:100%;margin:0;overflow:hidden}</style><main style="height:80%;overflow:auto"><div style="height:3000px"></div><p>` + msg + `</p></main>`,
	}
	routes := map[string]any{}
	for name, body := range pages {
		routes["/"+strings.ReplaceAll(name, " ", "-")] = `<title>cart</title><h1>Your cart</h1>` + body
	}
	for name, body := range shown {
		routes["/shown/"+strings.ReplaceAll(name, " ", "-")] = `<title>cart</title><h1>Your cart</h1>` + body
	}
	routes["/control"] = `<title>cart</title><h1>Your cart</h1><p>` + msg + `</p>`
	srv := site(t, routes)
	for name := range pages {
		t.Run(name, func(t *testing.T) {
			g := gradeOn(t, srv.URL+"/"+strings.ReplaceAll(name, " ", "-"), textContract("body", msg), nil)
			if g.v.Passed {
				t.Errorf("dom_text passed on text nobody can see:\n%s", g.explain())
			}
		})
	}
	for name := range shown {
		t.Run("shown: "+name, func(t *testing.T) {
			if g := gradeOn(t, srv.URL+"/shown/"+strings.ReplaceAll(name, " ", "-"), textContract("body", msg), nil); !g.v.Passed {
				t.Errorf("dom_text failed on text a person can see:\n%s", g.explain())
			}
		})
	}
	t.Run("control: the same text, visible, passes", func(t *testing.T) {
		if g := gradeOn(t, srv.URL+"/control", textContract("body", msg), nil); !g.v.Passed {
			t.Errorf("dom_text failed on visible text:\n%s", g.explain())
		}
	})
	t.Run("a visible child of a visibility:hidden parent is seen", func(t *testing.T) {
		srv := site(t, map[string]any{"/": `<div style="visibility:hidden">secret <span style="visibility:visible">` + msg + `</span></div>`})
		g := gradeOn(t, srv.URL+"/", "postconditions:\n  - {kind: dom_text, contains: \""+msg+"\"}\n  - {kind: not, child: {kind: dom_text, contains: secret}}\n", nil)
		if !g.v.Passed {
			t.Errorf("want the visible child seen and its hidden parent's own text not:\n%s", g.explain())
		}
	})
	t.Run("gradient text painted by its background is seen", func(t *testing.T) {
		srv := site(t, map[string]any{"/": `<h1 style="background:linear-gradient(red,blue);-webkit-background-clip:text;background-clip:text;color:transparent">` + msg + `</h1>`})
		if g := gradeOn(t, srv.URL+"/", textContract("h1", msg), nil); !g.v.Passed {
			t.Errorf("text drawn by background-clip:text is visible:\n%s", g.explain())
		}
	})
}

// TestCountsOnlyVisibleElements: a hidden duplicate row, or one an opaque
// box is painted over, does not make two items in the cart.
func TestCountsOnlyVisibleElements(t *testing.T) {
	srv := site(t, map[string]any{"/": `<ul class="cart"><li>Tea</li><li style="display:none">Tea</li><li hidden>Tea</li><li style="visibility:hidden">Tea</li></ul>` +
		`<div style="position:relative"><ul class="cart"><li>Tea</li></ul><div style="position:absolute;inset:0;background:#fff"></div></div>`})
	g := gradeOn(t, srv.URL+"/", "postconditions:\n  - {kind: dom_count, selector: '.cart li', op: eq, value: 1}\n", nil)
	if !g.v.Passed {
		t.Errorf("want one visible row:\n%s", g.explain())
	}
	if el := g.obs.Elements[".cart li"]; el.Count != 1 || el.Hidden != 4 {
		t.Errorf("Elements = %+v, want 1 counted and 4 hidden", el)
	}
}

// TestTypingIsNotEvidence: what the agent typed into the page is not what
// the page says.
func TestTypingIsNotEvidence(t *testing.T) {
	const said = "Order placed"
	srv := site(t, map[string]any{
		"/editable": `<h1>Notes</h1><div id="ed" contenteditable style="width:400px;height:100px;border:1px solid">x</div>`,
		"/field":    `<h1>Notes</h1><textarea id="ed" style="width:400px;height:100px"></textarea><input id="in" style="width:300px">`,
	})
	typeInto := func(tab context.Context) {
		if err := chromedp.Do(tab, chromedp.MouseClickXY(100, 80), chromedp.KeyEvent(said)); err != nil {
			t.Fatalf("typing: %v", err)
		}
	}
	for _, page := range []string{"/editable", "/field"} {
		t.Run(page, func(t *testing.T) {
			g := gradeOn(t, srv.URL+page, textContract("body", said), typeInto)
			if g.v.Passed {
				t.Errorf("the agent's own typing passed a dom_text:\n%s", g.explain())
			}
		})
	}
}

// TestCompleteEvaluation: a verdict never depends on how much of the page
// the Observation keeps.
func TestCompleteEvaluation(t *testing.T) {
	var cards, long strings.Builder
	for i := 1; i <= 60; i++ {
		stock := "In stock"
		if i == 55 {
			stock = "Out of stock"
		}
		fmt.Fprintf(&cards, `<div class="card"><h2>Item %d</h2><p>%s</p></div>`, i, stock)
	}
	long.WriteString("<p>")
	for long.Len() < 300<<10 {
		long.WriteString("filler words that fill the page ")
	}
	long.WriteString("</p><p>The answer is forty-two.</p>")
	srv := site(t, map[string]any{"/cards": cards.String(), "/long": long.String()})

	t.Run("forbidden text in match 55 fails a not", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/cards", "postconditions:\n  - {kind: not, child: {kind: dom_text, selector: .card, contains: Out of stock}}\n", nil)
		if g.v.Passed {
			t.Errorf("not dom_text passed although match 55 holds the text:\n%s", g.explain())
		}
	})
	t.Run("an answer in match 55 passes", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/cards", textContract(".card", "Item 55"), nil)
		if !g.v.Passed {
			t.Errorf("dom_text failed on match 55:\n%s", g.explain())
		}
		if hit := g.obs.Elements[".card"].Contains["Item 55"]; hit.Match != 55 {
			t.Errorf("Contains = %+v, want match 55", hit)
		}
		if el := g.obs.Elements[".card"]; !el.TextsCut || len(el.Texts) != defaultMaxTexts || el.Count != 60 {
			t.Errorf("stored texts: %d kept of %d, cut=%v; want %d kept and the cut said", len(el.Texts), el.Count, el.TextsCut, defaultMaxTexts)
		}
	})
	t.Run("an answer after 300 KB of text passes", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/long", textContract("body", "The answer is forty-two."), nil)
		if !g.v.Passed {
			t.Errorf("dom_text failed on text past the stored bound:\n%s", g.explain())
		}
	})
	t.Run("a stored observation that cannot decide a clause never passes", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/long", textContract("body", "The answer is forty-two."), nil)
		pc, err := contract.Parse([]byte("postconditions:\n  - {kind: not, child: {kind: dom_text, contains: something else}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		v := contract.Evaluate(pc, g.obs, nil)
		if v.Passed || !v.Undecided {
			t.Errorf("re-grading a cut observation for a string it has no answer for: passed=%v undecided=%v, want a failure that says it is undecided", v.Passed, v.Undecided)
		}
	})
}

// startPaused stops the page's clock and then calls the page's start(),
// which sets its timer: the timer fires only when the judge runs the
// page's clock ahead, never in the real time a busy machine takes to get
// the judge to its first reading, so the test means the same on any
// machine.
func startPaused(t *testing.T) func(tab context.Context) {
	return func(tab context.Context) {
		t.Helper()
		if _, err := chromedp.Call(tab, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{Policy: emulation.VirtualTimePolicyPause}); err != nil {
			t.Fatalf("stopping the page's clock: %v", err)
		}
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool]("start(), true")); err != nil {
			t.Fatalf("starting the page's timer: %v", err)
		}
	}
}

// TestTransientStatesFail: a page that shows success and replaces it a
// moment later did not succeed.
func TestTransientStatesFail(t *testing.T) {
	srv := site(t, map[string]any{
		"/flip":  `<p id="m">Order confirmed</p><script>function start() { setTimeout(() => { document.getElementById('m').textContent = 'Payment declined' }, 1500) }</script>`,
		"/late":  `<p id="m">Processing</p><script>function start() { setTimeout(() => { document.getElementById('m').textContent = 'Order confirmed' }, 1500) }</script>`,
		"/fetch": `<p id="m">Order confirmed</p><script>fetch('/slow').then(r => r.text()).then(t => { document.getElementById('m').textContent = t })</script>`,
		"/slow": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(1500 * time.Millisecond)
			fmt.Fprint(w, "Payment declined")
		}),
		"/steady": `<p id="m">Order confirmed</p>`,
	})
	for _, tc := range []struct {
		page, why string
		paused    bool
	}{
		{"/flip", "replaced by a timer after 1.5 s", true},
		{"/late", "shown only 1.5 s after the agent stopped", true},
		{"/fetch", "replaced when a slow request answers", false},
	} {
		t.Run(tc.page, func(t *testing.T) {
			var act func(context.Context)
			if tc.paused {
				act = startPaused(t)
			}
			g := gradeOn(t, srv.URL+tc.page, textContract("#m", "Order confirmed"), act)
			if g.v.Passed {
				t.Errorf("a state %s passed:\n%s", tc.why, g.explain())
			}
		})
	}
	t.Run("flip reason", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/flip", textContract("#m", "Order confirmed"), startPaused(t))
		if !strings.Contains(g.v.Unstable, "transient") {
			t.Errorf("Unstable = %q, want it to say the state was transient", g.v.Unstable)
		}
	})
	t.Run("a steady page passes", func(t *testing.T) {
		if g := gradeOn(t, srv.URL+"/steady", textContract("#m", "Order confirmed"), nil); !g.v.Passed {
			t.Errorf("steady page failed:\n%s", g.explain())
		}
	})
}

// TestActivePageFollowsTheAgentAcrossWindows: a popup window is active
// while the agent works in it, and the agent's own tab again once the
// agent acts there.
func TestActivePageFollowsTheAgentAcrossWindows(t *testing.T) {
	onBothBrowsers(t, activePageFollowsTheAgentAcrossWindows)
}

func activePageFollowsTheAgentAcrossWindows(t *testing.T) {
	srv := site(t, map[string]any{
		"/opener": `<title>opener</title><button style="position:fixed;left:0;top:0;width:300px;height:200px" onclick="window.open('/popup', 'pw', 'popup,width=500,height=400')">open</button><input style="position:fixed;left:0;top:250px;width:300px">`,
		"/popup":  `<title>popup</title><h1>popup page</h1>`,
	})
	j := attach(t, stillClock)
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/opener")
	opener := chromedp.FromContext(tab).Target.TargetID
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
		t.Fatalf("clicking: %v", err)
	}
	waitRecorded(t, j, "the popup", documentLoaded(srv.URL+"/popup"))
	t.Cleanup(func() {
		infos, _ := chromedp.Targets(driver)
		for _, info := range infos {
			if info.OpenerID == opener {
				chromedp.CallBrowser(driver, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID})
			}
		}
	})
	// A popup the agent has done nothing in is the page's, not the
	// agent's: the opener, where it clicked, is still its page.
	obs := observe(t, j)
	if obs.URL != srv.URL+"/opener" {
		t.Errorf("with the popup just opened, active page = %s (%s), want the opener: the agent has done nothing in the popup", obs.URL, obs.Active)
	}
	// The agent acts in the popup: now the popup is its page.
	popupTab, cancelPopup := chromedp.NewContext(driver, chromedp.WithTargetID(openedBy(t, opener, srv.URL+"/popup")), chromedp.WithDetachOnCancel())
	defer cancelPopup()
	if err := chromedp.Do(popupTab, chromedp.MouseClickXY(20, 20)); err != nil {
		t.Fatalf("clicking in the popup: %v", err)
	}
	if obs := observe(t, j); obs.URL != srv.URL+"/popup" {
		t.Errorf("after the agent clicked in the popup, active page = %s (%s), want the popup", obs.URL, obs.Active)
	}
	// The agent goes back to its own window and types there.
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 260), chromedp.KeyEvent("back here")); err != nil {
		t.Fatalf("typing in the opener: %v", err)
	}
	obs = observe(t, j)
	if obs.URL != srv.URL+"/opener" {
		t.Errorf("after the agent acted in its own window again, active page = %s, want the opener (%s)", obs.URL, obs.Active)
	}
}

// TestRequestsWhileTheJudgeWaitsAreNotEvidence: a request the page makes
// on its own only after the agent stopped (here when its clock is run
// ahead) did not happen while the agent worked.
func TestRequestsWhileTheJudgeWaitsAreNotEvidence(t *testing.T) {
	srv := site(t, map[string]any{
		"/order": `<h1>Basket</h1><script>function start() { setTimeout(() => fetch('/api/order', {method: 'POST'}), 2000) }</script>`,
	})
	g := gradeOn(t, srv.URL+"/order", "postconditions:\n  - {kind: network, url_pattern: '/api/order$', method: POST, status_in: [404, 405]}\n", startPaused(t))
	if g.v.Passed {
		t.Errorf("a request that only the page's timer made after the agent stopped passed:\n%s", g.explain())
	}
}

// TestPrefetchesAreNotVisits: what the browser fetches ahead of need, in
// case the agent goes there, is not a visit.
func TestPrefetchesAreNotVisits(t *testing.T) {
	srv := site(t, map[string]any{
		"/start":           `<h1>Shop</h1><link rel="prefetch" href="/checkout/done"><script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["/order/confirmed"]}], "prerender": [{"source": "list", "urls": ["/order/receipt"]}]}</script>`,
		"/checkout/done":   `<h1>Done</h1>`,
		"/order/confirmed": `<h1>Confirmed</h1>`,
		"/order/receipt":   `<h1>Receipt</h1>`,
	})
	for _, path := range []string{"/checkout/done", "/order/confirmed", "/order/receipt"} {
		t.Run(path, func(t *testing.T) {
			g := gradeOn(t, srv.URL+"/start", fmt.Sprintf("postconditions:\n  - {kind: network, url_pattern: '%s$', status_in: [200]}\n", path), func(context.Context) {
				time.Sleep(time.Second) // time for the browser to fetch ahead
			})
			if g.v.Passed {
				t.Errorf("a request the browser made ahead of need passed a network clause:\n%s", g.explain())
			}
		})
	}
}

// TestStartPageRequestsAreNotTheAgents: what the start page fetches while
// it loads, before the agent acts, is not evidence of the agent's work.
func TestStartPageRequestsAreNotTheAgents(t *testing.T) {
	srv := site(t, map[string]any{
		"/start": `<h1>Shop</h1><script>fetch('/api/track?q=tea')</script>`,
	})
	const pc = "postconditions:\n  - {kind: network, url_pattern: '/api/track\\?q=tea$', status_in: [404]}\n"
	parsed, err := contract.Parse([]byte(pc))
	if err != nil {
		t.Fatal(err)
	}
	j := attach(t, Options{})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/start") // the harness opens the start page
	waitRecorded(t, j, "the start page's fetch", hasRequest("/api/track?q=tea", true))
	// The agent's first tool call starts now, and reads the page only.
	j.MarkToolCall()
	ctx, cancel := bounded(t)
	defer cancel()
	v, _, err := j.Grade(ctx, parsed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Passed {
		t.Errorf("a request the start page made before the agent acted passed a network clause:\n%s", graded{v: v}.explain())
	}
}

// TestShadowRootsAndTextTransform: text in open shadow roots is seen, and
// CSS text-transform does not change what is compared.
func TestShadowRootsAndTextTransform(t *testing.T) {
	srv := site(t, map[string]any{
		"/shadow": `<product-card><span slot="price">12 EUR</span></product-card>
<script>
customElements.define('product-card', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({mode: 'open'}).innerHTML = '<h2 class="name">Shadow Teapot</h2><p>Price: <slot name="price"></slot></p>';
  }
});
</script>`,
		"/upper": `<h1 style="text-transform:uppercase">Example Domain</h1>`,
	})
	t.Run("shadow text and slotted text", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/shadow", `postconditions:
  - {kind: dom_text, contains: "Shadow Teapot"}
  - {kind: dom_text, contains: "Price: 12 EUR"}
  - {kind: dom_count, selector: h2.name, op: eq, value: 1}
`, nil)
		if !g.v.Passed {
			t.Errorf("open shadow root not seen:\n%s", g.explain())
		}
	})
	t.Run("text-transform", func(t *testing.T) {
		g := gradeOn(t, srv.URL+"/upper", `postconditions:
  - {kind: dom_text, selector: h1, contains: "Example Domain"}
  - {kind: not, child: {kind: dom_text, selector: h1, contains: "EXAMPLE DOMAIN"}}
`, nil)
		if !g.v.Passed {
			t.Errorf("comparison depends on text-transform:\n%s", g.explain())
		}
	})
}

// TestStillLoadingPageIsWaitedFor: a page still loading when the agent
// stops is read once it has loaded, however long past the quiet bound
// that takes (within LoadMax). A busy machine loads pages slower, and the
// verdict must not depend on how busy the machine was.
func TestStillLoadingPageIsWaitedFor(t *testing.T) {
	srv := site(t, map[string]any{
		"/start":     `<p>start</p><script>addEventListener('load', () => setTimeout(() => { location.href = '/slow-page' }, 0))</script>`,
		"/slow-page": `<p id="m">Loading</p><img src="/slow-image" alt=""><script>addEventListener('load', () => { document.getElementById('m').textContent = 'Loaded' })</script>`,
		"/slow-image": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`)
		}),
	})
	pc, err := contract.Parse([]byte(textContract("#m", "Loaded")))
	if err != nil {
		t.Fatal(err)
	}
	j := attach(t, Options{SettleMax: 300 * time.Millisecond, LoadMax: time.Minute})
	tab := openTab(t)
	j.MarkToolCall()
	navigate(t, tab, srv.URL+"/start")
	waitRecorded(t, j, "the slow page's document", documentLoaded(srv.URL+"/slow-page"))
	ctx, cancel := bounded(t)
	defer cancel()
	v, obs, err := j.Grade(ctx, pc, nil)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	if g := (graded{v, obs}); !v.Passed {
		t.Errorf("a page read before it finished loading:\n%s", g.explain())
	}
}

// TestRequestsOfAReplacedDocumentDoNotHoldTheJudge: a page whose script
// navigates away while one of its images is still loading. The browser
// cancels the image with its document and never reports its end, so a
// judge that waited for it would wait out its bound on every such page,
// and then read the page as if it never settled. Requests of a document
// the main frame replaced are not waited for; they stay in the log.
func TestRequestsOfAReplacedDocumentDoNotHoldTheJudge(t *testing.T) {
	srv := site(t, map[string]any{
		"/search":  `<p>Searching</p><img src="/logo.svg" alt=""><script>location.replace('/article')</script>`,
		"/article": `<p id="m">The article</p>`,
		"/logo.svg": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done() // answers never: only a cancel ends it
		}),
	})
	j := attach(t, Options{SettleMax: 2 * time.Second})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/search")
	waitRecorded(t, j, "the article's document", documentLoaded(srv.URL+"/article"))
	busy, err := j.Settle(t.Context())
	if err != nil {
		t.Fatalf("Settle: %v", err)
	}
	if busy != "" {
		t.Errorf("the judge waited on a request of the replaced page: %s", busy)
	}
	obs := observe(t, j, "#m")
	logged := false
	for _, n := range obs.Network {
		logged = logged || n.URL == srv.URL+"/logo.svg"
	}
	if !logged || obs.Elements["#m"].Count != 1 {
		t.Errorf("the log lost the replaced page's image (%v) or the article was not read (%d #m)", logged, obs.Elements["#m"].Count)
	}
}

// TestTextAsAPersonReadsIt: the text of ordinary markup reads as it does on
// the screen: the space between inline elements is kept, a no-break space
// is a space, and text CSS generates is part of it; words the page does
// not separate are not separated.
func TestTextAsAPersonReadsIt(t *testing.T) {
	cases := []struct {
		name, html, contains string
		want                 bool
	}{
		{"a label and its value", `<p><span>Status:</span> <span>Shipped</span></p>`, "Status: Shipped", true},
		{"a no-break space before an abbreviation", `<p>1.2&nbsp;<abbr>kg</abbr></p>`, "1.2 kg", true},
		{"a no-break space alone", `<p><span>1.2</span>&nbsp;<abbr>kg</abbr></p>`, "1.2 kg", true},
		{"a header of links", `<header><a href="/">store.example</a> <a href="/o">Your orders</a> <a href="/h">Help</a></header>`, "store.example Your orders Help", true},
		{"a space in an inline element", `<p>Hello<em> </em>world</p>`, "Hello world", true},
		{"tokens of highlighted code", `<pre><code><span class="k">hg</span> <span class="n">push</span></code></pre>`, "hg push", true},
		{"a citation's backlink", `<ol><li><a href="#r">^</a> <cite>Smith, J. (2020)</cite></li></ol>`, "^ Smith, J. (2020)", true},
		{"a list of version links", `<p><a href="/1">1.0</a>, <a href="/2">1.1</a>, <a href="/3">2.0</a></p>`, "1.0, 1.1, 2.0", true},
		{"generated before", `<style>.status::before{content:"Shipped"}</style><p>Order 42: <span class="status"></span></p>`, "Order 42: Shipped", true},
		{"generated after, with attr()", `<style>.n::after{content:" #" attr(data-id)}</style><p><span class="n" data-id="7731">Order</span></p>`, "Order #7731", true},
		{"generated text in document order", `<style>.p::before{content:"Total: "}.p::after{content:" EUR"}</style><p class="p">12.50</p>`, "Total: 12.50 EUR", true},
		// Precision: what the page runs together stays together.
		{"no space between spans", `<p><span>Status:</span><span>Shipped</span></p>`, "Status: Shipped", false},
		{"blocks are not joined", `<div>Status:</div><div>Shipped</div>`, "Status:Shipped", false},
	}
	routes := map[string]any{}
	for i, c := range cases {
		routes[fmt.Sprintf("/%d", i)] = `<title>text</title>` + c.html
	}
	srv := site(t, routes)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := gradeOn(t, fmt.Sprintf("%s/%d", srv.URL, i), textContract("body", c.contains), nil)
			if g.v.Passed != c.want {
				t.Errorf("dom_text contains %q passed=%v, want %v:\n%s", c.contains, g.v.Passed, c.want, g.explain())
			}
		})
	}
}

// TestRealMarkupReads: what real pages do around their text, each found
// on the saved pages docs/benchmarks/reading.md measures, read as a person
// reads it.
func TestRealMarkupReads(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&long, `<p style="margin:0 0 1000px">Paragraph number %d of the long article.</p>`, i)
	}
	pages := map[string]struct {
		html string
		sees []string
	}{
		"a cookie bar fixed to the bottom": {
			`<p>Above the fold: a first sentence that a person reads.</p><p style="margin-top:560px">Near the bottom: the order was placed today.</p><div style="height:3000px"></div><div style="position:fixed;left:0;right:0;bottom:0;height:200px;background:#333;color:#fff">We use cookies. <button>I Accept</button></div>`,
			[]string{"Near the bottom: the order was placed today.", "Above the fold: a first sentence that a person reads."},
		},
		"a header fixed to the top": {
			`<div style="position:fixed;top:0;left:0;right:0;height:120px;background:#fff;z-index:1"><div style="position:relative;background:#c00;height:40px">Site header</div></div><div style="height:1500px"></div><p>The second sentence is a little higher up.</p><div style="height:300px"></div><p>The first sentence is further down the page.</p><div style="height:3000px"></div>`,
			[]string{"The first sentence is further down the page.", "The second sentence is a little higher up."},
		},
		"many sentences far apart": {long.String(), []string{
			"Paragraph number 1 of the long article.", "Paragraph number 4 of the long article.", "Paragraph number 6 of the long article.",
			"Paragraph number 7 of the long article.", "Paragraph number 9 of the long article.", "Paragraph number 12 of the long article.",
		}},
		"a floated drop cap": {
			`<p><span style="float:left;font-size:4em;line-height:1">T</span>he order was placed today. It ships tomorrow from our shop.</p>`,
			[]string{"The order was placed today."},
		},
	}
	routes := map[string]any{}
	for name, p := range pages {
		routes["/"+strings.ReplaceAll(name, " ", "-")] = `<title>page</title>` + p.html
	}
	srv := site(t, routes)
	for name, p := range pages {
		t.Run(name, func(t *testing.T) {
			var c strings.Builder
			c.WriteString("postconditions:\n")
			for _, s := range p.sees {
				fmt.Fprintf(&c, "  - {kind: dom_text, selector: body, contains: %q}\n", s)
			}
			if g := gradeOn(t, srv.URL+"/"+strings.ReplaceAll(name, " ", "-"), c.String(), nil); !g.v.Passed {
				t.Errorf("text a person reads failed:\n%s", g.explain())
			}
		})
	}
}
