package servers

import (
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/judge"
)

// TestSkippedContentIsSeenOnEveryServer plays, on the built-in server and
// each installed peer, an agent that opens a page and reads it without
// scrolling, where the text the task asks for is far down, in a section
// the browser skips until it is near the viewport (content-visibility:
// auto). A person scrolls there and reads it: the judge sees it. Beside
// it, the same text hidden until a person searches for it
// (hidden=until-found) stays unseen.
//
// A peer that is not installed fails the test (see requireInstalled).
func TestSkippedContentIsSeenOnEveryServer(t *testing.T) {
	set := loadServers(t)
	self := buildSelf(t)
	const msg = "Your parcel left the depot"
	far := `<title>parcel</title><h1>Tracking</h1><div style="height:4000px">Scroll down</div>`
	pages := map[string]string{
		"/skipped":     far + `<section style="content-visibility:auto"><p>` + msg + `</p></section>` + far,
		"/until-found": far + `<section style="content-visibility:auto"><div hidden="until-found">` + msg + `</div></section>`,
	}
	base := servePages(t, pages)
	want := judge.Want{Queries: []contract.Query{{Selector: "body", Contains: []string{msg}}}}

	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			requireInstalled(t, p)
			for path, seen := range map[string]bool{"/skipped": true, "/until-found": false} {
				t.Run(path, func(t *testing.T) {
					a := startChoice(t, p, self)
					a.do(ActNavigate, map[string]any{"{url}": base + path})
					a.do(ActRead, nil)
					obs, err := a.j.Observe(a.ctx, want)
					if err != nil {
						t.Fatalf("judge: %v", err)
					}
					if found := obs.Elements["body"].Contains[msg].Match > 0; found != seen {
						t.Errorf("on %s the judge found %q: %v, want %v (active page %s: %s)", path, msg, found, seen, obs.URL, obs.Active)
					}
				})
			}
		})
	}
}
