package judge

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/webreplay"

	"github.com/chromedp/chromedp"
)

// The hermetic page's host, and the outside addresses its page reaches for.
const (
	hermeticHost = "site.example"
	trackerURL   = "https://tracker.example.net/pixel.png"
	// ipLiteralURL names a public address directly, so no host name
	// stands between the request and the network; the resolver rules
	// must stop it all the same.
	ipLiteralURL = "https://93.184.216.34/"
)

// minSamples is the fewest socket samples the watch takes, from the first
// page load to past the last, for its verdict to mean something.
const minSamples = 10

// failFast bounds how long a request for an outside host may take to fail.
// Under replay it fails in the browser's own resolver within milliseconds;
// a lookup sent to a real DNS server, or a connection attempt, would
// usually take longer. The bound is a cheap first sign; the socket watch
// is the real check.
const failFast = 2 * time.Second

// hermeticArchive writes a tiny archive to a folder and opens it again, as
// a suite's archive is opened: one host whose first page requests an image
// from a host outside the archive and fetches from an IP literal, and links
// to its second page over plain http.
func hermeticArchive(t *testing.T) *webreplay.Archive {
	t.Helper()
	html := map[string]string{"content-type": "text/html; charset=utf-8"}
	a := webreplay.NewArchive("hermeticity test: a page that reaches outside the archive")
	for _, e := range []struct {
		entry webreplay.Entry
		body  string
	}{
		// The page times its own failed requests, from before they start
		// to their error events, on the browser's clock: a busy test
		// machine slows the test's view of the page, not the browser's.
		{webreplay.Entry{Path: "/", Header: html}, fmt.Sprintf(`<!doctype html><title>reaching out</title>
<script>
const started = performance.now();
window.failedAfterMS = {};
const failed = (what) => { window.failedAfterMS[what] = performance.now() - started; };
fetch(%q).catch(() => failed("fetch"));
</script>
<h1>A page that reaches outside the archive</h1>
<img src=%q alt="tracking pixel" onerror="failed('img')">
<p><a id="next" href="http://%s/next">the next page, over plain http</a></p>`, ipLiteralURL, trackerURL, hermeticHost)},
		{webreplay.Entry{Path: "/next", Header: html}, `<!doctype html><title>next</title><h1>Arrived over https</h1>`},
		// Chromium asks every host for its icon; without one the run would
		// have a miss that says nothing about hermeticity.
		{webreplay.Entry{Path: "/favicon.ico", Status: 204}, ""},
	} {
		if err := a.Add(hermeticHost, e.entry, []byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "web")
	if err := a.Write(dir); err != nil {
		t.Fatalf("writing the archive: %v", err)
	}
	opened, err := webreplay.Open(dir)
	if err != nil {
		t.Fatalf("opening the archive just written: %v", err)
	}
	return opened
}

// TestHermeticReplay loads a page that reaches for hosts outside the
// archive and checks that under replay nothing leaves the machine: those
// requests fail at once in the browser's resolver, no process of the
// browser holds a socket to a non-loopback address at any time, and the
// replay server is asked only for archive hosts. It also follows an
// http:// link, which must end on the https page.
func TestHermeticReplay(t *testing.T) {
	a := hermeticArchive(t)
	web := startReplayWeb(t, a)
	tab := web.agentTab(t)
	j := judgeOf(t, web.browser.URL(), stillClock)

	watch := watchSockets(t, web.launchDir, 10*time.Millisecond)
	navigate(t, tab, "https://"+hermeticHost+"/")
	failed := func(url string) func(r *recorder) bool {
		return func(r *recorder) bool {
			for _, req := range r.requests {
				if req.entry.URL == url && req.entry.Error != "" {
					return true
				}
			}
			return false
		}
	}
	waitRecorded(t, j, trackerURL+" failing", failed(trackerURL))
	waitRecorded(t, j, ipLiteralURL+" failing", failed(ipLiteralURL))
	took := failureTimes(t, tab)
	for _, what := range []string{"fetch", "img"} {
		ms, ok := took[what]
		switch {
		case !ok:
			t.Errorf("the page saw no error event for its %s; it timed %v", what, took)
		case time.Duration(ms*float64(time.Millisecond)) > failFast:
			t.Errorf("the page's %s took %.0f ms to fail, want under %v: it did not fail in the resolver", what, ms, failFast)
		}
	}
	t.Logf("in the page, the fetch failed after %.0f ms and the image after %.0f ms", took["fetch"], took["img"])

	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS("#next"))); err != nil {
		t.Fatalf("clicking the http:// link: %v", err)
	}
	next := "https://" + hermeticHost + "/next"
	waitRecorded(t, j, next, documentLoaded(next))
	obs := observe(t, j, "h1")
	sockets := watch.stop(minSamples)

	t.Run("outside requests fail in the resolver", func(t *testing.T) {
		for _, url := range []string{trackerURL, ipLiteralURL} {
			e, ok := exactEntry(obs, url)
			if !ok {
				t.Errorf("no request for %s in the judge's log:\n%s", url, describeNetwork(obs.Network))
				continue
			}
			if e.Status != 0 || e.Error != "net::ERR_NAME_NOT_RESOLVED" {
				t.Errorf("%s: status %d, error %q; want status 0 and net::ERR_NAME_NOT_RESOLVED", url, e.Status, e.Error)
			}
		}
	})

	t.Run("http link redirects to https", func(t *testing.T) {
		if obs.URL != next {
			t.Errorf("after the http:// link the judge sees %s, want %s", obs.URL, next)
		}
		if got := obs.Elements["h1"].Texts; !slices.Equal(got, []string{"Arrived over https"}) {
			t.Errorf("h1 = %q, want the next page's heading", got)
		}
		// 301 is the replay server's redirect. Chromium's own upgrade of
		// an http navigation, were it on, would show as a 307 and never
		// reach the server's plain-HTTP side.
		plain := "http://" + hermeticHost + "/next"
		e, ok := exactEntry(obs, plain)
		if !ok || e.Status != http.StatusMovedPermanently {
			t.Errorf("request for %s = %+v (found %v), want the replay server's 301:\n%s", plain, e, ok, describeNetwork(obs.Network))
		}
		if e, ok := exactEntry(obs, next); !ok || e.Status != 200 {
			t.Errorf("request for %s = %+v (found %v), want status 200", next, e, ok)
		}
	})

	t.Run("no socket leaves loopback", func(t *testing.T) {
		for _, err := range sockets.errs {
			t.Errorf("reading the browser's sockets: %v", err)
		}
		if sockets.samples < minSamples {
			t.Fatalf("the socket watch took %d samples of the browser's sockets, want at least %d", sockets.samples, minSamples)
		}
		t.Logf("%d samples over %d browser processes; sockets seen: %v", sockets.samples, len(sockets.pids), sockets.seen)
		for _, s := range sockets.seen {
			if s.leavesLoopback() {
				t.Errorf("a browser process had a socket off loopback: %s", s)
			}
		}
		// The watch must see the connections it is meant to judge: the
		// page's own traffic went to the replay server over loopback.
		server := netip.MustParseAddrPort(web.server.Addr())
		if !slices.ContainsFunc(sockets.seen, func(s socket) bool { return s.remote == server }) {
			t.Errorf("the watch saw no browser connection to the replay server at %s; it may not be looking at the browser's sockets: %v", server, sockets.seen)
		}
	})

	t.Run("replay server sees only archive hosts", func(t *testing.T) {
		seen := web.hosts.snapshot()
		if seen[hermeticHost] == 0 {
			t.Errorf("the replay server got no request for %s; saw %v", hermeticHost, seen)
		}
		for host := range seen {
			if !slices.Contains(a.Hosts(), host) {
				t.Errorf("the replay server was asked for %s, which is not in the archive %v", host, a.Hosts())
			}
		}
		for _, m := range web.replay.Misses() {
			t.Errorf("replay miss: %s %s (%s)", m.Method, m.URL, m.Reason)
		}
	})
}

