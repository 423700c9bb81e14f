package toolserver

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/cdpconn"
	"contractbench/internal/toolserver/snapshot"
)

// instructions is what MCP clients may show the model about the server as
// a whole. Tool descriptions carry the rest; every byte of both is paid on
// every model turn, so they stay short.
const instructions = `Drives a real browser tab. Every reply starts with the page's url and title.
read_page shows the page as text in which controls look like [Name](e12 role state); pass the ref (e12) to click, type, select_option, drag, upload_file or scroll.
Refs stay valid until the page navigates. Actions report what they changed.`

// Tool inputs. The jsonschema tags are the field descriptions clients see.
type (
	navigateInput struct {
		URL string `json:"url" jsonschema:"absolute http or https URL"`
	}
	readPageInput struct {
		Mode     string `json:"mode,omitempty" jsonschema:"text (default): the page's content with refs on controls; interactive: only the controls, one per line"`
		Offset   int    `json:"offset,omitempty" jsonschema:"byte offset to continue from, as a truncated reply says"`
		MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"most bytes of page text to return (default 12000)"`
	}
	findInput struct {
		Query string `json:"query" jsonschema:"text to find (case-insensitive), or role:ROLE [name] such as role:button Save or role:link"`
	}
	refInput struct {
		Ref string `json:"ref" jsonschema:"element ref from read_page or find, such as e12"`
	}
	typeInput struct {
		Ref    string `json:"ref" jsonschema:"ref of a text field"`
		Text   string `json:"text" jsonschema:"text that replaces the field's content"`
		Submit bool   `json:"submit,omitempty" jsonschema:"press Enter afterwards"`
	}
	pressKeyInput struct {
		Key string `json:"key" jsonschema:"Enter, Escape, Tab, ArrowDown, PageDown, a character, or a chord such as Control+a"`
	}
	selectOptionInput struct {
		Ref   string `json:"ref" jsonschema:"ref of a select"`
		Value string `json:"value" jsonschema:"the option's label or value"`
	}
	scrollInput struct {
		Direction string `json:"direction,omitempty" jsonschema:"up, down, left, right, top or bottom"`
		Ref       string `json:"ref,omitempty" jsonschema:"element to bring into view instead"`
	}
	waitForInput struct {
		Text      string `json:"text,omitempty" jsonschema:"text to wait for (case-insensitive)"`
		Selector  string `json:"selector,omitempty" jsonschema:"CSS selector of an element to wait for"`
		TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"how long to wait (default 5000, at most 30000)"`
	}
	dragInput struct {
		Ref string `json:"ref" jsonschema:"ref of the element to drag"`
		To  string `json:"to" jsonschema:"ref of the element to drop it on"`
	}
	uploadInput struct {
		Ref   string   `json:"ref" jsonschema:"ref of a file input"`
		Files []string `json:"files" jsonschema:"names of the files to choose, from the files this server offers (an error lists them)"`
	}
	tabsInput struct {
		Action string `json:"action,omitempty" jsonschema:"list (default) or switch (select is the same)"`
		Index  int    `json:"index,omitempty" jsonschema:"tab number from list, for switch"`
	}
	noInput struct{}
)

// reply is a tool's answer below the header.
type reply struct {
	text string
	png  []byte
}

func (s *Server) register() {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	add(s, &mcp.Tool{Name: "navigate", Description: "Load a URL in the current tab and wait for it to settle."}, s.navigate)
	add(s, &mcp.Tool{Name: "read_page", Description: "The current page as compact text: headings (#), list items (-), table rows (| a | b |), links [text](e12), other controls [name](e13 role state). Long pages are cut; the reply says how to continue.", Annotations: readOnly}, s.readPage)
	add(s, &mcp.Tool{Name: "find", Description: "Find text or controls on the page; returns matching lines with refs.", Annotations: readOnly}, s.find)
	add(s, &mcp.Tool{Name: "click", Description: "Click an element (a real mouse click at its centre) and report what changed."}, s.click)
	add(s, &mcp.Tool{Name: "type", Description: "Replace a text field's content by typing text into it; submit presses Enter."}, s.typeText)
	add(s, &mcp.Tool{Name: "press_key", Description: "Press a key in the focused element."}, s.pressKey)
	add(s, &mcp.Tool{Name: "select_option", Description: "Choose an option of a select element."}, s.selectOption)
	add(s, &mcp.Tool{Name: "drag", Description: "Drag an element onto another with the mouse (press, move, release) and report what changed."}, s.drag)
	add(s, &mcp.Tool{Name: "upload_file", Description: "Choose files for a file input, by name from the files this server offers."}, s.uploadFile)
	add(s, &mcp.Tool{Name: "scroll", Description: "Scroll the page one screen in a direction, or bring an element into view."}, s.scroll)
	add(s, &mcp.Tool{Name: "go_back", Description: "Go back to the previous page of the current tab."}, s.goBack)
	add(s, &mcp.Tool{Name: "wait_for", Description: "Wait until the page shows some text or an element matching a CSS selector.", Annotations: readOnly}, s.waitFor)
	add(s, &mcp.Tool{Name: "screenshot", Description: "A PNG of the current viewport.", Annotations: readOnly}, s.screenshot)
	add(s, &mcp.Tool{Name: "tabs", Description: "List the browser's tabs, or switch to one."}, s.tabsTool)

	// Arguments that do not fit a tool's schema are refused by the SDK
	// before any handler runs; those errors get the header too, so that
	// every reply starts the same way.
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r.IsError && !headed(r) {
				s.mu.Lock()
				header := s.header(ctx)
				s.mu.Unlock()
				r.Content = append([]mcp.Content{&mcp.TextContent{Text: strings.TrimSuffix(header, "\n")}}, r.Content...)
			}
			return res, err
		}
	})
}

