package templates

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// staysTemplates are the templates over the stays application.
var staysTemplates = []generate.Template{
	{
		ID: "stays-find-cheapest-for-group", App: "stays", Kind: generate.KindFind,
		Params:  []string{"city", "guests"},
		Summary: "find the cheapest stay in a city that sleeps a group, through the guest filter, and open its page",
		Draw:    drawStaysFindCheapest,
	},
	{
		ID: "stays-find-checkout-date", App: "stays", Kind: generate.KindFind,
		Params:  []string{"booking"},
		Summary: "find the check-out date of one of the guest's bookings, named by stay and arrival",
		Draw:    drawStaysFindCheckout,
	},
	{
		ID: "stays-navigate-first-free-weekday", App: "stays", Kind: generate.KindNavigate,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"stay", "weekday"},
		Summary: "open a stay's booking form for the first free night of March on a given weekday, without booking",
		Draw:    drawStaysNavigateWeekday,
	},
	{
		ID: "stays-book-dates", App: "stays", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"stay", "date", "nights", "guests"},
		Summary: "book a named stay for given nights and guests, picking the arrival on the availability calendar",
		Draw:    drawStaysBook,
	},
	{
		ID: "stays-cancel-booking", App: "stays", Kind: generate.KindChangeOne,
		Params:  []string{"booking", "reason"},
		Summary: "cancel one booking, named by stay and arrival, with a given reason",
		Draw:    drawStaysCancel,
	},
	{
		ID: "stays-move-booking", App: "stays", Kind: generate.KindChangeSeveral,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"booking", "date"},
		Summary: "move a booking: cancel it, then book the same stay, nights and guests on another date",
		Draw:    drawStaysMove,
	},
	{
		ID: "stays-book-cheapest-free", App: "stays", Kind: generate.KindMultiStep,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"city", "guests", "date", "nights"},
		Summary: "book the cheapest stay in a city that sleeps the group and is free on the nights asked; the cheapest one is taken",
		Draw:    drawStaysCheapestFree,
	},
	{
		ID: "stays-impossible-taken-night", App: "stays", Kind: generate.KindImpossible,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"stay", "date", "nights"},
		Summary: "book nights of which one is taken; the arrival night is free, a later one is not",
		Draw:    drawStaysTaken,
	},
	{
		ID: "stays-impossible-cancel", App: "stays", Kind: generate.KindImpossible,
		Params:  []string{"booking", "reason"},
		Summary: "cancel a booking that is already cancelled or whose free cancellation has ended",
		Draw:    drawStaysCannotCancel,
	},
	{
		ID: "stays-impossible-too-many-guests", App: "stays", Kind: generate.KindImpossible,
		Params:  []string{"city", "guests", "date"},
		Summary: "book a stay in a city for more guests than its largest stay sleeps",
		Draw:    drawStaysTooMany,
	},
}

const staysHost = "stays.sandbox.test"

// staysData is the stays site's seeded data, as a fresh site holds it.
var staysData = sandbox.StaysData()

var (
	staysBookPost   = "^" + regexp.QuoteMeta("https://"+staysHost+"/bookings") + "$"
	staysCancelPost = "^" + regexp.QuoteMeta("https://"+staysHost+"/bookings/") + "[^/]+/cancel$"
)

func staysURL(path string) string { return "https://" + staysHost + path }

func staysStay(id string) *sandbox.Stay {
	for i := range staysData.Stays {
		if staysData.Stays[i].ID == id {
			return &staysData.Stays[i]
		}
	}
	panic("generate: no stay " + id)
}

// staysCity returns the stays of city in the order its page lists them:
// cheapest first, ties in site order.
func staysCity(city string, guests int) []*sandbox.Stay {
	var out []*sandbox.Stay
	for i := range staysData.Stays {
		if st := &staysData.Stays[i]; st.City == city && st.MaxGuests >= guests {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b *sandbox.Stay) int { return a.Cents - b.Cents })
	return out
}

func staysCities() []string {
	var out []string
	for _, st := range staysData.Stays {
		if !slices.Contains(out, st.City) {
			out = append(out, st.City)
		}
	}
	return out
}

func staysLargest(city string) int {
	n := 0
	for _, st := range staysCity(city, 0) {
		n = max(n, st.MaxGuests)
	}
	return n
}