// failureTimes reads the milliseconds the hermetic page measured from
// before its outside requests to their failures. The judge's log can show
// a failure a moment before the page's own handler has run, so it waits
// for both.
func failureTimes(t *testing.T, tab context.Context) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		took, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`window.failedAfterMS`))
		if err != nil {
			t.Fatalf("reading the page's timings: %v", err)
		}
		if len(took) == 2 || time.Now().After(deadline) {
			return took
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exactEntry finds the first request for exactly url.
func exactEntry(obs contract.Observation, url string) (contract.NetworkEntry, bool) {
	for _, e := range obs.Network {
		if e.URL == url {
			return e, true
		}
	}
	return contract.NetworkEntry{}, false
}

// socket is one internet socket of a browser process.
type socket struct {
	pid           int
	proto         string // tcp, tcp6, udp, udp6
	local, remote netip.AddrPort
	state         string // the kernel's state code, hex: 01 established, 02 SYN sent, 0A listen
}

func (s socket) String() string {
	return fmt.Sprintf("pid %d %s %s -> %s (state %s)", s.pid, s.proto, s.local, s.remote, s.state)
}

// leavesLoopback reports whether the socket is connected, or connecting,
// to an address off this machine. A listening or unconnected socket has
// the unspecified remote address.
func (s socket) leavesLoopback() bool {
	a := s.remote.Addr()
	return !a.IsLoopback() && !a.IsUnspecified()
}

// socketWatch samples the internet sockets of a browser's processes until
// stopped.
type socketWatch struct {
	launchDir string
	interval  time.Duration
	// member caches, per pid, whether the process is the browser's: a
	// process is read once, not at every sample.
	member map[int]bool

	done     chan struct{} // closed by stop
	stopped  chan struct{} // closed when sampling has ended
	atLeast  int           // samples to take before stopping; set before done is closed
	result   socketLog
	stopOnce sync.Once
}

// socketLog is what a socketWatch saw.
type socketLog struct {
	samples int
	pids    []int
	seen    []socket // each distinct socket once, in the order first seen
	errs    []error
}

// watchSockets starts sampling, every interval, the sockets of every
// process whose command line or environment names a path inside
// launchDir: Chromium and its child processes, which the browser package
// starts with their profile and TMPDIR there.
//
// /proc/<pid>/net/tcp lists every socket of the process's network
// namespace, not the process's own; a socket belongs to the process when
// its inode is one of the process's open files (/proc/<pid>/fd), which is
// how ss -p tells them apart. Sampling can miss a connection that opens
// and closes between two samples, but not an attempt to reach a host that
// does not answer (a SYN to the real internet from a closed network waits
// seconds), and the test backs the samples with the failures' speed and
// the replay server's view.
func watchSockets(t *testing.T, launchDir string, interval time.Duration) *socketWatch {
	t.Helper()
	if _, err := os.Stat("/proc/self/net/tcp"); err != nil {
		t.Fatalf("the socket watch needs /proc (Linux): %v", err)
	}
	w := &socketWatch{
		launchDir: launchDir,
		interval:  interval,
		member:    make(map[int]bool),
		done:      make(chan struct{}),
		stopped:   make(chan struct{}),
	}
	go w.run()
	t.Cleanup(func() { w.stop(0) })
	return w
}

func (w *socketWatch) run() {
	defer close(w.stopped)
	known := make(map[socket]bool)
	pids := make(map[int]bool)
	for round := 0; ; round++ {
		procs, socks, err := w.sample()
		if err != nil {
			w.result.errs = append(w.result.errs, err)
		}
		for _, pid := range procs {
			pids[pid] = true
		}
		for _, s := range socks {
			if !known[s] {
				known[s] = true
				w.result.seen = append(w.result.seen, s)
			}
		}
		if len(procs) > 0 {
			w.result.samples++
		}
		select {
		case <-w.done:
			// A browser that is gone gives no samples; do not wait
			// for ever on it.
			if w.result.samples >= w.atLeast || round > 10*w.atLeast {
				w.result.pids = slices.Sorted(maps.Keys(pids))
				return
			}
		default:
		}
		time.Sleep(w.interval)
	}
}

// stop ends the sampling once at least atLeast samples have been taken in
// all, and returns what the watch saw.
func (w *socketWatch) stop(atLeast int) socketLog {
	w.stopOnce.Do(func() {
		w.atLeast = atLeast
		close(w.done)
	})
	<-w.stopped
	return w.result
}

// sample lists the browser's processes and the internet sockets they have
// open. The tables of a network namespace are read once, through any one
// of its processes, and each socket is matched to its process by inode.
func (w *socketWatch) sample() ([]int, []socket, error) {
	procs := w.processes()
	owner := make(map[string]int)  // socket inode -> pid
	viaPid := make(map[string]int) // network namespace -> a pid in it
	for _, pid := range procs {
		ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", pid))
		if err != nil {
			continue // exited since the listing
		}
		viaPid[ns] = pid
		fdDir := fmt.Sprintf("/proc/%d/fd", pid)
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
			if err != nil {
				continue // closed since the listing
			}
			if inode, ok := strings.CutPrefix(link, "socket:["); ok {
				owner[strings.TrimSuffix(inode, "]")] = pid
			}
		}
	}
	var out []socket
	for _, pid := range viaPid {
		for _, proto := range []string{"tcp", "tcp6", "udp", "udp6"} {
			file := fmt.Sprintf("/proc/%d/net/%s", pid, proto)
			data, err := os.ReadFile(file)
			if err != nil {
				if _, statErr := os.Stat(fmt.Sprintf("/proc/%d", pid)); statErr != nil {
					break // exited; the next sample reads its namespace through another
				}
				return procs, out, err
			}
			entries, err := parseProcNet(proto, data, binary.NativeEndian)
			if err != nil {
				return procs, out, fmt.Errorf("%s: %w", file, err)
			}
			for _, e := range entries {
				if pid, ok := owner[e.inode]; ok {
					e.socket.pid = pid
					out = append(out, e.socket)
				}
			}
		}
	}
	return procs, out, nil
}

