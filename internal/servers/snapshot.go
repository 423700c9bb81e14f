package servers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/problem"
	"contractbench/internal/suite"
)

// element is a node of a snapshot that carries a ref (Playwright) or uid
// (chrome-devtools-mcp), so a tool can act on it.
type element struct {
	ref  string
	role string
	// name is the accessible name as the snapshot writes it.
	name string
	// url is a link's target as the snapshot writes it: Playwright gives
	// the href attribute (often relative), chrome-devtools-mcp the
	// resolved URL.
	url string
	// disabled is set when the snapshot marks the element disabled.
	disabled bool
}

// snapshot is what the driver reads from a snapshot tool's reply.
type snapshot struct {
	// pageURL is the URL of the page the snapshot is of, when the reply
	// says; relative element URLs are resolved against it.
	pageURL  string
	elements []element
	// partial is set when the reply says it lists only some of what
	// matched (the built-in find's limit).
	partial bool
	// tool is the tool whose reply this is, for messages.
	tool string
}

// targetRoles maps a suite.Target role onto the ARIA roles that fit it.
// A field is anything typed into: text inputs and areas are textbox,
// type=search is searchbox, an editable combobox takes text too, and a
// number input is a spinbutton.
// A select is a drop-down list: the built-in server's select, a peer's
// combobox (or listbox, for a multiple select).
// A file input is a button to the peers (it opens the file chooser) and
// "file" to the built-in server. An option is an option of a listbox (an
// autocomplete's suggestions), a region a labelled landmark (a drop zone).
var targetRoles = map[string][]string{
	"link":   {"link"},
	"button": {"button", "file"},
	"field":  {"textbox", "searchbox", "combobox", "spinbutton"},
	"select": {"select", "combobox", "listbox"},
	"tab":    {"tab"},
	"option": {"option"},
	"region": {"region"},
}

// builtinRoles is the role a built-in find query names for each target
// role but field, which is looked up by its name alone.
var builtinRoles = map[string]string{"link": "link", "button": "button", "select": "select", "tab": "tab", "option": "option", "region": "region"}

// parseSnapshot reads reply in the given format.
func parseSnapshot(f Format, reply string) (snapshot, error) {
	switch f {
	case FormatBuiltin:
		return parseBuiltin(reply), nil
	case FormatPlaywright:
		return parsePlaywright(reply)
	case FormatChromeDevtools:
		return parseDevtools(reply), nil
	}
	return snapshot{}, fmt.Errorf("no snapshot reader for format %q", f)
}

// find returns every element, in document order, that fits t: a role
// that fits t.Role, the accessible name t.Name after folding white space,
// and, when t.Href is set, a URL containing it (as written or resolved
// against the page's URL).
func (s snapshot) find(t suite.Target) []element {
	roles := targetRoles[t.Role]
	name := fold(t.Name)
	var fits []element
	for _, e := range s.elements {
		if !slices.Contains(roles, e.role) || fold(e.name) != name {
			continue
		}
		if t.Href != "" && !strings.Contains(e.url, t.Href) && !strings.Contains(s.resolve(e.url), t.Href) {
			continue
		}
		fits = append(fits, e)
	}
	return fits
}

// same reports whether the elements that fit a target are one choice: a
// single element, or links that all lead to the same URL (a page often
// links one place twice, and either click goes there).
func (s snapshot) same(fits []element) bool {
	for _, e := range fits[1:] {
		if e.role != "link" || fits[0].role != "link" || e.url == "" || s.resolve(e.url) != s.resolve(fits[0].url) {
			return false
		}
	}
	return true
}

// candidates describes the elements whose role fits t, for an error that
// shows what was there instead: those with t's name first (they failed on
// the URL), then the others, in document order.
func (s snapshot) candidates(t suite.Target) string {
	const max = 8
	roles := targetRoles[t.Role]
	name := fold(t.Name)
	var named, others []element
	for _, e := range s.elements {
		switch {
		case !slices.Contains(roles, e.role):
		case fold(e.name) == name:
			named = append(named, e)
		default:
			others = append(others, e)
		}
	}
	all := append(named, others...)
	if len(all) == 0 {
		return fmt.Sprintf("no %s at all among its %d elements", t.Role, len(s.elements))
	}
	return fmt.Sprintf("its %ss: %s", t.Role, describe(all, max))
}

