package servers

import (
	"fmt"
	"regexp"
)

// Control is an element of a page snapshot that the server's tools can act
// on, as the server's read action shows it. It is what an agent that does
// not read prose (the random null agent) picks its clicks and typing from.
type Control struct {
	// Ref names the element to the server's tools: a ref (e12) for the
	// built-in server and Playwright, a uid (3_14) for chrome-devtools-mcp.
	Ref string
	// Role is the role as the server writes it: link, button, textbox,
	// searchbox and so on.
	Role string
	// Name is the accessible name as the snapshot writes it.
	Name string
	// URL is a link's target as the snapshot writes it, when it does.
	URL string
	// Disabled is set when the snapshot marks the element disabled.
	Disabled bool
}

// Controls reads a reply of the server's read action: the URL of the page
// it shows, when the reply says, and its elements that carry a ref, in
// document order. A reply that does not read in the server's snapshot
// format is an error that quotes its beginning.
func (p *Profile) Controls(reply string) (pageURL string, controls []Control, err error) {
	snap, err := parseSnapshot(p.format, reply)
	if err != nil {
		return "", nil, fmt.Errorf("server %s: reading the %s reply: %w", p.name, p.Tool(ActRead), err)
	}
	for _, e := range snap.elements {
		if e.ref == "" {
			continue
		}
		controls = append(controls, Control{Ref: e.ref, Role: e.role, Name: e.name, URL: e.url, Disabled: e.disabled})
	}
	return snap.pageURL, controls, nil
}

// builtinStates are the state words the built-in server writes after a
// control's role; a link has no role word, so one of these first means a
// link.
var builtinStates = []string{"checked", "mixed", "selected", "pressed", "expanded", "collapsed", "disabled", "readonly", "multiple"}

var builtinWord = regexp.MustCompile(`[a-z][a-z0-9_-]*=(?:"(?:[^"\\]|\\.)*"|[^\s)"]*)|[^\s)"=]+`)

// builtinWords splits what follows a ref into its words, a quoted value
// staying with its key.
func builtinWords(tail string) []string {
	return builtinWord.FindAllString(tail, -1)
}
