package templates

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// shopTemplates are the templates over the shop application, Larkspur
// Market (shop.sandbox.test), and its card form on pay.sandbox.test.
var shopTemplates = []generate.Template{
	{
		ID: "shop-find-rated-by-price", App: "shop", Kind: generate.KindFind,
		Params:  []string{"category", "min_rating", "end"},
		Summary: "open the page of the cheapest or dearest in-stock item of a department with at least a given rating",
		Draw:    drawShopFindCheapestRated,
	},
	{
		ID: "shop-navigate-brand-department", App: "shop", Kind: generate.KindNavigate,
		Params:  []string{"brand", "category"},
		Summary: "list one brand's in-stock, well-rated items of a department, best rated first",
		Draw:    drawShopNavigateBrand,
	},
	{
		ID: "shop-buy-cheapest-of-brand", App: "shop", Kind: generate.KindMultiStep,
		Params:  []string{"brand", "category", "qty"},
		Summary: "order a quantity of the cheapest in-stock item of a brand in a department",
		Draw:    drawShopBuyCheapest,
	},
	{
		ID: "shop-cancel-processing-order", App: "shop", Kind: generate.KindChangeOne,
		Params:  []string{"product", "reason"},
		Summary: "cancel the processing order that holds a named item, with a reason",
		Draw:    drawShopCancel,
	},
	{
		ID: "shop-change-address", App: "shop", Kind: generate.KindChangeOne,
		Params:  []string{"name", "street", "city", "postcode"},
		Summary: "change the account's delivery address",
		Draw:    drawShopChangeAddress,
	},
	{
		ID: "shop-address-and-emails", App: "shop", Kind: generate.KindChangeSeveral,
		Params:  []string{"street", "city", "postcode", "newsletter"},
		Summary: "change the delivery address and the e-mail choice",
		Draw:    drawShopAddressAndEmails,
	},
	{
		ID: "shop-gift-card", App: "shop", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetPaymentIframe},
		Params:  []string{"amount", "to_name", "to_email", "message", "card", "cvc"},
		Summary: "buy a gift card for someone, paying by card in the payment iframe",
		Draw:    drawShopGiftCard,
	},
	{
		ID: "shop-impossible-cancel-sent", App: "shop", Kind: generate.KindImpossible,
		Params:  []string{"product", "reason"},
		Summary: "cancel an order that has already shipped or been delivered",
		Draw:    drawShopCancelSent,
	},
	{
		ID: "shop-impossible-sold-out", App: "shop", Kind: generate.KindImpossible,
		Params:  []string{"sku", "qty"},
		Summary: "order an item that is sold out",
		Draw:    drawShopSoldOut,
	},
	{
		ID: "shop-impossible-gift-amount", App: "shop", Kind: generate.KindImpossible,
		Params:  []string{"amount", "to_name"},
		Summary: "buy a gift card of an amount the shop does not sell",
		Draw:    drawShopGiftAmount,
	},
}

// shop is the shop's route table.
var shop = &sandbox.Shop

// shopWritesBeyondCart holds when the shop accepted n writes other than
// adding to and removing from the cart, which are steps on the way to an
// order: any other route, a later one included, counts.
func shopWritesBeyondCart(n int) *contract.Network {
	w := generate.Post("^"+regexp.QuoteMeta(sandbox.Base(sandbox.ShopHost))+notFirstSegment(shopCartSegment()), nil)
	w.Count = &contract.Count{Op: contract.OpEq, Value: n}
	return w
}

// shopCartSegment is the first segment of the cart's writes' paths. Every
// write under it must be a step on the way to an order, as adding and
// removing are: a later write there would escape shopWritesBeyondCart's
// count, so it stops the generator until the count is decided for it.
func shopCartSegment() string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(shop.CartAdd.Path, "/"), "/")
	for _, rt := range shop.Routes() {
		if rt.Writes && strings.HasPrefix(rt.Path, "/"+seg+"/") && rt != &shop.CartAdd && rt != &shop.CartRemove {
			panic("templates: " + rt.String() + " is a write under the cart's segment; decide whether shopWritesBeyondCart counts it")
		}
	}
	return seg
}

// notFirstSegment is a pattern for the rest of a URL after the host's
// "/" whose path does not begin with the segment seg (letters and digits
// only): the root, another segment, or one that only starts like seg.
func notFirstSegment(seg string) string {
	p := `[^/?#]`
	for i := len(seg) - 1; i >= 0; i-- {
		p = `(?:$|[^` + seg[i:i+1] + `]|` + seg[i:i+1] + p + `)`
	}
	return p
}

// shopPlaced holds when the only write beyond the cart placed order
// SH-1001, with lines lines, to the saved address, and left the cart
// empty: read on the order's page and the cart's, wherever the browser
// ended.
func shopPlaced(lines int) contract.Postconditions {
	addr, _ := sandbox.ShopAccount()
	order := shop.Order.URL(sandbox.ShopNextOrder)
	return contract.Postconditions{
		shopWritesBeyondCart(1),
		onPage(order, generate.Count(".order-line", lines)),
		onPage(order, generate.Text(".deliver-to", fmt.Sprintf("%s, %s, %s %s", addr.Name, addr.Street, addr.City, addr.Postcode))),
		onPage(shop.Cart.URL(), generate.Text(".empty", "Your cart is empty")),
	}
}

// queryParam is a pattern for a shop search URL whose query has key=value
// anywhere in it.
func shopQueryParam(key, value string) string {
	return "^" + regexp.QuoteMeta(shop.Search.URL()+"?") + "(?:[^#]*&)?" + regexp.QuoteMeta(shop.Search.Field(key)+"="+value) + "(?:&|#|$)"
}

func shopPick[T any](r *rand.Rand, xs []T) T { return pick(r, xs) }

// products and their groups.

var shopCatalogue = sandbox.ShopProducts()

func shopCategory(name string) sandbox.ShopCategory {
	for _, c := range sandbox.ShopCategories() {
		if c.Name == name {
			return c
		}
	}
	panic("generate: no shop department " + name)
}

// byPrice sorts ps by price, then name, as the shop's price sort shows
// them (its results are sorted by name before a stable sort by price).
func shopByPrice(ps []sandbox.Product) []sandbox.Product {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b sandbox.Product) int {
		return cmp.Or(cmp.Compare(a.Cents, b.Cents), strings.Compare(a.Name, b.Name))
	})
	return out
}