// headed reports whether a tool result starts with the header.
func headed(r *mcp.CallToolResult) bool {
	if len(r.Content) == 0 {
		return false
	}
	text, ok := r.Content[0].(*mcp.TextContent)
	return ok && strings.HasPrefix(text.Text, "url: ")
}

// add registers a tool whose handler runs with the tool-call lock held, on
// the current tab, and whose reply (or error, as an IsError result) follows
// the url and title header.
func add[In any](s *Server, tool *mcp.Tool, run func(context.Context, *tab, In) (reply, error)) {
	mcp.AddTool(s.mcp, tool, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		t, note, err := s.current(ctx)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil, nil
		}
		r, err := run(ctx, t, in)
		t.release(ctx)

		text := s.header(ctx)
		if note != "" {
			text += note + "\n"
		}
		res := &mcp.CallToolResult{}
		if err != nil {
			res.IsError = true
			text += err.Error()
		} else {
			text += r.text
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: strings.TrimRight(text, "\n")})
		if r.png != nil {
			res.Content = append(res.Content, &mcp.ImageContent{Data: r.png, MIMEType: "image/png"})
		}
		return res, nil, nil
	})
}

// checkURL accepts what navigate may load: absolute http(s) URLs. Anything
// else, javascript: in particular, is refused.
func checkURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("url must be absolute http(s), like https://example.com/page: %q", raw)
	}
	return u.String(), nil
}

func (s *Server) navigate(ctx context.Context, t *tab, in navigateInput) (reply, error) {
	u, err := checkURL(in.URL)
	if err != nil {
		return reply{}, err
	}
	b := s.observe(ctx, t, false)
	res, err := send(ctx, t, page.Navigate, page.NavigateParams{URL: u})
	if err != nil {
		return reply{}, fmt.Errorf("navigating to %s: %w", u, err)
	}
	if res.ErrorText != "" {
		s.settle(ctx, t, b, true)
		return reply{}, fmt.Errorf("could not load %s: %s", u, res.ErrorText)
	}
	if res.IsDownload {
		return reply{}, fmt.Errorf("%s is a file download, not a page", u)
	}
	waited := s.settle(ctx, t, b, res.LoaderID != "")
	return reply{text: strings.Join(s.changes(ctx, t, b, waited, false), "\n")}, nil
}

func (s *Server) goBack(ctx context.Context, t *tab, _ noInput) (reply, error) {
	hist, err := send(ctx, t, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return reply{}, fmt.Errorf("reading the tab's history: %w", err)
	}
	if hist.CurrentIndex <= 0 || int(hist.CurrentIndex) >= len(hist.Entries) {
		return reply{}, fmt.Errorf("there is no previous page in this tab's history")
	}
	prev := hist.Entries[hist.CurrentIndex-1]
	b := s.observe(ctx, t, false)
	if _, err := send(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: prev.ID}); err != nil {
		return reply{}, fmt.Errorf("going back to %s: %w", prev.URL, err)
	}
	waited := s.settle(ctx, t, b, true)
	return reply{text: strings.Join(s.changes(ctx, t, b, waited, false), "\n")}, nil
}

