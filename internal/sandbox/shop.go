package sandbox

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// shop is shop.sandbox.test: a catalogue with search and filters, a cart,
// a checkout, an order history with cancellation, account settings, and
// gift cards paid by card in an iframe of pay.sandbox.test.
type shop struct {
	*site
	products []Product
	bySKU    map[string]*Product

	cart      []line
	orders    []*order // newest first
	nextOrder int
	account   account
}

type line struct {
	P   *Product
	Qty int
}

// Total is the line's price.
func (l line) Total() string { return euros(l.P.Cents * l.Qty) }

// Code is how the checkout form names the line: SKU x quantity.
func (l line) Code() string { return fmt.Sprintf("%sx%d", l.P.SKU, l.Qty) }

type order struct {
	ID     string
	Placed string
	Status string
	Lines  []line
	Note   string
	Reason string
	// Gift is set on a gift-card order, which has no lines.
	Gift *giftCard
	// DeliverTo is where a placed order goes, as the checkout sent it.
	DeliverTo string
	// New marks an order placed during this task.
	New bool
}

// giftCard is what a gift-card order bought: an amount e-mailed to a
// recipient, paid by card on pay.sandbox.test.
type giftCard struct {
	Euros          int
	ToName, ToMail string
	Message        string
	// CardLast4 is the paying card's last four digits.
	CardLast4 string
}

// Amount formats the card's value as the shop shows it.
func (g *giftCard) Amount() string { return euros(g.Euros * 100) }

func (o *order) Total() string {
	sum := 0
	if o.Gift != nil {
		sum += o.Gift.Euros * 100
	}
	for _, l := range o.Lines {
		sum += l.P.Cents * l.Qty
	}
	return euros(sum)
}

// Cancellable reports whether the order can still be cancelled.
func (o *order) Cancellable() bool { return o.Status == "Processing" }

type account struct {
	Name, Street, City, Postcode string
	Newsletter                   string
	// Saved marks an account saved during this task; no visit clears it.
	Saved bool
}

// newsletters are the e-mail choices of the account page, in the order
// shown.
var newsletters = []struct{ Value, Label string }{
	{"weekly", "Weekly digest"}, {"monthly", "Monthly digest"}, {"none", "No e-mails"},
}

func newShop(fallback http.Handler) *shop {
	s := &shop{
		site: newSite("shop", fallback, template.FuncMap{"newsletterLabel": newsletterLabel, "lower": strings.ToLower,
			"divten": func(n int) float64 { return float64(n) / 10 }, "inc": func(n int) int { return n + 1 }}),
		products:  catalogue(),
		nextOrder: 1001,
	}
	addr, letter := ShopAccount()
	s.account = account{Name: addr.Name, Street: addr.Street, City: addr.City, Postcode: addr.Postcode, Newsletter: letter}
	s.bySKU = make(map[string]*Product, len(s.products))
	for i := range s.products {
		s.bySKU[s.products[i].SKU] = &s.products[i]
	}
	s.seedOrders()
	s.serve(&Shop, map[*Route]http.HandlerFunc{
		&Shop.Home:         s.home,
		&Shop.Search:       s.search,
		&Shop.Product:      s.product,
		&Shop.CartAdd:      s.cartAdd,
		&Shop.CartRemove:   s.cartRemove,
		&Shop.Cart:         s.cartPage,
		&Shop.CheckoutPage: s.checkoutPage,
		&Shop.Checkout:     s.checkout,
		&Shop.Orders:       s.orderList,
		&Shop.Order:        s.orderPage,
		&Shop.Cancel:       s.cancel,
		&Shop.Account:      s.accountPage,
		&Shop.SaveAccount:  s.saveAccount,
		&Shop.GiftCards:    s.giftCards,
		&Shop.GiftPay:      s.giftPay,
		&Shop.GiftOrder:    s.giftOrder,
	})
	return s
}

func newsletterLabel(v string) string {
	for _, n := range newsletters {
		if n.Value == v {
			return n.Label
		}
	}
	return v
}

// seedOrders writes the order history every task starts with: SH-0995 to
// SH-1000, oldest first.
func (s *shop) seedOrders() {
	g := &gen{s: 0x0dde_5eed}
	statuses := []string{"Delivered", "Delivered", "Delivered", "Shipped", "Processing", "Processing"}
	dates := []string{"2026-01-09", "2026-01-23", "2026-02-04", "2026-02-17", "2026-02-26", "2026-02-28"}
	for i, st := range statuses {
		o := &order{ID: fmt.Sprintf("SH-%04d", 995+i), Placed: dates[i], Status: st}
		for range g.between(1, 3) {
			p := &s.products[g.intn(len(s.products))]
			o.Lines = append(o.Lines, line{P: p, Qty: g.between(1, 3)})
		}
		s.orders = append([]*order{o}, s.orders...)
	}
}