func shopFilter(keep func(p sandbox.Product) bool) []sandbox.Product {
	var out []sandbox.Product
	for _, p := range shopCatalogue {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

func shopStars(tenths int) string { return fmt.Sprintf("%d.%d", tenths/10, tenths%10) }

// Find: the cheapest (or dearest) in-stock item of a department rated at
// least so well.

type shopCheapestCase struct {
	cat       sandbox.ShopCategory
	minRating int
	dearest   bool
	answer    sandbox.Product
	// decoy is the item an agent that forgets one filter opens: the
	// rating (skipRating) or the stock.
	decoy      sandbox.Product
	skipRating bool
}

// shopCheapestCases are the departments, ratings and ends of the price
// range with one answer (no tie on price) and a decoy that one forgotten
// filter gives instead, so the filters matter.
func shopCheapestCases() []shopCheapestCase {
	var out []shopCheapestCase
	for _, c := range sandbox.ShopCategories() {
		for _, min := range []int{40, 45} {
			for _, dearest := range []bool{false, true} {
				all := shopByPrice(shopFilter(func(p sandbox.Product) bool { return p.Category == c.Name }))
				if dearest {
					slices.Reverse(all)
				}
				first := func(keep func(p sandbox.Product) bool) (sandbox.Product, bool) {
					for _, p := range all {
						if keep(p) {
							return p, true
						}
					}
					return sandbox.Product{}, false
				}
				answer, ok := first(func(p sandbox.Product) bool { return p.Stock > 0 && p.Rating >= min })
				if !ok {
					continue
				}
				if _, tie := first(func(p sandbox.Product) bool {
					return p.Stock > 0 && p.Rating >= min && p.Cents == answer.Cents && p.SKU != answer.SKU
				}); tie {
					continue
				}
				k := shopCheapestCase{cat: c, minRating: min, dearest: dearest, answer: answer}
				if d, _ := first(func(p sandbox.Product) bool { return p.Stock > 0 }); d.SKU != answer.SKU {
					k.decoy, k.skipRating = d, true
				} else if d, _ := first(func(p sandbox.Product) bool { return p.Rating >= min }); d.SKU != answer.SKU {
					k.decoy = d
				} else {
					continue
				}
				out = append(out, k)
			}
		}
	}
	return out
}

func drawShopFindCheapestRated(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopCheapestCases())
	ratingLink := map[int]string{40: "4.0 and up", 45: "4.5 and up"}[k.minRating]
	end, sortLink := "cheapest", "Price: low to high"
	asks := []string{
		"On Larkspur Market, find the cheapest %s item that is in stock and rated %s stars or more, and leave its product page open: I need its item number.",
		"I need the item number of the least expensive %s product on Larkspur Market that is in stock and has a rating of at least %s. Open that product's page.",
		"Which in-stock %s item on Larkspur Market costs the least among those rated %s or better? Show me its product page.",
	}
	if k.dearest {
		end, sortLink = "dearest", "Price: high to low"
		asks = []string{
			"On Larkspur Market, find the most expensive %s item that is in stock and rated %s stars or more, and leave its product page open: I need its item number.",
			"I need the item number of the priciest %s product on Larkspur Market that is in stock and has a rating of at least %s. Open that product's page.",
			"Which in-stock %s item on Larkspur Market costs the most among those rated %s or better? Show me its product page.",
		}
	}
	path := func(last sandbox.Product, rating, stock bool) []suite.Step {
		s := []suite.Step{generate.ClickLink(k.cat.Name, "category="+k.cat.Slug)}
		if rating {
			s = append(s, generate.Click("link", ratingLink))
		}
		if stock {
			s = append(s, generate.Click("link", "In stock only"))
		}
		return append(s, generate.Click("link", sortLink), generate.ClickLink(last.Name, shop.Product.Href(last.SKU)), generate.Read())
	}
	page := shop.Product.URL(k.answer.SKU)
	forgot := "the stock"
	if k.skipRating {
		forgot = "the rating"
	}
	return generate.Instance{
		Params:      map[string]string{"category": k.cat.Name, "min_rating": shopStars(k.minRating), "end": end},
		Instruction: fmt.Sprintf(shopPick(r, asks), k.cat.Name, shopStars(k.minRating)),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.URLIs(pathPattern(page)),
			generate.Text(".product .sku", k.answer.SKU),
			generate.Text(".product h1", k.answer.Name),
			generate.NoWrite(sandbox.ShopHost),
		},
		Reference: path(k.answer, true, true),
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: path(k.decoy, !k.skipRating, k.skipRating), FailsOn: 0},
			{Name: "one-step-short", Reference: path(k.answer, true, true)[:4], FailsOn: 0},
			{Name: "added-to-cart", Reference: slices.Concat(path(k.answer, true, true), shopLeftInCart(k.answer, page)), FailsOn: 3},
			{Name: "emails-changed", Reference: slices.Concat(shopEmailsChanged(), path(k.answer, true, true)), FailsOn: 3},
		},
		Alternates: []generate.Alternate{
			{Name: "fragment", Reference: append(path(k.answer, true, true), generate.Navigate(page+"#reviews"), generate.Read())},
			{Name: "other-query", Reference: append(path(k.answer, true, true), generate.Navigate(page+"?from=search"), generate.Read())},
		},
		Rationale: fmt.Sprintf("The answer is %s (%s, %s, rated %s); %s (%s, rated %s, stock %d) is what an agent that forgets %s "+
			"opens. The instruction asks to end on the product page: the URL pins its path, whatever its query or fragment; the SKU and the heading "+
			"are the fact it shows. Nothing may be written: a cart or an account changed was not asked for.",
			k.answer.Name, k.answer.SKU, k.answer.Price(), k.answer.Stars(), k.decoy.Name, k.decoy.Price(), k.decoy.Stars(), k.decoy.Stock, forgot),
	}
}

// Navigate: one brand's in-stock items of a department rated 4.0 and up,
// best rated first.

type shopBrandCase struct {
	brand string
	cat   sandbox.ShopCategory
	shown []sandbox.Product // best rated first
	all   []sandbox.Product // the brand's items of the department
}

// shopBrandCases are the brands and departments where filtering leaves at
// least one item with a single best rating, and the filters remove at
// least one of the brand's items, so they matter.
func shopBrandCases() []shopBrandCase {
	var out []shopBrandCase
	var brands []string
	for _, p := range shopCatalogue {
		if !slices.Contains(brands, p.Brand) {
			brands = append(brands, p.Brand)
		}
	}
	slices.Sort(brands)
	for _, c := range sandbox.ShopCategories() {
		for _, b := range brands {
			all := shopFilter(func(p sandbox.Product) bool { return p.Category == c.Name && p.Brand == b })
			var shown []sandbox.Product
			for _, p := range all {
				if p.Stock > 0 && p.Rating >= 40 {
					shown = append(shown, p)
				}
			}
			slices.SortStableFunc(shown, func(a, b sandbox.Product) int { return cmp.Compare(b.Rating, a.Rating) })
			if len(shown) == 0 || len(shown) == len(all) || (len(shown) > 1 && shown[0].Rating == shown[1].Rating) {
				continue
			}
			out = append(out, shopBrandCase{brand: b, cat: c, shown: shown, all: all})
		}
	}
	return out
}

