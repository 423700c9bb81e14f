package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"golang.org/x/tools/txtar"

	"contractbench/internal/judge"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/suite"
)

// peers are the servers TestPeers runs; the built-in server has tests of
// its own in internal/toolserver.
var peers = []string{"playwright", "chrome-devtools"}

// peerTasks are the tasks whose references TestPeers plays on each peer:
// a navigation, a search typed and submitted, and a link found by its URL
// on a long page.
var peerTasks = []string{
	"task-01-example-com-title",
	"task-03-wikipedia-eiffel-height",
	"task-07-rust-string-trim-method",
}

// TestPeers starts each installed peer against the shared browser and
//
//   - checks that servers.yaml classifies every tool the peer lists, and
//     that every allowed tool is still listed;
//   - captures its snapshot of testdata/names.html, which the snapshot
//     reader tests use;
//   - plays the reference of each of peerTasks through Profile.Reference,
//     calling the peer's tools and feeding the results back, then has the
//     judge observe the browser and requires the task's whole contract to
//     pass.
//
// The calls each case made and the peer's snapshot replies must equal the
// ones captured in testdata/<peer>/<case>.txtar, which pins that the same
// steps on the same pages give the same refs (transcripts recorded on a
// peer replay) and notices a peer or Chromium upgrade that changes the
// snapshot. -update rewrites the captures.
//
// A peer that is not installed fails the test (see requireInstalled).
func TestPeers(t *testing.T) {
	set := loadServers(t)
	for _, name := range peers {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			requireInstalled(t, p)
			b := sharedBrowser(t)
			t.Run("names", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
				defer cancel()
				startTask(t, ctx, b.URL(), "")
				sess := startServer(t, ctx, p, b.URL(), "")
				checkClassified(t, p, sess.ServerTools())
				var got capture
				for _, c := range []struct {
					a      Action
					values map[string]any
				}{
					{ActNavigate, map[string]any{"{url}": "https://" + namesHost + "/names.html"}},
					{ActRead, nil},
				} {
					call, err := p.Call(c.a, c.values)
					if err != nil {
						t.Fatal(err)
					}
					got.add(t, ctx, p, sess, call)
				}
				got.compare(t, p, "names")
			})
			for _, id := range peerTasks {
				t.Run(id, func(t *testing.T) {
					task, err := suite.LoadTask(filepath.Join(repoRoot, "benchmarks/webvoyager/tasks", id+".yaml"))
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), task.Timeout)
					defer cancel()
					j, tab := startTask(t, ctx, b.URL(), task.StartURL)
					sess := startServer(t, ctx, p, b.URL(), "")
					got := drive(t, ctx, p, sess, j, p.Reference(task.Reference), task.Instruction)
					// The peer must have worked in the task's tab, the one
					// the judge grades, and opened none of its own.
					if open := pages(t, ctx, b.URL()); len(open) != 1 || open[0].TargetID != tab {
						t.Errorf("%s left %d tabs open, want only the task's own (%s): %+v", p.Name(), len(open), tab, open)
					}
					v, obs, err := j.Grade(ctx, task.Postconditions, nil)
					if err != nil {
						t.Fatalf("judge: %v", err)
					}
					if !v.Passed {
						t.Errorf("the reference on %s failed %s: final URL %s, evidence %+v", p.Name(), v.FailedClause(), obs.URL, v.Evidence)
					}
					got.compare(t, p, id)
				})
			}
		})
	}
}