// describe lists up to max elements as name (role ref url).
func describe(els []element, max int) string {
	var out []string
	for _, e := range els[:min(len(els), max)] {
		desc := fmt.Sprintf("%q (%s %s", problem.Bound(fold(e.name), 60), e.role, e.ref)
		if e.url != "" {
			desc += " " + problem.Bound(e.url, 80)
		}
		out = append(out, desc+")")
	}
	if len(els) > max {
		out = append(out, fmt.Sprintf("and %d more", len(els)-max))
	}
	return strings.Join(out, ", ")
}

// resolve returns ref resolved against the page's URL, or ref itself when
// either does not parse.
func (s snapshot) resolve(ref string) string {
	base, err := url.Parse(s.pageURL)
	if err != nil || s.pageURL == "" {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// fold collapses runs of white space to one space and trims the ends, as
// accessible names are compared.
func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// parseBuiltin reads the built-in server's find reply (read_page's text
// reads the same way):
//
//	url: https://en.wikipedia.org/wiki/Main_Page
//	title: Main Page - Wikipedia
//	2 matches for "role:link Eiffel Tower":
//	- [Eiffel Tower](e54 /wiki/Eiffel_Tower) opened in 1889
//	[Search Wikipedia](e4 textbox placeholder="Search Wikipedia")
//
// A control is [name](eN ...): after the ref a link has its URL, any other
// control its role, then attributes (quoted values) and state words. A
// name may hold brackets, so it is taken to start at the last "[" before
// its "](e"; a URL may hold balanced parentheses (/wiki/Paris_(city)).
func parseBuiltin(reply string) snapshot {
	var s snapshot
	s.partial = strings.Contains(reply, " more not shown; narrow the query")
	for _, line := range strings.Split(reply, "\n") {
		if u, ok := strings.CutPrefix(line, "url: "); ok && s.pageURL == "" {
			s.pageURL = strings.TrimSpace(u)
			continue
		}
		for _, m := range builtinRef.FindAllStringSubmatchIndex(line, -1) {
			open := strings.LastIndexByte(line[:m[0]], '[')
			if open < 0 {
				continue
			}
			e := element{name: line[open+1 : m[0]], ref: line[m[2]:m[3]], role: "link"}
			body, ok := "", true
			if line[m[1]-1] == ' ' {
				body, ok = builtinBody(line[m[1]:])
			}
			if !ok {
				continue
			}
			// A link's URL (find shows it) comes first and may hold "=",
			// so it is cut off before the words are split.
			if first, rest, _ := strings.Cut(body, " "); strings.HasPrefix(first, "/") || strings.HasPrefix(first, "#") || strings.Contains(first, ":") {
				e.url, body = first, rest
			}
			words := builtinWords(body)
			if len(words) > 0 && e.url == "" && !strings.Contains(words[0], "=") && !slices.Contains(builtinStates, words[0]) {
				e.role = words[0]
			}
			e.disabled = slices.Contains(words, "disabled")
			s.elements = append(s.elements, e)
		}
	}
	return s
}

// builtinRef matches where a built-in control's ref starts: "](e12".
var builtinRef = regexp.MustCompile(`\]\((e[0-9]+)[ )]`)

// builtinBody returns what follows a control's ref and its space up to
// the closing parenthesis, skipping quoted values and balanced
// parentheses; ok is false when it is not closed.
func builtinBody(s string) (body string, ok bool) {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')' && depth == 0:
			return s[:i], true
		case c == ')':
			depth--
		}
	}
	return "", false
}