// brandSteps searches for the brand and narrows the results to the
// department.
func shopBrandSteps(brand string, cat sandbox.ShopCategory) []suite.Step {
	return []suite.Step{
		generate.Type("Search the shop", brand, true),
		generate.ClickLink(cat.Name, "category="+cat.Slug+"&q="),
	}
}

func drawShopNavigateBrand(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopBrandCases())
	asks := []string{
		"On Larkspur Market, show me the %s items in the %s department that are in stock and rated 4.0 or more, highest rated first.",
		"I only buy %s. List their %s products on Larkspur Market, keeping just the in-stock ones with a rating of 4 stars or above, sorted so the top-rated comes first.",
		"Bring up Larkspur Market's %s range in %s: in stock only, 4.0 stars and up, ordered by rating from best down.",
	}
	steps := append(shopBrandSteps(k.brand, k.cat),
		generate.Click("link", "4.0 and up"), generate.Click("link", "In stock only"), generate.Click("link", "Best rated"), generate.Read())
	list := shop.Search.Query(url.Values{"q": {k.brand}, "category": {k.cat.Slug}, "in_stock": {"1"}, "min_rating": {"40"}, "sort": {"rating"}})
	return generate.Instance{
		Params:      map[string]string{"brand": k.brand, "category": k.cat.Name},
		Instruction: fmt.Sprintf(shopPick(r, asks), k.brand, k.cat.Name),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.URLIs(shopQueryParam("category", k.cat.Slug)),
			generate.URLIs(shopQueryParam("in_stock", "1")),
			generate.URLIs(shopQueryParam("min_rating", "40")),
			generate.URLIs(shopQueryParam("sort", "rating")),
			generate.Count(".results .card", len(k.shown)),
			generate.Text(".results .card:first-child .name", k.shown[0].Name),
			generate.NoWrite(sandbox.ShopHost),
		},
		Reference: steps,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: slices.Concat(steps[:4], []suite.Step{generate.Read()}), FailsOn: 3},
			{Name: "no-brand", Reference: []suite.Step{generate.ClickLink(k.cat.Name, "category="+k.cat.Slug), generate.Click("link", "4.0 and up"),
				generate.Click("link", "In stock only"), generate.Click("link", "Best rated"), generate.Read()}, FailsOn: 4},
			{Name: "added-top-to-cart", Reference: slices.Concat(steps, shopLeftInCart(k.shown[0], list)), FailsOn: 6},
			{Name: "emails-changed", Reference: slices.Concat(shopEmailsChanged(), steps), FailsOn: 6},
		},
		Alternates: []generate.Alternate{
			{Name: "other-order", Reference: append(shopBrandSteps(k.brand, k.cat),
				generate.Click("link", "Best rated"), generate.Click("link", "In stock only"), generate.Click("link", "4.0 and up"), generate.Read())},
			{Name: "typed-url", Reference: append(shopBrandSteps(k.brand, k.cat), generate.Navigate(list+"&page=1#results"), generate.Read())},
		},
		Rationale: fmt.Sprintf("%s has %d items in %s; %d are in stock and rated 4.0 or more, best rated %s. "+
			"The instruction asks to end on that list: the URL clauses pin each filter and the sort whatever order the query takes, and no other "+
			"parameter or fragment decides; the count pins the brand, the first card the sort. Nothing may be written.",
			k.brand, len(k.all), k.cat.Name, len(k.shown), k.shown[0].Name),
	}
}

// Multi-step: order a quantity of the cheapest in-stock item of a brand
// in a department.

type shopBuyCase struct {
	brand  string
	cat    sandbox.ShopCategory
	answer sandbox.Product
	// next is another in-stock item of the department, the wrong buy.
	next sandbox.Product
}

func shopBuyCases() []shopBuyCase {
	var out []shopBuyCase
	seen := map[string]bool{}
	for _, p := range shopCatalogue {
		key := p.Brand + "|" + p.Category
		if seen[key] {
			continue
		}
		seen[key] = true
		all := shopByPrice(shopFilter(func(q sandbox.Product) bool { return q.Category == p.Category && q.Brand == p.Brand }))
		var inStock []sandbox.Product
		for _, q := range all {
			if q.Stock > 0 {
				inStock = append(inStock, q)
			}
		}
		if len(all) < 2 || len(inStock) == 0 || (len(inStock) > 1 && inStock[0].Cents == inStock[1].Cents) {
			continue
		}
		var next sandbox.Product
		if len(inStock) > 1 {
			next = inStock[1]
		} else {
			// The brand's only in-stock item: the wrong buy is the
			// department's cheapest in-stock item of another brand.
			others := shopByPrice(shopFilter(func(q sandbox.Product) bool {
				return q.Category == p.Category && q.Brand != p.Brand && q.Stock > 0
			}))
			next = others[0]
		}
		out = append(out, shopBuyCase{brand: p.Brand, cat: shopCategory(p.Category), answer: inStock[0], next: next})
	}
	slices.SortFunc(out, func(a, b shopBuyCase) int { return strings.Compare(a.answer.SKU, b.answer.SKU) })
	return out
}

// orderSteps buys qty of p from its product page: quantity, cart,
// checkout, place.
func shopOrderSteps(p sandbox.Product, qty int) []suite.Step {
	return []suite.Step{
		generate.ClickLink(p.Name, shop.Product.Href(p.SKU)),
		generate.Type("Quantity", strconv.Itoa(qty), false),
		generate.Click("button", "Add to cart"),
		generate.Click("link", "Proceed to checkout"),
		generate.Click("button", "Place order"),
	}
}

