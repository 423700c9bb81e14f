package servers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/judge"
)

// TestNoServerShowsTheAgentThisMachine has each server's navigate tool ask
// for this machine's files (file:, their source, a file's filesystem:
// URL) and the browser's own pages (chrome:, devtools:). Whatever a server
// allows, no reply holds the file's text, and every request that reached
// the browser is refused by the judge and listed in its observation (the
// runner reports the attempt tainted). The built-in server refuses every
// such URL itself, before the browser sees it.
func TestNoServerShowsTheAgentThisMachine(t *testing.T) {
	set := loadServers(t)
	self := buildSelf(t)
	const secret = "answer-7731-of-the-suite"
	file := filepath.Join(t.TempDir(), "generated.json")
	if err := os.WriteFile(file, []byte(`{"answer": "`+secret+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	urls := []string{
		"file://" + file,
		"view-source:file://" + file,
		"filesystem:file://" + file,
		"chrome://version",
		"view-source:chrome://version",
		"devtools://devtools/bundled/inspector.html",
	}
	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			requireInstalled(t, p)
			for _, u := range urls {
				t.Run(u, func(t *testing.T) {
					a := startChoice(t, p, self)
					c, err := p.Call(ActNavigate, map[string]any{"{url}": u})
					if err != nil {
						t.Fatal(err)
					}
					a.j.MarkToolCall()
					res, err := a.sess.Call(a.ctx, c.Name, c.Args)
					if err != nil {
						t.Fatalf("%s: %v", c.Name, err)
					}
					if strings.Contains(res.Text, secret) || strings.Contains(res.Text, "Command Line") || strings.Contains(res.Text, "--remote-debugging-port") {
						t.Fatalf("%s %s showed the agent this machine:\n%s", c.Name, u, res.Text)
					}
					obs, err := a.j.Observe(a.ctx, judge.Want{})
					if err != nil {
						t.Fatalf("judge: %v", err)
					}
					switch {
					case name == "builtin" && !res.IsError:
						t.Errorf("the built-in server did not refuse %s:\n%s", u, res.Text)
					case name == "builtin":
					case len(obs.Refused) == 0 && !res.IsError:
						t.Errorf("%s reached the browser and the judge refused nothing; the page is at %s", u, obs.URL)
					}
					if offWeb := strings.SplitN(obs.URL, ":", 2)[0]; offWeb == "file" || offWeb == "chrome" || offWeb == "devtools" || offWeb == "view-source" {
						t.Errorf("the page was left at %s", obs.URL)
					}
					t.Logf("%s: error=%v refused=%+v reply=%.200q", name, res.IsError, obs.Refused, res.Text)
				})
			}
		})
	}
}
