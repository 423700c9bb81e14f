package toolserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"contractbench/internal/toolserver/snapshot"
)

// An iframe of another origin (a payment form of pay.example.test on
// shop.example.test) is a document our world in the page cannot read. If
// it renders in the tab's own process (the same site, so the same
// renderer), the tab's session reaches it all the same: the server makes
// an isolated world in the frame, reads it with snapshot.js and splices
// its lines in where the iframe is. Its refs come from a range of their
// own, frameRefs wide, so a ref names one element of the tab whatever
// frame it is in; the frame's range follows the order frames were first
// read in this document. A frame in another process (a cross-site one,
// under site isolation) is not reached, and reads as nothing.

// frameRefs is how many refs each frame's range holds; the page's own
// refs are below it.
const frameRefs = 10000

// maxFrameDepth bounds how deep frames in frames are read.
const maxFrameDepth = 3

// frameWorld is our isolated world in one subframe of the tab.
type frameWorld struct {
	frame cdp.FrameID
	// base is where the frame's refs start (its range's number times
	// frameRefs).
	base  int
	world *world
}

const frameAtJS = `// frameAt.js returns the iframe element of the last snapshot's frames[i].
function (i) {
  return globalThis.__ts.frameAt(i);
}`

const startAtJS = `// startAt.js makes this document's refs start after base.
function (base) {
  return globalThis.__ts.startAt(base);
}`

// expandFrames replaces the frame lines of p, a snapshot taken in w (nil:
// the main frame's world), with the content of those frames, and drops
// those it cannot read.
func (t *tab) expandFrames(ctx context.Context, p *snapshot.Page, w *world, depth int) {
	defer p.Drop()
	if depth >= maxFrameDepth {
		return
	}
	for i := len(p.Lines) - 1; i >= 0; i-- {
		l := p.Lines[i]
		if l.Kind != snapshot.KindFrame {
			continue
		}
		sub, fw, err := t.readFrame(ctx, w, l.Frame)
		if err != nil || sub == nil {
			continue
		}
		t.expandFrames(ctx, sub, fw, depth+1)
		p.Splice(i, sub)
	}
}

// readFrame reads the iframe frames[i] of the last snapshot in w.
func (t *tab) readFrame(ctx context.Context, w *world, i int) (*snapshot.Page, *world, error) {
	var obj *runtime.RemoteObject
	var err error
	if w == nil {
		obj, err = t.callWorld(ctx, frameAtJS, false, []any{i})
	} else {
		obj, err = t.callIn(ctx, w, frameAtJS, false, []any{i})
	}
	if err != nil || obj.ObjectID == "" {
		return nil, nil, err
	}
	node, err := send(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj.ObjectID})
	if err != nil || node.Node.FrameID == "" {
		return nil, nil, err
	}
	fw, err := t.frameWorld(ctx, node.Node.FrameID)
	if err != nil {
		return nil, nil, err
	}
	res, err := t.callIn(ctx, fw.world, snapshotJS, true, nil)
	if err != nil {
		return nil, nil, err
	}
	sub, err := snapshot.Decode(res.Value)
	if err != nil {
		return nil, nil, err
	}
	return sub, fw.world, nil
}

// frameWorld returns our world in the subframe id, creating it, with its
// range of refs, on first use in the frame's current document.
func (t *tab) frameWorld(ctx context.Context, id cdp.FrameID) (*frameWorld, error) {
	t.mu.Lock()
	fw := t.frames[id]
	if fw == nil {
		t.frameRanges++
		fw = &frameWorld{frame: id, base: t.frameRanges * frameRefs}
		t.frames[id] = fw
	}
	w, base := fw.world, fw.base
	t.mu.Unlock()
	if w != nil {
		return fw, nil
	}
	w, err := t.newWorld(ctx, id, " in a frame")
	if err != nil {
		return nil, err
	}
	if _, err := t.callIn(ctx, w, startAtJS, true, []any{base}); err != nil {
		return nil, err
	}
	t.mu.Lock()
	fw.world = w
	t.mu.Unlock()
	return fw, nil
}

// frameOf returns the world of the frame whose range holds ref n, nil
// for a ref of the page itself.
func (t *tab) frameOf(n int) (*frameWorld, bool) {
	if n <= frameRefs {
		return nil, true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, fw := range t.frames {
		if n > fw.base && n <= fw.base+frameRefs && fw.world != nil {
			return fw, true
		}
	}
	return nil, false
}

// frameElement resolves ref n of a frame's range in that frame's world.
func (t *tab) frameElement(ctx context.Context, n int) (runtime.RemoteObjectID, error) {
	fw, ok := t.frameOf(n)
	if !ok || fw == nil {
		return "", fmt.Errorf("ref e%d is no longer on the page (its frame changed); call read_page or find again", n)
	}
	obj, err := t.callIn(ctx, fw.world, resolveJS, false, []any{n})
	if err != nil {
		return "", fmt.Errorf("ref e%d is no longer on the page (its frame changed): %w; call read_page or find again", n, err)
	}
	if obj.ObjectID != "" {
		return obj.ObjectID, nil
	}
	var why string
	_ = json.Unmarshal(obj.Value, &why)
	if why == "removed" {
		return "", fmt.Errorf("ref e%d is no longer on the page (a script removed it); call read_page or find again", n)
	}
	return "", fmt.Errorf("unknown ref e%d; call read_page or find to see the page's refs", n)
}

// frameOrigin returns where, in the tab's viewport, the viewport of the
// frame whose range holds ref n starts: the top left of its iframe's
// content box. A ref of the page itself gives (0, 0).
func (t *tab) frameOrigin(ctx context.Context, n int) (x, y float64, err error) {
	fw, _ := t.frameOf(n)
	if fw == nil {
		return 0, 0, nil
	}
	owner, err := send(ctx, t, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: fw.frame})
	if err != nil {
		return 0, 0, fmt.Errorf("finding the frame of e%d: %w", n, err)
	}
	box, err := send(ctx, t, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
	if err != nil {
		return 0, 0, fmt.Errorf("measuring the frame of e%d: %w", n, err)
	}
	if len(box.Model.Content) < 2 {
		return 0, 0, fmt.Errorf("measuring the frame of e%d: no content box", n)
	}
	return box.Model.Content[0], box.Model.Content[1], nil
}