func staysDate(day int) string { return fmt.Sprintf("2026-03-%02d", day) }

func staysDay(date string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(date, "2026-03-"))
	return n
}

func staysTime(day int) time.Time { return time.Date(2026, time.March, day, 0, 0, 0, 0, time.UTC) }

// staysWeekday is the calendar's weekday, Mon..Sun.
func staysWeekday(day int) string { return staysTime(day).Weekday().String()[:3] }

// staysWords is a date as a user says it: Wednesday 4 March.
func staysWords(day int) string { return fmt.Sprintf("%s %d March", staysTime(day).Weekday(), day) }

// staysArrive is the calendar's link for arriving on day.
func staysArrive(day int) string { return fmt.Sprintf("Arrive %s %d March", staysWeekday(day), day) }

// staysFree reports whether st is free on nights day .. day+nights-1.
func staysFree(st *sandbox.Stay, day, nights int) bool {
	if day < 1 || day+nights-1 > 31 {
		return false
	}
	for d := day; d < day+nights; d++ {
		if !st.Free[d] {
			return false
		}
	}
	return true
}

func staysSlug(city string) string {
	for _, st := range staysData.Stays {
		if st.City == city {
			return st.CitySlug
		}
	}
	panic("generate: no city " + city)
}

func staysCount(n int, one, many string) string {
	if n == 1 {
		return "one " + one
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	if n < len(words) {
		return words[n] + " " + many
	}
	return strconv.Itoa(n) + " " + many
}

// staysBooking returns the booking with id.
func staysBooking(id string) sandbox.StayBooking {
	for _, b := range staysData.Bookings {
		if b.ID == id {
			return b
		}
	}
	panic("generate: no booking " + id)
}

// staysUnambiguous lists the bookings that pass keep and that no other
// booking shares the stay and arrival of, so naming the stay and the
// arrival names one booking.
func staysUnambiguous(keep func(sandbox.StayBooking) bool) []sandbox.StayBooking {
	var out []sandbox.StayBooking
	for _, b := range staysData.Bookings {
		twin := false
		for _, o := range staysData.Bookings {
			twin = twin || (o.ID != b.ID && o.StayID == b.StayID && o.Date == b.Date)
		}
		if !twin && keep(b) {
			out = append(out, b)
		}
	}
	return out
}

// staysBookingWords names a booking as the user does: by stay, city and
// arrival.
func staysBookingWords(b sandbox.StayBooking) string {
	st := staysStay(b.StayID)
	return fmt.Sprintf("%s in %s, arriving %s", st.Name, st.City, staysWords(staysDay(b.Date)))
}

// staysBookSteps books st from its city's page: the calendar, then the
// form.
func staysBookSteps(st *sandbox.Stay, day, nights, guests int) []suite.Step {
	return []suite.Step{
		generate.Click("link", st.City),
		generate.Click("link", st.Name),
		generate.Read(),
		generate.Click("link", staysArrive(day)),
		generate.Type("Nights", strconv.Itoa(nights), false),
		generate.Type("Guests", strconv.Itoa(guests), false),
		generate.Click("button", "Confirm booking"),
	}
}

func staysBookForm(st *sandbox.Stay, day, nights, guests int) map[string]string {
	return map[string]string{"stay": st.ID, "date": staysDate(day), "nights": strconv.Itoa(nights), "guests": strconv.Itoa(guests)}
}

// staysCancelSteps cancels booking id from the bookings page.
func staysCancelSteps(id, reason string) []suite.Step {
	return []suite.Step{
		generate.Click("link", "Your bookings"),
		generate.Read(),
		generate.Click("link", id),
		generate.Read(),
		generate.Type("Reason for cancelling", reason, false),
		generate.Click("button", "Cancel booking "+id),
	}
}

// staysCancellable lists the bookings that can be cancelled today.
func staysCancellable() []sandbox.StayBooking {
	return staysUnambiguous(func(b sandbox.StayBooking) bool { return b.Cancellable })
}

// staysOtherCancel cancels a cancellable booking other than id, and
// returns to the home page: the write a side-effect control adds before
// the right steps.
func staysOtherCancel(r *rand.Rand, id string) []suite.Step {
	var others []sandbox.StayBooking
	for _, b := range staysCancellable() {
		if b.ID != id {
			others = append(others, b)
		}
	}
	o := pick(r, others)
	return []suite.Step{
		generate.Navigate(staysURL("/bookings")),
		generate.Click("link", o.ID),
		generate.Type("Reason for cancelling", "Not needed", false),
		generate.Click("button", "Cancel booking "+o.ID),
		generate.Navigate(staysStart),
	}
}

var staysStart = staysURL("/")

func drawStaysFindCheapest(r *rand.Rand) generate.Instance {
	cities := staysCities()
	for {
		city := pick(r, cities)
		largest := staysLargest(city)
		if largest < 2 {
			continue
		}
		guests := 2 + r.IntN(largest-1)
		list := staysCity(city, guests)
		if len(list) > 1 && list[0].Cents == list[1].Cents {
			continue
		}
		best := list[0]
		// The near miss opens the cheapest stay of the city, whatever it
		// sleeps, or else the second cheapest of those that fit.
		miss := staysCity(city, 0)[0]
		if miss == best {
			if len(list) > 1 {
				miss = list[1]
			} else {
				miss = staysCity(city, 0)[1]
			}
		}
		people := staysCount(guests, "person", "people")
		return generate.Instance{
			Params: map[string]string{"city": city, "guests": strconv.Itoa(guests)},
			Instruction: fmt.Sprintf("On Driftwood Stays, find the cheapest stay in %s that sleeps at least %s, and open its page so I can see the nightly price.",
				city, people),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.URLIs(generate.Exact(staysURL("/stay/" + best.ID))),
				generate.Text(".facts .price", best.Price()+" a night"),
				generate.NoWrite(staysHost),
			},
			Reference: []suite.Step{
				generate.Click("link", city),
				generate.Read(),
				generate.Type("Number of guests", strconv.Itoa(guests), true),
				generate.Read(),
				generate.Click("link", best.Name),
				generate.Read(),
			},
			Controls: []generate.Control{{
				Name:      "wrong-item",
				Reference: []suite.Step{generate.Click("link", city), generate.Read(), generate.Click("link", miss.Name), generate.Read()},
				FailsOn:   0,
			}},
			Rationale: fmt.Sprintf("%s (%s, %s) is the cheapest of the %d stays in %s that sleep %d or more; the URL pins the stay and the price is read where the stay's page shows it.",
				best.Name, best.ID, best.Price(), len(list), city, guests),
		}
	}
}

