package sandbox

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func card(outcome string) PayCard {
	for _, c := range PayCards() {
		if c.Outcome == outcome {
			return c
		}
	}
	panic("no test card " + outcome)
}

func chargeForm(c PayCard, expiry, cvc string) url.Values {
	return url.Values{"amount": {"2500"}, "ref": {"SH-1001"}, "merchant": {"Larkspur Market"},
		"number": {c.Number}, "expiry": {expiry}, "cvc": {cvc}, "name": {"Robin Ashdown"}}
}

func TestPayChargesOnlyGoodCards(t *testing.T) {
	t.Parallel()
	web := New(archive)
	code, _, body := do(t, web, "GET", "https://pay.sandbox.test/card?amount=2500&ref=SH-1001&merchant=Larkspur+Market", nil)
	for _, want := range []string{`<label for="number">Card number</label>`, "Expiry date (MM/YY)", "Security code (CVC)", "Name on card", "Pay €25.00"} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("card form: %d, want 200 with %q", code, want)
		}
	}
	if code, _, _ := do(t, web, "GET", "https://pay.sandbox.test/card?amount=2500", nil); code != http.StatusBadRequest {
		t.Errorf("card form without ref and merchant: %d, want 400", code)
	}
	good := card("approved")
	for _, c := range []struct {
		name        string
		form        url.Values
		wantMessage string
	}{
		{"declined", chargeForm(card("declined"), card("declined").Expiry, "123"), "declined by the bank"},
		{"expired", chargeForm(card("expired"), card("expired").Expiry, "123"), "has expired"},
		{"other expiry", chargeForm(good, "01/30", "123"), "does not match this card"},
		{"unknown number", chargeForm(PayCard{Number: "1234 5678 9012 3456"}, "08/29", "123"), "not valid"},
		{"short code", chargeForm(good, good.Expiry, "12"), "three digits"},
		{"bad expiry", chargeForm(good, "13/29", "123"), "MM/YY"},
	} {
		code, loc, body := do(t, web, "POST", "https://pay.sandbox.test/charge", c.form)
		if code != http.StatusPaymentRequired || loc != "" || !strings.Contains(body, c.wantMessage) {
			t.Errorf("%s: %d %q, want 402 saying %q:\n%.400s", c.name, code, loc, c.wantMessage, body)
		}
		if !strings.Contains(body, `value="`+c.form.Get("number")+`"`) {
			t.Errorf("%s: the refused form does not keep the number typed", c.name)
		}
	}
	// Approved, with the expiry written MM/YYYY and the number without
	// spaces: the token is the charge's.
	f := chargeForm(good, good.Expiry[:3]+"20"+good.Expiry[3:], "123")
	f.Set("number", strings.ReplaceAll(good.Number, " ", ""))
	code, loc, _ := do(t, web, "POST", "https://pay.sandbox.test/charge", f)
	tok := PayToken(2500, "SH-1001", good.Last4())
	if code != http.StatusSeeOther || !strings.Contains(loc, "token="+tok) {
		t.Fatalf("approved charge: %d %q, want 303 to the page carrying %s", code, loc, tok)
	}
	code, _, body = do(t, web, "GET", "https://pay.sandbox.test"+loc, nil)
	if code != http.StatusOK || !strings.Contains(body, `data-token="`+tok+`"`) || !strings.Contains(body, `data-parent-origin="https://shop.sandbox.test"`) ||
		!strings.Contains(body, "/static/pay.js") {
		t.Errorf("done page: %d, want the token and its script:\n%.600s", code, body)
	}
	if code, _, _ := do(t, web, "GET", "https://pay.sandbox.test/card/done?amount=2500&ref=SH-1001&merchant=M&token=tok_9010_000000000000", nil); code != http.StatusBadRequest {
		t.Errorf("done page with a forged token: %d, want 400", code)
	}
}

func TestPayTokens(t *testing.T) {
	t.Parallel()
	tok := PayToken(5000, "SH-1001", "9010")
	if last4, ok := checkPayToken(tok, 5000, "SH-1001"); !ok || last4 != "9010" {
		t.Errorf("checkPayToken(%s) = %q, %v; want 9010, true", tok, last4, ok)
	}
	for _, c := range []struct {
		tok   string
		cents int
		ref   string
	}{
		{tok, 2500, "SH-1001"}, {tok, 5000, "SH-1002"}, {"tok_1122" + tok[8:], 5000, "SH-1001"}, {"", 5000, "SH-1001"}, {"tok_9010", 5000, "SH-1001"},
	} {
		if _, ok := checkPayToken(c.tok, c.cents, c.ref); ok {
			t.Errorf("checkPayToken(%q, %d, %s) accepted", c.tok, c.cents, c.ref)
		}
	}
	if PayToken(5000, "SH-1001", "9010") != tok {
		t.Error("PayToken is not a function of its arguments")
	}
}
