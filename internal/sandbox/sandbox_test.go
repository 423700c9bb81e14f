package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// archive stands in for the fixture archive behind the sites: it answers
// the static files and 404s the rest, so a test can tell which of the two
// answered.
var archive = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/static/") || r.URL.Path == "/favicon.svg" {
		io.WriteString(w, "static")
		return
	}
	http.Error(w, "archive miss", http.StatusNotFound)
})

// do sends one request to web and returns the response's status, its
// Location and its body.
func do(t *testing.T, web http.Handler, method, rawURL string, form url.Values) (int, string, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, rawURL, body)
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	w := httptest.NewRecorder()
	web.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); strings.HasPrefix(ct, "text/html") && w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("%s %s: a page without Cache-Control: no-store", method, rawURL)
	}
	if len(w.Result().Cookies()) > 0 {
		t.Errorf("%s %s: sets a cookie; the sites keep no state in the browser", method, rawURL)
	}
	return w.Code, w.Header().Get("Location"), w.Body.String()
}

func TestPagesRender(t *testing.T) {
	t.Parallel()
	web := New(archive)
	for _, u := range []string{
		"https://shop.sandbox.test/", "https://shop.sandbox.test/search?q=lamp",
		"https://shop.sandbox.test/search?category=lighting&min_rating=45&in_stock=1&sort=price&max_price=200",
		"https://shop.sandbox.test/product/LT-0493", "https://shop.sandbox.test/cart", "https://shop.sandbox.test/orders",
		"https://shop.sandbox.test/orders/SH-0999", "https://shop.sandbox.test/account",
		"https://stays.sandbox.test/", "https://stays.sandbox.test/city/porto?guests=4", "https://stays.sandbox.test/stay/H-201",
		"https://stays.sandbox.test/bookings", "https://stays.sandbox.test/bookings/BK-2035",
		"https://forum.sandbox.test/", "https://forum.sandbox.test/b/bikes", "https://forum.sandbox.test/b/bikes/new",
		"https://forum.sandbox.test/t/1", "https://forum.sandbox.test/settings", "https://forum.sandbox.test/messages",
		"https://forum.sandbox.test/messages/new", "https://forum.sandbox.test/messages/201",
	} {
		code, _, body := do(t, web, "GET", u, nil)
		if code != http.StatusOK || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d, want a whole page with 200:\n%.300s", u, code, body)
		}
	}
	for _, u := range []string{"https://shop.sandbox.test/static/site.css", "https://forum.sandbox.test/favicon.svg", "https://example.com/"} {
		if _, _, body := do(t, web, "GET", u, nil); body != "static" && !strings.Contains(body, "archive miss") {
			t.Errorf("GET %s: answered by the sites, want the fallback: %.100s", u, body)
		}
	}
}

func TestDataIsDeterministic(t *testing.T) {
	t.Parallel()
	a, b := catalogue(), catalogue()
	if len(a) < 100 {
		t.Errorf("catalogue has %d products, want over 100", len(a))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two catalogues differ at %d: %+v vs %+v", i, a[i], b[i])
		}
	}
	_, _, p1 := do(t, New(archive), "GET", "https://stays.sandbox.test/stay/H-305", nil)
	_, _, p2 := do(t, New(archive), "GET", "https://stays.sandbox.test/stay/H-305", nil)
	if p1 != p2 {
		t.Error("the same page of two fresh sandboxes differs")
	}
}

// TestStateIsPerValue: what one value of Web is told does not reach another,
// and each starts from the same state.
func TestStateIsPerValue(t *testing.T) {
	t.Parallel()
	a, b := New(archive), New(archive)
	order := func(web http.Handler) string {
		code, loc, body := do(t, web, "POST", "https://shop.sandbox.test/cart/add", url.Values{"sku": {"LT-0493"}, "qty": {"2"}})
		if code != http.StatusSeeOther || loc != "/cart" {
			t.Fatalf("add to cart: %d %s %.200s", code, loc, body)
		}
		code, loc, body = do(t, web, "POST", "https://shop.sandbox.test/checkout", url.Values{
			"line": {"LT-0493x2"}, "name": {"R"}, "street": {"S"}, "city": {"C"}, "postcode": {"P"}})
		if code != http.StatusSeeOther {
			t.Fatalf("checkout: %d %.300s", code, body)
		}
		return loc
	}
	if got := order(a); got != "/orders/SH-1001?placed=1" {
		t.Errorf("first order of a goes to %s, want /orders/SH-1001?placed=1", got)
	}
	if got := order(a); got != "/orders/SH-1002?placed=1" {
		t.Errorf("second order of a goes to %s, want /orders/SH-1002?placed=1", got)
	}
	if got := order(b); got != "/orders/SH-1001?placed=1" {
		t.Errorf("first order of b goes to %s, want /orders/SH-1001?placed=1: state leaked from a", got)
	}
	if _, _, body := do(t, b, "GET", "https://shop.sandbox.test/cart", nil); !strings.Contains(body, "Your cart is empty") {
		t.Error("b's cart is not empty after its checkout")
	}
}

func TestForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		method     string
		url        string
		form       url.Values
		wantStatus int
		wantLoc    string
		// then is a page fetched afterwards and a text it must hold.
		then, thenHas string
	}{
		{"add a sold-out item", "POST", "https://shop.sandbox.test/cart/add", url.Values{"sku": {"LT-0328"}, "qty": {"1"}},
			http.StatusConflict, "", "https://shop.sandbox.test/cart", "Your cart is empty"},
		{"quantity out of range", "POST", "https://shop.sandbox.test/cart/add", url.Values{"sku": {"LT-0493"}, "qty": {"11"}},
			http.StatusUnprocessableEntity, "", "", ""},
		{"checkout with a stale cart", "POST", "https://shop.sandbox.test/checkout", url.Values{"line": {"LT-0493x1"}, "name": {"R"}},
			http.StatusConflict, "", "https://shop.sandbox.test/orders", "SH-1000"},
		{"cancel without a reason", "POST", "https://shop.sandbox.test/orders/SH-0999/cancel", nil,
			http.StatusUnprocessableEntity, "", "https://shop.sandbox.test/orders/SH-0999", "Processing"},
		{"cancel a processing order", "POST", "https://shop.sandbox.test/orders/SH-0999/cancel", url.Values{"reason": {"Too slow"}},
			http.StatusSeeOther, "/orders/SH-0999", "https://shop.sandbox.test/orders/SH-0999", "Order SH-0999 is cancelled"},
		{"cancel a delivered order", "POST", "https://shop.sandbox.test/orders/SH-0995/cancel", url.Values{"reason": {"x"}},
			http.StatusConflict, "", "https://shop.sandbox.test/orders/SH-0995", "Delivered"},
		{"newsletter choice", "POST", "https://shop.sandbox.test/account", url.Values{"newsletter": {"monthly"}},
			http.StatusSeeOther, "/account?saved=1", "https://shop.sandbox.test/account?saved=1", "Your settings were saved."},
		{"book too many guests", "POST", "https://stays.sandbox.test/bookings", url.Values{"stay": {"H-101"}, "date": {"2026-03-02"}, "nights": {"1"}, "guests": {"9"}, "name": {"R"}},
			http.StatusUnprocessableEntity, "", "", ""},
		{"draft a reply", "POST", "https://forum.sandbox.test/t/3/reply", url.Values{"body": {"Try a new cable."}, "action": {"draft"}},
			http.StatusSeeOther, "/t/3?draft=saved", "https://forum.sandbox.test/t/3?draft=saved", "Draft saved. It is not posted yet."},
		{"post a reply", "POST", "https://forum.sandbox.test/t/3/reply", url.Values{"body": {"Try a new cable."}, "action": {"post"}},
			http.StatusSeeOther, "", "https://forum.sandbox.test/t/3", "Try a new cable."},
		{"message to nobody", "POST", "https://forum.sandbox.test/messages", url.Values{"to": {"nobody"}, "subject": {"x"}, "body": {"y"}},
			http.StatusUnprocessableEntity, "", "", ""},
		{"message sent", "POST", "https://forum.sandbox.test/messages", url.Values{"to": {"fenwick"}, "subject": {"x"}, "body": {"y"}},
			http.StatusSeeOther, "/messages/301?sent=1", "https://forum.sandbox.test/messages/301?sent=1", "Message sent to fenwick."},
		{"signature saved", "POST", "https://forum.sandbox.test/settings", url.Values{"signature": {"-- R"}},
			http.StatusSeeOther, "/settings?saved=1", "https://forum.sandbox.test/settings", "-- R"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			web := New(archive)
			code, loc, body := do(t, web, tc.method, tc.url, tc.form)
			if code != tc.wantStatus || tc.wantLoc != "" && loc != tc.wantLoc {
				t.Fatalf("%s %s: %d to %q, want %d to %q:\n%.300s", tc.method, tc.url, code, loc, tc.wantStatus, tc.wantLoc, body)
			}
			if tc.then == "" {
				return
			}
			if _, _, page := do(t, web, "GET", tc.then, nil); !strings.Contains(page, tc.thenHas) {
				t.Errorf("GET %s lacks %q:\n%.2000s", tc.then, tc.thenHas, page)
			}
		})
	}
}
