package runner_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contractbench/internal/runner"
	"contractbench/internal/webreplay"
)

// An archive that holds the sandbox's hosts is served behind the
// sandbox's sites, which answer their own pages; one that holds none is
// served by its replay alone.
func TestReplayHandler(t *testing.T) {
	t.Parallel()
	if runner.Sites(archive) != nil {
		t.Error("the WebVoyager archive got the sandbox's sites")
	}
	replay := webreplay.Replay(archive)
	if h := runner.ReplayHandler(archive, replay); h != http.Handler(replay) {
		t.Errorf("the WebVoyager archive is answered by %T, want its replay", h)
	}

	sandboxWeb, err := webreplay.Open("../../benchmarks/sandbox/web")
	if err != nil {
		t.Fatal(err)
	}
	if runner.Sites(sandboxWeb) == nil {
		t.Fatal("the sandbox's archive got no sites")
	}
	h := runner.ReplayHandler(sandboxWeb, webreplay.Replay(sandboxWeb))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "https://shop.sandbox.test/", nil))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<html") {
		t.Errorf("GET shop.sandbox.test/: %d %.200q; want the shop's page", w.Code, w.Body.String())
	}
}
