package templates

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// shopDraws draws n instances of tpl from fixed seeds.
func shopDraws(tpl generate.Template, n int) []generate.Instance {
	var out []generate.Instance
	for k := range n {
		out = append(out, tpl.Draw(rand.New(rand.NewPCG(7, uint64(k)))))
	}
	return out
}

func TestShopTemplatesCoverTheKinds(t *testing.T) {
	if len(shopTemplates) < 8 {
		t.Errorf("%d shop templates, want at least 8", len(shopTemplates))
	}
	kinds := map[generate.Kind]int{}
	var lengths []int
	for _, tpl := range shopTemplates {
		kinds[tpl.Kind]++
		if tpl.App != "shop" || !strings.HasPrefix(tpl.ID, "shop-") {
			t.Errorf("%s: app %q", tpl.ID, tpl.App)
		}
		lengths = append(lengths, len(tpl.Draw(rand.New(rand.NewPCG(1, 1))).Reference))
	}
	for _, k := range generate.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no shop template of kind %s", k)
		}
	}
	slices.Sort(lengths)
	if m := lengths[len(lengths)/2]; m < 6 {
		t.Errorf("median reference of the shop templates is %d steps (%v), want at least 6", m, lengths)
	}
}

func TestShopInstancesAreWellFormed(t *testing.T) {
	for _, tpl := range shopTemplates {
		t.Run(tpl.ID, func(t *testing.T) {
			distinct := map[string]bool{}
			for i, in := range shopDraws(tpl, 200) {
				distinct[fmt.Sprint(in.Params)] = true
				if again := tpl.Draw(rand.New(rand.NewPCG(7, uint64(i)))); !reflect.DeepEqual(again, in) {
					t.Fatalf("draw %d is not a function of its generator", i)
				}
				keys := slices.Sorted(func(yield func(string) bool) {
					for k := range in.Params {
						if !yield(k) {
							return
						}
					}
				})
				if !slices.Equal(keys, slices.Sorted(slices.Values(tpl.Params))) {
					t.Fatalf("parameters %v, the template names %v", keys, tpl.Params)
				}
				task := &suite.Task{ID: fmt.Sprintf("%s-%02d", tpl.ID, i+1), Instruction: in.Instruction, StartURL: in.StartURL,
					Timeout: 3 * time.Minute, Postconditions: in.Contract, Reference: in.Reference, Rationale: in.Rationale}
				data, err := generate.TaskYAML(task)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := suite.ParseTask(task.ID+".yaml", data); err != nil {
					t.Fatalf("instance %d is not a valid task: %v\n%s", i, err, data)
				}
				min := 1
				if changes(tpl.Kind) {
					min = 2
				}
				if len(in.Controls) < min {
					t.Errorf("%d controls, want at least %d", len(in.Controls), min)
				}
				for _, c := range in.Controls {
					if c.FailsOn < 0 || c.FailsOn >= len(in.Contract) || len(c.Reference) == 0 || reflect.DeepEqual(c.Reference, in.Reference) {
						t.Errorf("control %s: clause %d of %d, or the reference itself", c.Name, c.FailsOn, len(in.Contract))
					}
				}
				if !changes(tpl.Kind) {
					for _, s := range answers(in.Contract) {
						if strings.Contains(strings.ToLower(in.Instruction), strings.ToLower(s)) {
							t.Errorf("instruction %q gives away %q", in.Instruction, s)
						}
					}
				}
				if tpl.Kind == generate.KindImpossible && !provesAttempt(in.Contract) {
					t.Errorf("impossible instance does not forbid writes and require the page that says why")
				}
				if n, ok := in.Contract[0].(*contract.Network); changes(tpl.Kind) && (!ok || n.Method != "POST") {
					t.Errorf("a change's first clause is %T, want its write", in.Contract[0])
				}
			}
			if len(distinct) < 8 {
				t.Errorf("%d distinct instances in 200 draws, want at least 8", len(distinct))
			}
			t.Logf("%d distinct instances in 200 draws", len(distinct))
		})
	}
}