func drawShopBuyCheapest(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopBuyCases())
	qty := 2 + r.IntN(3)
	asks := []string{
		"On Larkspur Market, order %d of the cheapest %s item in the %s department that is in stock, delivered to my saved address.",
		"Buy %d units of whichever in-stock %s product in %s is the least expensive on Larkspur Market, and check out with my saved address.",
		"I'd like %d of the lowest-priced %s item from Larkspur Market's %s department (it has to be in stock). Please place the order.",
	}
	filters := append(shopBrandSteps(k.brand, k.cat), generate.Click("link", "In stock only"), generate.Click("link", "Price: low to high"))
	ref := slices.Concat(filters, shopOrderSteps(k.answer, qty))
	return generate.Instance{
		Params:      map[string]string{"brand": k.brand, "category": k.cat.Name, "qty": strconv.Itoa(qty)},
		Instruction: fmt.Sprintf(shopPick(r, asks), qty, k.brand, k.cat.Name),
		StartURL:    shop.Home.URL(),
		Contract: slices.Concat(contract.Postconditions{
			generate.Once(posted(shop.Checkout, map[string]string{"line": fmt.Sprintf("%sx%d", k.answer.SKU, qty)})),
		}, shopPlaced(1), contract.Postconditions{generate.NoDialog()}),
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: slices.Concat([]suite.Step{generate.Navigate(shop.Product.URL(k.next.SKU))},
				shopOrderSteps(k.next, qty)[1:]), FailsOn: 0},
			{Name: "wrong-quantity", Reference: slices.Concat(filters, shopOrderSteps(k.answer, qty-1)), FailsOn: 0},
			{Name: "second-order", Reference: slices.Concat(ref, []suite.Step{generate.Navigate(shop.Product.URL(k.next.SKU))}, shopOrderSteps(k.next, 1)[1:],
				[]suite.Step{generate.Navigate(shop.Order.URL(sandbox.ShopNextOrder)), generate.Read()}), FailsOn: 1},
			{Name: "left-in-cart", Reference: slices.Concat(ref, shopLeftInCart(k.next, shop.Order.URL(sandbox.ShopNextOrder))), FailsOn: 4},
			{Name: "other-address", Reference: slices.Concat(filters, shopOrderSteps(k.answer, qty)[:4],
				[]suite.Step{generate.Type("Street", shopOtherStreet, false), generate.Click("button", "Place order")}), FailsOn: 3},
		},
		Alternates: []generate.Alternate{
			{Name: "then-orders", Reference: append(slices.Clone(ref), generate.Click("link", "Your orders"), generate.Read())},
			{Name: "in-two-adds", Reference: slices.Concat(filters, shopOrderSteps(k.answer, 1)[:3],
				[]suite.Step{generate.Navigate(shop.Product.URL(k.answer.SKU))}, shopOrderSteps(k.answer, qty-1)[1:])},
		},
		Rationale: fmt.Sprintf("The cheapest in-stock %s item in %s is %s (%s, %s); the post pins SKU and quantity (%s x%d) and that "+
			"one order was placed; %s (%s) is the near miss. Whatever page the browser ends on, the new order's page must show that one line "+
			"going to the saved address, and the cart must be left empty; adding to and removing from the cart are steps on the way, any other write fails.",
			k.brand, k.cat.Name, k.answer.Name, k.answer.SKU, k.answer.Price(), k.answer.SKU, qty, k.next.Name, k.next.Price()),
	}
}

// Orders: cancel a processing one; try to cancel one already sent.

var shopCancelReasons = []string{
	"Ordered by mistake", "Found it cheaper elsewhere", "No longer needed",
	"Delivery takes too long", "Bought the wrong one", "Changed my mind",
}

type shopOrderItem struct {
	order sandbox.ShopOrder
	line  sandbox.ShopOrderLine
}

// orderItems are the items of the seeded orders whose status is in
// statuses, each in only one order, so the item names its order.
func shopOrderItems(statuses ...string) []shopOrderItem {
	orders := sandbox.ShopOrders()
	count := map[string]int{}
	for _, o := range orders {
		for _, l := range o.Lines {
			count[l.SKU]++
		}
	}
	var out []shopOrderItem
	for _, o := range orders {
		if !slices.Contains(statuses, o.Status) {
			continue
		}
		for _, l := range o.Lines {
			if count[l.SKU] == 1 {
				out = append(out, shopOrderItem{o, l})
			}
		}
	}
	return out
}

// cancelSteps opens order id from the order list and cancels it.
func shopCancelSteps(id, reason string) []suite.Step {
	return []suite.Step{
		generate.Click("link", "Your orders"),
		generate.Read(),
		generate.Click("link", id),
		generate.Type("Reason for cancelling", reason, false),
		generate.Click("button", "Cancel order "+id),
	}
}

func drawShopCancel(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopOrderItems("Processing"))
	reason := shopPick(r, shopCancelReasons)
	id := k.order.ID
	var other string
	for _, o := range sandbox.ShopOrders() {
		if o.Status == "Processing" && o.ID != id {
			other = o.ID
		}
	}
	asks := []string{
		"Please cancel my Larkspur Market order that has the %s in it. Reason: %q. Leave my other orders as they are.",
		"I no longer want the order with the %s from Larkspur Market. Cancel it and give %q as the reason.",
		"On Larkspur Market, cancel whichever order contains the %s; when asked why, say %q.",
	}
	return generate.Instance{
		Params:      map[string]string{"product": k.line.Name, "reason": reason},
		Instruction: fmt.Sprintf(shopPick(r, asks), k.line.Name, reason),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.Once(postField(shop.Cancel, "reason", reason, id)),
			writesOn(sandbox.ShopHost, 1),
			onPage(shop.Order.URL(id), generate.Text(".cancelled .reason", reason)),
			generate.NoDialog(),
		},
		Reference: shopCancelSteps(id, reason),
		Controls: []generate.Control{
			{Name: "wrong-order", Reference: shopCancelSteps(other, reason), FailsOn: 0},
			{Name: "side-effect", Reference: slices.Concat(shopCancelSteps(other, reason), shopCancelSteps(id, reason)), FailsOn: 1},
			{Name: "left-in-cart", Reference: slices.Concat(shopCancelSteps(id, reason), shopLeftInCart(shopInStock(), shop.Order.URL(id))), FailsOn: 1},
			{Name: "other-after", Reference: slices.Concat(shopCancelSteps(id, reason), shopCancelSteps(other, reason),
				[]suite.Step{generate.Navigate(shop.Order.URL(id)), generate.Read()}), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "spaces", Reference: shopCancelSteps(id, "  "+reason+" ")},
			{Name: "then-list", Reference: append(shopCancelSteps(id, reason), generate.Click("link", "All your orders"), generate.Read())},
		},
		Rationale: fmt.Sprintf("The %s is in order %s, one of two orders still processing (the other is %s). The post pins the "+
			"order and the reason as the shop stores it (trimmed), once; it is the only write, so cancelling another order or writing anything "+
			"else fails. The order's page must show the reason, wherever the browser ends.",
			k.line.Name, id, other),
	}
}