func drawStaysFindCheckout(r *rand.Rand) generate.Instance {
	list := staysUnambiguous(func(b sandbox.StayBooking) bool { return b.Status == "Confirmed" })
	b := pick(r, list)
	other := list[(slices.Index(list, b)+1+r.IntN(len(list)-1))%len(list)]
	leave := staysDate(staysDay(b.Date) + b.Nights)
	return generate.Instance{
		Params: map[string]string{"booking": b.ID},
		Instruction: fmt.Sprintf("On Driftwood Stays, when do I check out of my stay at %s? Open that booking.",
			staysBookingWords(b)),
		StartURL: staysStart,
		Contract: contract.Postconditions{
			generate.URLIs(generate.Exact(staysURL("/bookings/" + b.ID))),
			generate.Text(".leave", leave),
			generate.NoWrite(staysHost),
		},
		Reference: []suite.Step{
			generate.Click("link", "Your bookings"),
			generate.Read(),
			generate.Click("link", b.ID),
			generate.Read(),
		},
		Controls: []generate.Control{{
			Name:      "wrong-item",
			Reference: []suite.Step{generate.Click("link", "Your bookings"), generate.Read(), generate.Click("link", other.ID), generate.Read()},
			FailsOn:   0,
		}},
		Rationale: fmt.Sprintf("The booking at that stay and arrival is %s, for %d nights; its page shows the check-out date %s.", b.ID, b.Nights, leave),
	}
}

var staysWeekdays = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

