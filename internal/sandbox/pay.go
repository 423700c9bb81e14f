package sandbox

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// pay is pay.sandbox.test: the card form of a made-up payment provider,
// which the shop embeds in an iframe. It charges only the invented test
// cards of PayCards; an approved charge ends on a page that hands the
// payment token to the embedding page (postMessage), which posts it with
// its order. Tokens are a function of the charge, so the shop checks them
// without sharing state with this host.
type pay struct {
	*site
}

// A PayCard is one of the pay host's invented test cards.
type PayCard struct {
	// Number is the card number as printed, in groups of four.
	Number string
	// Expiry is the expiry date the card was issued with, MM/YY; a charge
	// with another expiry is refused.
	Expiry string
	// Outcome is "approved", "declined" or "expired".
	Outcome string
}

// Last4 is the number's last four digits.
func (c PayCard) Last4() string { return c.Number[len(c.Number)-4:] }

// payCards are the test cards. Every other number is refused as invalid.
var payCards = []PayCard{
	{"4000 1234 5678 9010", "08/29", "approved"},
	{"5301 2040 6080 1122", "11/28", "approved"},
	{"4000 2222 3333 4446", "04/27", "approved"},
	{"4000 0000 0000 0002", "10/29", "declined"},
	{"4000 5555 6666 0069", "12/25", "expired"},
}

// PayCards returns the pay host's test cards, in the order above: three
// approved, one declined, one past its expiry.
func PayCards() []PayCard { return append([]PayCard(nil), payCards...) }

// PayToken is the token an approved charge of amount cents for ref (the
// merchant's order id) on the card ending in last4 answers with.
func PayToken(cents int, ref, last4 string) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "sandbox-pay|%d|%s|%s", cents, ref, last4)
	return fmt.Sprintf("tok_%s_%012x", last4, h.Sum64()&0xffffffffffff)
}

// checkPayToken reports whether token pays cents for ref, and the card's
// last four digits when it does.
func checkPayToken(token string, cents int, ref string) (last4 string, ok bool) {
	parts := strings.Split(token, "_")
	if len(parts) != 3 || parts[0] != "tok" || len(parts[1]) != 4 {
		return "", false
	}
	return parts[1], token == PayToken(cents, ref, parts[1])
}

func newPay(fallback http.Handler) http.Handler {
	p := &pay{site: newSite("pay", fallback, nil)}
	p.serve(&Pay, map[*Route]http.HandlerFunc{&Pay.Card: p.cardPage, &Pay.Charge: p.charge, &Pay.Done: p.done})
	return p
}

// payForm is what the card form shows: the charge, the fields as typed
// (after a refusal) and why it was refused.
type payForm struct {
	Title, Merchant, Ref string
	Cents                int
	Number, Expiry, Name string
	Error                string
	// Done page: the token handed to the shop and its origin.
	Token, Last4, ParentOrigin string
}

// Amount formats the charge.
func (f *payForm) Amount() string { return euros(f.Cents) }

func readCharge(v url.Values) (*payForm, bool) {
	f := &payForm{Merchant: strings.TrimSpace(v.Get("merchant")), Ref: strings.TrimSpace(v.Get("ref"))}
	var err error
	f.Cents, err = strconv.Atoi(v.Get("amount"))
	return f, err == nil && f.Cents > 0 && f.Merchant != "" && f.Ref != ""
}

func (p *pay) cardPage(w http.ResponseWriter, r *http.Request) {
	f, ok := readCharge(r.URL.Query())
	if !ok {
		p.render(w, http.StatusBadRequest, "payproblem", "This payment link is incomplete.")
		return
	}
	f.Title = "Card payment"
	p.render(w, http.StatusOK, "card", f)
}

// digits keeps the digits of s.
func digits(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// normalExpiry reads MM/YY (also MM/YYYY, MMYY) as MM/YY.
func normalExpiry(s string) (string, bool) {
	d := digits(s)
	switch len(d) {
	case 4:
	case 6:
		d = d[:2] + d[4:]
	default:
		return "", false
	}
	if m, _ := strconv.Atoi(d[:2]); m < 1 || m > 12 {
		return "", false
	}
	return d[:2] + "/" + d[2:], true
}

// charge charges a test card. A refusal renders the form again with the
// reason, answered 402; an approval answers 303 to the page that hands
// the token over.
func (p *pay) charge(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.render(w, http.StatusBadRequest, "payproblem", "The form could not be read.")
		return
	}
	f, ok := readCharge(r.PostForm)
	if !ok {
		p.render(w, http.StatusBadRequest, "payproblem", "This payment link is incomplete.")
		return
	}
	f.Title = "Card payment"
	f.Number, f.Expiry, f.Name = strings.TrimSpace(r.PostForm.Get("number")), strings.TrimSpace(r.PostForm.Get("expiry")), strings.TrimSpace(r.PostForm.Get("name"))
	var card *PayCard
	for i := range payCards {
		if digits(payCards[i].Number) == digits(f.Number) {
			card = &payCards[i]
		}
	}
	exp, expOK := normalExpiry(f.Expiry)
	cvc := digits(r.PostForm.Get("cvc"))
	switch {
	case card == nil:
		f.Error = "This card number is not valid."
	case !expOK:
		f.Error = "Please give the expiry date as MM/YY."
	case len(cvc) != 3 || cvc != strings.TrimSpace(r.PostForm.Get("cvc")):
		f.Error = "The security code is the three digits on the back of the card."
	case f.Name == "":
		f.Error = "Please give the name on the card."
	case card.Outcome == "expired":
		f.Error = "This card has expired. Please use another card."
	case exp != card.Expiry:
		f.Error = "The expiry date does not match this card."
	case card.Outcome == "declined":
		f.Error = "Your card was declined by the bank. Please use another card."
	}
	if f.Error != "" {
		p.render(w, http.StatusPaymentRequired, "card", f)
		return
	}
	seeOther(w, r, "/card/done?"+url.Values{
		"amount":   {strconv.Itoa(f.Cents)},
		"ref":      {f.Ref},
		"merchant": {f.Merchant},
		"token":    {PayToken(f.Cents, f.Ref, card.Last4())},
	}.Encode())
}

// done is the approved payment's page: it shows the receipt and its
// script posts the token to the embedding shop page.
func (p *pay) done(w http.ResponseWriter, r *http.Request) {
	f, ok := readCharge(r.URL.Query())
	tok := r.URL.Query().Get("token")
	last4, good := checkPayToken(tok, f.Cents, f.Ref)
	if !ok || !good {
		p.render(w, http.StatusBadRequest, "payproblem", "There is no such payment.")
		return
	}
	f.Title, f.Token, f.Last4, f.ParentOrigin = "Payment approved", tok, last4, "https://"+ShopHost
	p.render(w, http.StatusOK, "done", f)
}