// Account: the delivery address, and the e-mail choice.

type shopAddress struct{ street, city, postcode string }

var shopAddresses = []shopAddress{
	{"7 Orchard Row", "Bath", "BA1 2QT"}, {"22 Mill Street", "Exeter", "EX4 3LS"},
	{"3 Ferry Steps", "Gloucester", "GL1 2PB"}, {"41 Kiln Road", "Hereford", "HR4 9DF"},
	{"9 Weavers Yard", "Taunton", "TA1 1HE"}, {"18 Copper Lane", "Cardiff", "CF10 4RT"},
	{"5 Harbour Terrace", "Wells", "BA5 2NW"}, {"60 Linden Avenue", "Salisbury", "SP1 3JG"},
	{"12 Quarry Hill", "Stroud", "GL5 1QA"}, {"27 Tannery Walk", "Frome", "BA11 1BX"},
}

var shopNames = []string{"Robin Ashdown", "Sam Ashdown", "Alex Marwood", "Jo Penhallow", "Kit Farrant", "Morgan Trevelyan"}

// addressSteps types the address (and the name, when name is set) into
// the account page's address form; save presses Save address.
func shopAddressSteps(name string, a shopAddress, save bool) []suite.Step {
	s := []suite.Step{generate.Click("link", "Your account")}
	if name != "" {
		s = append(s, generate.Type("Full name", name, false))
	}
	s = append(s, generate.Type("Street", a.street, false), generate.Type("City", a.city, false), generate.Type("Postcode", a.postcode, false))
	if save {
		s = append(s, generate.Click("button", "Save address"))
	}
	return s
}

func drawShopChangeAddress(r *rand.Rand) generate.Instance {
	a := shopPick(r, shopAddresses)
	name := shopPick(r, shopNames)
	asks := []string{
		"On Larkspur Market, change my delivery address to %s, %s, %s %s.",
		"Deliveries from Larkspur Market should now go to %s at %s, %s %s. Please update my account.",
		"I've moved. Set my Larkspur Market delivery details to: %s, %s, %s %s.",
	}
	full := fmt.Sprintf("%s, %s, %s %s", name, a.street, a.city, a.postcode)
	form := map[string]string{"name": name, "street": a.street, "city": a.city, "postcode": a.postcode}
	return generate.Instance{
		Params:      map[string]string{"name": name, "street": a.street, "city": a.city, "postcode": a.postcode},
		Instruction: fmt.Sprintf(shopPick(r, asks), name, a.street, a.city, a.postcode),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.Once(trimmed(posted(shop.SaveAccount, form))),
			writesOn(sandbox.ShopHost, 1),
			onPage(shop.Account.URL(), generate.Text(".account .current-address", full)),
		},
		Reference: shopAddressSteps(name, a, true),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: shopAddressSteps(name, a, false), FailsOn: 0},
			{Name: "postcode-kept", Reference: slices.Concat(shopAddressSteps(name, a, false)[:4], []suite.Step{generate.Click("button", "Save address")}), FailsOn: 0},
			{Name: "also-emails", Reference: append(shopAddressSteps(name, a, true), generate.Click("button", shopOtherLetter()[1])), FailsOn: 1},
			{Name: "left-in-cart", Reference: slices.Concat(shopLeftInCart(shopInStock(), shop.Home.URL()), shopAddressSteps(name, a, true)), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "spaces", Reference: shopAddressSteps(" "+name, shopAddress{a.street + "  ", a.city, " " + a.postcode}, true)},
			{Name: "reload", Reference: append(shopAddressSteps(name, a, true), generate.Navigate(shop.Account.URL()), generate.Read())},
			{Name: "then-home", Reference: append(shopAddressSteps(name, a, true), generate.Click("link", "Larkspur Market"), generate.Read())},
		},
		Rationale: "The post pins all four fields of the address form as the shop stores them (trimmed), once, and is the only write; " +
			"the account page must show the new address, wherever the browser ends. Saving without the new postcode, or not saving, fails the post.",
	}
}

func drawShopAddressAndEmails(r *rand.Rand) generate.Instance {
	a := shopPick(r, shopAddresses)
	_, current := sandbox.ShopAccount()
	var choices [][2]string
	for _, n := range sandbox.ShopNewsletters() {
		if n[0] != current {
			choices = append(choices, n)
		}
	}
	letter := shopPick(r, choices)
	other := choices[0]
	if other == letter {
		other = choices[1]
	}
	wants := map[string]string{"monthly": "only a monthly digest", "none": "no e-mails at all"}
	asks := []string{
		"Two things on Larkspur Market: my delivery address is now %s, %s %s, and I want %s from them.",
		"Update my Larkspur Market account: new delivery address %s, %s %s; and change my e-mail setting so I get %s.",
	}
	saved, _ := sandbox.ShopAccount()
	addr := fmt.Sprintf("%s, %s, %s %s", saved.Name, a.street, a.city, a.postcode)
	steps := append(shopAddressSteps("", a, true), generate.Click("button", letter[1]))
	return generate.Instance{
		Params:      map[string]string{"street": a.street, "city": a.city, "postcode": a.postcode, "newsletter": letter[0]},
		Instruction: fmt.Sprintf(shopPick(r, asks), a.street, a.city, a.postcode, wants[letter[0]]),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.Once(trimmed(posted(shop.SaveAccount, map[string]string{"street": a.street, "city": a.city, "postcode": a.postcode}))),
			generate.Once(posted(shop.SaveAccount, map[string]string{"newsletter": letter[0]})),
			writesOn(sandbox.ShopHost, 2),
			onPage(shop.Account.URL(), generate.Text(".account .current-address", addr)),
			onPage(shop.Account.URL(), generate.Text(".newsletter", letter[1])),
		},
		Reference: steps,
		Controls: []generate.Control{
			{Name: "address-only", Reference: shopAddressSteps("", a, true), FailsOn: 1},
			{Name: "wrong-choice", Reference: append(shopAddressSteps("", a, true), generate.Click("button", other[1])), FailsOn: 1},
			{Name: "emails-only", Reference: []suite.Step{generate.Click("link", "Your account"), generate.Click("button", letter[1])}, FailsOn: 0},
			{Name: "renamed", Reference: append(shopAddressSteps(shopOtherName, a, true), generate.Click("button", letter[1])), FailsOn: 3},
			{Name: "other-then-right", Reference: append(shopAddressSteps("", a, true), generate.Click("button", other[1]), generate.Click("button", letter[1])), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "emails-first", Reference: append([]suite.Step{generate.Click("link", "Your account"), generate.Click("button", letter[1])}, shopAddressSteps("", a, true)[1:]...)},
			{Name: "spaces", Reference: append(shopAddressSteps("", shopAddress{" " + a.street, a.city + " ", a.postcode + " "}, true), generate.Click("button", letter[1]))},
			{Name: "reload", Reference: append(slices.Clone(steps), generate.Navigate(shop.Account.URL()), generate.Read())},
		},
		Rationale: fmt.Sprintf("Two writes on the account page, each its own post: the address form (street, city, postcode) and the "+
			"e-mail button %q (value %s). Each is pinned once (the address as the shop stores it, trimmed) and they are the only writes; the "+
			"account page must show both, with the name kept, wherever the browser ends.", letter[1], letter[0]),
	}
}

