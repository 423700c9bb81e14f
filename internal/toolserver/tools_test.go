package toolserver

import (
	"bytes"
	"context"
	"io"
	"net"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res, err := e.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
		if tool.InputSchema == nil {
			t.Errorf("tool %s has no input schema", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"click", "drag", "find", "go_back", "navigate", "press_key", "read_page", "screenshot", "scroll", "select_option", "tabs", "type", "upload_file", "wait_for"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

// TestHeader checks that every reply, failures included, starts with the
// url and title lines.
func TestHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/booked.html")
	header := regexp.MustCompile(`^url: http://127\.0\.0\.1:\d+/booked\.html\ntitle: Booked\n`)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_page", nil},
		{"read_page", map[string]any{"mode": "interactive"}},
		{"find", map[string]any{"query": "welcome"}},
		{"click", map[string]any{"ref": "e99"}},
		{"click", map[string]any{}},
		{"type", map[string]any{"ref": "e1", "text": 5}},
		{"press_key", map[string]any{"key": "Shift"}},
		{"scroll", map[string]any{"direction": "down"}},
		{"wait_for", map[string]any{"text": "Booked"}},
		{"screenshot", nil},
		{"tabs", nil},
	} {
		if r := e.call(c.tool, c.args); !header.MatchString(r.text) {
			t.Errorf("%s %s: reply does not start with the header:\n%s", c.tool, describeArgs(c.args), r.text)
		}
	}
}

// TestRefs checks that refs are stable while the page stays, stale once it
// navigates, and never resolved to another element.
func TestRefs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/article.html")
	first := e.ok("read_page", nil)
	if second := e.ok("read_page", nil); first != second {
		t.Errorf("two reads of an unchanged page differ:\n--- first\n%s--- second\n%s", first, second)
	}
	if got := e.ok("find", map[string]any{"query": "role:link Île"}); !strings.Contains(got, "[Île Vierge](e5 /tower/ile-vierge)") {
		t.Errorf("find gave a different ref than read_page for the same link:\n%s", got)
	}

	e.open("/booked.html")
	msg := e.fails("click", map[string]any{"ref": "e5"})
	wantContains(t, "click on a ref of the previous page", msg,
		"ref e5 is from a previous page", "navigated to "+site.URL+"/booked.html", "read_page or find")
	msg = e.fails("click", map[string]any{"ref": "e40"})
	wantContains(t, "click on a ref no page issued", msg, "unknown ref e40")

	// Back on the first page, a fresh read gives the same refs again.
	e.open("/article.html")
	if again := e.ok("read_page", nil); again != first {
		t.Errorf("reloading the page changed its refs:\n--- before\n%s--- after\n%s", first, again)
	}
}

func TestToolErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/form.html")
	e.ok("read_page", nil)
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"relative url", "navigate", map[string]any{"url": "/article.html"}, []string{"url must be absolute http(s)"}},
		{"javascript url", "navigate", map[string]any{"url": "javascript:alert(1)"}, []string{"url must be absolute http(s)"}},
		{"file url", "navigate", map[string]any{"url": "file:///etc/passwd"}, []string{"url must be absolute http(s)"}},
		{"missing url", "navigate", map[string]any{}, []string{"url"}},
		{"bad mode", "read_page", map[string]any{"mode": "full"}, []string{`mode must be text or interactive, not "full"`}},
		{"offset past end", "read_page", map[string]any{"offset": 1_000_000}, []string{"offset 1000000 is past the end"}},
		{"negative budget", "read_page", map[string]any{"max_bytes": -5}, []string{"max_bytes must be positive"}},
		{"empty query", "find", map[string]any{"query": "  "}, []string{"query is empty"}},
		{"unknown role", "find", map[string]any{"query": "role:widget"}, []string{`unknown role "widget"`, "button"}},
		{"not a ref", "click", map[string]any{"ref": "12"}, []string{`ref "12" is not a ref`, "e12"}},
		{"missing ref", "click", map[string]any{}, []string{`missing properties: ["ref"]`}},
		{"unknown argument", "click", map[string]any{"ref": "e1", "button": "right"}, []string{"button"}},
		{"unknown ref", "click", map[string]any{"ref": "e99"}, []string{"unknown ref e99", "e1 to e11"}},
		{"disabled option", "select_option", map[string]any{"ref": "e7", "value": "August (full)"}, []string{"is disabled"}},
		{"no such option", "select_option", map[string]any{"ref": "e7", "value": "December"}, []string{"no option matches", "June | July"}},
		{"select on a checkbox", "select_option", map[string]any{"ref": "e4", "value": "x"}, []string{"not a select"}},
		{"click on a select", "click", map[string]any{"ref": "e7"}, []string{"use select_option"}},
		{"type into a checkbox", "type", map[string]any{"ref": "e4", "text": "x"}, []string{"cannot type into", "takes no typed text"}},
		{"unknown key", "press_key", map[string]any{"key": "Hyper"}, []string{`unknown key "Hyper"`, "Enter", "ArrowDown", "Control+a"}},
		{"unknown modifier", "press_key", map[string]any{"key": "Super+a"}, []string{`unknown modifier "Super"`}},
		{"scroll nowhere", "scroll", map[string]any{}, []string{"direction must be one of"}},
		{"scroll both", "scroll", map[string]any{"direction": "down", "ref": "e1"}, []string{"either direction or ref"}},
		{"wait for nothing", "wait_for", map[string]any{}, []string{"exactly one of text or selector"}},
		{"bad selector", "wait_for", map[string]any{"selector": "p[", "timeout_ms": 200}, []string{`selector "p[" is not valid CSS`}},
		{"wait times out", "wait_for", map[string]any{"text": "never there", "timeout_ms": 200}, []string{"timed out after 200 ms", `text "never there"`}},
		{"bad tab", "tabs", map[string]any{"action": "switch", "index": 7}, []string{"index must be a tab number from 1 to 1"}},
		{"bad tabs action", "tabs", map[string]any{"action": "close"}, []string{"action must be list or switch"}},
		{"go back with no history", "go_back", nil, nil},
	} {
		if c.name == "go back with no history" {
			continue // covered in TestGoBack, where the history is known
		}
		got := e.fails(c.tool, c.args)
		wantContains(t, c.name, got, c.want...)
	}
}

func TestNavigate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	got := e.open("/article.html")
	wantContains(t, "navigate", got, "url: "+site.URL+"/article.html\ntitle: Lighthouse keeping\nnavigated to "+site.URL+"/article.html")
	got = e.open("/missing.html")
	wantContains(t, "navigate to a 404", got, "navigated to "+site.URL+"/missing.html (HTTP 404)")

	// A port nothing listens on: bind one, then free it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	l.Close()
	got = e.fails("navigate", map[string]any{"url": closed})
	wantContains(t, "navigate to a closed port", got, "could not load "+closed+": net::ERR_CONNECTION_REFUSED")
}

func TestReadPageTruncation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/long.html")
	full := body(e.ok("read_page", map[string]any{"max_bytes": maxBudget}))
	if strings.Contains(full, "truncated") {
		t.Fatalf("a %d-byte budget truncated the long page", maxBudget)
	}
	marker := regexp.MustCompile(`(?m)^… truncated at (\d+) of (\d+) bytes; call read_page with offset=(\d+)$`)
	var pieces []string
	offset := 0
	for range 100 {
		got := body(e.ok("read_page", map[string]any{"max_bytes": 3000, "offset": offset}))
		if offset > 0 {
			head, rest, _ := strings.Cut(got, "\n")
			if !strings.HasPrefix(head, "… continuing at byte ") {
				t.Fatalf("piece at offset %d does not say where it continues: %q", offset, head)
			}
			got = rest
		}
		m := marker.FindStringSubmatchIndex(got)
		if m == nil {
			pieces = append(pieces, got)
			break
		}
		next := got[m[6]:m[7]]
		pieces = append(pieces, got[:m[0]])
		if len(got[:m[0]]) > 3000 {
			t.Errorf("piece at offset %d has %d bytes, over the 3000 budget", offset, len(got[:m[0]]))
		}
		var n int
		for _, c := range next {
			n = n*10 + int(c-'0')
		}
		if n <= offset {
			t.Fatalf("offset did not advance: %d then %d", offset, n)
		}
		offset = n
	}
	if joined := strings.Join(pieces, ""); strings.TrimRight(joined, "\n") != strings.TrimRight(full, "\n") {
		t.Errorf("the pieces do not add up to the page:\n--- pieces\n%.500s\n--- whole\n%.500s", joined, full)
	}
	if len(pieces) < 5 {
		t.Errorf("the long page came in %d pieces, want several", len(pieces))
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/article.html")
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"fresnel", []string{`1 match for "fresnel":`, "  - Fresnel lenses"}},
		{"133 M", []string{"| Jeddah Light | 133 m | 1990 |"}},
		{"role:link", []string{`5 matches for "role:link":`, "[Lamps abroad](e3 https://elsewhere.example/lamps)", "[the history](e4 #history)"}},
		{"role:button keeper", []string{"[Keeper](e7 button)"}},
		{"role:heading", []string{"# Lighthouse keeping", "## History", "### Famous towers"}},
		{"no such words", []string{`no match for "no such words"`}},
	} {
		got := e.ok("find", map[string]any{"query": c.query})
		wantContains(t, "find "+c.query, got, c.want...)
	}
}

