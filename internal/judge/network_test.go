package judge

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// The network as the server answered it: what a page's service worker
// makes up is not the server's answer, and a request that outlives its
// page is seen to its end.

// episode attaches a judge, opens a tab, marks the agent's first tool
// call, loads url, lets act play the agent's part, and grades pc.
func episode(t *testing.T, url, pc string, act func(tab context.Context)) (contract.Verdict, contract.Observation) {
	t.Helper()
	parsed, err := contract.Parse([]byte(pc))
	if err != nil {
		t.Fatalf("contract: %v", err)
	}
	j := attach(t, Options{})
	tab := openTab(t)
	j.MarkToolCall()
	navigate(t, tab, url)
	if act != nil {
		act(tab)
	}
	ctx, cancel := bounded(t)
	defer cancel()
	v, obs, err := j.Grade(ctx, parsed, nil)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	return v, obs
}

// verdictText says what a verdict decided and on what evidence.
func verdictText(v contract.Verdict, obs contract.Observation) string {
	s := fmt.Sprintf("passed=%v undecided=%v failed=%s\n", v.Passed, v.Undecided, v.FailedClause())
	for _, e := range v.Evidence {
		s += fmt.Sprintf("  %s (%s) passed=%v: expected %s; saw %s\n", e.Path, e.Kind, e.Passed, e.Expected, e.Seen)
	}
	for _, n := range obs.Network {
		s += fmt.Sprintf("  log: %s %s %d %q\n", n.Method, n.URL, n.Status, n.Error)
	}
	return s
}

// act runs the agent's actions in tab, within a generous bound.
func act(t *testing.T, tab context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("acting on the page: %v", err)
	}
}

// shopWithWorker is a page that installs /sw.js as its service worker,
// shows #ready once the worker controls it, and posts an order when #buy
// is clicked, showing .done when the answer came.
const shopWithWorker = `<h1>Shop</h1><button id="buy">Buy</button><p id="out"></p>
<script>
navigator.serviceWorker.register('/sw.js')
  .then(() => navigator.serviceWorker.controller || new Promise(r => navigator.serviceWorker.addEventListener('controllerchange', r)))
  .then(() => { const p = document.createElement('p'); p.id = 'ready'; p.textContent = 'Ready'; document.body.append(p) });
document.getElementById('buy').onclick = () => fetch('/api/order', {method: 'POST', body: 'item=tea'})
  .then(r => { const o = document.getElementById('out'); o.textContent = r.ok ? 'Order placed' : 'Order failed'; o.className = 'done' });
</script>`

