package sandbox

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestGiftCardPaidInFrame(t *testing.T) {
	t.Parallel()
	web := New(archive)
	code, _, body := do(t, web, "GET", "https://shop.sandbox.test/gift-cards", nil)
	if code != http.StatusOK || !strings.Contains(body, "come in €10, €25, €50 and €100; no other amounts") {
		t.Errorf("gift cards page: %d, want the amounts sold:\n%.1500s", code, body)
	}
	if _, _, home := do(t, web, "GET", "https://shop.sandbox.test/", nil); !strings.Contains(home, `<a href="/gift-cards">Gift cards</a></p>
</footer>`) {
		t.Error("the home page's last link is not Gift cards")
	}
	if code, _, body := do(t, web, "GET", "https://shop.sandbox.test/gift-cards/pay?amount=30&to_name=Ines&to_email=i%40example.org", nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "€10, €25, €50 and €100 only") {
		t.Errorf("paying for a €30 card: %d, want 422 and the amounts sold", code)
	}
	code, _, body = do(t, web, "GET", "https://shop.sandbox.test/gift-cards/pay?amount=%E2%82%AC25&to_name=Ines+Calloway&to_email=ines%40example.org&message=Hi", nil)
	frame := `src="https://pay.sandbox.test/card?amount=2500&amp;merchant=Larkspur&#43;Market&amp;ref=SH-1001"`
	if code != http.StatusOK || !strings.Contains(body, frame) || !strings.Contains(body, `<button id="place" type="submit" disabled>Place order</button>`) ||
		!strings.Contains(body, `/static/giftcard.js`) {
		t.Errorf("pay page: %d, want the card form's frame %s and a disabled Place order:\n%.2500s", code, frame, body)
	}
	order := url.Values{"amount": {"25"}, "to_name": {"Ines Calloway"}, "to_email": {"ines@example.org"}, "message": {"Hi"}}
	if code, _, _ := do(t, web, "POST", "https://shop.sandbox.test/gift-cards/order", order); code != http.StatusPaymentRequired {
		t.Errorf("order without a token: %d, want 402", code)
	}
	order.Set("token", PayToken(5000, "SH-1001", "9010"))
	if code, _, _ := do(t, web, "POST", "https://shop.sandbox.test/gift-cards/order", order); code != http.StatusPaymentRequired {
		t.Errorf("order with the token of another amount: %d, want 402", code)
	}
	order.Set("token", PayToken(2500, "SH-1001", "9010"))
	code, loc, _ := do(t, web, "POST", "https://shop.sandbox.test/gift-cards/order", order)
	if code != http.StatusSeeOther || loc != "/orders/SH-1001?placed=1" {
		t.Fatalf("paid order: %d %q, want 303 to /orders/SH-1001?placed=1", code, loc)
	}
	_, _, body = do(t, web, "GET", "https://shop.sandbox.test"+loc, nil)
	body = html.UnescapeString(body)
	for _, want := range []string{"Order SH-1001 is placed", "Ines Calloway <ines@example.org>", "€25.00", "card ending 9010"} {
		if !strings.Contains(body, want) {
			t.Errorf("order page lacks %q", want)
		}
	}
	if strings.Contains(body, "Cancel order") {
		t.Error("a gift card can be cancelled")
	}
	// The payment was for SH-1001: it cannot pay a second order.
	if code, _, _ := do(t, web, "POST", "https://shop.sandbox.test/gift-cards/order", order); code != http.StatusPaymentRequired {
		t.Errorf("second order with the same token: %d, want 402", code)
	}
	if _, _, list := do(t, web, "GET", "https://shop.sandbox.test/orders", nil); !strings.Contains(list, "Gift card €25.00 for Ines Calloway") {
		t.Error("the order list does not show the gift card")
	}
}

func TestShopDataAccessors(t *testing.T) {
	t.Parallel()
	ps := ShopProducts()
	if len(ps) != 139 {
		t.Errorf("%d products, want 139 (tasks name items by this catalogue)", len(ps))
	}
	ps[0].Name = "changed"
	if ShopProducts()[0].Name == "changed" {
		t.Error("ShopProducts shares its slice")
	}
	web := New(archive)
	orders := ShopOrders()
	if len(orders) != 6 || orders[0].ID != "SH-1000" || orders[5].ID != "SH-0995" {
		t.Fatalf("orders %v, want SH-1000 to SH-0995, newest first", orders)
	}
	for _, o := range orders {
		_, _, body := do(t, web, "GET", "https://shop.sandbox.test/orders/"+o.ID, nil)
		if !strings.Contains(body, `<dd class="order-status">`+o.Status+`</dd>`) || !strings.Contains(body, o.Total) {
			t.Errorf("order %s: the page does not show status %s and total %s", o.ID, o.Status, o.Total)
		}
		for _, l := range o.Lines {
			if !strings.Contains(body, l.Name+` <span class="sku">`+l.SKU+`</span>`) {
				t.Errorf("order %s: the page does not show %s (%s)", o.ID, l.Name, l.SKU)
			}
		}
	}
	addr, letter := ShopAccount()
	_, _, body := do(t, web, "GET", "https://shop.sandbox.test/account", nil)
	if !strings.Contains(body, addr.Name+", "+addr.Street+", "+addr.City+" "+addr.Postcode) || !strings.Contains(body, newsletterLabel(letter)) {
		t.Errorf("account page does not show %v, %s", addr, letter)
	}
	if len(ShopCategories()) != 6 || len(ShopNewsletters()) != 3 || len(GiftCardAmounts()) != 4 {
		t.Error("departments, e-mail choices or gift amounts changed")
	}
}
