package toolserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"contractbench/internal/toolserver/snapshot"
)

// objectGroup holds the remote objects (element handles) a tool call
// creates, so they can be released together when it ends.
const objectGroup = "contractbench-toolserver"

// ensureWorld returns our isolated world in the tab's current document,
// creating and installing it on first use. The world shares the page's DOM
// but not its JavaScript globals, so nothing we define is visible to the
// page, and nothing the page redefines (Array.prototype.map, say) breaks us.
func (t *tab) ensureWorld(ctx context.Context) (*world, error) {
	t.mu.Lock()
	w, frame, doc := t.world, t.frame, t.doc
	t.mu.Unlock()
	if w != nil {
		return w, nil
	}
	w, err := t.newWorld(ctx, frame, "")
	if err != nil {
		return nil, err
	}
	w.doc = doc
	t.mu.Lock()
	if t.doc == doc && t.world == nil {
		t.world = w
	}
	t.mu.Unlock()
	return w, nil
}

// newWorld creates our isolated world in frame and installs our scripts
// in it; where names the frame in errors (empty for the main frame).
func (t *tab) newWorld(ctx context.Context, frame cdp.FrameID, where string) (*world, error) {
	res, err := send(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: worldName})
	if err != nil {
		return nil, fmt.Errorf("creating the isolated world%s: %w", where, err)
	}
	t.mu.Lock()
	w := &world{id: res.ExecutionContextID, unique: t.worlds[res.ExecutionContextID]}
	t.mu.Unlock()
	params := runtime.EvaluateParams{Expression: installJS, ReturnByValue: new(true)}
	w.target(&params.ContextID, &params.UniqueContextID)
	ev, err := send(ctx, t, runtime.Evaluate, params)
	if err == nil && ev.ExceptionDetails != nil {
		err = exception(ev.ExceptionDetails)
	}
	if err != nil {
		return nil, fmt.Errorf("installing the isolated world%s: %w", where, err)
	}
	return w, nil
}

// target fills in whichever context identifier the world has: the unique
// id when the creation event told us, which a cross-process navigation can
// never make point at another document, else the numeric one.
func (w *world) target(id *runtime.ExecutionContextID, unique *string) {
	if w.unique != "" {
		*unique = w.unique
	} else {
		*id = w.id
	}
}

func (t *tab) dropWorld(w *world) {
	t.mu.Lock()
	if t.world == w {
		t.world = nil
	}
	t.mu.Unlock()
}

// call runs the function declaration fn in our world with args (encoded
// as JSON) and returns its result as JSON.
func (t *tab) call(ctx context.Context, fn string, args ...any) (jsonv2.Value, error) {
	obj, err := t.callWorld(ctx, fn, true, args)
	if err != nil {
		return nil, err
	}
	return obj.Value, nil
}

// callWorld runs fn in our world. byValue false returns objects as
// handles (in objectGroup). A world destroyed under the call (the page
// navigated) is recreated once.
func (t *tab) callWorld(ctx context.Context, fn string, byValue bool, args []any) (*runtime.RemoteObject, error) {
	for attempt := 0; ; attempt++ {
		w, err := t.ensureWorld(ctx)
		if err != nil {
			return nil, err
		}
		res, err := t.callIn(ctx, w, fn, byValue, args)
		if err != nil && attempt == 0 && worldGone(err) {
			t.dropWorld(w)
			continue
		}
		return res, err
	}
}

// callIn runs fn in world w: the main frame's or a frame's.
func (t *tab) callIn(ctx context.Context, w *world, fn string, byValue bool, args []any) (*runtime.RemoteObject, error) {
	callArgs, err := encodeArgs(args)
	if err != nil {
		return nil, err
	}
	params := runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		Arguments:           callArgs,
		ReturnByValue:       &byValue,
		ObjectGroup:         objectGroup,
	}
	w.target(&params.ExecutionContextID, &params.UniqueContextID)
	res, err := send(ctx, t, runtime.CallFunctionOn, params)
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", scriptName(fn), err)
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("running %s: %w", scriptName(fn), exception(res.ExceptionDetails))
	}
	return res.Result, nil
}

// callOn runs fn with this bound to the element obj and returns its result
// as JSON.
func (t *tab) callOn(ctx context.Context, obj runtime.RemoteObjectID, fn string, args ...any) (jsonv2.Value, error) {
	callArgs, err := encodeArgs(args)
	if err != nil {
		return nil, err
	}
	res, err := send(ctx, t, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            obj,
		Arguments:           callArgs,
		ReturnByValue:       new(true),
	})
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", scriptName(fn), err)
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("running %s: %w", scriptName(fn), exception(res.ExceptionDetails))
	}
	return res.Result.Value, nil
}