// Gift cards, paid by card in the pay host's iframe.

type shopRecipient struct{ name, email string }

var shopRecipients = []shopRecipient{
	{"Ines Calloway", "ines.calloway@example.org"}, {"Tom Rideout", "tom.rideout@example.net"},
	{"Priya Hallam", "priya.hallam@example.org"}, {"Owen Tregear", "owen.tregear@example.com"},
	{"Maud Fenwick", "maud.fenwick@example.net"}, {"Dev Lanyon", "dev.lanyon@example.org"},
	{"Ruth Pengelly", "ruth.pengelly@example.com"}, {"Noah Carbis", "noah.carbis@example.org"},
}

var shopGiftMessages = []string{"Happy birthday!", "Thank you for everything", "Congratulations on the new home", "Enjoy, with love", "For the garden"}

// approvedCards are the pay host's test cards that charge.
func shopApprovedCards() []sandbox.PayCard {
	var out []sandbox.PayCard
	for _, c := range sandbox.PayCards() {
		if c.Outcome == "approved" {
			out = append(out, c)
		}
	}
	return out
}

type shopGiftBuy struct {
	euros            int
	to               shopRecipient
	message          string
	card             sandbox.PayCard
	expiry, cvc, who string
}

// giftSteps buys the gift card from the home page: the gift-card form,
// then the card form in the iframe, then Place order.
func shopGiftSteps(g shopGiftBuy, place bool) []suite.Step {
	s := []suite.Step{
		generate.ClickLink("Gift cards", shop.GiftCards.Href()),
		generate.Type("Amount in euros", strconv.Itoa(g.euros), false),
		generate.Type("Recipient's name", g.to.name, false),
		generate.Type("Recipient's e-mail", g.to.email, false),
		generate.Type("Message (optional)", g.message, false),
		generate.Click("button", "Continue to payment"),
		generate.Type("Card number", g.card.Number, false),
		generate.Type("Expiry date (MM/YY)", g.expiry, false),
		generate.Type("Security code (CVC)", g.cvc, false),
		generate.Type("Name on card", g.who, false),
		generate.Click("button", fmt.Sprintf("Pay €%d.00", g.euros)),
	}
	if place {
		s = append(s, generate.Click("button", "Place order"))
	}
	return s
}

func drawShopGiftCard(r *rand.Rand) generate.Instance {
	amounts := sandbox.GiftCardAmounts()
	addr, _ := sandbox.ShopAccount()
	g := shopGiftBuy{euros: shopPick(r, amounts), to: shopPick(r, shopRecipients), message: shopPick(r, shopGiftMessages),
		card: shopPick(r, shopApprovedCards()), cvc: strconv.Itoa(100 + r.IntN(900)), who: addr.Name}
	g.expiry = g.card.Expiry
	token := sandbox.PayToken(g.euros*100, sandbox.ShopNextOrder, g.card.Last4())
	asks := []string{
		"Buy a €%d Larkspur Market gift card for %s (%s) with the message %q. Pay with my card %s, expiry %s, security code %s, name on card %s.",
		"On Larkspur Market, send %[2]s a gift card worth €%[1]d at %[3]s, message %[4]q. My card: number %[5]s, expires %[6]s, CVC %[7]s, in the name of %[8]s.",
	}
	wrong := g
	for wrong.euros == g.euros {
		wrong.euros = shopPick(r, amounts)
	}
	order := shop.Order.URL(sandbox.ShopNextOrder)
	second := g
	second.to = shopRecipients[(slices.Index(shopRecipients, g.to)+1)%len(shopRecipients)]
	spaced := g
	spaced.to.name, spaced.message = " "+g.to.name+" ", g.message+"  "
	declined := g
	for _, c := range sandbox.PayCards() {
		if c.Outcome == "declined" {
			declined.card, declined.expiry = c, c.Expiry
		}
	}
	return generate.Instance{
		Params: map[string]string{"amount": strconv.Itoa(g.euros), "to_name": g.to.name, "to_email": g.to.email,
			"message": g.message, "card": g.card.Number, "cvc": g.cvc},
		Instruction: fmt.Sprintf(shopPick(r, asks), g.euros, g.to.name, g.to.email, g.message, g.card.Number, g.expiry, g.cvc, g.who),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.Once(trimmed(posted(shop.GiftOrder, map[string]string{"amount": strconv.Itoa(g.euros), "to_name": g.to.name,
				"to_email": g.to.email, "message": g.message, "token": token}))),
			generate.Once(posted(sandbox.Pay.Charge, map[string]string{"amount": strconv.Itoa(g.euros * 100), "ref": sandbox.ShopNextOrder})),
			writesOn(sandbox.ShopHost, 1),
			writesOn(sandbox.PayHost, 1),
			onPage(order, generate.Text(".gift .gift-to", g.to.name+" <"+g.to.email+">")),
			onPage(order, generate.Text(".gift .gift-amount", fmt.Sprintf("€%d.00", g.euros))),
		},
		Reference: shopGiftSteps(g, true),
		Controls: []generate.Control{
			{Name: "wrong-amount", Reference: shopGiftSteps(wrong, true), FailsOn: 0},
			{Name: "one-step-short", Reference: shopGiftSteps(g, false), FailsOn: 0},
			{Name: "declined-card", Reference: shopGiftSteps(declined, false), FailsOn: 0},
			{Name: "second-gift-card", Reference: slices.Concat(shopGiftSteps(g, true), shopGiftSteps(second, true),
				[]suite.Step{generate.Navigate(order), generate.Read()}), FailsOn: 2},
			{Name: "left-in-cart", Reference: slices.Concat(shopGiftSteps(g, true), shopLeftInCart(shopInStock(), order)), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "spaces", Reference: shopGiftSteps(spaced, true)},
			{Name: "then-orders", Reference: append(shopGiftSteps(g, true), generate.Click("link", "Your orders"), generate.Read())},
		},
		Rationale: fmt.Sprintf("The card form is a page of %s in an iframe; an approved charge (pinned: %d cents for %s) hands the "+
			"token %s to the shop page, which alone enables Place order. The shop's post pins the gift card (as the shop stores it, trimmed) "+
			"and that token; it and the charge are the only writes on either host, and the order's page must show the card, wherever the browser ends.", sandbox.PayHost, g.euros*100, sandbox.ShopNextOrder, token),
	}
}