func TestClick(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)

	got := e.ok("click", map[string]any{"ref": "e1"})
	wantContains(t, "click that fetches and adds items", got,
		"clicked [Show more](e1 button)", "page changed: 2 lines added:", "+ - Wick trimmer", "+ - Spare mantle")

	got = e.ok("click", map[string]any{"ref": "e9"})
	wantContains(t, "click on an in-page link", got, "navigated to "+site.URL+"/actions.html#bottom")

	got = e.ok("click", map[string]any{"ref": "e7"})
	wantContains(t, "click with no effect", got, "clicked [Under the shield](e7 button)\nno visible change")

	e.ok("click", map[string]any{"ref": "e6"})
	got = e.fails("click", map[string]any{"ref": "e7"})
	wantContains(t, "click on a covered button", got, `is covered by <div id="cover">`)

	e.open("/booked.html")
	e.ok("read_page", nil)
	got = e.ok("click", map[string]any{"ref": "e1"})
	wantContains(t, "click on a link to another page", got, "url: "+site.URL+"/article.html", "navigated to "+site.URL+"/article.html")
}

// TestShadowDOM checks that controls inside an open shadow root are read,
// referenced and clicked like any other, and that slotted light-DOM text
// shows where the slot puts it.
func TestShadowDOM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/frames.html")
	wantContains(t, "read_page", e.ok("read_page", nil),
		"## Shadow lamp\nSlotted words from the light DOM.\n[Light it](e1 button)\nUnlit", "Inside the frame. [Framed link](e2)")
	got := e.ok("click", map[string]any{"ref": "e1"})
	wantContains(t, "click in a shadow root", got, "clicked [Light it](e1 button)", "+ Lit")
}

func TestCheckboxAndLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/form.html")
	e.ok("read_page", nil)
	got := e.ok("click", map[string]any{"ref": "e4"})
	wantContains(t, "click on a checkbox", got, "+ [Send me the newsletter](e4 checkbox checked)")
	// The ferry checkbox is hidden and styled through its label, which
	// therefore carries the ref and takes the click.
	got = e.ok("click", map[string]any{"ref": "e9"})
	wantContains(t, "click on a label standing in for its hidden checkbox", got, "+ [Ferry ticket](e9 checkbox checked)")
	got = e.ok("click", map[string]any{"ref": "e6"})
	wantContains(t, "click on a radio", got, "[Night](e6 radio checked)")
}

func TestTypeAndSubmit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/form.html")
	e.ok("read_page", nil)
	got := e.ok("type", map[string]any{"ref": "e2", "text": "ada@example.org"})
	wantContains(t, "type replaces a prefilled value", got,
		`typed "ada@example.org" into [Email](e2 textbox type=email value="keeper@example.com")`,
		`+ [Email](e2 textbox type=email value="ada@example.org")`)
	got = e.ok("type", map[string]any{"ref": "e8", "text": "Two\nlines"})
	wantContains(t, "type into a textarea", got, `value="Two\nlines"`)
	got = e.ok("type", map[string]any{"ref": "e1", "text": "Grace Hopper", "submit": true})
	wantContains(t, "type with submit", got, "pressed Enter", "navigated to "+site.URL+"/booked.html?name=Grace+Hopper")
	wantContains(t, "the page after submitting", e.ok("read_page", nil), "Welcome, Grace Hopper.")
}

func TestPressKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)
	e.ok("type", map[string]any{"ref": "e8", "text": "fog horn"})
	got := e.ok("press_key", map[string]any{"key": "Enter"})
	wantContains(t, "Enter in a search box", got, "pressed Enter", "+ Searched for fog horn")
	e.ok("press_key", map[string]any{"key": "Control+a"})
	got = e.ok("press_key", map[string]any{"key": "Backspace"})
	wantContains(t, "select all and delete", got, `+ [Search](e8 textbox placeholder="Search lamps")`)
}

func TestSelectOption(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/form.html")
	e.ok("read_page", nil)
	got := e.ok("select_option", map[string]any{"ref": "e7", "value": "july"})
	wantContains(t, "select by label, ignoring case", got, `selected "July" in [Month]`, "+ Month set to jul")
	got = e.ok("select_option", map[string]any{"ref": "e7", "value": "jun"})
	wantContains(t, "select by value", got, `selected "June"`, `[Month](e7 select value="June")`)
}

func TestScroll(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)
	got := e.ok("scroll", map[string]any{"direction": "down"})
	wantContains(t, "scroll down", got, "scrolled down: showing 640 to 1440 of ")
	got = e.ok("scroll", map[string]any{"direction": "top"})
	wantContains(t, "scroll to the top", got, "scrolled top: showing 0 to 800 of ")
	got = e.ok("scroll", map[string]any{"direction": "up"})
	wantContains(t, "scroll up at the top", got, "did not move: already at the top")
	got = e.ok("scroll", map[string]any{"ref": "e9"})
	wantContains(t, "scroll an element into view", got, "scrolled [Jump to the bottom](e9) into view")
}

func TestGoBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fails("go_back", nil) // about:blank is the tab's first entry
	e.open("/article.html")
	e.open("/booked.html")
	got := e.ok("go_back", nil)
	wantContains(t, "go_back", got, "url: "+site.URL+"/article.html", "navigated to "+site.URL+"/article.html")
}

func TestWaitFor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)
	e.ok("click", map[string]any{"ref": "e5"}) // answers after 1.2 s
	got := e.ok("wait_for", map[string]any{"text": "the LATE answer", "timeout_ms": 5000})
	wantContains(t, "wait_for text", got, `found text "the LATE answer" after`)
	got = e.ok("wait_for", map[string]any{"selector": "#answer"})
	wantContains(t, "wait_for selector", got, `found an element matching "#answer"`)
}

func TestDialogs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)
	got := e.ok("click", map[string]any{"ref": "e2"})
	wantContains(t, "alert", got, `dialog opened: alert "Lamp lit" (accepted)`, "+ alert closed")
	got = e.ok("click", map[string]any{"ref": "e3"})
	wantContains(t, "confirm", got, `dialog opened: confirm "Put the lamp out?" (dismissed)`, "+ confirm said false")
}

func TestTabs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/actions.html")
	e.ok("read_page", nil)
	got := e.ok("click", map[string]any{"ref": "e4"})
	wantContains(t, "click on a target=_blank link", got,
		"opened new tab 2: "+site.URL+"/booked.html?name=Tab (tabs with action=switch index=2 to use it)")
	got = e.ok("tabs", map[string]any{"action": "switch", "index": 2})
	wantContains(t, "switch", got, "url: "+site.URL+"/booked.html?name=Tab\n", "switched to tab 2")
	wantContains(t, "read_page on the new tab", e.ok("read_page", nil), "title: Booked\n", "Welcome, Tab.")
	wantContains(t, "select is switch", e.ok("tabs", map[string]any{"action": "select", "index": 1}), "/actions.html\n", "switched to tab 1")
	e.ok("tabs", map[string]any{"action": "switch", "index": 2})
	got = body(e.ok("tabs", nil))
	if !regexp.MustCompile(`^1: http://127\.0\.0\.1:\d+/actions\.html Actions\n2: http://127\.0\.0\.1:\d+/booked\.html\?name=Tab Booked \(current\)$`).MatchString(got) {
		t.Errorf("tabs list:\n%s", got)
	}
}

func TestScreenshot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/article.html")
	r := e.call("screenshot", nil)
	if r.isError || len(r.images) != 1 {
		t.Fatalf("screenshot: error=%v, %d images; text:\n%s", r.isError, len(r.images), r.text)
	}
	img := r.images[0]
	if img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("screenshot is %s starting %q, want a PNG", img.MIMEType, img.Data[:min(8, len(img.Data))])
	}
}

