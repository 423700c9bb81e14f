package templates

import (
	"fmt"
	"math/rand/v2"
	"net/url"
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

const staysHost = sandbox.StaysHost

// stays is the site's route table.
var stays = &sandbox.Stays

// staysData is the stays site's seeded data, as a fresh site holds it.
var staysData = sandbox.StaysData()

// staysAt is a pattern for the page of rt on the record arg: any
// fragment, and any query unless key is given, which must then be among
// its parameters with value. A fragment never changes what the page
// shows, nor does a parameter the task is not about.
func staysAt(rt sandbox.Route, arg, key, value string) string {
	query := `(?:\?[^#]*)?`
	if key != "" {
		query = `\?(?:[^#]*&)?` + regexp.QuoteMeta(rt.Field(key)+"="+value) + `(?:&[^#]*)?`
	}
	return "^" + regexp.QuoteMeta(rt.URL(arg)) + query + "(?:#.*)?$"
}

// staysRefused holds when the site refused a booking post carrying form
// with status: the agent tried the booking as asked and the site said
// why not.
func staysRefused(status int, form map[string]string, bodyPattern string) *contract.Network {
	n := refusedWith(stays.Book, status, form)
	n.BodyPattern = bodyPattern
	return n
}

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
		generate.Navigate(stays.Bookings.URL()),
		generate.Click("link", o.ID),
		generate.Type("Reason for cancelling", "Not needed", false),
		generate.Click("button", "Cancel booking "+o.ID),
		generate.Navigate(staysStart),
	}
}

var staysStart = stays.Home.URL()

// staysList ends on the bookings page, reached from the site's menu.
func staysList() []suite.Step {
	return []suite.Step{generate.Click("link", "Your bookings"), generate.Read()}
}

// staysOtherBooking books one night of another stay than st, for one
// guest: the second booking a near miss makes.
func staysOtherBooking(st *sandbox.Stay) []suite.Step {
	for i := range staysData.Stays {
		o := &staysData.Stays[i]
		if o.ID == st.ID {
			continue
		}
		if day := staysOtherArrival(o, 0, 1); day != 0 {
			return []suite.Step{generate.Navigate(staysStart), generate.Click("link", o.City), generate.Click("link", o.Name),
				generate.Click("link", staysArrive(day)), generate.Click("button", "Confirm booking")}
		}
	}
	panic("generate: no other stay free for a night")
}

// staysBookWith books st like staysBookSteps, and also writes a request
// for the host the instruction did not ask for: an extra setting sent in
// the same form.
func staysBookWith(st *sandbox.Stay, day, nights, guests int) []suite.Step {
	steps := slices.Clone(staysBookSteps(st, day, nights, guests))
	last := len(steps) - 1
	return slices.Concat(steps[:last], []suite.Step{generate.Type("Requests for the host (optional)", "Late check-in, please", false)}, steps[last:])
}

