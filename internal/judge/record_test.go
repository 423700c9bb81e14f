package judge

import (
	"reflect"
	"testing"
	"time"

	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// These tests feed the recorder events as the browser sends them and check
// the log it keeps; the browser tests check that the events arrive.

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func ms(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }

// step is one thing that happens to a recorder.
type step func(r *recorder)

func sent(at int, id, url string, ts float64, redirectStatus int) step {
	return func(r *recorder) {
		ev := &network.EventRequestWillBeSent{
			RequestID: network.RequestID(id),
			Request:   &network.Request{URL: url, Method: "GET"},
			Timestamp: cdp.MonotonicTime(ts),
			Type:      network.ResourceTypeDocument,
		}
		if redirectStatus != 0 {
			ev.RedirectResponse = &network.Response{Status: int64(redirectStatus)}
		}
		r.requestWillBeSent(ms(at), "", ev)
	}
}

func answered(id string, status int) step {
	return func(r *recorder) {
		r.responseReceived(&network.EventResponseReceived{RequestID: network.RequestID(id), Response: &network.Response{Status: int64(status)}})
	}
}

func failed(id, text string) step {
	return func(r *recorder) {
		r.loadingFailed(ms(0), &network.EventLoadingFailed{RequestID: network.RequestID(id), ErrorText: text})
	}
}

func marked(at int) step { return func(r *recorder) { r.mark(ms(at)) } }

func TestRecorderNetwork(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		steps []step
		want  []contract.NetworkEntry
	}{
		{
			name:  "response status",
			steps: []step{sent(5, "1", "http://a/", 1, 0), answered("1", 200)},
			want:  []contract.NetworkEntry{{URL: "http://a/", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 5, BeforeFirstToolCall: true}},
		},
		{
			name:  "failed load keeps status 0 and the error",
			steps: []step{sent(1, "1", "http://a/x.js", 1, 0), failed("1", "net::ERR_CONNECTION_REFUSED")},
			want:  []contract.NetworkEntry{{URL: "http://a/x.js", Method: "GET", Error: "net::ERR_CONNECTION_REFUSED", ResourceType: "Document", StartMS: 1, BeforeFirstToolCall: true}},
		},
		{
			name: "each redirect hop is an entry with its own status",
			steps: []step{
				sent(1, "1", "http://a/old", 1, 0),
				sent(3, "1", "http://a/mid", 2, 301),
				sent(4, "1", "http://a/new", 3, 302),
				answered("1", 200),
			},
			want: []contract.NetworkEntry{
				{URL: "http://a/old", Method: "GET", Status: 301, ResourceType: "Document", StartMS: 1, BeforeFirstToolCall: true},
				{URL: "http://a/mid", Method: "GET", Status: 302, ResourceType: "Document", StartMS: 3, BeforeFirstToolCall: true},
				{URL: "http://a/new", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 4, BeforeFirstToolCall: true},
			},
		},
		{
			name:  "the same event from two sessions counts once",
			steps: []step{sent(1, "1", "http://a/", 7, 0), sent(2, "1", "http://a/", 7, 0), answered("1", 200), answered("1", 200)},
			want:  []contract.NetworkEntry{{URL: "http://a/", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 1, BeforeFirstToolCall: true}},
		},
		{
			name:  "a redirect to the same URL is a new hop",
			steps: []step{sent(1, "1", "http://a/", 1, 0), sent(2, "1", "http://a/", 2, 302), answered("1", 200)},
			want: []contract.NetworkEntry{
				{URL: "http://a/", Method: "GET", Status: 302, ResourceType: "Document", StartMS: 1, BeforeFirstToolCall: true},
				{URL: "http://a/", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 2, BeforeFirstToolCall: true},
			},
		},
		{
			name: "requests before the first mark are before the first tool call; at or after the latest mark, after the last",
			steps: []step{
				sent(1, "1", "http://a/before", 1, 0),
				marked(5),
				sent(5, "2", "http://a/at", 2, 0),
				marked(8),
				sent(7, "3", "http://a/between", 3, 0), // arrived late: sorted by start
				sent(9, "4", "http://a/after", 4, 0),
			},
			want: []contract.NetworkEntry{
				{URL: "http://a/before", Method: "GET", ResourceType: "Document", StartMS: 1, BeforeFirstToolCall: true},
				{URL: "http://a/at", Method: "GET", ResourceType: "Document", StartMS: 5},
				{URL: "http://a/between", Method: "GET", ResourceType: "Document", StartMS: 7},
				{URL: "http://a/after", Method: "GET", ResourceType: "Document", StartMS: 9, AfterLastToolCall: true},
			},
		},
		{
			name:  "events for unknown requests are ignored",
			steps: []step{answered("9", 200), failed("9", "net::ERR_FAILED")},
			want:  []contract.NetworkEntry{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRecorder(t0)
			for _, s := range tc.steps {
				s(r)
			}
			if got := r.network(nil); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("network log:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestRecorderDialogs(t *testing.T) {
	t.Parallel()
	opening := func(s target.SessionID, msg string) step {
		return func(r *recorder) {
			r.dialogOpening(s, &page.EventJavascriptDialogOpening{Type: page.DialogTypeAlert, Message: msg, URL: "http://a/"})
		}
	}
	closed := func(s target.SessionID) step { return func(r *recorder) { r.dialogClosed(s) } }
	judgeDismissed := func(s target.SessionID) step {
		return func(r *recorder) {
			r.openDialog[s].dismissedByJudge = true
			r.dialogClosed(s)
		}
	}
	gone := func(s target.SessionID) step { return func(r *recorder) { r.sessionGone(s) } }
	dlg := func(msg string, open bool) contract.Dialog {
		return contract.Dialog{Type: "alert", Message: msg, URL: "http://a/", Open: open}
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  []contract.Dialog
	}{
		{"still open", []step{opening("s1", "hi")}, []contract.Dialog{dlg("hi", true)}},
		{"answered during the task", []step{opening("s1", "hi"), closed("s1")}, []contract.Dialog{dlg("hi", false)}},
		{"dismissed by the judge stays open", []step{opening("s1", "hi"), judgeDismissed("s1")}, []contract.Dialog{dlg("hi", true)}},
		{"closed with its page", []step{opening("s1", "hi"), gone("s1")}, []contract.Dialog{dlg("hi", false)}},
		{
			"closing one page's dialog leaves another's",
			[]step{opening("s1", "one"), opening("s2", "two"), closed("s1")},
			[]contract.Dialog{dlg("one", false), dlg("two", true)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRecorder(t0)
			for _, s := range tc.steps {
				s(r)
			}
			if got := r.dialogList(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("dialogs:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestTruncateUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"ascii cut", "abcdef", 4, "abcd"},
		{"never splits a character", "aé€", 4, "aé"}, // é is 2 bytes, € is 3
		{"cut inside the first character", "€", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := truncateUTF8(tc.in, tc.max); got != tc.want {
				t.Errorf("truncateUTF8(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}
