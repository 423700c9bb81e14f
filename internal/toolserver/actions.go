package toolserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp/kb"

	"contractbench/internal/toolserver/snapshot"
)

// described is an element as describe.js reports it.
type described struct {
	snapshot.Control
	Visible bool   `json:"visible"`
	Covered string `json:"covered"`
}

func (t *tab) describe(ctx context.Context, obj runtime.RemoteObjectID, x, y float64) (described, error) {
	var d described
	raw, err := t.callOn(ctx, obj, describeJS, x, y)
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return d, fmt.Errorf("decoding describe.js result: %w", err)
	}
	return d, nil
}

// reach scrolls the element ref names into view and returns the viewport
// point at the centre of its visible part, with the element's description.
// With hitTest, it fails when a click there would land on another element
// (a cookie banner, a modal), naming that element: a real user could not
// click through it either.
func (s *Server) reach(ctx context.Context, t *tab, ref string, hitTest bool) (obj runtime.RemoteObjectID, x, y float64, d described, err error) {
	obj, err = t.element(ctx, ref)
	if err != nil {
		return "", 0, 0, d, err
	}
	if d, err = t.describe(ctx, obj, -1, -1); err != nil {
		return "", 0, 0, d, err
	}
	if !d.Visible {
		return "", 0, 0, d, fmt.Errorf("%s is not visible now (the page hid it); call read_page or find again", d.Short())
	}
	if _, err := send(ctx, t, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: obj}); err != nil {
		return "", 0, 0, d, fmt.Errorf("scrolling %s into view: %w", ref, err)
	}
	quads, err := send(ctx, t, dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: obj})
	if err != nil {
		return "", 0, 0, d, fmt.Errorf("measuring %s: %w", ref, err)
	}
	metrics, err := send(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return "", 0, 0, d, fmt.Errorf("measuring the viewport: %w", err)
	}
	vw, vh := float64(metrics.CSSLayoutViewport.ClientWidth), float64(metrics.CSSLayoutViewport.ClientHeight)
	var ok bool
	if x, y, ok = visibleCentre(quads.Quads, vw, vh); !ok {
		return "", 0, 0, d, fmt.Errorf("%s has no visible area in the viewport; try scroll with its ref", d.Short())
	}
	if !hitTest {
		return obj, x, y, d, nil
	}
	// An element in a frame is hit-tested in its frame's viewport.
	var ox, oy float64
	if n, err := parseRef(ref); err == nil && n > frameRefs {
		if ox, oy, err = t.frameOrigin(ctx, n); err != nil {
			return "", 0, 0, d, err
		}
	}
	hit, err := t.describe(ctx, obj, x-ox, y-oy)
	if err != nil {
		return "", 0, 0, d, err
	}
	if hit.Covered != "" {
		return "", 0, 0, d, fmt.Errorf("%s is covered by %s at (%.0f, %.0f), which would get the click; close or move that first (find can locate its buttons)", d.Short(), hit.Covered, x, y)
	}
	return obj, x, y, hit, nil
}

// visibleCentre returns the centre of the part of the first quad that lies
// in a vw x vh viewport.
func visibleCentre(quads []dom.Quad, vw, vh float64) (x, y float64, ok bool) {
	for _, q := range quads {
		if len(q) < 8 {
			continue
		}
		left, top := math.Inf(1), math.Inf(1)
		right, bottom := math.Inf(-1), math.Inf(-1)
		for i := 0; i < 8; i += 2 {
			left, right = min(left, q[i]), max(right, q[i])
			top, bottom = min(top, q[i+1]), max(bottom, q[i+1])
		}
		left, top = max(left, 0), max(top, 0)
		right, bottom = min(right, vw), min(bottom, vh)
		if right-left >= 1 && bottom-top >= 1 {
			return (left + right) / 2, (top + bottom) / 2, true
		}
	}
	return 0, 0, false
}

// mouseClick sends what a mouse sends for a left click at (x, y): move,
// press, release. The page sees trusted events, hover effects included.
func mouseClick(ctx context.Context, t *tab, x, y float64) error {
	for _, p := range []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y},
		{Type: input.DispatchMouseEventTypeMousePressed, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1},
	} {
		if _, err := send(ctx, t, input.DispatchMouseEvent, p); err != nil {
			return fmt.Errorf("sending %s at (%.0f, %.0f): %w", p.Type, x, y, err)
		}
	}
	return nil
}