// Impossible: cancel an order that has shipped or been delivered.

func drawShopCancelSent(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopOrderItems("Shipped", "Delivered"))
	reason := shopPick(r, shopCancelReasons)
	id := k.order.ID
	var processing string
	for _, o := range sandbox.ShopOrders() {
		if o.Status == "Processing" {
			processing = o.ID
		}
	}
	asks := []string{
		"Please cancel my Larkspur Market order that has the %s in it. Reason: %q.",
		"I don't want the %s I ordered from Larkspur Market any more. Cancel that order, reason %q.",
	}
	return generate.Instance{
		Params:      map[string]string{"product": k.line.Name, "reason": reason},
		Instruction: fmt.Sprintf(shopPick(r, asks), k.line.Name, reason),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(sandbox.ShopHost),
			generate.Or(
				&contract.And{Children: []contract.Clause{
					generate.URLIs(at(shop.Order, id)),
					generate.Text(".order-status", k.order.Status),
				}},
				refused(shop.Cancel, 409, id),
			),
		},
		Reference: []suite.Step{generate.Click("link", "Your orders"), generate.Read(), generate.Click("link", id), generate.Read()},
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", "Your orders"), generate.Read()}, FailsOn: 1},
			{Name: "did-something-else", Reference: shopCancelSteps(processing, reason), FailsOn: 0},
			{Name: "other-sent-order", Reference: []suite.Step{generate.Click("link", "Your orders"), generate.Read(), generate.Click("link", shopOtherSent(id)), generate.Read()}, FailsOn: 1},
			{Name: "left-in-cart", Reference: slices.Concat([]suite.Step{generate.Click("link", "Your orders"), generate.Read(), generate.Click("link", id)},
				shopLeftInCart(shopInStock(), shop.Order.URL(id))), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "other-query", Reference: []suite.Step{generate.Click("link", "Your orders"), generate.Read(), generate.Navigate(shop.Order.URL(id) + "?from=list"), generate.Read()}},
			{Name: "back-and-forth", Reference: []suite.Step{generate.Click("link", "Your orders"), generate.Click("link", id), generate.Click("link", "All your orders"),
				generate.Read(), generate.Click("link", id), generate.Read()}},
		},
		Rationale: fmt.Sprintf("The %s is in order %s, which is %s: orders can be cancelled only while processing, and its page "+
			"offers no cancel form. Nothing may be written, and the agent must have met the reason for this very order: its page (whatever "+
			"its query or fragment), or the shop's refusal (409) of its cancellation. The order list shows every order's status and is "+
			"reached by chance, so it is not that evidence.", k.line.Name, id, strings.ToLower(k.order.Status)),
	}
}

// Impossible: order an item that is sold out.

// shopSoldOutCase is a sold-out item and its near twin in stock: the same
// material in the same department, or the same kind of item.
type shopSoldOutCase struct{ item, twin sandbox.Product }

func shopSoldOutCases() []shopSoldOutCase {
	var out []shopSoldOutCase
	for _, p := range shopCatalogue {
		if p.Stock > 0 {
			continue
		}
		material, noun, _ := strings.Cut(p.Name, " ")
		twins := shopFilter(func(q sandbox.Product) bool {
			m, n, _ := strings.Cut(q.Name, " ")
			return q.Stock > 0 && q.SKU != p.SKU && ((m == material && q.Category == p.Category) || n == noun)
		})
		if len(twins) == 0 {
			continue
		}
		out = append(out, shopSoldOutCase{p, twins[0]})
	}
	return out
}

func drawShopSoldOut(r *rand.Rand) generate.Instance {
	k := shopPick(r, shopSoldOutCases())
	qty := 1 + r.IntN(3)
	asks := []string{
		"On Larkspur Market, order %d of the %s by %s, delivered to my saved address.",
		"Please buy me %d × %s (the %s one) from Larkspur Market and check out.",
	}
	search := func(p sandbox.Product) suite.Step {
		return generate.Type("Search the shop", strings.ToLower(p.Name), true)
	}
	return generate.Instance{
		Params:      map[string]string{"sku": k.item.SKU, "qty": strconv.Itoa(qty)},
		Instruction: fmt.Sprintf(shopPick(r, asks), qty, k.item.Name, k.item.Brand),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(sandbox.ShopHost),
			generate.Or(
				&contract.And{Children: []contract.Clause{
					generate.URLIs(at(shop.Product, k.item.SKU)),
					generate.Text(".product .soldout", "cannot be ordered"),
				}},
				refusedWith(shop.CartAdd, 409, map[string]string{"sku": k.item.SKU}),
			),
		},
		Reference: []suite.Step{search(k.item), generate.ClickLink(k.item.Name, shop.Product.Href(k.item.SKU)), generate.Read()},
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{search(k.item), generate.Read()}, FailsOn: 1},
			{Name: "did-something-else", Reference: slices.Concat([]suite.Step{search(k.twin)}, shopOrderSteps(k.twin, qty)), FailsOn: 0},
			{Name: "twin-page", Reference: []suite.Step{search(k.twin), generate.ClickLink(k.twin.Name, shop.Product.Href(k.twin.SKU)), generate.Read()}, FailsOn: 1},
			{Name: "twin-in-cart", Reference: slices.Concat([]suite.Step{search(k.twin), generate.ClickLink(k.twin.Name, shop.Product.Href(k.twin.SKU))},
				shopLeftInCart(k.twin, shop.Product.URL(k.item.SKU))), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "via-department", Reference: []suite.Step{generate.ClickLink(k.item.Category, shop.Search.Href()+"?"+shop.Search.Field("category")+"="+shopCategory(k.item.Category).Slug),
				generate.ClickLink(k.item.Name, shop.Product.Href(k.item.SKU)), generate.Read()}},
			{Name: "fragment", Reference: []suite.Step{search(k.item), generate.ClickLink(k.item.Name, shop.Product.Href(k.item.SKU)), generate.Navigate(shop.Product.URL(k.item.SKU) + "#availability"), generate.Read()}},
		},
		Rationale: fmt.Sprintf("%s (%s) is sold out and its page offers no Add to cart; %s (%s) is the near twin in stock that "+
			"an agent must not buy instead. Nothing may be written, and the agent must have met the reason for this very item: its page, "+
			"which says so (whatever its query or fragment), or the shop's refusal (409) to add it to the cart.",
			k.item.Name, k.item.SKU, k.twin.Name, k.twin.SKU),
	}
}