// workerPreamble makes a worker take control of the page at once.
const workerPreamble = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', e => e.waitUntil(clients.claim()));
`

// TestServiceWorkerAnswersAreNotTheServers: a page's service worker that
// tells the page its order went through, while the server refused it or
// never saw it, does not pass a network clause; one that hands the page
// the server's answer does.
func TestServiceWorkerAnswersAreNotTheServers(t *testing.T) {
	const pc = "postconditions:\n  - {kind: network, url_pattern: '/api/order$', method: POST, status_in: [200]}\n"
	for _, tc := range []struct {
		name   string
		worker string // the fetch handler for /api/order
		server int    // the server's status for /api/order
		pass   bool
		reach  bool // whether the server must see the order
	}{
		{"the worker hides the server's 500", `e.respondWith(fetch(e.request).then(() => new Response('ok', {status: 200})))`, 500, false, true},
		{"the worker makes the answer up", `e.respondWith(new Response('ok', {status: 200}))`, 500, false, false},
		{"the worker forwards the server's 200", `e.respondWith(fetch(e.request))`, 200, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			orders := 0
			srv := site(t, map[string]any{
				"/shop": shopWithWorker,
				"/sw.js": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "text/javascript")
					fmt.Fprintf(w, "%sself.addEventListener('fetch', e => { if (new URL(e.request.url).pathname === '/api/order') %s });\n", workerPreamble, tc.worker)
				}),
				"/api/order": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					mu.Lock()
					orders++
					mu.Unlock()
					w.WriteHeader(tc.server)
				}),
			})
			v, obs := episode(t, srv.URL+"/shop", pc, func(tab context.Context) {
				act(t, tab, chromedp.WaitVisible(chromedp.CSS("#ready")), chromedp.Click(chromedp.CSS("#buy")), chromedp.WaitVisible(chromedp.CSS("#out.done")))
				said, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#out")))
				if err != nil {
					t.Fatalf("reading the page's answer: %v", err)
				}
				if said != "Order placed" {
					t.Fatalf("the page says %q: the worker did not answer as the test meant", said)
				}
			})
			mu.Lock()
			reached := orders > 0
			mu.Unlock()
			if reached != tc.reach {
				t.Fatalf("the server saw %d orders; the test needs it to see them: %v", orders, tc.reach)
			}
			if v.Passed != tc.pass || v.Undecided {
				t.Errorf("want passed=%v, decided:\n%s", tc.pass, verdictText(v, obs))
			}
		})
	}
}

// TestBeaconsOutliveTheirPage: a beacon and a keepalive fetch sent as the
// agent follows a link away from the page. The server answers each at a
// different moment relative to the next page: at once, once the next page
// was asked for, once it has loaded. The verdict is the same, and decided,
// every time.
func TestBeaconsOutliveTheirPage(t *testing.T) {
	const pc = `postconditions:
  - {kind: network, url_pattern: '/api/track$', method: POST, status_in: [204], body_pattern: 'event=checkout'}
  - {kind: network, url_pattern: '/api/log$', method: POST, status_in: [202]}
  - {kind: not, child: {kind: network, url_pattern: '/api/track$', status_in: [500]}}
`
	const runs = 20
	moments := []string{"at once", "once the next page was asked for", "once the next page loaded"}
	same := 0
	for i := range runs {
		t.Run(fmt.Sprintf("run %02d answered %s", i+1, moments[i%3]), func(t *testing.T) {
			if beaconEpisode(t, pc, i%3) {
				same++
			}
		})
	}
	if same != runs {
		t.Errorf("%d of %d runs passed, decided; want all", same, runs)
	}
}

// beaconEpisode runs one episode of TestBeaconsOutliveTheirPage, with the
// server answering the beacons at moment (0 at once, 1 once the next page
// was asked for, 2 once it loaded), and reports whether pc passed,
// decided.
func beaconEpisode(t *testing.T, pc string, moment int) bool {
	nextAsked, nextLoaded := make(chan struct{}), make(chan struct{})
	var askedOnce, loadedOnce sync.Once
	// answer holds each answer until its moment has come.
	answer := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			wait := [...]<-chan struct{}{nil, nextAsked, nextLoaded}[moment]
			if wait != nil {
				select {
				case <-wait:
				case <-r.Context().Done():
					return
				}
			}
			w.WriteHeader(status)
		}
	}
	srv := site(t, map[string]any{
		"/cart": `<h1>Cart</h1><a id="checkout" href="/thanks">Check out</a>
