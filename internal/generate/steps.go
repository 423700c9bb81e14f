package generate

import (
	"encoding/json"
	"regexp"

	"contractbench/internal/contract"
	"contractbench/internal/suite"
)

// The reference steps a template writes: each is one call of the built-in
// server's tools, the element named by a target (docs/benchmarks/
// authoring.md, reference steps).

// Navigate loads url.
func Navigate(url string) suite.Step { return step("navigate", map[string]any{"url": url}, nil) }

// Read reads the page as text.
func Read() suite.Step { return step("read_page", map[string]any{"mode": "text"}, nil) }

// Click clicks the element of role and name.
func Click(role, name string) suite.Step {
	return step("click", nil, &suite.Target{Role: role, Name: name})
}

// ClickLink clicks the link named name whose URL contains href.
func ClickLink(name, href string) suite.Step {
	return step("click", nil, &suite.Target{Role: "link", Name: name, Href: href})
}

// Type replaces the text of the field named name; submit presses Enter.
func Type(name, text string, submit bool) suite.Step {
	args := map[string]any{"text": text}
	if submit {
		args["submit"] = true
	}
	return step("type", args, &suite.Target{Role: "field", Name: name})
}

// Select chooses value in the drop-down list named name.
func Select(name, value string) suite.Step {
	return step("select_option", map[string]any{"value": value}, &suite.Target{Role: "select", Name: name})
}

// Press presses key in the focused element.
func Press(key string) suite.Step { return step("press_key", map[string]any{"key": key}, nil) }

// SwitchTab switches to tab index (from 1), where a link that opens a new
// tab put its page.
func SwitchTab(index int) suite.Step {
	return step("tabs", map[string]any{"action": "switch", "index": index}, nil)
}

// Back goes back one page.
func Back() suite.Step { return step("go_back", nil, nil) }

// Drag drags the element from onto the element to.
func Drag(from, to suite.Target) suite.Step {
	s := step("drag", nil, &from)
	s.To = &to
	return s
}

// Upload puts files (names in the suite's uploads/ folder) into the file
// input named name.
func Upload(name string, files ...string) suite.Step {
	return step("upload_file", map[string]any{"files": files}, &suite.Target{Role: "button", Name: name})
}

func step(tool string, args map[string]any, target *suite.Target) suite.Step {
	s := suite.Step{Tool: tool, Target: target}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			panic(err) // maps of strings, bools and string lists always encode
		}
		s.Args = b
	}
	return s
}

// The clauses a template writes (docs/contracts.md).

// Exact is a URL pattern that matches u and nothing else.
func Exact(u string) string { return "^" + regexp.QuoteMeta(u) + "$" }

// URLIs holds when the final URL matches pattern.
func URLIs(pattern string) *contract.URL { return &contract.URL{Pattern: pattern} }

// Text holds when an element matching selector shows contains.
func Text(selector, contains string) *contract.DOMText {
	return &contract.DOMText{Selector: selector, Contains: contains}
}

// Count holds when exactly n elements match selector.
func Count(selector string, n int) *contract.DOMCount {
	return &contract.DOMCount{Selector: selector, Op: contract.OpEq, Value: n}
}

// Post holds when a form post to a URL matching pattern was answered
// with a redirect (303, the sites' answer to a write they accepted) and
// carried form's fields with those values.
func Post(pattern string, form map[string]string) *contract.Network {
	return &contract.Network{URLPattern: pattern, Method: "POST", StatusIn: []int{303}, Form: form}
}

// Once holds when exactly one such post was made.
func Once(n *contract.Network) *contract.Network {
	n.Count = &contract.Count{Op: contract.OpEq, Value: 1}
	return n
}

// Or holds when any of cs does.
func Or(cs ...contract.Clause) *contract.Or { return &contract.Or{Children: cs} }

// NoWrite holds when no write on host was accepted: no post to any of
// its URLs answered 303.
func NoWrite(host string) *contract.Not {
	return &contract.Not{Child: &contract.Network{URLPattern: "^https://" + regexp.QuoteMeta(host) + "/", Method: "POST", StatusIn: []int{303}}}
}

// NoDialog holds when no JavaScript dialog opened.
func NoDialog() *contract.NoDialog { return &contract.NoDialog{} }