// The facts a template's contract names must be the catalogue's, found
// here again by another route.
func TestShopAnswersAreTheData(t *testing.T) {
	bySKU := map[string]sandbox.Product{}
	for _, p := range sandbox.ShopProducts() {
		bySKU[p.SKU] = p
	}
	for _, tpl := range shopTemplates {
		for _, in := range shopDraws(tpl, 60) {
			switch tpl.ID {
			case "shop-find-rated-by-price":
				sku := in.Contract[1].(*contract.DOMText).Contains
				min, _ := strconv.Atoi(strings.ReplaceAll(in.Params["min_rating"], ".", ""))
				got := bySKU[sku]
				if got.Category != in.Params["category"] || got.Stock == 0 || got.Rating < min {
					t.Errorf("%s: %+v does not meet %v", tpl.ID, got, in.Params)
				}
				for _, p := range bySKU {
					beats := p.Cents <= got.Cents
					if in.Params["end"] == "dearest" {
						beats = p.Cents >= got.Cents
					}
					if p.Category == got.Category && p.Stock > 0 && p.Rating >= min && beats && p.SKU != sku {
						t.Errorf("%s: %s beats %s (%v)", tpl.ID, p.SKU, sku, in.Params)
					}
				}
			case "shop-buy-cheapest-of-brand":
				line := in.Contract[0].(*contract.Network).Form["line"]
				sku, qty, _ := strings.Cut(line, "x")
				got := bySKU[sku]
				if got.Brand != in.Params["brand"] || got.Category != in.Params["category"] || got.Stock == 0 || qty != in.Params["qty"] {
					t.Errorf("%s: %s does not meet %v", tpl.ID, line, in.Params)
				}
				for _, p := range bySKU {
					if p.Brand == got.Brand && p.Category == got.Category && p.Stock > 0 && p.Cents <= got.Cents && p.SKU != sku {
						t.Errorf("%s: %s is as cheap as %s", tpl.ID, p.SKU, sku)
					}
				}
			case "shop-impossible-sold-out":
				if bySKU[in.Params["sku"]].Stock != 0 {
					t.Errorf("%s: %s is in stock", tpl.ID, in.Params["sku"])
				}
			case "shop-impossible-cancel-sent", "shop-cancel-processing-order":
				id := shopCancelled(in.Contract)
				var found []sandbox.ShopOrder
				for _, o := range sandbox.ShopOrders() {
					for _, l := range o.Lines {
						if l.Name == in.Params["product"] {
							found = append(found, o)
						}
					}
				}
				if len(found) != 1 || found[0].ID != id || (found[0].Status == "Processing") == (tpl.Kind == generate.KindImpossible) {
					t.Errorf("%s: %s is in %v, the contract names %s", tpl.ID, in.Params["product"], found, id)
				}
			case "shop-impossible-gift-amount":
				n, _ := strconv.Atoi(in.Params["amount"])
				if slices.Contains(sandbox.GiftCardAmounts(), n) {
					t.Errorf("%s: the shop sells €%d cards", tpl.ID, n)
				}
			}
		}
	}
}

// shopCancelled is the order whose cancellation c names, in a clause of
// its own or one of an or.
func shopCancelled(c contract.Postconditions) string {
	for _, c := range c {
		cs := []contract.Clause{c}
		if or, ok := c.(*contract.Or); ok {
			cs = or.Children
		}
		for _, c := range cs {
			if n, ok := c.(*contract.Network); ok {
				if id := regexp.MustCompile(`SH-[0-9]{4}`).FindString(n.URLPattern); id != "" && strings.HasSuffix(n.URLPattern, "/cancel$") {
					return id
				}
			}
		}
	}
	return ""
}

func TestShopOutcomes(t *testing.T) {
	for _, tpl := range shopTemplates {
		for _, in := range shopDraws(tpl, 20) {
			if len(in.Alternates) < 2 || len(in.Controls) < 2 {
				t.Errorf("%s: %d alternates and %d controls, want two of each at least", tpl.ID, len(in.Alternates), len(in.Controls))
			}
			for _, c := range in.Contract {
				if u, ok := c.(*contract.URL); ok && tpl.Kind != generate.KindFind && tpl.Kind != generate.KindNavigate {
					t.Errorf("%s: a URL clause %s outside an or, though the instruction asks to end on no page", tpl.ID, u.Pattern)
				}
			}
		}
	}
}

// The writes beyond the cart count every accepted post but the cart's own,
// a route the shop may add later included.
func TestShopWritesBeyondCart(t *testing.T) {
	re := regexp.MustCompile(shopWritesBeyondCart(1).URLPattern)
	for u, want := range map[string]bool{
		shopURL("/checkout"): true, shopURL("/account"): true, shopURL("/orders/SH-0999/cancel"): true,
		shopURL("/gift-cards/order"): true, shopURL("/"): true, shopURL("/wishlist/add"): true,
		shopURL("/car"): true, shopURL("/carts/add"): true, shopURL("/cartography"): true,
		shopURL("/cart/add"): false, shopURL("/cart/remove"): false, shopURL("/cart"): false, shopURL("/cart?x=1"): false,
		"https://pay.sandbox.test/charge": false,
	} {
		if re.MatchString(u) != want {
			t.Errorf("%s counted is %v, want %v", u, !want, want)
		}
	}
}

// The refusal of a gift card is read for the asked amount however the
// field sent it, and for no other.
func TestShopGiftRefused(t *testing.T) {
	re := regexp.MustCompile(shopGiftRefused(15).URLPattern)
	for q, want := range map[string]bool{
		"amount=15&to_name=Ines": true, "to_name=Ines&amount=15": true, "amount=+%E2%82%AC15+": true, "amount=15.00": true,
		"amount=15#top": true, "amount=150": false, "amount=115": false, "amount=25": false, "x_amount=15": false, "amount=apple": false,
	} {
		if re.MatchString(shopURL("/gift-cards/pay?"+q)) != want {
			t.Errorf("%s matched is %v, want %v", q, !want, want)
		}
	}
}

// shopURL is the shop's URL of path, written out: what a browser shows.
func shopURL(path string) string { return "https://shop.sandbox.test" + path }
