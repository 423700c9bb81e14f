package sandbox

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestShopVisitsChangeNothing: the shop's pages change nothing when they
// are visited. A write's confirmation is carried by its redirect's URL
// and shows on every visit of that URL, only while what it says is so; a
// URL typed without the write shows none.
func TestShopVisitsChangeNothing(t *testing.T) {
	t.Parallel()
	const shop = "https://shop.sandbox.test"
	web := New(archive)
	pages := []string{"/", "/search?q=lamp", "/product/LT-0493", "/cart", "/checkout", "/orders", "/orders/SH-0999",
		"/orders/SH-0999?placed=1", "/orders/SH-1001?placed=1", "/account", "/account?saved=1", "/gift-cards",
		"/gift-cards/pay?amount=25&to_name=Ines&to_email=i%40example.org", "/gift-cards/pay?amount=15&to_name=Ines&to_email=i%40example.org"}
	visit := func() map[string]string {
		seen := map[string]string{}
		for _, p := range pages {
			code, loc, body := do(t, web, "GET", shop+p, nil)
			seen[p] = http.StatusText(code) + " " + loc + "\n" + body
		}
		return seen
	}
	same := func(when string) {
		t.Helper()
		first, again := visit(), visit()
		for _, p := range pages {
			if first[p] != again[p] {
				t.Errorf("%s: GET %s shows something else on a second visit", when, p)
			}
		}
	}
	has := func(p, text string, want bool) {
		t.Helper()
		if _, _, body := do(t, web, "GET", shop+p, nil); strings.Contains(body, text) != want {
			t.Errorf("GET %s: shows %q is %v, want %v", p, text, !want, want)
		}
	}

	same("fresh")
	has("/account?saved=1", "Your settings were saved.", false)
	has("/orders/SH-0999?placed=1", "is placed", false)

	if code, loc, _ := do(t, web, "POST", shop+"/account", url.Values{"street": {" 3 Mill Row "}}); code != http.StatusSeeOther || loc != "/account?saved=1" {
		t.Fatalf("save the account: %d to %q, want 303 to /account?saved=1", code, loc)
	}
	if code, _, _ := do(t, web, "POST", shop+"/cart/add", url.Values{"sku": {"LT-0493"}, "qty": {"2"}}); code != http.StatusSeeOther {
		t.Fatalf("add to cart: %d", code)
	}
	code, loc, _ := do(t, web, "POST", shop+"/checkout", url.Values{
		"line": {"LT-0493x2"}, "name": {"Robin Ashdown"}, "street": {"3 Mill Row"}, "city": {"Bath "}, "postcode": {"BA1 5LR"}})
	if code != http.StatusSeeOther || loc != "/orders/SH-1001?placed=1" {
		t.Fatalf("checkout: %d to %q, want 303 to /orders/SH-1001?placed=1", code, loc)
	}
	same("after the writes")
	for range 2 {
		has("/account?saved=1", "Your settings were saved.", true)
		has("/orders/SH-1001?placed=1", "Order SH-1001 is placed", true)
	}
	has("/account", "Your settings were saved.", false)
	has("/account", "Robin Ashdown, 3 Mill Row, ", true)
	has("/orders/SH-1001", "is placed", false)
	has("/orders/SH-1001", `<dd class="deliver-to">Robin Ashdown, 3 Mill Row, Bath BA1 5LR</dd>`, true)
	has("/orders/SH-0999?placed=1", "is placed", false)
	has("/cart", "Your cart is empty", true)
}

// TestShopGiftAmountRefused: the gift-card form takes any amount, and the
// shop refuses one it does not sell with the amounts it does, so the
// refusal says why for the very amount asked.
func TestShopGiftAmountRefused(t *testing.T) {
	t.Parallel()
	web := New(archive)
	_, _, form := do(t, web, "GET", "https://shop.sandbox.test/gift-cards", nil)
	if !strings.Contains(form, `<input id="amount" name="amount"`) {
		t.Errorf("the gift-card form has no amount field to type into:\n%.2000s", form)
	}
	for _, amount := range []string{"15", " €15 ", "200"} {
		q := url.Values{"amount": {amount}}.Encode()
		if code, _, body := do(t, web, "GET", "https://shop.sandbox.test/gift-cards/pay?"+q, nil); code != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "We sell gift cards of €10, €25, €50 and €100 only.") {
			t.Errorf("a gift card of %q: %d, want 422 and the amounts sold", amount, code)
		}
	}
}