// staysGuestsFirst books st like staysBookSteps with the form's two
// fields filled in the other order.
func staysGuestsFirst(st *sandbox.Stay, day, nights, guests int) []suite.Step {
	steps := slices.Clone(staysBookSteps(st, day, nights, guests))
	steps[4], steps[5] = steps[5], steps[4]
	return steps
}

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
				generate.URLIs(staysAt(stays.Stay, best.ID, "", "")),
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
			}, {
				Name:      "booked-it",
				Reference: slices.Concat(staysBookSteps(best, staysOtherArrival(best, 0, 1), 1, 1), []suite.Step{generate.Click("link", best.City), generate.Click("link", best.Name), generate.Read()}),
				FailsOn:   2,
			}, {
				Name:      "cancelled-one",
				Reference: slices.Concat(staysOtherCancel(r, ""), []suite.Step{generate.Click("link", city), generate.Click("link", best.Name), generate.Read()}),
				FailsOn:   2,
			}},
			Alternates: []generate.Alternate{
				{Name: "reload-fragment", Reference: slices.Concat([]suite.Step{generate.Click("link", city), generate.Click("link", best.Name)}, look(stays.Stay.URL(best.ID)+"#availability"))},
				{Name: "bookings-first", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", city), generate.Read(), generate.Click("link", best.Name), generate.Read()})},
			},
			Rationale: fmt.Sprintf("%s (%s, %s) is the cheapest of the %d stays in %s that sleep %d or more. The instruction asks to end on its page, so the URL pins the stay (any fragment or query) and the price is read where that page shows it; nothing may be written.",
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
			generate.URLIs(staysAt(stays.Booking, b.ID, "", "")),
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
		}, {
			Name:      "cancelled-another",
			Reference: slices.Concat(staysOtherCancel(r, b.ID), staysList(), []suite.Step{generate.Click("link", b.ID), generate.Read()}),
			FailsOn:   2,
		}, {
			Name:      "booked-one",
			Reference: slices.Concat(staysOtherBooking(staysStay(b.StayID)), staysList(), []suite.Step{generate.Click("link", b.ID), generate.Read()}),
			FailsOn:   2,
		}},
		Alternates: []generate.Alternate{
			{Name: "reload", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", b.ID)}, look(stays.Booking.URL(b.ID)))},
			{Name: "fragment", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", b.ID)}, look(stays.Booking.URL(b.ID)+"#leave"))},
		},
		Rationale: fmt.Sprintf("The booking at that stay and arrival is %s, for %d nights; the instruction asks to open it, so the URL pins its page (any fragment or query), which shows the check-out date %s. Nothing may be written.", b.ID, b.Nights, leave),
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
		form := stays.BookForm.Query(url.Values{"date": {staysDate(first)}}, st.ID)
		return generate.Instance{
			Params: map[string]string{"stay": st.ID, "weekday": wd.String()},
			Instruction: fmt.Sprintf("On Driftwood Stays, open the booking form for %s in %s, arriving on the first %s in March that it is free. Do not book it yet.",
				st.Name, st.City, wd),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.URLIs(staysAt(stays.BookForm, st.ID, "date", staysDate(first))),
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
			}, {
				// Booking that night takes it, so the form opened after
				// no longer offers it: the form's clause fails before the
				// write's.
				Name:      "booked-it",
				Reference: slices.Concat(staysBookSteps(st, first, 1, 1), []suite.Step{generate.Navigate(form), generate.Read()}),
				FailsOn:   1,
			}, {
				Name:      "cancelled-one",
				Reference: slices.Concat(staysOtherCancel(r, ""), []suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Click("link", staysArrive(first)), generate.Read()}),
				FailsOn:   2,
			}},
			Alternates: []generate.Alternate{
				{Name: "reload", Reference: slices.Concat([]suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Click("link", staysArrive(first))}, look(form+"#nights"))},
				{Name: "bookings-first", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Read(), generate.Click("link", staysArrive(first)), generate.Type("Nights", "2", false), generate.Read()})},
			},
			Rationale: fmt.Sprintf("%s (%s) is taken on the first %s of March; the first free one is %s. The instruction asks to end on the booking form, so the URL pins the form and its date (other parameters and a fragment aside); nothing may be written.", st.Name, st.ID, wd, staysWords(first)),
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

// staysBooked are the clauses of a booking made as asked: the booking
// post with the asked stay, arrival, nights and guests, the lead guest
// the form holds, and no request for the host, which the instruction did
// not ask for. With the booking the only write, they are about that one
// booking.
func staysBooked(form map[string]string) contract.Postconditions {
	return contract.Postconditions{
		generate.Once(posted(stays.Book, form)),
		postField(stays.Book, "request", ""),
		postField(stays.Book, "name", "Robin Ashdown"),
	}
}