type shopPage struct {
	Title string
	URL   *url.URL
	// Notice is the confirmation a write's redirect carries in its URL,
	// shown only while what it says is so.
	Notice   string
	CartQty  int
	Account  account
	Banner   string
	Products []Product
	Product  *Product
	Lines    []line
	Total    string
	Order    *order
	Orders   []*order
	Filters  filters
	Cats     []category
	Ratings  []struct{ Value, Label string }
	Sorts    []struct{ Value, Label string }
	Letters  []struct{ Value, Label string }
	Qty      int
	// Gift cards: the amounts sold, the card being bought, and the pay
	// host's form for it.
	Amounts []int
	Gift    *giftCard
	PayURL  string
}

func (s *shop) page(r *http.Request, title string) *shopPage {
	n := 0
	for _, l := range s.cart {
		n += l.Qty
	}
	return &shopPage{Title: title, URL: r.URL, CartQty: n, Account: s.account, Cats: shopCategories}
}

func (s *shop) home(w http.ResponseWriter, r *http.Request) {
	p := s.page(r, "Home")
	// Featured: the best rated item of each category.
	for _, c := range shopCategories {
		var best *Product
		for i := range s.products {
			q := &s.products[i]
			if q.Category == c.Name && (best == nil || q.Rating > best.Rating) {
				best = q
			}
		}
		p.Products = append(p.Products, *best)
	}
	s.render(w, http.StatusOK, "home", p)
}

type filters struct {
	Q, Category, Sort   string
	MinRating, MaxPrice int // tenths of a star; euros
	InStock             bool
	CategoryName        string
}

func (s *shop) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := filters{Q: strings.TrimSpace(q.Get("q")), Category: q.Get("category"), Sort: q.Get("sort"), InStock: q.Get("in_stock") == "1"}
	f.MinRating, _ = strconv.Atoi(q.Get("min_rating"))
	f.MaxPrice, _ = strconv.Atoi(q.Get("max_price"))
	for _, c := range shopCategories {
		if c.Slug == f.Category {
			f.CategoryName = c.Name
		}
	}
	var out []Product
	words := strings.Fields(strings.ToLower(f.Q))
	for _, p := range s.products {
		hay := strings.ToLower(p.Name + " " + p.Brand + " " + p.Category + " " + p.SKU)
		ok := (f.CategoryName == "" || p.Category == f.CategoryName) &&
			(f.MinRating == 0 || p.Rating >= f.MinRating) &&
			(f.MaxPrice == 0 || p.Cents <= f.MaxPrice*100) &&
			(!f.InStock || p.Stock > 0)
		for _, wd := range words {
			ok = ok && strings.Contains(hay, wd)
		}
		if ok {
			out = append(out, p)
		}
	}
	switch f.Sort {
	case "price":
		slices.SortStableFunc(out, func(a, b Product) int { return cmp.Compare(a.Cents, b.Cents) })
	case "price_desc":
		slices.SortStableFunc(out, func(a, b Product) int { return cmp.Compare(b.Cents, a.Cents) })
	case "rating":
		slices.SortStableFunc(out, func(a, b Product) int { return cmp.Compare(b.Rating, a.Rating) })
	default:
		slices.SortStableFunc(out, func(a, b Product) int { return strings.Compare(a.Name, b.Name) })
	}
	p := s.page(r, "Search results")
	p.Products, p.Filters = out, f
	p.Ratings = []struct{ Value, Label string }{{"40", "4.0 and up"}, {"45", "4.5 and up"}}
	p.Sorts = []struct{ Value, Label string }{{"", "Name"}, {"price", "Price: low to high"}, {"price_desc", "Price: high to low"}, {"rating", "Best rated"}}
	s.render(w, http.StatusOK, "search", p)
}

func (s *shop) product(w http.ResponseWriter, r *http.Request) {
	pr := s.bySKU[r.PathValue("sku")]
	if pr == nil {
		s.refuse(w, http.StatusNotFound, problem{Title: "No such product", Message: "We have no product " + r.PathValue("sku") + ".", Back: "/", BackText: "Back to the shop"})
		return
	}
	p := s.page(r, pr.Name)
	p.Product = pr
	s.render(w, http.StatusOK, "product", p)
}

