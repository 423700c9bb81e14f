package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/phash"
	"contractbench/internal/suite"
	"contractbench/internal/webreplay"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// suiteDir is the WebVoyager suite, whose fixture web and tasks these tests
// load in a real browser.
const suiteDir = "../../benchmarks/webvoyager"

// replayWeb is a Chromium set up for hermetic replay as the runner sets one
// up: a webreplay server answering for an archive's hosts, and a browser
// whose flags send those hosts to it and every other name nowhere.
type replayWeb struct {
	archive *webreplay.Archive
	replay  *webreplay.Replayer
	server  *webreplay.Server
	browser *browser.Browser
	// launchDir is the parent of the browser's per-launch directory. Every
	// process of the browser has a path inside it in its environment, which
	// is how hermeticity checks find them.
	launchDir string
	// hosts holds the Host of every request that reached the replay
	// handler.
	hosts hostLog
}

// hostLog is the set of host names the replay server was asked for.
type hostLog struct {
	mu    sync.Mutex
	hosts map[string]int
}

func (l *hostLog) add(host string) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.hosts == nil {
		l.hosts = make(map[string]int)
	}
	l.hosts[strings.ToLower(host)]++
}

func (l *hostLog) snapshot() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.hosts)
}

// startReplayWeb serves a under replay and launches the default Chromium
// pointed at it. Both end with the test.
func startReplayWeb(t *testing.T, a *webreplay.Archive) *replayWeb {
	return startReplayWebIn(t, a, "")
}

// startReplayWebIn is startReplayWeb with the Chromium at execPath ("" for
// the default).
func startReplayWebIn(t *testing.T, a *webreplay.Archive, execPath string) *replayWeb {
	t.Helper()
	w := &replayWeb{archive: a, replay: webreplay.Replay(a)}
	handler := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.hosts.add(r.Host)
		w.replay.ServeHTTP(rw, r)
	})
	srv, err := webreplay.NewServer(handler, webreplay.ServerOptions{Hosts: a.Hosts()})
	if err != nil {
		t.Fatalf("starting the replay server: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("closing the replay server: %v", err)
		}
	})
	w.server = srv

	// Not t.TempDir: its path is deep enough to push Chromium's socket
	// path past what a Unix socket allows.
	w.launchDir, err = os.MkdirTemp("", "cb-judge-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(w.launchDir) })
	// Registered after the server's cleanup, so it runs first: the
	// browser goes before the server it talks to.
	w.browser = launchTest(t, browser.Options{ExecPath: execPath, Flags: srv.ChromiumFlags(), TempDir: w.launchDir})
	return w
}

// launchTest launches a Chromium with opts (as root, without the sandbox),
// closed at the end of the test.
func launchTest(t *testing.T, opts browser.Options) *browser.Browser {
	t.Helper()
	ctx, cancel := bounded(t)
	defer cancel()
	opts.NoSandbox = os.Geteuid() == 0
	b, err := browser.Launch(ctx, opts)
	if err != nil {
		t.Fatalf("these tests need Chromium (make chromium): %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the browser: %v", err)
		}
	})
	return b
}