// processes lists the running processes whose command line or environment
// contains a path inside the launch directory, and their descendants.
// The full browser's zygote children carry the profile on their command
// line, its crash handlers only TMPDIR in their environment; a headless
// shell's children neither.
func (w *socketWatch) processes() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	needle := []byte(w.launchDir + string(filepath.Separator))
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if w.isMember(pid, needle) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// isMember decides, once per pid, whether the process is the browser's.
func (w *socketWatch) isMember(pid int, needle []byte) bool {
	member, decided := w.member[pid]
	if decided {
		return member
	}
	for _, f := range []string{"cmdline", "environ"} {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, f))
		if err == nil && bytes.Contains(data, needle) {
			member = true
			break
		}
	}
	if !member {
		// The fields of stat after the command's closing parenthesis
		// are its state, then its parent's pid.
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				if ppid, err := strconv.Atoi(f[1]); err == nil && ppid > 1 && ppid != os.Getpid() {
					member = w.isMember(ppid, needle)
				}
			}
		}
	}
	w.member[pid] = member
	return member
}

// procNetEntry is one line of a /proc/net/{tcp,tcp6,udp,udp6} table.
type procNetEntry struct {
	socket
	inode string
}

// parseProcNet parses a /proc/net table of proto. Each line after the
// header reads "sl local remote st tx:rx tr:when retrnsmt uid timeout
// inode ...", with addresses as hex words in order, the byte order of the
// machine that printed them.
func parseProcNet(proto string, data []byte, order binary.AppendByteOrder) ([]procNetEntry, error) {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var out []procNetEntry
	for i, line := range lines[1:] {
		f := strings.Fields(line)
		if len(f) < 10 {
			return nil, fmt.Errorf("line %d: %d fields, want at least 10: %q", i+2, len(f), line)
		}
		local, err := parseProcAddr(f[1], order)
		if err != nil {
			return nil, fmt.Errorf("line %d: local address: %w", i+2, err)
		}
		remote, err := parseProcAddr(f[2], order)
		if err != nil {
			return nil, fmt.Errorf("line %d: remote address: %w", i+2, err)
		}
		out = append(out, procNetEntry{
			socket: socket{proto: proto, local: local, remote: remote, state: f[3]},
			inode:  f[9],
		})
	}
	return out, nil
}