func drawStaysNavigateWeekday(r *rand.Rand) generate.Instance {
	for {
		st := &staysData.Stays[r.IntN(len(staysData.Stays))]
		wd := pick(r, staysWeekdays)
		first, skipped := 0, false
		for d := 1; d <= 31 && first == 0; d++ {
			if staysTime(d).Weekday() != wd {
				continue
			}
			if st.Free[d] {
				first = d
			} else {
				skipped = true
			}
		}
		// Only stays taken on the weekday's first date in March, so the
		// calendar must be read.
		if first == 0 || !skipped {
			continue
		}
		miss := 0
		for d := first + 7; d <= 31 && miss == 0; d += 7 {
			if st.Free[d] {
				miss = d
			}
		}
		if miss == 0 {
			continue
		}
		form := staysURL(fmt.Sprintf("/stay/%s/book?date=%s", st.ID, staysDate(first)))
		return generate.Instance{
			Params: map[string]string{"stay": st.ID, "weekday": wd.String()},
			Instruction: fmt.Sprintf("On Driftwood Stays, open the booking form for %s in %s, arriving on the first %s in March that it is free. Do not book it yet.",
				st.Name, st.City, wd),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.URLIs(generate.Exact(form)),
				generate.Text("main > p", "Arriving "+staysDate(first)),
				generate.NoWrite(staysHost),
			},
			Reference: []suite.Step{
				generate.Click("link", st.City),
				generate.Read(),
				generate.Click("link", st.Name),
				generate.Read(),
				generate.Click("link", staysArrive(first)),
				generate.Read(),
			},
			Controls: []generate.Control{{
				Name:      "wrong-date",
				Reference: []suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Click("link", staysArrive(miss)), generate.Read()},
				FailsOn:   0,
			}},
			Rationale: fmt.Sprintf("%s (%s) is taken on the first %s of March; the first free one is %s.", st.Name, st.ID, wd, staysWords(first)),
		}
	}
}

// staysBookable draws a stay, an arrival, nights and guests that can be
// booked.
func staysBookable(r *rand.Rand) (st *sandbox.Stay, day, nights, guests int) {
	for {
		st = &staysData.Stays[r.IntN(len(staysData.Stays))]
		day, nights = 2+r.IntN(27), 1+r.IntN(3)
		if staysFree(st, day, nights) {
			return st, day, nights, 1 + r.IntN(st.MaxGuests)
		}
	}
}

// staysOtherArrival is another night st can be booked from for nights,
// the first after day (wrapping round to 1 March), or 0 if there is none.
func staysOtherArrival(st *sandbox.Stay, day, nights int) int {
	for d := 1; d <= 31; d++ {
		next := (day+d-1)%31 + 1
		if next != day && staysFree(st, next, nights) {
			return next
		}
	}
	return 0
}

func staysWriteClauses(form map[string]string) contract.Postconditions {
	return contract.Postconditions{
		generate.Once(generate.Post(staysBookPost, form)),
		generate.Text(".confirmation", "Booking "+staysData.NextBooking+" is confirmed"),
		generate.Text(".arrive", form["date"]),
		generate.URLIs(generate.Exact(staysURL("/bookings/" + staysData.NextBooking))),
		generate.Not(generate.Post(staysCancelPost, nil)),
		generate.NoDialog(),
	}
}

func drawStaysBook(r *rand.Rand) generate.Instance {
	st, day, nights, guests := staysBookable(r)
	other := staysOtherArrival(st, day, nights)
	for st.MaxGuests < 2 || other == 0 {
		st, day, nights, guests = staysBookable(r)
		other = staysOtherArrival(st, day, nights)
	}
	wrongGuests := guests + 1
	if wrongGuests > st.MaxGuests {
		wrongGuests = guests - 1
	}
	wrong := staysBookSteps(st, day, nights, wrongGuests)
	return generate.Instance{
		Params: map[string]string{"stay": st.ID, "date": staysDate(day), "nights": strconv.Itoa(nights), "guests": strconv.Itoa(guests)},
		Instruction: fmt.Sprintf("On Driftwood Stays, book %s in %s for %s and %s, arriving %s.",
			st.Name, st.City, staysCount(guests, "guest", "guests"), staysCount(nights, "night", "nights"), staysWords(day)),
		StartURL:  staysStart,
		Contract:  staysWriteClauses(staysBookForm(st, day, nights, guests)),
		Reference: staysBookSteps(st, day, nights, guests),
		Controls: []generate.Control{
			{Name: "wrong-date", Reference: staysBookSteps(st, other, nights, guests), FailsOn: 0},
			{Name: "wrong-guests", Reference: wrong, FailsOn: 0},
			{Name: "side-effect", Reference: append(staysOtherCancel(r, ""), staysBookSteps(st, day, nights, guests)...), FailsOn: 4},
		},
		Rationale: fmt.Sprintf("%s (%s) is free from %s for %d nights; the post pins stay, arrival, nights and guests, and the first new booking is %s.",
			st.Name, st.ID, staysDate(day), nights, staysData.NextBooking),
	}
}