// TestSettleBound checks that an action waits no longer than
// Options.Settle on a page that never goes quiet, and that it does wait
// that long rather than reporting half-done work early.
func TestSettleBound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.opts.Settle = 600 * time.Millisecond
	e.open("/actions.html")
	e.ok("read_page", nil)
	start := time.Now()
	e.ok("click", map[string]any{"ref": "e10"}) // starts endless DOM and network activity
	// The upper bound only tells a bounded wait from an endless one: a busy
	// machine may take longer to answer.
	if took := time.Since(start); took < 600*time.Millisecond || took > 30*time.Second {
		t.Errorf("click on a never-quiet page took %s with Settle 600ms", took)
	}
}

// TestLoadBound checks that a navigation is reported by whether the page
// loaded, not by how long it took: a page that loads after Settle (as any
// page may on a busy machine) is reported loaded, and only a page that
// does not load within Load is reported still loading.
func TestLoadBound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.opts.Settle = 300 * time.Millisecond
	e.srv.opts.Load = 30 * time.Second
	text := e.ok("navigate", map[string]any{"url": site.URL + "/slowload.html?ms=1500"})
	if strings.Contains(text, "still loading") || !strings.Contains(text, "title: Slow") {
		t.Errorf("navigate to a page that loads in 1.5 s with Settle 300ms:\n%s", text)
	}

	e.srv.opts.Load = 500 * time.Millisecond
	start := time.Now()
	text = e.ok("navigate", map[string]any{"url": site.URL + "/slowload.html"})
	if !strings.Contains(text, "(still loading after 500ms)") {
		t.Errorf("navigate to a page that never loads, Load 500ms:\n%s", text)
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Errorf("navigate to a page that never loads returned after %s, before Load (500ms)", took)
	}
}

// TestStillLoadingNamesTheBound checks that a reply names the bound that
// really ran out: an action on a page still loading, which navigates
// nowhere, waits only Settle, and must not claim to have waited Load.
func TestStillLoadingNamesTheBound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.opts.Settle = 300 * time.Millisecond
	e.srv.opts.Load = 400 * time.Millisecond
	// Its image never loads and its DOM never stops changing, so the
	// waits end at their bounds, never by going quiet, on a machine of
	// any load (whose bounds stretch in spare time, past quietOne).
	text := e.ok("navigate", map[string]any{"url": site.URL + "/slowload.html?tick"})
	if !strings.Contains(text, "(still loading after 400ms)") {
		t.Fatalf("navigate to a page that never loads, Load 400ms:\n%s", text)
	}
	e.srv.opts.Load = time.Minute
	text = e.ok("press_key", map[string]any{"key": "Tab"})
	if !strings.Contains(text, "the page is still loading after 300ms") || strings.Contains(text, "1m0s") {
		t.Errorf("a key press on a page still loading, Settle 300ms, Load 1m:\n%s", text)
	}
}

// The in-memory transport skips the byte framing; this runs the server over
// a pipe with the newline-delimited JSON stdio uses, as `contractbench mcp`
// will.
func TestStreamTransport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ss, err := e.srv.MCP().Connect(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stream-test", Version: "v0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cs.Close()
		_ = ss.Wait()
	}()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": site.URL + "/booked.html"}})
	if err != nil || res.IsError {
		t.Fatalf("navigate over a stream: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "title: Booked") {
		t.Errorf("reply over a stream:\n%s", text)
	}
}

func TestNewRefusesWhatIsNotABrowser(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"", "Options.BrowserURL is required"},
		{"ftp://127.0.0.1:9222", "want http://host:port"},
		{"http://", "no host"},
		{"http://127.0.0.1:1", "devtools endpoint http://127.0.0.1:1"},
	} {
		s, err := New(t.Context(), Options{BrowserURL: tc.url})
		if err == nil {
			s.Close()
			t.Errorf("New(%q) succeeded, want an error containing %q", tc.url, tc.want)
		} else if !strings.HasPrefix(err.Error(), "toolserver: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): got %v, want a toolserver error containing %q", tc.url, err, tc.want)
		}
	}
}