// parsePlaywright reads @playwright/mcp's browser_snapshot reply:
//
//	### Page
//	- Page URL: https://en.wikipedia.org/wiki/Main_Page
//	### Snapshot
//	```yaml
//	- generic [ref=e1]:
//	  - searchbox "Search Wikipedia" [ref=e13]
//	  - link "Eiffel Tower" [ref=e54] [cursor=pointer]:
//	    - /url: /wiki/Eiffel_Tower
//	```
//
// The block is YAML (an entry that needs it is single-quoted, and the name
// inside is a JSON string), so it is read with the YAML library rather than
// by lines. An entry is `role "name" [attr=value]...`; a `/url:` child
// holds its parent's href.
func parsePlaywright(reply string) (snapshot, error) {
	var s snapshot
	for _, line := range strings.Split(reply, "\n") {
		if u, ok := strings.CutPrefix(line, "- Page URL: "); ok {
			s.pageURL = strings.TrimSpace(u)
			break
		}
	}
	const open = "```yaml\n"
	start := strings.Index(reply, open)
	if start < 0 {
		return s, errors.New("no ```yaml snapshot block in the reply")
	}
	block := reply[start+len(open):]
	if end := strings.Index(block, "\n```"); end >= 0 {
		block = block[:end]
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
		return s, fmt.Errorf("snapshot block is not YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return s, nil
	}
	if doc.Content[0].Kind != yaml.SequenceNode {
		return s, fmt.Errorf("snapshot block is %s, want a list", problem.Describe(doc.Content[0]))
	}
	s.elements, _ = playwrightItems(doc.Content[0], -1, nil)
	return s, nil
}

// playwrightItems appends the elements of the list items in seq to els;
// owner is the index in els of the element the list belongs to, or -1. It
// also returns the text of the items, which names an element the snapshot
// leaves unnamed: a link around an image is written `link [ref=e11]` with
// the image's alt text in a child, and that text is its accessible name.
func playwrightItems(seq *yaml.Node, owner int, els []element) ([]element, string) {
	var texts []string
	for _, item := range seq.Content {
		switch item.Kind {
		case yaml.ScalarNode:
			e, ok := playwrightEntry(item.Value)
			if ok {
				els = append(els, e)
			}
			texts = append(texts, e.name)
		case yaml.MappingNode:
			for i := 0; i+1 < len(item.Content); i += 2 {
				key, val := item.Content[i].Value, item.Content[i+1]
				if prop, ok := strings.CutPrefix(key, "/"); ok {
					if prop == "url" && owner >= 0 && val.Kind == yaml.ScalarNode {
						els[owner].url = val.Value
					}
					continue
				}
				if key == "text" {
					texts = append(texts, val.Value)
					continue
				}
				e, ok := playwrightEntry(key)
				idx := len(els)
				if ok {
					els = append(els, e)
				}
				var content string
				switch val.Kind {
				case yaml.ScalarNode:
					content = val.Value
				case yaml.SequenceNode:
					if !ok {
						idx = -1
					}
					els, content = playwrightItems(val, idx, els)
				}
				if ok && e.name == "" {
					els[idx].name = fold(content)
				}
				if e.name != "" {
					content = e.name
				}
				texts = append(texts, content)
			}
		}
	}
	return els, strings.Join(texts, " ")
}

var playwrightAttr = regexp.MustCompile(`\[([^\]=\s]+)(?:=([^\]]*))?\]`)

// playwrightEntry reads one entry, `role "name" [ref=e5] [cursor=pointer]`;
// ok is false for an entry without a ref (options of a select, say), which
// no tool can act on, or one whose name does not read.
func playwrightEntry(s string) (element, bool) {
	role, rest, _ := strings.Cut(s, " ")
	e := element{role: role}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, `"`) {
		end := jsonStringEnd(rest)
		if end < 0 || json.Unmarshal([]byte(rest[:end]), &e.name) != nil {
			return element{}, false
		}
		// The attributes are read only after the name, which may itself
		// contain "[ref=e9]".
		rest = rest[end:]
	}
	for _, m := range playwrightAttr.FindAllStringSubmatch(rest, -1) {
		switch m[1] {
		case "ref":
			e.ref = m[2]
		case "disabled":
			e.disabled = true
		}
	}
	return e, e.ref != ""
}