func (s *Server) readPage(ctx context.Context, t *tab, in readPageInput) (reply, error) {
	mode := in.Mode
	if mode == "" {
		mode = "text"
	}
	if mode != "text" && mode != "interactive" {
		return reply{}, fmt.Errorf("mode must be text or interactive, not %q", in.Mode)
	}
	budget := in.MaxBytes
	switch {
	case budget < 0:
		return reply{}, fmt.Errorf("max_bytes must be positive, not %d", budget)
	case budget == 0:
		budget = defaultMaxBytes
	case budget > maxBudget:
		budget = maxBudget
	}
	p, err := t.snapshot(ctx)
	if err != nil {
		return reply{}, err
	}
	body := p.Text()
	if mode == "interactive" {
		body = p.Interactive()
	}
	if body == "" {
		if mode == "interactive" {
			return reply{text: "(no controls on this page)"}, nil
		}
		return reply{text: "(the page shows no text)"}, nil
	}
	pg, err := cut(body, in.Offset, budget)
	if err != nil {
		return reply{}, err
	}
	var b strings.Builder
	if pg.start > 0 {
		fmt.Fprintf(&b, "… continuing at byte %d of %d\n", pg.start, pg.total)
	}
	b.WriteString(pg.text)
	if pg.end < pg.total {
		if !strings.HasSuffix(pg.text, "\n") {
			b.WriteByte('\n')
		}
		again := ""
		if mode == "interactive" {
			again = " mode=interactive"
		}
		fmt.Fprintf(&b, "… truncated at %d of %d bytes; call read_page with%s offset=%d", pg.end, pg.total, again, pg.end)
	}
	return reply{text: b.String()}, nil
}

// findLimit is how many matches find shows; more means the query is too
// broad to be useful, and the reply says how many were left out.
const findLimit = 20

func (s *Server) find(ctx context.Context, t *tab, in findInput) (reply, error) {
	q, err := snapshot.ParseQuery(in.Query)
	if err != nil {
		return reply{}, err
	}
	p, err := t.snapshot(ctx)
	if err != nil {
		return reply{}, err
	}
	matches, total := p.Find(q, findLimit)
	if total == 0 {
		return reply{text: fmt.Sprintf("no match for %q on this page", in.Query)}, nil
	}
	var b strings.Builder
	if total == 1 {
		fmt.Fprintf(&b, "1 match for %q:\n", in.Query)
	} else {
		fmt.Fprintf(&b, "%d matches for %q:\n", total, in.Query)
	}
	for _, m := range matches {
		b.WriteString(m)
		b.WriteByte('\n')
	}
	if rest := total - len(matches); rest > 0 {
		fmt.Fprintf(&b, "… %d more not shown; narrow the query", rest)
	}
	return reply{text: b.String()}, nil
}

func (s *Server) screenshot(ctx context.Context, t *tab, _ noInput) (reply, error) {
	png, err := send(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
		return reply{}, fmt.Errorf("taking a screenshot: %w", err)
	}
	return reply{text: "screenshot of the viewport:", png: png.Data}, nil
}

func (s *Server) tabsTool(ctx context.Context, t *tab, in tabsInput) (reply, error) {
	// Target events do not follow title changes: ask for fresh infos.
	if res, err := cdpconn.Send(ctx, s.conn, "", target.GetTargets, target.GetTargetsParams{}); err == nil {
		for _, info := range res.TargetInfos {
			s.tabs.put(info)
		}
	}
	list := s.tabs.list()
	switch in.Action {
	case "", "list":
		var b strings.Builder
		for i, info := range list {
			fmt.Fprintf(&b, "%d: %s", i+1, clipURL(info.URL))
			if !untitled(info.URL, info.Title) {
				b.WriteString(" " + info.Title)
			}
			if info.TargetID == t.id {
				b.WriteString(" (current)")
			}
			b.WriteByte('\n')
		}
		return reply{text: b.String()}, nil
	case "switch", "select":
		if in.Index < 1 || in.Index > len(list) {
			return reply{}, fmt.Errorf("index must be a tab number from 1 to %d (tabs with action=list shows them), not %d", len(list), in.Index)
		}
		id := list[in.Index-1].TargetID
		if _, err := cdpconn.Send(ctx, s.conn, "", target.ActivateTarget, target.ActivateTargetParams{TargetID: id}); err != nil {
			return reply{}, fmt.Errorf("activating tab %d: %w", in.Index, err)
		}
		if _, err := s.use(ctx, id); err != nil {
			return reply{}, err
		}
		return reply{text: fmt.Sprintf("switched to tab %d", in.Index)}, nil
	default:
		return reply{}, fmt.Errorf("action must be list or switch, not %q", in.Action)
	}
}