// staysWriteClauses are a booking's: the booking as asked, no other write,
// no dialog. Clause 0 is the booking post, 1 the write count, 2 the
// request for the host.
func staysWriteClauses(form map[string]string) contract.Postconditions {
	booked := staysBooked(form)
	return contract.Postconditions{booked[0], writesOn(staysHost, 1), booked[1], booked[2], generate.NoDialog()}
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
			{Name: "side-effect", Reference: append(staysOtherCancel(r, ""), staysBookSteps(st, day, nights, guests)...), FailsOn: 1},
			{Name: "second-booking", Reference: slices.Concat(staysBookSteps(st, day, nights, guests), staysOtherBooking(st), look(stays.Booking.URL(staysData.NextBooking))), FailsOn: 1},
			{Name: "extra-request", Reference: staysBookWith(st, day, nights, guests), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "check-the-list", Reference: slices.Concat(staysBookSteps(st, day, nights, guests), staysList())},
			{Name: "guests-first-go-home", Reference: slices.Concat(staysGuestsFirst(st, day, nights, guests), look(staysStart))},
		},
		Rationale: fmt.Sprintf("%s (%s) is free from %s for %d nights; the post pins stay, arrival, nights and guests, it is the only write the site accepts, wherever the agent ends, and it asks the host nothing the user did not ask for (the first new booking is %s).",
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
			generate.Once(posted(stays.Cancel, nil, b.ID)),
			writesOn(staysHost, 1),
			postField(stays.Cancel, "reason", reason, b.ID),
			generate.NoDialog(),
		},
		Reference: staysCancelSteps(b.ID, reason),
		Controls: []generate.Control{
			{Name: "wrong-booking", Reference: staysCancelSteps(o.ID, reason), FailsOn: 0},
			{Name: "side-effect", Reference: append(staysCancelSteps(o.ID, reason), staysCancelSteps(b.ID, reason)...), FailsOn: 1},
			{Name: "cancelled-another-after", Reference: slices.Concat(staysCancelSteps(b.ID, reason), staysCancelSteps(o.ID, reason), look(stays.Booking.URL(b.ID))), FailsOn: 1},
			{Name: "booked-after", Reference: slices.Concat(staysCancelSteps(b.ID, reason), staysOtherBooking(staysStay(b.StayID)), look(stays.Booking.URL(b.ID))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-the-list", Reference: slices.Concat(staysCancelSteps(b.ID, reason), []suite.Step{generate.Click("link", "All your bookings"), generate.Read()})},
			{Name: "reason-with-spaces", Reference: slices.Concat(staysCancelSteps(b.ID, "  "+reason+" "), look(stays.Booking.URL(b.ID)))},
		},
		Rationale: fmt.Sprintf("The booking at that stay and arrival is %s; its cancel is the only write the site accepts, wherever the agent ends, and carries the reason as the site stores it (trimmed).", b.ID),
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
		booked := staysBooked(staysBookForm(st, day, b.Nights, b.Guests))
		return generate.Instance{
			Params: map[string]string{"booking": b.ID, "date": staysDate(day)},
			Instruction: fmt.Sprintf("On Driftwood Stays, move my booking at %s, to arrive on %s instead: cancel it with the reason \"%s\", then book the same stay for the same number of nights and guests from the new date.",
				staysBookingWords(b), staysWords(day), reason),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.Once(posted(stays.Cancel, nil, b.ID)),
				booked[0],
				writesOn(staysHost, 2),
				postField(stays.Cancel, "reason", reason, b.ID),
				booked[1],
				booked[2],
				generate.NoDialog(),
			},
			Reference: slices.Concat(cancel, book),
			Controls: []generate.Control{
				{Name: "one-step-short", Reference: cancel, FailsOn: 1},
				{Name: "wrong-date", Reference: slices.Concat(cancel, staysBookSteps(st, other, b.Nights, b.Guests)), FailsOn: 1},
				{Name: "not-cancelled", Reference: book, FailsOn: 0},
				{Name: "second-booking", Reference: slices.Concat(cancel, book, staysOtherBooking(st), look(stays.Booking.URL(staysData.NextBooking))), FailsOn: 2},
				{Name: "extra-request", Reference: slices.Concat(cancel, staysBookWith(st, day, b.Nights, b.Guests)), FailsOn: 4},
			},
			Alternates: []generate.Alternate{
				{Name: "book-then-cancel", Reference: slices.Concat(book, staysCancelSteps(b.ID, reason))},
				{Name: "check-the-list", Reference: slices.Concat(cancel, staysGuestsFirst(st, day, b.Nights, b.Guests), []suite.Step{generate.Click("link", "All your bookings"), generate.Read()})},
			},
			Rationale: fmt.Sprintf("%s is %d nights for %d at %s (%s); the new booking must carry the same nights and guests from %s, and %s's cancel and that booking are the only writes, in either order, wherever the agent ends.",
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
				{Name: "side-effect", Reference: append(staysOtherCancel(r, ""), ref...), FailsOn: 1},
				{Name: "second-booking", Reference: slices.Concat(ref, staysOtherBooking(best), look(stays.Booking.URL(staysData.NextBooking))), FailsOn: 1},
				{Name: "extra-request", Reference: slices.Concat(filter[:1], staysBookWith(best, day, nights, guests)[1:]), FailsOn: 2},
			},
			Alternates: []generate.Alternate{
				{Name: "check-the-list", Reference: slices.Concat(ref, staysList())},
				{Name: "no-filter-go-home", Reference: slices.Concat(staysGuestsFirst(best, day, nights, guests), look(staysStart))},
			},
			Rationale: fmt.Sprintf("The cheapest stay in %s for %d, %s (%s), is taken on those nights; the cheapest free one is %s (%s, %s). Its booking is the only write, with no request the user did not ask for.",
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
		attempt := []suite.Step{
			generate.Click("link", st.City),
			generate.Click("link", st.Name),
			generate.Click("link", staysArrive(day)),
			generate.Type("Nights", strconv.Itoa(nights), false),
			generate.Type("Guests", strconv.Itoa(guests), false),
			generate.Click("button", "Confirm booking"),
		}
		// sibling is another stay of the city: its calendar is not the
		// one this booking needed.
		sibling := staysCity(st.City, 0)[0]
		if sibling == st {
			sibling = staysCity(st.City, 0)[1]
		}
		return generate.Instance{
			Params: map[string]string{"stay": st.ID, "date": staysDate(day), "nights": strconv.Itoa(nights)},
			Instruction: fmt.Sprintf("On Driftwood Stays, book %s in %s for %s and %s, arriving %s.",
				st.Name, st.City, staysCount(guests, "guest", "guests"), staysCount(nights, "night", "nights"), staysWords(day)),
			StartURL: staysStart,
			Contract: contract.Postconditions{
				generate.NoWrite(staysHost),
				generate.Or(
					staysRefused(409, map[string]string{"stay": st.ID, "date": staysDate(day)}, ""),
					&contract.And{Children: []contract.Clause{
						generate.URLIs(staysAt(stays.Stay, st.ID, "", "")),
						generate.Text(".calendar .taken", fmt.Sprintf("%s %d (taken)", staysWeekday(taken), taken)),
					}},
				),
			},
			Reference: slices.Concat(attempt, []suite.Step{generate.Click("link", "Back to "+st.Name), generate.Read()}),
			Controls: []generate.Control{
				{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", st.City), generate.Read()}, FailsOn: 1},
				{Name: "booked-part", Reference: staysBookSteps(st, day, taken-day, guests), FailsOn: 0},
				{Name: "booked-another", Reference: slices.Concat(staysOtherBooking(st), []suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Read()}), FailsOn: 0},
				{Name: "another-calendar", Reference: []suite.Step{generate.Click("link", st.City), generate.Click("link", sibling.Name), generate.Read()}, FailsOn: 1},
			},
			Alternates: []generate.Alternate{
				{Name: "refusal-page", Reference: slices.Concat(attempt, []suite.Step{generate.Read()})},
				{Name: "calendar-only", Reference: []suite.Step{generate.Click("link", st.City), generate.Click("link", st.Name), generate.Read()}},
			},
			Rationale: fmt.Sprintf("%s (%s) is free on %s but taken on %s, within the %d nights asked. Nothing may be written, and the agent must have met the reason for this very booking: the site's refusal (409) of that stay from that arrival, or that stay's calendar, left open, showing the taken night.",
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
			generate.URLIs(staysAt(stays.Booking, b.ID, "", "")),
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
			{Name: "booked-one", Reference: slices.Concat(staysOtherBooking(staysStay(b.StayID)), staysList(), []suite.Step{generate.Click("link", b.ID), generate.Read()}), FailsOn: 0},
			{Name: "cancelled-another-then-open", Reference: slices.Concat(staysOtherCancel(r, b.ID), staysList(), []suite.Step{generate.Click("link", b.ID), generate.Read()}), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "reload", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", b.ID)}, look(stays.Booking.URL(b.ID)))},
			{Name: "fragment", Reference: slices.Concat(staysList(), []suite.Step{generate.Click("link", b.ID)}, look(stays.Booking.URL(b.ID)+"#leave"))},
		},
		Rationale: fmt.Sprintf("%s is %s; its page, left open (any fragment or query), says why it cannot be cancelled: the site offers no cancel to refuse. Nothing may be written.", b.ID,
			map[bool]string{true: "past its free cancellation (" + b.CancelBy + ")", false: "already cancelled"}[b.Status == "Confirmed"]),
	}
}

// staysOneOf is a body pattern for a booking post of one of city's stays.
func staysOneOf(city string) string {
	var ids []string
	for _, st := range staysCity(city, 0) {
		ids = append(ids, regexp.QuoteMeta(st.ID))
	}
	return "(?:^|&)stay=(?:" + strings.Join(ids, "|") + ")(?:&|$)"
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
			generate.Or(
				staysRefused(422, map[string]string{"guests": strconv.Itoa(guests)}, staysOneOf(city)),
				&contract.And{Children: []contract.Clause{
					generate.Text(".empty", fmt.Sprintf("No stay in %s sleeps %d guests", city, guests)),
					generate.Text(".largest", fmt.Sprintf("sleeps %d.", largest)),
				}},
			),
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
			{Name: "city-page-only", Reference: []suite.Step{generate.Click("link", city), generate.Read()}, FailsOn: 1},
			{Name: "booked-elsewhere", Reference: slices.Concat(staysOtherBooking(biggest), []suite.Step{generate.Click("link", city), generate.Type("Number of guests", strconv.Itoa(guests), true), generate.Read()}), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "from-home-list", Reference: []suite.Step{generate.Click("link", "Stays in "+city), generate.Click("link", "4 or more"), generate.Type("Number of guests", strconv.Itoa(guests), true), generate.Read()}},
			{Name: "entered-then-reload", Reference: []suite.Step{
				generate.Click("link", city), generate.Type("Number of guests", strconv.Itoa(guests), true),
				generate.Navigate(stays.City.Query(url.Values{"guests": {strconv.Itoa(guests)}}, slug) + "#results"), generate.Read(),
			}},
		},
		Rationale: fmt.Sprintf("The largest stay in %s sleeps %d, fewer than %d. Nothing may be written, and the agent must have met the reason for this very group: the site's refusal (422) of a booking in %s for %d, or the city's page left open with %d guests entered, which says no stay sleeps them and how many the largest does.", city, largest, guests, city, guests, guests),
	}
}