// jsonStringEnd returns the index just past the JSON string that s starts
// with, or -1 if it is not closed.
func jsonStringEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// parseDevtools reads chrome-devtools-mcp's take_snapshot reply:
//
//	## Latest page snapshot
//	uid=1_0 RootWebArea "Main Page - Wikipedia" url="https://en.wikipedia.org/wiki/Main_Page"
//	  uid=1_10 searchbox "Search Wikipedia" description="Search Wikipedia [alt-shift-f]"
//	  uid=1_39 link "Eiffel Tower" url="https://en.wikipedia.org/wiki/Eiffel_Tower"
//	  uid=1_38 "The "
//
// One node per line, indented two spaces a level: its uid, its role (none
// for text), its name in quotes and its attributes, sorted, as key="value"
// or a bare key. The server writes names and values between quotes without
// escaping anything, so a name's closing quote is taken to be the first
// one after which the rest of the line reads as attributes.
func parseDevtools(reply string) snapshot {
	var s snapshot
	body := reply
	if _, after, ok := strings.Cut(reply, "## Latest page snapshot\n"); ok {
		body = after
	}
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "## ") {
			break // the next section of the reply
		}
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case strings.HasPrefix(trimmed, "uid="):
			lines = append(lines, trimmed)
		case len(lines) > 0 && line != "":
			// A name with a line break in it goes on over the next line.
			lines[len(lines)-1] += "\n" + line
		}
	}
	for _, line := range lines {
		e := devtoolsNode(line)
		if e.role == "RootWebArea" && s.pageURL == "" {
			s.pageURL = e.url
		}
		s.elements = append(s.elements, e)
	}
	return s
}

var (
	// devtoolsAttrs matches what may follow a node's name: attributes,
	// and the marker of the node selected in the Elements panel.
	devtoolsAttrs = regexp.MustCompile(`^(?: [A-Za-z][A-Za-z0-9_-]*(?:="[^"]*")?)*(?: \[selected in the DevTools Elements panel\])?$`)
	devtoolsURL   = regexp.MustCompile(`(?:^| )url="([^"]*)"(?: |$)`)
	// devtoolsDisabled matches the bare attribute of a disabled node.
	devtoolsDisabled = regexp.MustCompile(`(?:^| )disabled(?: |$)`)
)

// devtoolsNode reads one node line (without its indentation).
func devtoolsNode(line string) element {
	uid, rest, _ := strings.Cut(line, " ")
	e := element{ref: strings.TrimPrefix(uid, "uid=")}
	if rest != "" && rest[0] != '"' {
		e.role, rest, _ = strings.Cut(rest, " ")
	}
	attrs := rest
	if strings.HasPrefix(rest, `"`) {
		end := -1
		for j := 1; j < len(rest); j++ {
			if rest[j] != '"' || (j+1 < len(rest) && rest[j+1] != ' ') {
				continue
			}
			end = j
			if devtoolsAttrs.MatchString(rest[j+1:]) {
				break
			}
		}
		if end > 0 {
			e.name, attrs = rest[1:end], rest[end+1:]
		}
	}
	if m := devtoolsURL.FindStringSubmatch(attrs); m != nil {
		e.url = m[1]
	}
	e.disabled = devtoolsDisabled.MatchString(attrs)
	return e
}

// Target is an element of a snapshot as a reference step can name it.
type Target struct {
	suite.Target
	// Ref is the server's own ref or uid for it on this snapshot.
	Ref string
}

// Targets reads a reply of the server's snapshot tool (for the built-in
// server, read_page or find) and returns every element a reference step
// can name, in document order, with the target role that fits its role.
// A built-in read_page reply gives no link URLs; a find reply does.
func (p *Profile) Targets(reply string) ([]Target, error) {
	snap, err := parseSnapshot(p.format, reply)
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, e := range snap.elements {
		for _, role := range suite.TargetRoles {
			if slices.Contains(targetRoles[role], e.role) {
				out = append(out, Target{Target: suite.Target{Role: role, Name: fold(e.name), Href: e.url}, Ref: e.ref})
				break
			}
		}
	}
	return out, nil
}