func loadServers(t *testing.T) *Set {
	t.Helper()
	set, err := Load(filepath.Join(repoRoot, "benchmarks/servers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// skipPeersVar is the variable that asks for the tests of missing peer
// servers to be skipped. Nothing else skips them: a peer that is not
// installed fails the test with the install hint.
const skipPeersVar = "CONTRACTBENCH_SKIP_PEERS"

// requireInstalled fails a test of a peer that is not installed, naming
// what is missing and `make peers`; it skips instead only when
// CONTRACTBENCH_SKIP_PEERS=1 asks for it.
func requireInstalled(t *testing.T, p *Profile) {
	t.Helper()
	err := p.Installed(repoRoot)
	if err == nil {
		return
	}
	if os.Getenv(skipPeersVar) == "1" {
		t.Skipf("%v (skipped: %s=1)", err, skipPeersVar)
	}
	t.Fatalf("%v (to skip the peers' tests instead, set %s=1)", err, skipPeersVar)
}

// checkClassified compares the tools the server lists with servers.yaml.
func checkClassified(t *testing.T, p *Profile, listed []string) {
	t.Helper()
	for _, tool := range listed {
		if !p.Classified(tool) {
			t.Errorf("%s lists %q, which servers.yaml neither allows, calls unsafe nor excludes: classify it", p.Name(), tool)
		}
	}
	for _, tool := range p.Allow() {
		if !slices.Contains(listed, tool) {
			t.Errorf("servers.yaml allows %q, which %s no longer lists (it lists %s)", tool, p.Name(), strings.Join(listed, ", "))
		}
	}
}

// startTask leaves the browser with one blank tab, attaches a judge to it
// (before anything of the task happens, as the runner does), and opens the
// task's start URL in that tab. It returns the judge and the tab.
func startTask(t *testing.T, ctx context.Context, browserURL, startURL string) (*judge.Judge, target.ID) {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(ctx, browserURL)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	infos, err := chromedp.Targets(bctx)
	if err != nil {
		t.Fatalf("list tabs: %v", err)
	}
	tab, err := chromedp.CallBrowser(bctx, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	for _, info := range infos {
		if info.Type == "page" {
			if _, err := chromedp.CallBrowser(bctx, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID}); err != nil {
				t.Fatalf("close tab %s: %v", info.URL, err)
			}
		}
	}
	// Closing is asynchronous: wait until the browser no longer lists
	// the old tabs, or the judge would find them half closed.
	for gone := false; !gone; {
		now, err := chromedp.Targets(bctx)
		if err != nil {
			t.Fatalf("list tabs: %v", err)
		}
		gone = !slices.ContainsFunc(now, func(i *target.Info) bool {
			return i.Type == "page" && i.TargetID != tab.TargetID
		})
		if !gone {
			select {
			case <-ctx.Done():
				t.Fatalf("the old tabs did not close: %v", ctx.Err())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	j, err := judge.Attach(ctx, browserURL, judge.Options{})
	if err != nil {
		t.Fatalf("judge: %v", err)
	}
	t.Cleanup(func() { j.Close() })
	if startURL != "" {
		pctx, cancelPage := chromedp.NewContext(bctx, chromedp.WithTargetID(tab.TargetID), chromedp.WithDetachOnCancel())
		defer cancelPage()
		if _, err := chromedp.Run(pctx, chromedp.Navigate(startURL)); err != nil {
			t.Fatalf("open %s: %v", startURL, err)
		}
	}
	return j, tab.TargetID
}

// pages lists the browser's open tabs.
func pages(t *testing.T, ctx context.Context, browserURL string) []*target.Info {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(ctx, browserURL)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	infos, err := chromedp.Targets(bctx)
	if err != nil {
		t.Fatalf("list tabs: %v", err)
	}
	var out []*target.Info
	for _, info := range infos {
		if info.Type == "page" {
			out = append(out, info)
		}
	}
	return out
}

// startServer starts p against the browser through the profile's transport
// and mcpclient.Connect, the path the runner takes, in a scratch working
// directory, offering the profile's allowed tools. self is the
// contractbench binary, for the built-in server ("" for a peer). The
// session ends with the test.
func startServer(t *testing.T, ctx context.Context, p *Profile, browserURL, self string) *mcpclient.Session {
	t.Helper()
	return startServerUploads(t, ctx, p, browserURL, self, "")
}

// startServerUploads is startServer with a suite's uploads folder, which
// the server's working directory gets a copy of.
func startServerUploads(t *testing.T, ctx context.Context, p *Profile, browserURL, self, uploads string) *mcpclient.Session {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Transport(Spawn{Root: root, Self: self, CDPURL: browserURL, WorkDir: t.TempDir(), Environ: os.Environ(), Uploads: uploads})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := mcpclient.Connect(ctx, tr, mcpclient.Options{Allow: p.Allow()})
	if err != nil {
		t.Fatalf("start %s: %v", p.Name(), err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess
}

// drive is a minimal agent loop: it asks provider for a turn, makes its
// calls on the session, and feeds the results back, until the provider
// answers.
//
// Each call is marked on the judge j as the runner does, so that network
// clauses see the requests the calls caused.
func drive(t *testing.T, ctx context.Context, p *Profile, sess *mcpclient.Session, j *judge.Judge, provider llm.Provider, instruction string) capture {
	t.Helper()
	var got capture
	msgs := []llm.Message{{Role: llm.RoleUser, Text: instruction}}
	for turn := 0; ; turn++ {
		if turn == 30 {
			t.Fatalf("the reference has not answered after %d turns", turn)
		}
		resp, err := provider.Next(ctx, llm.Request{Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) == 0 {
			return got
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls})
		var results []llm.ToolResult
		for _, c := range resp.ToolCalls {
			j.MarkToolCall()
			res := got.add(t, ctx, p, sess, c)
			results = append(results, llm.ToolResult{CallID: c.ID, Name: c.Name, Content: res.Text, IsError: res.IsError})
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, ToolResults: results})
	}
}

// capture is what one case did: every call, and the reply to each call of
// a page tool, by the call's number (from 1).
type capture struct {
	calls   []string
	replies map[int]string
}

// add makes call on the session and records it.
func (c *capture) add(t *testing.T, ctx context.Context, p *Profile, sess *mcpclient.Session, call llm.ToolCall) mcpclient.Result {
	t.Helper()
	res, err := sess.Call(ctx, call.Name, call.Args)
	if err != nil {
		t.Fatalf("%s %s: %v", call.Name, call.Args, err)
	}
	if res.IsError {
		t.Fatalf("%s %s failed: %s", call.Name, call.Args, res.Text)
	}
	c.calls = append(c.calls, call.Name+" "+string(compactJSON(t, call.Args)))
	if p.PageTool(call.Name) {
		if c.replies == nil {
			c.replies = map[int]string{}
		}
		c.replies[len(c.calls)] = res.Text
	}
	return res
}

// compare checks c against testdata/<peer>/<name>.txtar, or rewrites the
// file with -update.
func (c capture) compare(t *testing.T, p *Profile, name string) {
	t.Helper()
	file := filepath.Join("testdata", p.Name(), name+".txtar")
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, txtar.Format(c.archive(p, name)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := readCapture(file)
	if err != nil {
		t.Fatalf("%v (capture it with -update)", err)
	}
	if got, want := strings.Join(c.calls, "\n"), strings.Join(want.calls, "\n"); got != want {
		t.Errorf("%s: the calls differ from %s (a changed ref means the peer's refs are not stable, or the page or peer changed; -update recaptures)\ngot:\n%s\nwant:\n%s", p.Name(), file, got, want)
	}
	for n, reply := range c.replies {
		if w, ok := want.replies[n]; !ok || w != reply {
			t.Errorf("%s: the reply to call %d (%s) differs from %s at line %d (-update recaptures after a deliberate peer or Chromium upgrade)",
				p.Name(), n, c.calls[n-1], file, firstDiffLine(reply, w))
		}
	}
}

func (c capture) archive(p *Profile, name string) *txtar.Archive {
	pkg := p.Package()
	a := &txtar.Archive{Comment: []byte(fmt.Sprintf(
		"What the %s server (%s %s) was called with, and its snapshot replies,\n"+
			"while TestPeers played %s on the fixture web. Rewritten by:\n\n"+
			"\tgo test ./internal/servers -run TestPeers -update\n",
		p.Name(), pkg.Name, pkg.Version, name))}
	a.Files = append(a.Files, txtar.File{Name: "calls", Data: []byte(strings.Join(c.calls, "\n") + "\n")})
	for n := 1; n <= len(c.calls); n++ {
		if reply, ok := c.replies[n]; ok {
			a.Files = append(a.Files, txtar.File{Name: "reply " + strconv.Itoa(n), Data: []byte(reply + "\n")})
		}
	}
	return a
}

// readCapture reads a capture written by capture.archive.
func readCapture(file string) (capture, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return capture{}, err
	}
	a := txtar.Parse(data)
	c := capture{replies: map[int]string{}}
	for _, f := range a.Files {
		switch {
		case f.Name == "calls":
			c.calls = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
		case strings.HasPrefix(f.Name, "reply "):
			n, err := strconv.Atoi(strings.TrimPrefix(f.Name, "reply "))
			if err != nil {
				return capture{}, fmt.Errorf("%s: section %q: %w", file, f.Name, err)
			}
			c.replies[n] = strings.TrimSuffix(string(f.Data), "\n")
		default:
			return capture{}, fmt.Errorf("%s: unknown section %q", file, f.Name)
		}
	}
	if len(c.calls) == 0 {
		return capture{}, fmt.Errorf("%s: no calls section", file)
	}
	return c, nil
}

func compactJSON(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	if len(raw) == 0 {
		return []byte("{}")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("args %s: %v", raw, err)
	}
	return b.Bytes()
}

// firstDiffLine is the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}
