package servers

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"contractbench/internal/suite"
)

// FuzzParse feeds servers.yaml variants to the decoder: it must never
// panic, and a file it accepts must keep the invariants the runner relies
// on (nothing unsafe or excluded is allowed, every action's tool is
// allowed, every page tool is allowed).
func FuzzParse(f *testing.F) {
	real, err := os.ReadFile(filepath.Join(repoRoot, "benchmarks/servers.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real)
	f.Add([]byte(file(validServer)))
	f.Add([]byte("format_version: 1\nservers: [{name: a}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		for _, name := range set.Names() {
			p, err := set.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range p.Allow() {
				if _, ok := p.Unsafe(tool); ok {
					t.Errorf("%s: %s is allowed and unsafe", name, tool)
				}
				if _, ok := p.Excluded(tool); ok {
					t.Errorf("%s: %s is allowed and excluded", name, tool)
				}
			}
			for _, a := range allActions {
				if _, mapped := p.actions[a]; !mapped && slices.Contains(optionalActions, a) {
					continue
				}
				if !slices.Contains(p.Allow(), p.Tool(a)) {
					t.Errorf("%s: action %s plays %q, which is not allowed", name, a, p.Tool(a))
				}
			}
		}
	})
}

// FuzzSnapshot feeds snapshot replies to both readers and the target
// search: a peer's reply is outside input and must never crash the driver.
func FuzzSnapshot(f *testing.F) {
	for _, server := range peers {
		files, _ := filepath.Glob(filepath.Join("testdata", server, "*.txtar"))
		for _, file := range files {
			c, err := readCapture(file)
			if err != nil {
				f.Fatal(err)
			}
			for _, reply := range c.replies {
				f.Add(reply)
			}
		}
	}
	f.Add("```yaml\n- 'link \"a\\\\\" [ref=e1]':\n  - /url: x\n```")
	f.Add("uid=1_1 link \"\"\" url=\"\"\n  uid=\n")
	targets := []suite.Target{{Role: "link", Name: "a"}, {Role: "field", Name: ""}, {Role: "button", Name: "Go", Href: "x"}}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, format := range []Format{FormatBuiltin, FormatPlaywright, FormatChromeDevtools} {
			snap, err := parseSnapshot(format, reply)
			if err != nil {
				continue
			}
			for _, tg := range targets {
				for _, e := range snap.find(tg) {
					if fold(e.name) != fold(tg.Name) {
						t.Errorf("%s: found %+v for %+v", format, e, tg)
					}
				}
				_ = snap.candidates(tg)
			}
		}
	})
}
