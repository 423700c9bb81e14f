package toolserver

import "testing"

// The benchmarks measure what an agent waits for per tool call, end to end
// through MCP: JSON-RPC over in-memory transports, CDP to the shared
// Chromium, the injected scripts, and each action's settle wait (at least
// quietBoth, 250 ms, for every action). docs/benchmarks/toolserver.md
// records a run.
//
//	go test ./internal/toolserver -run '^$' -bench . -benchtime 20x

// benchPage is a fixture page of everyday size: an encyclopedia article of
// 27 KB with an infobox, a contents list and about a hundred links.
const benchPage = "https://en.wikipedia.org/wiki/Eiffel_Tower"

func benchEnv(b *testing.B, url string) *env {
	b.Helper()
	if fixturesErr != nil {
		b.Fatalf("the fixture web does not open: %v", fixturesErr)
	}
	e := newEnv(b)
	e.ok("navigate", map[string]any{"url": url})
	return e
}

func BenchmarkNavigate(b *testing.B) {
	e := benchEnv(b, "https://example.com/")
	for b.Loop() {
		e.ok("navigate", map[string]any{"url": benchPage})
	}
}

func BenchmarkReadPage(b *testing.B) {
	e := benchEnv(b, benchPage)
	var n int
	for b.Loop() {
		n = len(e.ok("read_page", nil))
	}
	b.ReportMetric(float64(n), "bytes/reply")
}

func BenchmarkReadPageInteractive(b *testing.B) {
	e := benchEnv(b, benchPage)
	var n int
	for b.Loop() {
		n = len(e.ok("read_page", map[string]any{"mode": "interactive"}))
	}
	b.ReportMetric(float64(n), "bytes/reply")
}

func BenchmarkFind(b *testing.B) {
	e := benchEnv(b, benchPage)
	for b.Loop() {
		e.ok("find", map[string]any{"query": "330 m"})
	}
}

// BenchmarkClick clicks a button that changes nothing: the floor of every
// action (hit test, input events, the shortest settle, the diff).
func BenchmarkClick(b *testing.B) {
	e := benchEnv(b, site.URL+"/actions.html")
	e.ok("read_page", nil)
	for b.Loop() {
		e.ok("click", map[string]any{"ref": "e7"})
	}
}

func BenchmarkType(b *testing.B) {
	e := benchEnv(b, site.URL+"/actions.html")
	e.ok("read_page", nil)
	for b.Loop() {
		e.ok("type", map[string]any{"ref": "e8", "text": "fog horn"})
	}
}