func (s *shop) cartAdd(w http.ResponseWriter, r *http.Request) {
	pr := s.bySKU[r.PostFormValue("sku")]
	qty, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("qty")))
	switch {
	case pr == nil:
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not added", Message: "That product does not exist.", Back: "/", BackText: "Back to the shop"})
		return
	case err != nil || qty < 1 || qty > 10:
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not added", Message: "The quantity must be a whole number from 1 to 10.", Back: "/product/" + pr.SKU, BackText: "Back to " + pr.Name})
		return
	case pr.Stock == 0:
		s.refuse(w, http.StatusConflict, problem{Title: "Not added", Message: pr.Name + " is sold out.", Back: "/product/" + pr.SKU, BackText: "Back to " + pr.Name})
		return
	}
	for i := range s.cart {
		if s.cart[i].P == pr {
			s.cart[i].Qty = min(s.cart[i].Qty+qty, 10)
			seeOther(w, r, "/cart")
			return
		}
	}
	s.cart = append(s.cart, line{P: pr, Qty: qty})
	seeOther(w, r, "/cart")
}

func (s *shop) cartRemove(w http.ResponseWriter, r *http.Request) {
	sku := r.PostFormValue("sku")
	s.cart = slices.DeleteFunc(s.cart, func(l line) bool { return l.P.SKU == sku })
	seeOther(w, r, "/cart")
}

func (s *shop) cartPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r, "Your cart")
	p.Lines, p.Total = s.cart, (&order{Lines: s.cart}).Total()
	s.render(w, http.StatusOK, "cart", p)
}

func (s *shop) checkoutPage(w http.ResponseWriter, r *http.Request) {
	if len(s.cart) == 0 {
		seeOther(w, r, "/cart")
		return
	}
	p := s.page(r, "Checkout")
	p.Lines, p.Total = s.cart, (&order{Lines: s.cart}).Total()
	s.render(w, http.StatusOK, "checkout", p)
}

// checkout places the order. The form repeats the cart's lines (line=SKUxQTY)
// as the customer reviewed them; if the cart changed since, nothing is
// placed.
func (s *shop) checkout(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.refuse(w, http.StatusBadRequest, problem{Title: "Not placed", Message: "The form could not be read.", Back: "/cart", BackText: "Back to your cart"})
		return
	}
	var want []string
	for _, l := range s.cart {
		want = append(want, l.Code())
	}
	if len(s.cart) == 0 || !slices.Equal(r.PostForm["line"], want) {
		s.refuse(w, http.StatusConflict, problem{Title: "Not placed", Message: "Your cart changed or is empty; please review it again.", Back: "/cart", BackText: "Back to your cart"})
		return
	}
	a := s.account
	for _, f := range []struct {
		dst  *string
		name string
	}{{&a.Name, "name"}, {&a.Street, "street"}, {&a.City, "city"}, {&a.Postcode, "postcode"}} {
		*f.dst = strings.TrimSpace(r.PostForm.Get(f.name))
		if *f.dst == "" {
			s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not placed", Message: "Please fill in the delivery " + f.name + ".", Back: "/checkout", BackText: "Back to checkout"})
			return
		}
	}
	o := &order{ID: fmt.Sprintf("SH-%04d", s.nextOrder), Placed: Today, Status: "Processing", Lines: s.cart,
		Note: strings.TrimSpace(r.PostForm.Get("note")), DeliverTo: a.address(), New: true}
	s.nextOrder++
	s.orders = append([]*order{o}, s.orders...)
	s.cart = nil
	seeOther(w, r, "/orders/"+o.ID+"?placed=1")
}

func (s *shop) findOrder(id string) *order {
	for _, o := range s.orders {
		if o.ID == id {
			return o
		}
	}
	return nil
}

func (s *shop) orderList(w http.ResponseWriter, r *http.Request) {
	p := s.page(r, "Your orders")
	p.Orders = s.orders
	s.render(w, http.StatusOK, "orders", p)
}

func (s *shop) orderPage(w http.ResponseWriter, r *http.Request) {
	o := s.findOrder(r.PathValue("id"))
	if o == nil {
		s.refuse(w, http.StatusNotFound, problem{Title: "No such order", Message: "You have no order " + r.PathValue("id") + ".", Back: "/orders", BackText: "Your orders"})
		return
	}
	p := s.page(r, "Order "+o.ID)
	p.Order = o
	if o.New && r.URL.Query().Get("placed") == "1" {
		p.Notice = "Thank you! Order " + o.ID + " is placed."
	}
	s.render(w, http.StatusOK, "order", p)
}

func (s *shop) cancel(w http.ResponseWriter, r *http.Request) {
	o := s.findOrder(r.PathValue("id"))
	switch {
	case o == nil:
		s.refuse(w, http.StatusNotFound, problem{Title: "No such order", Message: "You have no order " + r.PathValue("id") + ".", Back: "/orders", BackText: "Your orders"})
		return
	case !o.Cancellable():
		s.refuse(w, http.StatusConflict, problem{Title: "Not cancelled", Message: "Order " + o.ID + " is " + strings.ToLower(o.Status) + " and can no longer be cancelled.", Back: "/orders/" + o.ID, BackText: "Back to the order"})
		return
	}
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	if reason == "" {
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not cancelled", Message: "Please tell us why you are cancelling.", Back: "/orders/" + o.ID, BackText: "Back to the order"})
		return
	}
	o.Status, o.Reason = "Cancelled", reason
	seeOther(w, r, "/orders/"+o.ID)
}

