package judge

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The ```html page examples of docs/contracts.md are loaded in Chromium
// and graded here, so what the page says the judge reads is what it
// reads: each ```text sees block right after one lists a string per line,
// "+ text" for a dom_text on body that must pass and "- text" for one that
// must fail.
const contractsDoc = "../../docs/contracts.md"

type pageExample struct {
	line int
	html string
	sees []string
}

func readPageExamples(t *testing.T) []pageExample {
	t.Helper()
	data, err := os.ReadFile(contractsDoc)
	if err != nil {
		t.Fatalf("the contract documentation must exist beside the code: %v", err)
	}
	var (
		out  []pageExample
		open string // the fence's info string while inside a block
		at   int
		body strings.Builder
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !strings.HasPrefix(line, "```"):
			if open != "" {
				body.WriteString(line + "\n")
			}
		case open == "":
			open, at = strings.TrimSpace(strings.TrimPrefix(line, "```"))+" ", n
			body.Reset()
		default:
			switch {
			case open == "html page ":
				out = append(out, pageExample{line: at, html: body.String()})
			case open == "text sees ":
				if len(out) == 0 || out[len(out)-1].sees != nil {
					t.Fatalf("%s:%d: a sees block must follow an html page block", contractsDoc, at)
				}
				out[len(out)-1].sees = strings.Split(strings.TrimRight(body.String(), "\n"), "\n")
			}
			open = ""
		}
	}
	for _, e := range out {
		if e.sees == nil {
			t.Fatalf("%s:%d: an html page block without the sees block after it", contractsDoc, e.line)
		}
	}
	return out
}

func TestDocsPageExamples(t *testing.T) {
	examples := readPageExamples(t)
	if len(examples) == 0 {
		t.Fatalf("%s has no html page examples", contractsDoc)
	}
	routes := map[string]any{}
	for i, e := range examples {
		routes[fmt.Sprintf("/%d", i)] = "<!doctype html><title>example</title>" + e.html
	}
	srv := site(t, routes)
	for i, e := range examples {
		for _, s := range e.sees {
			want, text, ok := strings.Cut(s, " ")
			if !ok || (want != "+" && want != "-") {
				t.Fatalf("%s:%d: a sees line is \"+ text\" or \"- text\", not %q", contractsDoc, e.line, s)
			}
			t.Run(fmt.Sprintf("line %d %s", e.line, s), func(t *testing.T) {
				g := gradeOn(t, fmt.Sprintf("%s/%d", srv.URL, i), textContract("body", text), nil)
				if g.v.Passed != (want == "+") {
					t.Errorf("%s:%d: dom_text contains %q passed=%v, the page says %s:\n%s", contractsDoc, e.line, text, g.v.Passed, want, g.explain())
				}
			})
		}
	}
}