// agentTab attaches a chromedp context, playing the agent, to the page the
// browser started with; it does not open a tab of its own, as the runner's
// tool server does not. Cancelling it at the end of the test detaches and
// leaves the page open.
func (w *replayWeb) agentTab(t *testing.T) context.Context {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(t.Context(), w.browser.URL())
	t.Cleanup(cancelAlloc)
	conn, cancelConn := chromedp.NewContext(alloc)
	t.Cleanup(cancelConn)
	infos, err := chromedp.Targets(conn)
	if err != nil {
		t.Fatalf("listing the targets of %s: %v", w.browser.URL(), err)
	}
	for _, info := range infos {
		if info.Type != "page" {
			continue
		}
		tab, cancel := chromedp.NewContext(conn, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		t.Cleanup(cancel)
		if err := chromedp.Do(tab); err != nil {
			t.Fatalf("attaching to the first page %s: %v", info.TargetID, err)
		}
		return tab
	}
	t.Fatalf("the browser at %s has no page to attach to: %+v", w.browser.URL(), infos)
	return nil
}

// judgeOf attaches a judge to the browser whose DevTools endpoint is url.
func judgeOf(t *testing.T, url string, opts Options) *Judge {
	t.Helper()
	ctx, cancel := bounded(t)
	defer cancel()
	j, err := Attach(ctx, url, opts)
	if err != nil {
		t.Fatalf("Attach(%s): %v", url, err)
	}
	t.Cleanup(func() {
		if err := j.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return j
}

// documentLoaded is a waitRecorded condition: a request for exactly url
// (no fragment; requests never carry one) has its response or its error.
func documentLoaded(url string) func(r *recorder) bool {
	return func(r *recorder) bool {
		for _, req := range r.requests {
			if req.entry.URL == url && (req.entry.Status != 0 || req.entry.Error != "") {
				return true
			}
		}
		return false
	}
}

// withPHash sets the screenshot's perceptual hash, as the runner does after
// Observe.
func withPHash(t *testing.T, obs contract.Observation) contract.Observation {
	t.Helper()
	if len(obs.Screenshot.PNG) == 0 {
		t.Fatalf("the observation of %s has no screenshot", obs.URL)
	}
	h, err := phash.FromPNG(obs.Screenshot.PNG)
	if err != nil {
		t.Fatalf("hashing the screenshot of %s: %v", obs.URL, err)
	}
	obs.Screenshot.PHash = h.String()
	return obs
}

// loadAnswerURLs reads, for each task, a URL its contract accepts as the
// end of the task (answer-urls.json in the suite, shared with the tool
// server size tests), and the pages before it that the contract wants
// visited. They are written out rather than derived, because a url pattern
// (anchored, with alternatives and optional parts) describes a set of
// URLs; TestFixtureSite checks that each one is in its task's set. An entry
// is the answer URL, or a list: the pages the agent must have loaded on
// the way (a search results page whose request a network clause wants, an
// article it had to pass through), in order, ending with the answer.
func loadAnswerURLs(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(suiteDir, "answer-urls.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("answer-urls.json: %v", err)
	}
	urls := map[string][]string{}
	for id, v := range raw {
		var one string
		if json.Unmarshal(v, &one) == nil {
			urls[id] = []string{one}
			continue
		}
		var path []string
		if err := json.Unmarshal(v, &path); err != nil || len(path) == 0 {
			t.Fatalf("answer-urls.json: %s: want a URL or a non-empty list of URLs, got %s", id, v)
		}
		urls[id] = path
	}
	return urls
}

// startURL is where a task's agent begins: its start_url, or for a task
// that starts on about:blank the first URL its reference solution
// navigates to.
func startURL(task *suite.Task) (string, error) {
	if task.StartURL != "" {
		return task.StartURL, nil
	}
	for i, step := range task.Reference {
		if step.Tool != "navigate" {
			continue
		}
		var args struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(step.Args, &args); err != nil || args.URL == "" {
			return "", fmt.Errorf("task %s: reference[%d]: navigate without a url: %s", task.ID, i, step.Args)
		}
		return args.URL, nil
	}
	return "", fmt.Errorf("task %s: no start_url and no navigate step in its reference", task.ID)
}

// withoutFragment is the URL a browser requests for a page URL.
func withoutFragment(u string) string {
	base, _, _ := strings.Cut(u, "#")
	return base
}

// TestFixtureSite loads every task's start page and answer page from the
// suite's fixture archive, under replay, in a real Chromium, and judges the
// answer page with the task's own contract.
//
// Every postcondition is evaluated, and every one must pass on the answer
// page loaded after the pages answer-urls.json lists before it. The url,
// dom_text, dom_count and no_dialog clauses read only the final page. The
// network clauses look back to task_start for a document request (the
// answer page's, or that of a page on the way such as a search results
// page), which a direct load makes just as following links does (a
// fragment is never requested: loading rfc9110.html#section-9 requests
// rfc9110.html, which is what task 04's network clause wants). The one
// kind of clause that would depend on the path is a network clause with
// since: last_tool_call, which sees only what followed the agent's last
// tool call; no task has one. The test marks a tool call just before
// loading the pages, so one added later is judged as if that load were
// the agent's last action, which a run whose last call is a read_page
// would not be.
//
// The state the task starts in (its start_url, or about:blank) must fail
// the contract, so that an agent doing nothing cannot pass. Both pages
// must load at their real https:// URLs with status 200 in the judge's
// log, with no replay miss. The answer page, the final state a screenshot
// clause would judge, must be far from the blank page and the error page
// classes.
func TestFixtureSite(t *testing.T) {
	s, err := suite.Load(suiteDir)
	if err != nil {
		t.Fatalf("loading the suite: %v", err)
	}
	a, err := webreplay.Open(s.WebDir())
	if err != nil {
		t.Fatalf("opening the fixture archive: %v", err)
	}
	classes := loadClasses(t)
	web := startReplayWeb(t, a)
	tab := web.agentTab(t)

	answerURLs := loadAnswerURLs(t)
	if len(answerURLs) != len(s.Tasks) {
		t.Errorf("answerURLs has %d entries for %d tasks; keep it to one per task", len(answerURLs), len(s.Tasks))
	}
	for _, task := range s.Tasks {
		t.Run(task.ID, func(t *testing.T) {
			path, ok := answerURLs[task.ID]
			if !ok {
				t.Fatalf("no answer URL for %s: add to answer-urls.json a URL its url clauses accept", task.ID)
			}
			answer := path[len(path)-1]
			checkAnswerURL(t, task, answer)
			start, err := startURL(task)
			if err != nil {
				t.Fatal(err)
			}

			// The idle state is read by a judge that leaves the page's
			// clock alone, since the tab goes on to the task's pages.
			idleJudge := judgeOf(t, web.browser.URL(), stillClock)
			j := judgeOf(t, web.browser.URL(), Options{})
			missesBefore := len(web.replay.Misses())

			want := wantFor(task.Postconditions)

			// The state the task starts in must fail its contract, or an
			// agent that does nothing would pass.
			idle := task.StartURL
			if idle == "" {
				idle = "about:blank"
			}
			navigate(t, tab, idle)
			if idle == start {
				waitRecorded(t, j, start, documentLoaded(withoutFragment(start)))
			}
			idleObs := observeWant(t, idleJudge, want)
			if len(contract.ClassIDs(task.Postconditions)) > 0 {
				idleObs = withPHash(t, idleObs)
			}
			if v := contract.Evaluate(task.Postconditions, idleObs, classes); v.Passed {
				t.Errorf("the contract of %s passes on %s, where the task starts: an agent that does nothing would pass", task.ID, idle)
			}

			if idle != start {
				navigate(t, tab, start)
				waitRecorded(t, j, start, documentLoaded(withoutFragment(start)))
			}
			j.MarkToolCall()
			for _, page := range path {
				navigate(t, tab, page)
				waitRecorded(t, j, page, documentLoaded(withoutFragment(page)))
			}
			obs := withPHash(t, observeWant(t, j, want))
			if obs.URL != answer {
				t.Errorf("answer page: the judge sees %s, want %s", obs.URL, answer)
			}
			checkDocument(t, obs, start)
			checkDocument(t, obs, answer)
			checkNotBlankOrError(t, classes, obs)

			if v := contract.Evaluate(task.Postconditions, obs, classes); !v.Passed {
				// Every leaf, passed or not: a failing leaf inside an or
				// that passed is expected, and the leaf that decided is
				// named by FailedClause.
				var b strings.Builder
				for _, e := range v.Evidence {
					fmt.Fprintf(&b, "  %s (%s) passed=%v: expected %s; seen %s\n", e.Path, e.Kind, e.Passed, e.Expected, e.Seen)
				}
				t.Errorf("the contract of %s fails on its answer page %s at %s:\n%s", task.ID, answer, v.FailedClause(), b.String())
			}
			for _, m := range web.replay.Misses()[missesBefore:] {
				t.Errorf("replay miss: %s %s (%s)", m.Method, m.URL, m.Reason)
			}
		})
	}
}

// checkAnswerURL fails unless every top-level url clause of the task
// accepts answer: the table must name a page the contract would pass.
func checkAnswerURL(t *testing.T, task *suite.Task, answer string) {
	t.Helper()
	var n int
	for i, c := range task.Postconditions {
		u, ok := c.(*contract.URL)
		if !ok {
			continue
		}
		n++
		if !regexp.MustCompile(u.Pattern).MatchString(answer) {
			t.Fatalf("answer-urls.json: %s = %s, but postconditions[%d] wants a URL matching %s", task.ID, answer, i, u.Pattern)
		}
	}
	if n == 0 {
		t.Fatalf("%s has no url postcondition to check answerURLs against", task.ID)
	}
}

// checkDocument fails unless the judge's log has the document request of
// page (its URL without fragment) answered with 200.
func checkDocument(t *testing.T, obs contract.Observation, page string) {
	t.Helper()
	want := withoutFragment(page)
	for _, e := range obs.Network {
		if e.URL == want && e.ResourceType == "Document" {
			if e.Status != http.StatusOK || e.Error != "" {
				t.Errorf("document %s: status %d %s, want 200", want, e.Status, e.Error)
			}
			return
		}
	}
	t.Errorf("no Document request for %s in the judge's log:\n%s", want, describeNetwork(obs.Network))
}

func describeNetwork(log []contract.NetworkEntry) string {
	var b strings.Builder
	for _, e := range log {
		fmt.Fprintf(&b, "  %s %s %s status %d %s\n", e.ResourceType, e.Method, e.URL, e.Status, e.Error)
	}
	return b.String()
}