// Impossible: a gift card of an amount the shop does not sell.

var shopUnsoldGiftAmounts = []int{5, 15, 20, 30, 40, 75, 150, 200}

func drawShopGiftAmount(r *rand.Rand) generate.Instance {
	euros := shopPick(r, shopUnsoldGiftAmounts)
	to := shopPick(r, shopRecipients)
	addr, _ := sandbox.ShopAccount()
	card := shopApprovedCards()[0]
	asks := []string{
		"Send %s a €%d Larkspur Market gift card at %s; pay with my card %s, expiry %s, CVC 123.",
		"Buy a Larkspur Market gift card worth exactly €%[2]d for %[1]s (%[3]s) and pay for it with my card %[4]s, expiry %[5]s, CVC 123.",
	}
	nearest := sandbox.GiftCardAmounts()[0]
	for _, a := range sandbox.GiftCardAmounts() {
		if shopAbs(a-euros) < shopAbs(nearest-euros) {
			nearest = a
		}
	}
	other := shopUnsoldGiftAmounts[(slices.Index(shopUnsoldGiftAmounts, euros)+1)%len(shopUnsoldGiftAmounts)]
	// ask fills in the gift-card form with amount and continues to payment.
	ask := func(amount string) []suite.Step {
		return []suite.Step{
			generate.ClickLink("Gift cards", shop.GiftCards.Href()),
			generate.Type("Amount in euros", amount, false),
			generate.Type("Recipient's name", to.name, false),
			generate.Type("Recipient's e-mail", to.email, false),
			generate.Click("button", "Continue to payment"),
			generate.Read(),
		}
	}
	ref := ask(strconv.Itoa(euros))
	return generate.Instance{
		Params:      map[string]string{"amount": strconv.Itoa(euros), "to_name": to.name},
		Instruction: fmt.Sprintf(shopPick(r, asks), to.name, euros, to.email, card.Number, card.Expiry),
		StartURL:    shop.Home.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(sandbox.ShopHost),
			generate.NoWrite(sandbox.PayHost),
			shopGiftRefused(euros),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Read()}, FailsOn: 2},
			{Name: "did-something-else", Reference: shopGiftSteps(shopGiftBuy{euros: nearest, to: to, message: "Enjoy", card: card,
				expiry: card.Expiry, cvc: "123", who: addr.Name}, true), FailsOn: 0},
			{Name: "gift-page-only", Reference: []suite.Step{generate.ClickLink("Gift cards", shop.GiftCards.Href()), generate.Read()}, FailsOn: 2},
			{Name: "other-amount-refused", Reference: ask(strconv.Itoa(other)), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "amount-only", Reference: []suite.Step{generate.ClickLink("Gift cards", shop.GiftCards.Href()), generate.Type("Amount in euros", strconv.Itoa(euros), false),
				generate.Click("button", "Continue to payment"), generate.Read()}},
			{Name: "euro-sign", Reference: ask(fmt.Sprintf(" €%d ", euros))},
			{Name: "refused-then-back", Reference: append(slices.Clone(ref), generate.Click("link", "Back to gift cards"), generate.Read())},
		},
		Rationale: fmt.Sprintf("The shop sells gift cards of %v euros only; €%d is not one of them. Nothing may be written on the shop "+
			"or the payment host, and the agent must have asked for this very amount and met the shop's refusal of it (422, which "+
			"names the amounts sold), wherever the browser ends. The gift-card page says which amounts are sold to every visitor, "+
			"and is reached by chance, so it is not that evidence.", sandbox.GiftCardAmounts(), euros),
	}
}

// shopGiftRefused holds when the shop refused (422) the payment page of
// a gift card of euros, as the amount field sends it: with spaces, a euro
// sign or cents the shop reads away.
func shopGiftRefused(euros int) *contract.Network {
	pad := `(?:\+|%20)*`
	amount := `amount=` + pad + `(?:%E2%82%AC)?` + pad + strconv.Itoa(euros) + `(?:(?:\.|%2C)00)?` + pad + `(?:&|#|$)`
	return &contract.Network{URLPattern: "^" + regexp.QuoteMeta(shop.GiftPay.URL()+"?") + "(?:[^#]*&)?" + amount,
		Method: "GET", StatusIn: []int{422}}
}

func shopAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// shopOtherStreet and shopOtherName are values no instance asks for: a
// delivery address or a name changed where the task did not ask.
const (
	shopOtherStreet = "1 Elsewhere Lane"
	shopOtherName   = "Pat Elsewhere"
)

// shopInStock is an item in stock, to put in the cart where no task asks.
func shopInStock() sandbox.Product {
	return shopFilter(func(p sandbox.Product) bool { return p.Stock > 0 })[0]
}

// shopLeftInCart adds p to the cart from its page and goes to the page at
// end: a write nobody asked for, left in the cart.
func shopLeftInCart(p sandbox.Product, end string) []suite.Step {
	return []suite.Step{
		generate.Navigate(shop.Product.URL(p.SKU)),
		generate.Click("button", "Add to cart"),
		generate.Navigate(end),
		generate.Read(),
	}
}

// shopOtherLetter is an e-mail choice other than the account's.
func shopOtherLetter() [2]string {
	_, current := sandbox.ShopAccount()
	for _, n := range sandbox.ShopNewsletters() {
		if n[0] != current {
			return n
		}
	}
	panic("generate: one e-mail choice only")
}

// shopEmailsChanged changes the account's e-mail choice and goes back to
// the home page: a write nobody asked for.
func shopEmailsChanged() []suite.Step {
	return []suite.Step{generate.Click("link", "Your account"), generate.Click("button", shopOtherLetter()[1]), generate.Click("link", "Larkspur Market")}
}

// shopOtherSent is a shipped or delivered order other than id.
func shopOtherSent(id string) string {
	for _, o := range sandbox.ShopOrders() {
		if o.ID != id && !slices.Contains([]string{"Processing", "Cancelled"}, o.Status) {
			return o.ID
		}
	}
	panic("generate: one sent order only")
}
