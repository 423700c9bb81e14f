package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// A Product is one item of the shop's catalogue.
type Product struct {
	SKU      string
	Name     string
	Category string
	Brand    string
	// Cents is the price in euro cents.
	Cents int
	// Rating is the average review in tenths of a star (45 = 4.5).
	Rating  int
	Reviews int
	Stock   int
	Blurb   string
}

// Price formats the price as the shop shows it.
func (p Product) Price() string { return euros(p.Cents) }

// Stars formats the rating as the shop shows it: "4.5".
func (p Product) Stars() string { return fmt.Sprintf("%d.%d", p.Rating/10, p.Rating%10) }

func euros(cents int) string { return fmt.Sprintf("€%d.%02d", cents/100, cents%100) }

type category struct {
	Slug, Name, prefix string
	nouns              []string
	lo, hi             int // price range in euros
}

var shopCategories = []category{
	{"kitchen", "Kitchen", "KT", []string{"Mug", "Teapot", "Chopping Board", "Salad Bowl", "Cafetière", "Spice Rack", "Butter Dish", "Tea Towel"}, 6, 64},
	{"lighting", "Lighting", "LT", []string{"Desk Lamp", "Floor Lamp", "Pendant Shade", "Lantern", "Reading Light", "Wall Sconce", "Night Light", "String Lights"}, 14, 180},
	{"garden", "Garden", "GD", []string{"Trowel", "Watering Can", "Planter", "Pruning Shears", "Kneeling Pad", "Seed Tray", "Bird Feeder", "Hose Reel"}, 5, 90},
	{"office", "Office", "OF", []string{"Notebook", "Desk Organiser", "Pen Set", "Monitor Stand", "Letter Tray", "Desk Mat", "Bookends", "Wall Planner"}, 4, 120},
	{"bath", "Bath", "BT", []string{"Bath Towel", "Soap Dish", "Bath Mat", "Toothbrush Cup", "Shower Caddy", "Hand Towel", "Laundry Basket", "Mirror"}, 4, 85},
	{"outdoor", "Outdoor", "OD", []string{"Picnic Blanket", "Camping Mug", "Folding Stool", "Cool Bag", "Hammock", "Head Torch", "Flask", "Windbreak"}, 8, 140},
}

var shopMaterials = []string{"Enamel", "Oak", "Linen", "Stoneware", "Brass", "Recycled", "Walnut", "Copper", "Bamboo", "Ash", "Cotton", "Slate", "Wool", "Glass", "Steel", "Cork"}

var shopBrands = []string{"Fernhollow", "Northbank", "Lumen & Co", "Tidewater", "Marlow", "Greyfield", "Kestrel", "Upland"}

var shopBlurbs = []string{
	"Made in small batches and finished by hand.",
	"A sturdy everyday piece that shrugs off heavy use.",
	"Designed to be repaired rather than replaced.",
	"Packed plastic-free in recycled card.",
	"A quiet design that sits well in any room.",
	"Tested by our team for a full season before it went on sale.",
}

// catalogue generates the shop's products: 24 per category, in SKU order.
// Names are unique.
func catalogue() []Product {
	g := &gen{s: 0x5a0d_b0c5}
	var out []Product
	used := map[string]bool{}
	for _, c := range shopCategories {
		for i := range 24 {
			var name string
			for {
				name = pick(g, shopMaterials) + " " + pick(g, c.nouns)
				if !used[name] {
					break
				}
				name = ""
				if g.intn(3) == 0 { // a second colourway keeps names unique
					break
				}
			}
			if name == "" {
				continue
			}
			used[name] = true
			stock := g.between(0, 40)
			if stock < 6 {
				stock = 0 // about one in seven is sold out
			}
			out = append(out, Product{
				SKU:      fmt.Sprintf("%s-%04d", c.prefix, 100+i*17+g.intn(17)),
				Name:     name,
				Category: c.Name,
				Brand:    pick(g, shopBrands),
				Cents:    g.between(c.lo, c.hi)*100 + pick(g, []int{0, 50, 95, 99}),
				Rating:   g.between(30, 50),
				Reviews:  g.between(0, 480),
				Stock:    stock,
				Blurb:    pick(g, shopBlurbs),
			})
		}
	}
	slices.SortFunc(out, func(a, b Product) int { return strings.Compare(a.SKU, b.SKU) })
	return out
}

// The read-only views of the shop's starting state that task templates
// draw from (internal/generate). Each returns a fresh copy.

// ShopProducts returns the catalogue every task starts with, in SKU
// order.
func ShopProducts() []Product { return catalogue() }

// A ShopCategory is a department of the shop: its URL slug and its name.
type ShopCategory struct{ Slug, Name string }

// ShopCategories returns the departments in the order the shop lists
// them.
func ShopCategories() []ShopCategory {
	out := make([]ShopCategory, len(shopCategories))
	for i, c := range shopCategories {
		out[i] = ShopCategory{c.Slug, c.Name}
	}
	return out
}

// A ShopOrder is an order of the history every task starts with.
type ShopOrder struct {
	ID, Placed, Status string
	// Total is formatted as the shop shows it.
	Total string
	Lines []ShopOrderLine
}

// A ShopOrderLine is one item of an order.
type ShopOrderLine struct {
	SKU, Name string
	Qty       int
}

// ShopOrders returns the order history every task starts with, newest
// first.
func ShopOrders() []ShopOrder {
	s := &shop{products: catalogue()}
	s.seedOrders()
	var out []ShopOrder
	for _, o := range s.orders {
		so := ShopOrder{ID: o.ID, Placed: o.Placed, Status: o.Status, Total: o.Total()}
		for _, l := range o.Lines {
			so.Lines = append(so.Lines, ShopOrderLine{SKU: l.P.SKU, Name: l.P.Name, Qty: l.Qty})
		}
		out = append(out, so)
	}
	return out
}

// ShopNextOrder is the id the first order placed in a task gets.
const ShopNextOrder = "SH-1001"

// A ShopAddress is the account's delivery address.
type ShopAddress struct{ Name, Street, City, Postcode string }

// ShopAccount returns the account's delivery address and e-mail choice
// (weekly, monthly or none) as every task starts with them.
func ShopAccount() (ShopAddress, string) {
	return ShopAddress{"Robin Ashdown", "14 Quay Lane", "Bristol", "BS1 4QA"}, "weekly"
}

// ShopNewsletters returns the e-mail choices of the account page as
// value and button label, in the order shown.
func ShopNewsletters() [][2]string {
	var out [][2]string
	for _, n := range newsletters {
		out = append(out, [2]string{n.Value, n.Label})
	}
	return out
}

// GiftCardAmounts returns the gift-card values the shop sells, in euros.
func GiftCardAmounts() []int { return append([]int(nil), giftAmounts...) }