<script>
document.getElementById('checkout').addEventListener('click', () => {
  navigator.sendBeacon('/api/track', 'event=checkout');
  fetch('/api/log', {method: 'POST', body: 'left=cart', keepalive: true});
});
</script>`,
		"/thanks": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			askedOnce.Do(func() { close(nextAsked) })
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<h1 id="thanks">Thanks</h1><img src="/pixel.svg" alt="">`)
		}),
		"/pixel.svg": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			loadedOnce.Do(func() { close(nextLoaded) })
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`)
		}),
		"/api/track": answer(204),
		"/api/log":   answer(202),
	})
	v, obs := episode(t, srv.URL+"/cart", pc, func(tab context.Context) {
		act(t, tab, chromedp.Click(chromedp.CSS("#checkout")), chromedp.WaitVisible(chromedp.CSS("#thanks")))
	})
	if !v.Passed || v.Undecided {
		t.Errorf("want passed, decided:\n%s", verdictText(v, obs))
		return false
	}
	return true
}

// TestRecorderRequestsThatOutliveTheirDocument feeds the recorder the
// events of a page that sends a beacon, a keepalive fetch and an image
// and then navigates, in the orders the browser may send them, and checks
// what settling waits for and what the log says.
func TestRecorderRequestsThatOutliveTheirDocument(t *testing.T) {
	t.Parallel()
	const page = target.ID("P")
	start := func(r *recorder, id string, kind network.ResourceType, ts float64) {
		r.requestWillBeSent(ms(1), page, &network.EventRequestWillBeSent{
			RequestID: network.RequestID(id),
			LoaderID:  "old",
			Request:   &network.Request{URL: "http://a/" + id, Method: "POST"},
			Timestamp: cdp.MonotonicTime(ts),
			Type:      kind,
		})
	}
	raw := func(r *recorder, id string, status int) {
		r.responseExtraInfo(ms(3), &network.EventResponseReceivedExtraInfo{RequestID: network.RequestID(id), StatusCode: int64(status)})
	}
	statuses := func(r *recorder) map[string]int {
		out := map[string]int{}
		for _, n := range r.network(nil) {
			out[strings.TrimPrefix(n.URL, "http://a/")] = n.Status
		}
		return out
	}
	busy := func(r *recorder) string {
		pending, _ := r.busy(page)
		return strings.Join(pending, ", ")
	}
	// recorder returns a recorder whose settling clock reads ms(2) until
	// a test moves it.
	recorder := func() (*recorder, *time.Time) {
		r, now := newRecorder(t0), ms(2)
		r.now = func() time.Time { return now }
		return r, &now
	}

	t.Run("answered after the document went", func(t *testing.T) {
		t.Parallel()
		r, _ := recorder()
		start(r, "beacon", network.ResourceTypePing, 1)
		start(r, "log", network.ResourceTypeFetch, 2)
		start(r, "img", network.ResourceTypeImage, 3)
		r.documentReplaced(ms(2), page, "new")
		if got, want := busy(r), "POST http://a/beacon, POST http://a/log"; got != want {
			t.Errorf("after the document went, waiting for %q, want %q", got, want)
		}
		raw(r, "beacon", 204)
		raw(r, "log", 302) // a redirect: its next hop says which
		if got, want := busy(r), "POST http://a/log"; got != want {
			t.Errorf("after the beacon's answer, waiting for %q, want %q", got, want)
		}
		raw(r, "log", 202)
		if got := busy(r); got != "" {
			t.Errorf("after both answers, still waiting for %q", got)
		}
		if got, want := statuses(r), map[string]int{"beacon": 204, "log": 202, "img": 0}; !reflect.DeepEqual(got, want) {
			t.Errorf("statuses %v, want %v", got, want)
		}
	})
	t.Run("answer before the start is reported", func(t *testing.T) {
		t.Parallel()
		r, _ := recorder()
		raw(r, "beacon", 204)
		start(r, "beacon", network.ResourceTypePing, 1)
		r.documentReplaced(ms(2), page, "new")
		if got := busy(r); got != "" {
			t.Errorf("waiting for %q, whose answer came", got)
		}
		if got := statuses(r)["beacon"]; got != 204 {
			t.Errorf("status %d, want 204", got)
		}
	})
	t.Run("never answered: waited for within the bound", func(t *testing.T) {
		t.Parallel()
		r, now := recorder()
		start(r, "plain", network.ResourceTypeFetch, 1)
		r.documentReplaced(ms(2), page, "new")
		if got := busy(r); got == "" {
			t.Error("not waiting for a fetch that may be kept alive")
		}
		*now = ms(2).Add(keepAliveMax + time.Millisecond)
		if got := busy(r); got != "" {
			t.Errorf("still waiting for %q past keepAliveMax", got)
		}
		raw(r, "plain", 200) // late, but the network's word
		if got := statuses(r)["plain"]; got != 200 {
			t.Errorf("status %d, want 200", got)
		}
	})
	t.Run("a GET dies with its document", func(t *testing.T) {
		t.Parallel()
		r, _ := recorder()
		r.requestWillBeSent(ms(1), page, &network.EventRequestWillBeSent{
			RequestID: "suggest",
			LoaderID:  "old",
			Request:   &network.Request{URL: "http://a/suggest", Method: "GET"},
			Timestamp: 1,
			Type:      network.ResourceTypeFetch,
		})
		r.documentReplaced(ms(2), page, "new")
		if got := busy(r); got != "" {
			t.Errorf("waiting for %q, a GET of a replaced document", got)
		}
	})
	t.Run("its page closed", func(t *testing.T) {
		t.Parallel()
		r, _ := recorder()
		start(r, "beacon", network.ResourceTypePing, 1)
		r.documentReplaced(ms(2), page, "new")
		if got := busy(r); got == "" {
			t.Error("not waiting for a beacon of a replaced document")
		}
		r.targetGone(ms(3), page)
		if got := busy(r); got != "" {
			t.Errorf("waiting for %q of a page that closed", got)
		}
	})
	t.Run("the page's own answer wins", func(t *testing.T) {
		t.Parallel()
		r, _ := recorder()
		start(r, "cors", network.ResourceTypeFetch, 1)
		raw(r, "cors", 200)
		r.loadingFailed(ms(3), &network.EventLoadingFailed{RequestID: "cors", ErrorText: "net::ERR_FAILED"})
		start(r, "cached", network.ResourceTypeFetch, 2)
		raw(r, "cached", 200)
		r.responseReceived(&network.EventResponseReceived{RequestID: "cached", Response: &network.Response{Status: 203}})
		if got, want := statuses(r), map[string]int{"cors": 0, "cached": 203}; !reflect.DeepEqual(got, want) {
			t.Errorf("statuses %v, want %v", got, want)
		}
	})
}

// TestRecorderServiceWorkerAnswers: what a page's service worker answered
// is logged as not the server's, whatever status it gave; the worker's own
// request carries the server's.
func TestRecorderServiceWorkerAnswers(t *testing.T) {
	t.Parallel()
	r := newRecorder(t0)
	send := func(id string, ts float64, worker target.ID) {
		ev := &network.EventRequestWillBeSent{
			RequestID: network.RequestID(id),
			Request:   &network.Request{URL: "http://a/order", Method: "POST"},
			Timestamp: cdp.MonotonicTime(ts),
			Type:      network.ResourceTypeFetch,
		}
		if worker != "" {
			r.requestByWorker(ms(1), worker, ev)
		} else {
			r.requestWillBeSent(ms(1), "P", ev)
		}
	}
	send("page", 1, "")
	send("worker", 2, "W")
	send("worker", 2, "W") // the same worker through a second session
	r.responseReceived(&network.EventResponseReceived{RequestID: "worker", Response: &network.Response{Status: 500}})
	r.responseReceived(&network.EventResponseReceived{RequestID: "page", Response: &network.Response{
		Status: 200, FromServiceWorker: true, ServiceWorkerResponseSource: network.ServiceWorkerResponseSourceNetwork,
	}})
	log := r.network(nil)
	if len(log) != 2 {
		t.Fatalf("log %+v, want the page's request and the worker's", log)
	}
	if p := log[0]; p.Status != 0 || !strings.Contains(p.Error, "service worker") {
		t.Errorf("the page's request: %+v, want status 0 and an error naming the service worker", p)
	}
	if w := log[1]; w.Status != 500 || w.Error != "" {
		t.Errorf("the worker's request: %+v, want the server's 500", w)
	}
	if r.current["worker"].worker != "W" {
		t.Error("the worker's request is not marked as the worker's")
	}
}
