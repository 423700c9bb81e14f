package toolserver

import (
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
)

// tabList is the browser's page targets in the order they appeared, kept
// current from the browser's target events. Tools number tabs from 1 in
// this order, so a tab keeps its number while it lives (closing one shifts
// those after it down by one).
//
// Only tabs of one browser context count: the one the server started in.
// A task's browser has a single context, so this changes nothing there; it
// keeps servers sharing a browser (tests) out of each other's tabs.
type tabList struct {
	mu      sync.Mutex
	ids     []target.ID
	info    map[target.ID]target.Info
	context cdp.BrowserContextID // "" until the server picks its first tab
}

func newTabList() *tabList {
	return &tabList{info: make(map[target.ID]target.Info)}
}

// onEvent runs on the connection's reading goroutine for browser events.
func (l *tabList) onEvent(ev any) {
	switch e := ev.(type) {
	case *target.EventTargetCreated:
		l.put(e.TargetInfo)
	case *target.EventTargetInfoChanged:
		l.put(e.TargetInfo)
	case *target.EventTargetDestroyed:
		l.remove(e.TargetID)
	}
}

// isTab reports whether info is a tab an agent could look at: a page, not
// a prerendering one, not DevTools itself.
func isTab(info *target.Info) bool {
	return info != nil && info.Type == "page" && info.Subtype == "" && !strings.HasPrefix(info.URL, "devtools://")
}

func (l *tabList) put(info *target.Info) {
	if !isTab(info) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.info[info.TargetID]; !ok {
		l.ids = append(l.ids, info.TargetID)
	}
	l.info[info.TargetID] = *info
}

func (l *tabList) remove(id target.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.info[id]; !ok {
		return
	}
	delete(l.info, id)
	l.ids = slices.DeleteFunc(l.ids, func(x target.ID) bool { return x == id })
}

// restrict limits the list to tabs of browser context c.
func (l *tabList) restrict(c cdp.BrowserContextID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.context = c
}

// browserContext returns the browser context the list is limited to.
func (l *tabList) browserContext() cdp.BrowserContextID {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.context
}

// visible returns the tabs that count, in order; l.mu must be held.
func (l *tabList) visible() []target.Info {
	out := make([]target.Info, 0, len(l.ids))
	for _, id := range l.ids {
		if info := l.info[id]; l.context == "" || info.BrowserContextID == l.context {
			out = append(out, info)
		}
	}
	return out
}

// list returns the tabs in order.
func (l *tabList) list() []target.Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.visible()
}

// idList returns the tabs' target ids in order.
func (l *tabList) idList() []target.ID {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []target.ID
	for _, info := range l.visible() {
		ids = append(ids, info.TargetID)
	}
	return ids
}

// index returns the 1-based number of tab id, or 0 when it is gone.
func (l *tabList) index(id target.ID) int {
	return slices.Index(l.idList(), id) + 1
}

// get returns what is known about tab id.
func (l *tabList) get(id target.ID) (target.Info, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info, ok := l.info[id]
	if ok && l.context != "" && info.BrowserContextID != l.context {
		return target.Info{}, false
	}
	return info, ok
}
