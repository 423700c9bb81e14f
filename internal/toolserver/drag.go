package toolserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
)

// dragSteps is how many mouse moves a drag makes between pressing at the
// source and releasing at the destination. Pages that drag with pointer
// events usually start a drag only after the pointer has moved a few
// pixels, and track it move by move.
const dragSteps = 10

// mouseDrag sends what a mouse sends for a drag from (x0, y0) to (x1, y1):
// move to the source, press, dragSteps moves with the button held, a last
// move onto the destination, release. The page sees trusted pointer and
// mouse events; no HTML5 drag-and-drop starts, as with a script-made drag.
func mouseDrag(ctx context.Context, t *tab, x0, y0, x1, y1 float64) error {
	events := []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMouseMoved, X: x0, Y: y0},
		{Type: input.DispatchMouseEventTypeMousePressed, X: x0, Y: y0, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
	}
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		events = append(events, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved,
			X: x0 + (x1-x0)*f, Y: y0 + (y1-y0)*f, Button: input.MouseButtonLeft, Buttons: 1})
	}
	events = append(events,
		input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x1, Y: y1, Button: input.MouseButtonLeft, Buttons: 1},
		input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: x1, Y: y1, Button: input.MouseButtonLeft, ClickCount: 1})
	for _, p := range events {
		if _, err := send(ctx, t, input.DispatchMouseEvent, p); err != nil {
			return fmt.Errorf("sending %s at (%.0f, %.0f): %w", p.Type, p.X, p.Y, err)
		}
	}
	return nil
}

func (s *Server) drag(ctx context.Context, t *tab, in dragInput) (reply, error) {
	if strings.TrimSpace(in.To) == "" {
		return reply{}, errors.New("to is missing: give the ref of the element to drop on")
	}
	if strings.TrimSpace(in.Ref) == strings.TrimSpace(in.To) {
		return reply{}, fmt.Errorf("ref and to are both %s: drag an element onto another one", in.Ref)
	}
	// The destination is measured first: bringing the source into view
	// last keeps the press on it, and a destination that needed scrolling
	// is measured again after.
	if _, _, _, _, err := s.reach(ctx, t, in.To, false); err != nil {
		return reply{}, fmt.Errorf("the drop target: %w", err)
	}
	_, x0, y0, src, err := s.reach(ctx, t, in.Ref, true)
	if err != nil {
		return reply{}, err
	}
	_, x1, y1, dst, err := s.reach(ctx, t, in.To, true)
	if err != nil {
		return reply{}, fmt.Errorf("the drop target: %w", err)
	}
	if _, _, _, _, err := s.reach(ctx, t, in.Ref, true); err != nil {
		return reply{}, fmt.Errorf("the dragged element and its drop target do not fit in the viewport together: %w", err)
	}
	b := s.observe(ctx, t, true)
	if err := mouseDrag(ctx, t, x0, y0, x1, y1); err != nil {
		return reply{}, err
	}
	waited := s.settle(ctx, t, b, false)
	lines := append([]string{fmt.Sprintf("dragged %s onto %s", src.Short(), dst.Short())}, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

// uploadable lists the names of the regular files in the uploads folder,
// sorted.
func (s *Server) uploadable() ([]string, error) {
	if s.opts.Uploads == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(s.opts.Uploads)
	if err != nil {
		return nil, fmt.Errorf("reading the uploads folder: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func (s *Server) uploadFile(ctx context.Context, t *tab, in uploadInput) (reply, error) {
	offered, err := s.uploadable()
	if err != nil {
		return reply{}, err
	}
	if len(in.Files) == 0 {
		return reply{}, fmt.Errorf("files is empty: name at least one of %s", offeredList(offered))
	}
	paths := make([]string, len(in.Files))
	for i, name := range in.Files {
		if !slices.Contains(offered, name) {
			return reply{}, fmt.Errorf("no file %q to upload: the files are %s", name, offeredList(offered))
		}
		paths[i] = filepath.Join(s.opts.Uploads, name)
		if !filepath.IsAbs(paths[i]) {
			abs, err := filepath.Abs(paths[i])
			if err != nil {
				return reply{}, err
			}
			paths[i] = abs
		}
	}
	obj, _, _, d, err := s.reach(ctx, t, in.Ref, false)
	if err != nil {
		return reply{}, err
	}
	if d.Role != "file" {
		return reply{}, fmt.Errorf("%s is not a file input (input type=file)", d.Short())
	}
	if slices.Contains(d.States, "disabled") {
		return reply{}, fmt.Errorf("%s is disabled", d.Short())
	}
	b := s.observe(ctx, t, true)
	// The browser fires the input's input and change events, as after a
	// user's choice in the file dialog.
	if _, err := send(ctx, t, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: obj}); err != nil {
		return reply{}, fmt.Errorf("choosing files for %s: %w", d.Short(), err)
	}
	waited := s.settle(ctx, t, b, false)
	lines := append([]string{fmt.Sprintf("chose %s for %s", strings.Join(in.Files, ", "), d.Short())}, s.changes(ctx, t, b, waited, false)...)
	return reply{text: strings.Join(lines, "\n")}, nil
}

// offeredList writes the uploadable files for an error message.
func offeredList(names []string) string {
	if len(names) == 0 {
		return "none (this server was given no files to upload)"
	}
	return strings.Join(clipList(names, 40), ", ")
}