var staysReasons = []string{"Plans changed", "Meeting moved to April", "We found a place with parking", "Travelling by train now, arriving later", "The conference was cancelled", "Staying with friends instead"}

func drawStaysCancel(r *rand.Rand) generate.Instance {
	list := staysCancellable()
	b := pick(r, list)
	reason := pick(r, staysReasons)
	var others []sandbox.StayBooking
	for _, o := range list {
		if o.ID != b.ID {
			others = append(others, o)
		}
	}
	o := pick(r, others)
	return generate.Instance{
		Params:      map[string]string{"booking": b.ID, "reason": reason},
		Instruction: fmt.Sprintf("On Driftwood Stays, cancel my booking at %s, giving \"%s\" as the reason.", staysBookingWords(b), reason),
		StartURL:    staysStart,
		Contract: contract.Postconditions{
			generate.Post("^"+regexp.QuoteMeta(staysURL("/bookings/"+b.ID+"/cancel"))+"$", map[string]string{"reason": reason}),
			generate.Text(".cancelled", "Booking "+b.ID+" is cancelled"),
			generate.URLIs(generate.Exact(staysURL("/bookings/" + b.ID))),
			generate.Once(generate.Post(staysCancelPost, nil)),
			generate.Not(generate.Post(staysBookPost, nil)),
			generate.NoDialog(),
		},
		Reference: staysCancelSteps(b.ID, reason),
		Controls: []generate.Control{
			{Name: "wrong-booking", Reference: staysCancelSteps(o.ID, reason), FailsOn: 0},
			{Name: "side-effect", Reference: append(staysCancelSteps(o.ID, reason), staysCancelSteps(b.ID, reason)...), FailsOn: 3},
		},
		Rationale: fmt.Sprintf("The booking at that stay and arrival is %s; only its cancel may be posted, with the reason as given.", b.ID),
	}
}

func drawStaysMove(r *rand.Rand) generate.Instance {
	list := staysCancellable()
	for {
		b := pick(r, list)
		st := staysStay(b.StayID)
		own := staysDay(b.Date)
		day := 2 + r.IntN(27)
		// The new nights must be free without the booking's own nights,
		// so the order of the two writes does not matter.
		if day == own || !staysFree(st, day, b.Nights) || (day < own+b.Nights && own < day+b.Nights) {
			continue
		}
		other := 0
		for d := day + 1; d <= 31 && other == 0; d++ {
			if staysFree(st, d, b.Nights) && !(d < own+b.Nights && own < d+b.Nights) {
				other = d
			}
		}
		if other == 0 {
			continue
		}
		reason := "Moving to " + staysWords(day)
		cancel := staysCancelSteps(b.ID, reason)
		book := staysBookSteps(st, day, b.Nights, b.Guests)
		form := staysBookForm(st, day, b.Nights, b.Guests)
		return generate.Instance{
			Params: map[string]string{"booking": b.ID, "date": staysDate(day)},
			Instruction: fmt.Sprintf("On Driftwood Stays, move my booking at %s, to arrive on %s instead: cancel it with the reason \"%s\", then book the same stay for the same number of nights and guests from the new date.",
				staysBookingWords(b), staysWords(day), reason),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.Post("^"+regexp.QuoteMeta(staysURL("/bookings/"+b.ID+"/cancel"))+"$", map[string]string{"reason": reason}),
				generate.Once(generate.Post(staysBookPost, form)),
				generate.Text(".confirmation", "Booking "+staysData.NextBooking+" is confirmed"),
				generate.URLIs(generate.Exact(staysURL("/bookings/" + staysData.NextBooking))),
				generate.Once(generate.Post(staysCancelPost, nil)),
				generate.NoDialog(),
			},
			Reference: slices.Concat(cancel, book),
			Controls: []generate.Control{
				{Name: "one-step-short", Reference: cancel, FailsOn: 1},
				{Name: "wrong-date", Reference: slices.Concat(cancel, staysBookSteps(st, other, b.Nights, b.Guests)), FailsOn: 1},
				{Name: "not-cancelled", Reference: book, FailsOn: 0},
			},
			Rationale: fmt.Sprintf("%s is %d nights for %d at %s (%s); the new booking must carry the same nights and guests from %s, and only %s may be cancelled.",
				b.ID, b.Nights, b.Guests, st.Name, st.ID, staysDate(day), b.ID),
		}
	}
}