func (s *shop) accountPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r, "Your account")
	p.Letters = newsletters
	if s.account.Saved && r.URL.Query().Get("saved") == "1" {
		p.Notice = "Your settings were saved."
	}
	s.render(w, http.StatusOK, "account", p)
}

// address is where the account's orders go, as its pages show it.
func (a account) address() string {
	return a.Name + ", " + a.Street + ", " + a.City + " " + a.Postcode
}

func (s *shop) saveAccount(w http.ResponseWriter, r *http.Request) {
	a := s.account
	if v := r.PostFormValue("newsletter"); v != "" {
		if newsletterLabel(v) == v {
			s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not saved", Message: "Unknown e-mail choice.", Back: "/account", BackText: "Back to your account"})
			return
		}
		a.Newsletter = v
	}
	for _, f := range []struct {
		dst  *string
		name string
	}{{&a.Name, "name"}, {&a.Street, "street"}, {&a.City, "city"}, {&a.Postcode, "postcode"}} {
		if v, ok := r.PostForm[f.name]; ok {
			if strings.TrimSpace(v[0]) == "" {
				s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not saved", Message: "The " + f.name + " must not be empty.", Back: "/account", BackText: "Back to your account"})
				return
			}
			*f.dst = strings.TrimSpace(v[0])
		}
	}
	a.Saved = true
	s.account = a
	seeOther(w, r, "/account?saved=1")
}

// giftAmounts are the gift-card values the shop sells, in euros.
var giftAmounts = []int{10, 25, 50, 100}

func (s *shop) giftCards(w http.ResponseWriter, r *http.Request) {
	p := s.page(r, "Gift cards")
	p.Amounts = giftAmounts
	s.render(w, http.StatusOK, "giftcards", p)
}

// readGift reads a gift card's fields from a form or query; the message
// is a problem to show when they are not right.
func readGift(v url.Values) (g *giftCard, message string) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(v.Get("amount")), "€"))
	if err != nil || !slices.Contains(giftAmounts, n) {
		return nil, "We sell gift cards of €10, €25, €50 and €100 only."
	}
	g = &giftCard{Euros: n, ToName: strings.TrimSpace(v.Get("to_name")), ToMail: strings.TrimSpace(v.Get("to_email")),
		Message: strings.TrimSpace(v.Get("message"))}
	if g.ToName == "" || !strings.Contains(g.ToMail, "@") {
		return nil, "Please give the recipient's name and e-mail address."
	}
	return g, ""
}

// giftPay shows the gift card to be bought beside the card form of the
// pay host, in an iframe; the form's Place order stays disabled until the
// frame reports an approved payment.
func (s *shop) giftPay(w http.ResponseWriter, r *http.Request) {
	g, msg := readGift(r.URL.Query())
	if g == nil {
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Gift card", Message: msg, Back: "/gift-cards", BackText: "Back to gift cards"})
		return
	}
	p := s.page(r, "Pay for your gift card")
	p.Gift = g
	p.PayURL = "https://" + PayHost + "/card?" + url.Values{
		"amount":   {strconv.Itoa(g.Euros * 100)},
		"ref":      {s.nextID()},
		"merchant": {"Larkspur Market"},
	}.Encode()
	s.render(w, http.StatusOK, "giftpay", p)
}

// nextID is the id the next order will get; a card payment is made for
// it, so a payment cannot be spent on two orders.
func (s *shop) nextID() string { return fmt.Sprintf("SH-%04d", s.nextOrder) }

// giftOrder places a gift-card order paid by the token the pay host gave.
func (s *shop) giftOrder(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.refuse(w, http.StatusBadRequest, problem{Title: "Not placed", Message: "The form could not be read.", Back: "/gift-cards", BackText: "Back to gift cards"})
		return
	}
	g, msg := readGift(r.PostForm)
	if g == nil {
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not placed", Message: msg, Back: "/gift-cards", BackText: "Back to gift cards"})
		return
	}
	last4, ok := checkPayToken(r.PostForm.Get("token"), g.Euros*100, s.nextID())
	if !ok {
		s.refuse(w, http.StatusPaymentRequired, problem{Title: "Not placed", Message: "There is no card payment for this gift card; please pay by card first.", Back: "/gift-cards", BackText: "Back to gift cards"})
		return
	}
	g.CardLast4 = last4
	o := &order{ID: s.nextID(), Placed: Today, Status: "Sent", Gift: g, New: true}
	s.nextOrder++
	s.orders = append([]*order{o}, s.orders...)
	seeOther(w, r, "/orders/"+o.ID+"?placed=1")
}
