package toolserver

import (
	"strings"
	"testing"
	"time"
)

// A page that is still arriving when the settle bound runs out, but keeps
// arriving, is waited for: on a busy machine every page is such a page, and
// the reply must not depend on how busy the machine is. The bound here is
// far shorter than the page takes, as a loaded machine makes it.
func TestSettleWaitsForAPageThatKeepsLoading(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, Options{Settle: 300 * time.Millisecond})
	reply := e.ok("navigate", map[string]any{"url": site.URL + "/slow.html"})
	if strings.Contains(reply, "still loading") {
		t.Errorf("navigate to a page that kept arriving says it is still loading:\n%s", reply)
	}
	if page := e.ok("read_page", map[string]any{"mode": "text"}); !strings.Contains(page, "All parts arrived.") {
		t.Errorf("read_page after navigate lacks the page's last part:\n%s", page)
	}
}