func drawStaysCheapestFree(r *rand.Rand) generate.Instance {
	cities := staysCities()
	for {
		city := pick(r, cities)
		largest := staysLargest(city)
		guests := 2 + r.IntN(max(1, largest-1))
		day, nights := 2+r.IntN(27), 1+r.IntN(3)
		list := staysCity(city, guests)
		if len(list) < 3 || staysFree(list[0], day, nights) || list[0].Cents == list[1].Cents {
			continue
		}
		var free []*sandbox.Stay
		for _, st := range list {
			if staysFree(st, day, nights) {
				free = append(free, st)
			}
		}
		if len(free) < 2 || free[0].Cents == free[1].Cents {
			continue
		}
		best, miss := free[0], free[1]
		filter := []suite.Step{generate.Click("link", city), generate.Type("Number of guests", strconv.Itoa(guests), true), generate.Read()}
		book := func(st *sandbox.Stay) []suite.Step {
			return []suite.Step{
				generate.Click("link", st.Name), generate.Read(),
				generate.Click("link", staysArrive(day)),
				generate.Type("Nights", strconv.Itoa(nights), false),
				generate.Type("Guests", strconv.Itoa(guests), false),
				generate.Click("button", "Confirm booking"),
			}
		}
		// The reference goes straight to the answer: the comparison is the
		// agent's, and a page reached by going back is one some servers
		// cannot act on until they snapshot it again.
		ref := slices.Concat(filter, book(best))
		return generate.Instance{
			Params: map[string]string{"city": city, "guests": strconv.Itoa(guests), "date": staysDate(day), "nights": strconv.Itoa(nights)},
			Instruction: fmt.Sprintf("On Driftwood Stays, book the cheapest stay in %s that sleeps at least %s and is free for %s from %s. Book it for %s.",
				city, staysCount(guests, "person", "people"), staysCount(nights, "night", "nights"), staysWords(day), staysCount(guests, "guest", "guests")),
			StartURL:  staysStart,
			Contract:  staysWriteClauses(staysBookForm(best, day, nights, guests)),
			Reference: ref,
			Controls: []generate.Control{
				{Name: "wrong-item", Reference: slices.Concat(filter, book(miss)), FailsOn: 0},
				{Name: "side-effect", Reference: append(staysOtherCancel(r, ""), ref...), FailsOn: 4},
			},
			Rationale: fmt.Sprintf("The cheapest stay in %s for %d, %s (%s), is taken on those nights; the cheapest free one is %s (%s, %s).",
				city, guests, list[0].Name, list[0].ID, best.Name, best.ID, best.Price()),
		}
	}
}

func drawStaysTaken(r *rand.Rand) generate.Instance {
	for {
		st := &staysData.Stays[r.IntN(len(staysData.Stays))]
		day, nights := 2+r.IntN(26), 2+r.IntN(3)
		if day+nights-1 > 31 || !st.Free[day] || staysFree(st, day, nights) {
			continue
		}
		taken := day
		for st.Free[taken] {
			taken++
		}
		guests := 1 + r.IntN(st.MaxGuests)
		stayPage := staysURL("/stay/" + st.ID)
		return generate.Instance{
			Params: map[string]string{"stay": st.ID, "date": staysDate(day), "nights": strconv.Itoa(nights)},
			Instruction: fmt.Sprintf("On Driftwood Stays, book %s in %s for %s and %s, arriving %s.",
				st.Name, st.City, staysCount(guests, "guest", "guests"), staysCount(nights, "night", "nights"), staysWords(day)),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.NoWrite(staysHost),
				generate.URLIs(generate.Exact(stayPage)),
				generate.Text(".calendar .taken", fmt.Sprintf("%s %d (taken)", staysWeekday(taken), taken)),
			},
			Reference: []suite.Step{
				generate.Click("link", st.City),
				generate.Click("link", st.Name),
				generate.Click("link", staysArrive(day)),
				generate.Type("Nights", strconv.Itoa(nights), false),
				generate.Type("Guests", strconv.Itoa(guests), false),
				generate.Click("button", "Confirm booking"),
				generate.Click("link", "Back to "+st.Name),
				generate.Read(),
			},
			Controls: []generate.Control{
				{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", st.City), generate.Read()}, FailsOn: 1},
				{Name: "booked-part", Reference: staysBookSteps(st, day, taken-day, guests), FailsOn: 0},
			},
			Rationale: fmt.Sprintf("%s (%s) is free on %s but taken on %s, within the %d nights asked; the site refuses the booking and the calendar shows the taken night.",
				st.Name, st.ID, staysDate(day), staysDate(taken), nights),
		}
	}
}