// parseProcAddr parses "0100007F:1F90" (IPv4) or 32 hex digits and a port
// (IPv6). The kernel prints each 32-bit word of the address as a number
// read in the machine's byte order, so the words are turned back into
// bytes with that order; the port is plain hex.
func parseProcAddr(s string, order binary.AppendByteOrder) (netip.AddrPort, error) {
	host, portHex, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("%q has no port", s)
	}
	port, err := strconv.ParseUint(portHex, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%q: port: %w", s, err)
	}
	if len(host) != 8 && len(host) != 32 {
		return netip.AddrPort{}, fmt.Errorf("%q: address of %d hex digits, want 8 or 32", s, len(host))
	}
	if _, err := hex.DecodeString(host); err != nil {
		return netip.AddrPort{}, fmt.Errorf("%q: %w", s, err)
	}
	var raw []byte
	for i := 0; i < len(host); i += 8 {
		word, _ := strconv.ParseUint(host[i:i+8], 16, 32) // hex checked above
		raw = order.AppendUint32(raw, uint32(word))
	}
	addr, _ := netip.AddrFromSlice(raw) // 4 or 16 bytes
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// TestParseProcNet pins the /proc/net decoding the socket watch relies
// on, so that its verdict of "no outside socket" is not the verdict of a
// parser that sees nothing.
func TestParseProcNet(t *testing.T) {
	t.Parallel()
	// The tables are as a little-endian machine (x86-64, arm64) prints
	// them, and are parsed as such whatever machine runs the test.
	for _, tc := range []struct {
		name, proto, table string
		want               []string // "local remote state inode"
		outside            []bool
	}{
		{
			name:  "tcp loopback, listening and outside",
			proto: "tcp",
			table: `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:A2F1 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C350 0100007F:A2F1 01 00000000:00000000 00:00000000 00000000     0        0 1002 1 0000000000000000 20 4 30 10 -1
   2: 0F02000A:D431 22D8B85D:01BB 02 00000001:00000000 01:00000064 00000000     0        0 1003 2 0000000000000000 100 0 0 10 -1`,
			want: []string{
				"127.0.0.1:41713 0.0.0.0:0 0A 1001",
				"127.0.0.1:50000 127.0.0.1:41713 01 1002",
				"10.0.2.15:54321 93.184.216.34:443 02 1003",
			},
			outside: []bool{false, false, true},
		},
		{
			name:  "tcp6 loopback, mapped IPv4 and outside",
			proto: "tcp6",
			table: `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2001 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:A2F1 01 00000000:00000000 00:00000000 00000000     0        0 2002 1 0000000000000000 20 4 30 10 -1
   2: 000080FE00000000FF005452B11A5AFE:D431 B80D0120000000000000000001000000:01BB 02 00000001:00000000 01:00000064 00000000     0        0 2003 2 0000000000000000 100 0 0 10 -1`,
			want: []string{
				"[::1]:80 [::]:0 0A 2001",
				"127.0.0.1:50000 127.0.0.1:41713 01 2002",
				"[fe80::5254:ff:fe5a:1ab1]:54321 [2001:db8::1]:443 02 2003",
			},
			outside: []bool{false, false, true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			entries, err := parseProcNet(tc.proto, []byte(tc.table), binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var outside []bool
			for _, e := range entries {
				got = append(got, fmt.Sprintf("%s %s %s %s", e.local, e.remote, e.state, e.inode))
				outside = append(outside, e.leavesLoopback())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("parsed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if !slices.Equal(outside, tc.outside) {
				t.Errorf("outside = %v, want %v", outside, tc.outside)
			}
		})
	}
	for _, bad := range []string{"0100007F", "0100007F:XYZ", "01007F:0050", "0100007G:0050"} {
		if _, err := parseProcAddr(bad, binary.LittleEndian); err == nil {
			t.Errorf("parseProcAddr(%q) succeeded, want an error", bad)
		}
	}
}
