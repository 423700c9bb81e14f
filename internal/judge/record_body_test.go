package judge

import (
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
)

// posted is a request with a body, split into entries as the browser
// splits a multi-part body.
func posted(at int, id, url string, ts float64, redirectStatus int, hasBody bool, parts ...string) step {
	return func(r *recorder) {
		req := &network.Request{URL: url, Method: "POST", HasPostData: hasBody}
		for _, p := range parts {
			req.PostDataEntries = append(req.PostDataEntries, &network.PostDataEntry{Bytes: []byte(p)})
		}
		if redirectStatus != 0 {
			req.Method = "GET" // a 303 turns the POST into a GET
		}
		ev := &network.EventRequestWillBeSent{RequestID: network.RequestID(id), Request: req,
			Timestamp: cdp.MonotonicTime(ts), Type: network.ResourceTypeDocument}
		if redirectStatus != 0 {
			ev.RedirectResponse = &network.Response{Status: int64(redirectStatus)}
		}
		r.requestWillBeSent(ms(at), "", ev)
	}
}

func TestRecorderKeepsRequestBodies(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", contract.MaxBodyBytes+10)
	for _, tc := range []struct {
		name  string
		steps []step
		want  []contract.NetworkEntry
	}{
		{
			name: "a form post and the page it redirects to",
			steps: []step{
				posted(1, "1", "https://shop.sandbox.test/checkout", 1, 0, true, "name=Ada+Lovelace&", "line=KT-0412x2"),
				posted(2, "1", "https://shop.sandbox.test/orders/SH-1001", 2, 303, false),
				answered("1", 200),
			},
			want: []contract.NetworkEntry{
				{URL: "https://shop.sandbox.test/checkout", Method: "POST", Status: 303, ResourceType: "Document", StartMS: 1,
					Body: "name=Ada+Lovelace&line=KT-0412x2", BeforeFirstToolCall: true},
				{URL: "https://shop.sandbox.test/orders/SH-1001", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 2, BeforeFirstToolCall: true},
			},
		},
		{
			name:  "a body the browser left out is reported cut",
			steps: []step{posted(1, "1", "https://a/upload", 1, 0, true)},
			want:  []contract.NetworkEntry{{URL: "https://a/upload", Method: "POST", ResourceType: "Document", StartMS: 1, BodyTruncated: true, BeforeFirstToolCall: true}},
		},
		{
			name:  "a body longer than the judge keeps is cut",
			steps: []step{posted(1, "1", "https://a/upload", 1, 0, true, long)},
			want: []contract.NetworkEntry{{URL: "https://a/upload", Method: "POST", ResourceType: "Document", StartMS: 1,
				Body: long[:contract.MaxBodyBytes], BodyTruncated: true, BeforeFirstToolCall: true}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRecorder(t0)
			for _, s := range tc.steps {
				s(r)
			}
			if got := r.network(nil); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("network log:\n got %.300v\nwant %.300v", got, tc.want)
			}
		})
	}
}