func drawStaysCannotCancel(r *rand.Rand) generate.Instance {
	list := staysUnambiguous(func(b sandbox.StayBooking) bool { return !b.Cancellable })
	b := pick(r, list)
	why := generate.Text(".cancelled", "Booking "+b.ID+" is cancelled")
	if b.Status == "Confirmed" {
		why = generate.Text(".no-cancel", "ended on "+b.CancelBy)
	}
	can := staysCancellable()
	o := pick(r, can)
	reason := pick(r, staysReasons)
	return generate.Instance{
		Params:      map[string]string{"booking": b.ID, "reason": reason},
		Instruction: fmt.Sprintf("On Driftwood Stays, cancel my booking at %s, giving \"%s\" as the reason.", staysBookingWords(b), reason),
		StartURL:    staysStart,
		Contract: contract.Postconditions{
			generate.NoWrite(staysHost),
			generate.URLIs(generate.Exact(staysURL("/bookings/" + b.ID))),
			why,
		},
		Reference: []suite.Step{
			generate.Click("link", "Your bookings"),
			generate.Read(),
			generate.Click("link", b.ID),
			generate.Read(),
		},
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", "Your bookings"), generate.Read()}, FailsOn: 1},
			{Name: "cancelled-another", Reference: staysCancelSteps(o.ID, reason), FailsOn: 0},
		},
		Rationale: fmt.Sprintf("%s is %s; its page says why it cannot be cancelled, and nothing may be written.", b.ID,
			map[bool]string{true: "past its free cancellation (" + b.CancelBy + ")", false: "already cancelled"}[b.Status == "Confirmed"]),
	}
}

func drawStaysTooMany(r *rand.Rand) generate.Instance {
	cities := staysCities()
	city := pick(r, cities)
	largest := staysLargest(city)
	guests := largest + 1 + r.IntN(2)
	day := 2 + r.IntN(27)
	slug := staysSlug(city)
	// The near miss books the city's largest stay that has a free night,
	// for as many as it sleeps.
	var biggest *sandbox.Stay
	night := 0
	for _, st := range staysCity(city, 0) {
		if n := staysOtherArrival(st, 0, 1); n != 0 && (biggest == nil || st.MaxGuests > biggest.MaxGuests) {
			biggest, night = st, n
		}
	}
	return generate.Instance{
		Params: map[string]string{"city": city, "guests": strconv.Itoa(guests), "date": staysDate(day)},
		Instruction: fmt.Sprintf("On Driftwood Stays, book any one stay in %s for our group of %d, two nights from %s.",
			city, guests, staysWords(day)),
		StartURL: staysStart,
		Contract: contract.Postconditions{
			generate.NoWrite(staysHost),
			generate.URLIs("^" + regexp.QuoteMeta(staysURL("/city/"+slug)) + `(?:\?guests=[0-9]+)?$`),
			generate.Text(".largest", fmt.Sprintf("sleeps %d.", largest)),
		},
		Reference: []suite.Step{
			generate.Click("link", city),
			generate.Read(),
			generate.Type("Number of guests", strconv.Itoa(guests), true),
			generate.Read(),
		},
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Read()}, FailsOn: 1},
			{Name: "booked-smaller", Reference: slices.Concat(staysBookSteps(biggest, night, 1, biggest.MaxGuests), []suite.Step{generate.Click("link", city)}), FailsOn: 0},
		},
		Rationale: fmt.Sprintf("The largest stay in %s sleeps %d, fewer than %d; the city page says so.", city, largest, guests),
	}
}