// release frees the element handles a tool call created.
func (t *tab) release(ctx context.Context) {
	// Failure means the document (and its objects) is gone already.
	_, _ = send(ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
}

func encodeArgs(args []any) ([]*runtime.CallArgument, error) {
	out := make([]*runtime.CallArgument, len(args))
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("encoding script argument %d: %w", i, err)
		}
		out[i] = &runtime.CallArgument{Value: jsonv2.Value(b)}
	}
	return out, nil
}

// worldGone reports whether err says the execution context no longer
// exists, which is what a navigation does to an isolated world.
func worldGone(err error) bool {
	var cerr *cdproto.Error
	if !errors.As(err, &cerr) {
		return false
	}
	m := strings.ToLower(cerr.Message)
	return strings.Contains(m, "context") && (strings.Contains(m, "cannot find") || strings.Contains(m, "destroyed") || strings.Contains(m, "not found"))
}

func exception(d *runtime.ExceptionDetails) error {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	}
	return fmt.Errorf("script threw at line %d: %s", d.LineNumber+1, msg)
}

// scriptName names an embedded script in errors by its file, taken from
// its header comment.
func scriptName(fn string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(fn, "// "), " ")
	if strings.HasSuffix(name, ".js") {
		return name
	}
	return "script"
}

// snapshot extracts the tab's page model. The refs it issues are recorded,
// so a later unknown ref can be told apart from a stale one.
func (t *tab) snapshot(ctx context.Context) (*snapshot.Page, error) {
	before := t.state()
	raw, err := t.call(ctx, snapshotJS)
	if err != nil {
		return nil, err
	}
	p, err := snapshot.Decode(raw)
	if err != nil {
		return nil, err
	}
	t.expandFrames(ctx, p, nil, 0)
	t.mu.Lock()
	if t.doc == before.doc {
		t.issued = max(t.issued, p.Issued)
		t.last = &snapshotAt{page: p, doc: t.doc, mutations: p.Mutations}
	}
	t.mu.Unlock()
	return p, nil
}

// activity is the document's recent history of change, from activity.js.
type activity struct {
	Quiet     int `json:"quiet"`
	Mutations int `json:"mutations"`
	Issued    int `json:"issued"`
}

func (t *tab) activity(ctx context.Context) (activity, error) {
	var a activity
	raw, err := t.call(ctx, activityJS)
	if err != nil {
		return a, err
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("decoding activity.js result: %w", err)
	}
	return a, nil
}

// parseRef reads a ref as the snapshot writes it: "e" and a positive
// number.
func parseRef(ref string) (int, error) {
	digits, ok := strings.CutPrefix(strings.TrimSpace(ref), "e")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 1 || digits[0] == '+' {
		return 0, fmt.Errorf("ref %q is not a ref: refs look like e12 and come from read_page or find", ref)
	}
	return n, nil
}

// element resolves ref to a handle on its element. A ref the current
// document does not know is explained: issued by an earlier page, removed
// by a script, or never issued.
func (t *tab) element(ctx context.Context, ref string) (runtime.RemoteObjectID, error) {
	n, err := parseRef(ref)
	if err != nil {
		return "", err
	}
	if n > frameRefs {
		return t.frameElement(ctx, n)
	}
	obj, err := t.callWorld(ctx, resolveJS, false, []any{n})
	if err != nil {
		return "", err
	}
	if obj.ObjectID != "" {
		return obj.ObjectID, nil
	}
	var why string
	_ = json.Unmarshal(obj.Value, &why)
	t.mu.Lock()
	url, issued, earlier := t.url, t.issued, t.earlier
	t.mu.Unlock()
	switch {
	case why == "removed":
		return "", fmt.Errorf("ref e%d is no longer on the page (a script removed it); call read_page or find again", n)
	case n <= earlier:
		return "", fmt.Errorf("ref e%d is from a previous page: the page navigated to %s; call read_page or find again", n, url)
	case issued == 0:
		return "", fmt.Errorf("unknown ref e%d: this page has issued no refs yet; call read_page or find first", n)
	default:
		return "", fmt.Errorf("unknown ref e%d: this page's refs are e1 to e%d; call read_page or find to see them", n, issued)
	}
}