func sendKeys(ctx context.Context, t *tab, events []*input.DispatchKeyEventParams) error {
	for _, e := range events {
		if _, err := send(ctx, t, input.DispatchKeyEvent, *e); err != nil {
			return fmt.Errorf("sending key %s %q: %w", e.Type, e.Key, err)
		}
	}
	return nil
}

func (s *Server) click(ctx context.Context, t *tab, in refInput) (reply, error) {
	_, x, y, d, err := s.reach(ctx, t, in.Ref, true)
	if err != nil {
		return reply{}, err
	}
	if d.Role == "select" {
		return reply{}, fmt.Errorf("%s is a select: use select_option with one of its options", d.Short())
	}
	b := s.observe(ctx, t, true)
	if err := mouseClick(ctx, t, x, y); err != nil {
		return reply{}, err
	}
	waited := s.settle(ctx, t, b, false)
	lines := append([]string{"clicked " + d.Short()}, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

func (s *Server) typeText(ctx context.Context, t *tab, in typeInput) (reply, error) {
	obj, _, _, d, err := s.reach(ctx, t, in.Ref, false)
	if err != nil {
		return reply{}, err
	}
	b := s.observe(ctx, t, true)
	raw, err := t.callOn(ctx, obj, editableJS)
	if err != nil {
		return reply{}, err
	}
	var prep struct {
		Error  string `json:"error"`
		Length int    `json:"length"`
	}
	if err := json.Unmarshal(raw, &prep); err != nil {
		return reply{}, fmt.Errorf("decoding editable.js result: %w", err)
	}
	if prep.Error != "" {
		return reply{}, fmt.Errorf("cannot type into %s: %s", d.Short(), prep.Error)
	}
	var keys []*input.DispatchKeyEventParams
	if prep.Length > 0 {
		keys = append(keys, kb.Encode('\b')...) // deletes the selected old content
	}
	for _, r := range in.Text {
		keys = append(keys, kb.Encode(r)...)
	}
	if err := sendKeys(ctx, t, keys); err != nil {
		return reply{}, err
	}
	lines := []string{fmt.Sprintf("typed %q into %s", in.Text, d.Short())}
	var now string
	if raw, err := t.callOn(ctx, obj, valueJS); err == nil && json.Unmarshal(raw, &now) == nil && now != in.Text {
		lines = append(lines, fmt.Sprintf("the field holds %q (the page changed what was typed)", now))
	}
	if in.Submit {
		if err := sendKeys(ctx, t, kb.Encode('\r')); err != nil {
			return reply{}, err
		}
		lines = append(lines, "pressed Enter")
	}
	waited := s.settle(ctx, t, b, false)
	lines = append(lines, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

func (s *Server) pressKey(ctx context.Context, t *tab, in pressKeyInput) (reply, error) {
	events, err := keyEvents(in.Key)
	if err != nil {
		return reply{}, err
	}
	b := s.observe(ctx, t, true)
	if err := sendKeys(ctx, t, events); err != nil {
		return reply{}, err
	}
	waited := s.settle(ctx, t, b, false)
	lines := append([]string{"pressed " + in.Key}, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

func (s *Server) selectOption(ctx context.Context, t *tab, in selectOptionInput) (reply, error) {
	obj, _, _, d, err := s.reach(ctx, t, in.Ref, false)
	if err != nil {
		return reply{}, err
	}
	b := s.observe(ctx, t, true)
	raw, err := t.callOn(ctx, obj, selectJS, in.Value)
	if err != nil {
		return reply{}, err
	}
	var res struct {
		Label   string   `json:"label"`
		Error   string   `json:"error"`
		Options []string `json:"options"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return reply{}, fmt.Errorf("decoding select.js result: %w", err)
	}
	if res.Error != "" {
		msg := fmt.Sprintf("cannot select %q in %s: %s", in.Value, d.Short(), res.Error)
		if len(res.Options) > 0 {
			msg += "; options are: " + strings.Join(clipList(res.Options, 40), " | ")
		}
		return reply{}, errors.New(msg)
	}
	waited := s.settle(ctx, t, b, false)
	lines := append([]string{fmt.Sprintf("selected %q in %s", res.Label, d.Short())}, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

func clipList(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(items[:n:n], fmt.Sprintf("… %d more", len(items)-n))
}

var directions = []string{"up", "down", "left", "right", "top", "bottom"}

func (s *Server) scroll(ctx context.Context, t *tab, in scrollInput) (reply, error) {
	switch {
	case in.Ref != "" && in.Direction != "":
		return reply{}, errors.New("give either direction or ref, not both")
	case in.Ref != "":
		_, _, _, d, err := s.reach(ctx, t, in.Ref, false)
		if err != nil {
			return reply{}, err
		}
		b := s.observe(ctx, t, true)
		waited := s.settle(ctx, t, b, false)
		lines := append([]string{"scrolled " + d.Short() + " into view"}, s.changes(ctx, t, b, waited, true)...)
		return reply{text: strings.Join(lines, "\n")}, nil
	}
	dir := strings.ToLower(strings.TrimSpace(in.Direction))
	if !slices.Contains(directions, dir) {
		return reply{}, fmt.Errorf("direction must be one of %s (or give a ref), not %q", strings.Join(directions, ", "), in.Direction)
	}
	b := s.observe(ctx, t, true)
	raw, err := t.call(ctx, scrollJS, dir)
	if err != nil {
		return reply{}, err
	}
	var pos struct {
		Y, X, Height, Width, ViewH, ViewW int
		Moved                             bool
	}
	if err := json.Unmarshal(raw, &pos); err != nil {
		return reply{}, fmt.Errorf("decoding scroll.js result: %w", err)
	}
	waited := s.settle(ctx, t, b, false)
	at, view, total, axis := pos.Y, pos.ViewH, pos.Height, ""
	if dir == "left" || dir == "right" {
		at, view, total, axis = pos.X, pos.ViewW, pos.Width, " across"
	}
	first := fmt.Sprintf("scrolled %s: showing %d to %d of %d px%s", dir, at, min(at+view, total), total, axis)
	if !pos.Moved {
		first = fmt.Sprintf("did not move: already at the %s (showing %d to %d of %d px%s)", edge(dir), at, min(at+view, total), total, axis)
	}
	lines := append([]string{first}, s.changes(ctx, t, b, waited, true)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

func edge(dir string) string {
	switch dir {
	case "up", "top":
		return "top"
	case "left", "right":
		return dir + " edge"
	}
	return "bottom"
}

// Bounds of wait_for's timeout_ms.
const (
	defaultWait = 5 * time.Second
	maxWait     = 30 * time.Second
	waitPoll    = 100 * time.Millisecond
)

func (s *Server) waitFor(ctx context.Context, t *tab, in waitForInput) (reply, error) {
	text := strings.Join(strings.Fields(in.Text), " ")
	selector := strings.TrimSpace(in.Selector)
	if (text == "") == (selector == "") {
		return reply{}, errors.New("give exactly one of text or selector")
	}
	if in.TimeoutMS < 0 {
		return reply{}, fmt.Errorf("timeout_ms must be positive, not %d", in.TimeoutMS)
	}
	timeout := time.Duration(in.TimeoutMS) * time.Millisecond
	if timeout == 0 {
		timeout = defaultWait
	}
	timeout = min(timeout, maxWait)
	what := fmt.Sprintf("text %q", text)
	if selector != "" {
		what = fmt.Sprintf("an element matching %q", selector)
	}
	start := time.Now()
	for {
		raw, err := t.call(ctx, waitforJS, text, selector)
		// A failed poll is a page in transition (navigating); the next
		// poll sees the new document.
		if err == nil {
			var found bool
			if json.Unmarshal(raw, &found) == nil && found {
				return reply{text: fmt.Sprintf("found %s after %d ms", what, time.Since(start).Milliseconds())}, nil
			}
			var bad struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(raw, &bad) == nil && bad.Error != "" {
				return reply{}, fmt.Errorf("selector %q is not valid CSS: %s", selector, bad.Error)
			}
		}
		if time.Since(start) >= timeout {
			return reply{}, fmt.Errorf("timed out after %d ms waiting for %s; read_page shows what the page has", timeout.Milliseconds(), what)
		}
		if err := sleep(ctx, waitPoll); err != nil {
			return reply{}, err
		}
	}
}
