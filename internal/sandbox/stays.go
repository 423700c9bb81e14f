package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Stay is one property of stays.sandbox.test.
type Stay struct {
	ID, Name, City, CitySlug, Kind string
	// Cents is the price of one night.
	Cents     int
	MaxGuests int
	Rating    int // tenths
	// Free marks, for each day of March 2026 (index 1..31), whether the
	// stay can be booked for that night.
	Free [32]bool
}

func (s *Stay) Price() string { return euros(s.Cents) }
func (s *Stay) Stars() string { return fmt.Sprintf("%d.%d", s.Rating/10, s.Rating%10) }

// stayMonth is the month the booking site takes bookings for.
const stayMonth = "2026-03"

var stayCities = []struct{ Slug, Name string }{
	{"lisbon", "Lisbon"}, {"porto", "Porto"}, {"bergen", "Bergen"}, {"tallinn", "Tallinn"}, {"ghent", "Ghent"}, {"lyon", "Lyon"},
}

var (
	stayKinds  = []string{"Apartment", "Guesthouse", "Loft", "Cottage", "Studio", "Townhouse"}
	stayWords1 = []string{"Harbour", "Old Town", "Riverside", "Garden", "Tram Stop", "Market", "Cathedral", "Canal", "Hillside", "Lighthouse"}
	stayWords2 = []string{"View", "Corner", "Rooms", "House", "Hideaway", "Retreat", "Nest", "Yard"}
)

func stays() []Stay {
	g := &gen{s: 0x57a1_b00c}
	var out []Stay
	used := map[string]bool{}
	for ci, c := range stayCities {
		for i := range 6 {
			var name string
			for name == "" || used[name] {
				name = pick(g, stayWords1) + " " + pick(g, stayWords2)
			}
			used[name] = true
			st := Stay{
				ID: fmt.Sprintf("H-%d%02d", ci+1, i+1), Name: name, City: c.Name, CitySlug: c.Slug, Kind: pick(g, stayKinds),
				Cents: g.between(48, 260) * 100, MaxGuests: g.between(1, 6), Rating: g.between(35, 50),
			}
			for d := 1; d <= 31; d++ {
				st.Free[d] = g.intn(10) < 6
			}
			out = append(out, st)
		}
	}
	return out
}

// staysSite is stays.sandbox.test: stays by city, an availability
// calendar per stay, a booking form, and the guest's bookings with
// cancellation.
type staysSite struct {
	*site
	stays       []Stay
	byID        map[string]*Stay
	bookings    []*booking // newest first
	nextBooking int
}

type booking struct {
	ID     string
	Stay   *Stay
	Date   string // first night
	Nights int
	Guests int
	Name   string
	Status string
	// New marks a booking made on this site (not one it started with):
	// only such a booking's page shows the confirmation, and only when
	// the booking's own redirect asked for it.
	New     bool
	Request string
	Reason  string
	// CancelBy is the last day the booking can be cancelled for free;
	// empty for a booking that can be cancelled until arrival.
	CancelBy string
}

func (b *booking) Total() string { return euros(b.Stay.Cents * b.Nights) }

// Until is the check-out date.
func (b *booking) Until() string {
	d, _ := time.Parse(time.DateOnly, b.Date)
	return d.AddDate(0, 0, b.Nights).Format(time.DateOnly)
}

func (b *booking) Cancellable() bool {
	return b.Status == "Confirmed" && (b.CancelBy == "" || b.CancelBy >= Today)
}

// Lapsed reports whether the booking is confirmed but its free
// cancellation has ended.
func (b *booking) Lapsed() bool { return b.Status == "Confirmed" && !b.Cancellable() }

// staysState returns the stays and the guest's bookings (newest first) a
// fresh site starts with.
func staysState() ([]Stay, []*booking) {
	all := stays()
	var bookings []*booking
	g := &gen{s: 0xb00c_1e55}
	for i := range 6 {
		st := &all[g.intn(len(all))]
		day := g.between(3, 27)
		b := &booking{ID: fmt.Sprintf("BK-%d", 2035+i), Stay: st, Date: fmt.Sprintf("%s-%02d", stayMonth, day),
			Nights: g.between(1, 3), Guests: min(g.between(1, 4), st.MaxGuests), Name: "Robin Ashdown", Status: "Confirmed"}
		for d := day; d < day+b.Nights; d++ {
			st.Free[d] = false
		}
		bookings = append([]*booking{b}, bookings...)
	}
	// Older bookings, listed after the six above: some cancelled, some
	// whose free cancellation has ended, some still cancellable until a
	// few days before arrival. They leave alone the stays the sandbox
	// suite's tasks name, so those tasks see the calendars they were
	// written for.
	keep := map[string]bool{"H-405": true, "H-203": true, "H-506": true}
	for _, b := range bookings {
		keep[b.Stay.ID] = true
	}
	reasons := []string{"Flight cancelled", "Found somewhere closer to the station", "Trip moved to April", "Family emergency", "Booked the wrong week"}
	g = &gen{s: 0x01d_b00c}
	for i := range 15 {
		var st *Stay
		for st == nil || keep[st.ID] {
			st = &all[g.intn(len(all))]
		}
		nights := g.between(1, 3)
		var day int
		for tries := 0; day == 0 && tries < 100; tries++ {
			d := g.between(4, 28-nights)
			ok := true
			for n := d; n < d+nights; n++ {
				ok = ok && st.Free[n]
			}
			if ok {
				day = d
			}
		}
		if day == 0 {
			continue
		}
		b := &booking{ID: fmt.Sprintf("BK-%d", 2034-i), Stay: st, Date: fmt.Sprintf("%s-%02d", stayMonth, day),
			Nights: nights, Guests: g.between(1, st.MaxGuests), Name: "Robin Ashdown", Status: "Confirmed"}
		switch i % 3 {
		case 0:
			b.Status, b.Reason = "Cancelled", reasons[(i/3)%len(reasons)]
		case 1:
			b.CancelBy = fmt.Sprintf("2026-02-%02d", g.between(10, 27))
		case 2:
			b.CancelBy = fmt.Sprintf("%s-%02d", stayMonth, day-2)
		}
		if b.Status == "Confirmed" {
			for d := day; d < day+nights; d++ {
				st.Free[d] = false
			}
		}
		bookings = append(bookings, b)
	}
	return all, bookings
}

func newStays(fallback http.Handler) *staysSite {
	all, bookings := staysState()
	s := &staysSite{site: newSite("stays", fallback, nil), stays: all, bookings: bookings, nextBooking: 2041}
	s.byID = make(map[string]*Stay, len(s.stays))
	for i := range s.stays {
		s.byID[s.stays[i].ID] = &s.stays[i]
	}
	s.serve(&Stays, map[*Route]http.HandlerFunc{
		&Stays.Home:     s.home,
		&Stays.City:     s.city,
		&Stays.Stay:     s.stay,
		&Stays.BookForm: s.bookForm,
		&Stays.Book:     s.book,
		&Stays.Bookings: s.list,
		&Stays.Booking:  s.bookingPage,
		&Stays.Cancel:   s.cancel,
	})
	return s
}

type day struct {
	Date string
	Day  int
	Free bool
	// Weekday is Mon..Sun.
	Weekday string
}

type staysPage struct {
	Title    string
	Cities   []struct{ Slug, Name string }
	City     string
	CitySlug string
	Guests   int
	Stays    []*Stay
	Stay     *Stay
	Days     []day
	Date     string
	Booking  *booking
	Bookings []*booking
	Error    string
	// Largest is how many guests the city's largest stay sleeps.
	Largest int
	// Confirmed shows the booking's confirmation: the page is the one its
	// booking redirected to.
	Confirmed bool
}

// confirmedParam is the query parameter by which a booking's redirect
// asks its page for the confirmation. The notice lives in that URL, not in
// the booking: no visit clears it, and a later visit to the booking's
// page, without it, does not look like the booking's confirmation.
const confirmedParam = "confirmed"

func (s *staysSite) page(title string) *staysPage {
	return &staysPage{Title: title, Cities: stayCities}
}

func (s *staysSite) home(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "home", s.page("Home"))
}

func (s *staysSite) city(w http.ResponseWriter, r *http.Request) {
	p := s.page("")
	for _, c := range stayCities {
		if c.Slug == r.PathValue("city") {
			p.City, p.CitySlug = c.Name, c.Slug
		}
	}
	if p.City == "" {
		s.refuse(w, http.StatusNotFound, problem{Title: "No such city", Message: "We have no stays in " + r.PathValue("city") + ".", Back: "/", BackText: "All cities"})
		return
	}
	p.Title = "Stays in " + p.City
	p.Guests, _ = strconv.Atoi(r.URL.Query().Get("guests"))
	for i := range s.stays {
		st := &s.stays[i]
		if st.City == p.City && st.MaxGuests >= p.Guests {
			p.Stays = append(p.Stays, st)
		}
		if st.City == p.City {
			p.Largest = max(p.Largest, st.MaxGuests)
		}
	}
	slices.SortStableFunc(p.Stays, func(a, b *Stay) int { return a.Cents - b.Cents })
	s.render(w, http.StatusOK, "city", p)
}

func (s *staysSite) calendar(st *Stay) []day {
	var out []day
	for d := 1; d <= 31; d++ {
		date := fmt.Sprintf("%s-%02d", stayMonth, d)
		t, _ := time.Parse(time.DateOnly, date)
		out = append(out, day{Date: date, Day: d, Free: st.Free[d] && date >= Today, Weekday: t.Weekday().String()[:3]})
	}
	return out
}

func (s *staysSite) stay(w http.ResponseWriter, r *http.Request) {
	st := s.byID[r.PathValue("id")]
	if st == nil {
		s.refuse(w, http.StatusNotFound, problem{Title: "No such stay", Message: "We have no stay " + r.PathValue("id") + ".", Back: "/", BackText: "All cities"})
		return
	}
	p := s.page(st.Name)
	p.Stay, p.Days = st, s.calendar(st)
	s.render(w, http.StatusOK, "stay", p)
}

// dayOf returns the day of March 2026 a date names, or 0.
func dayOf(date string) int {
	d, ok := strings.CutPrefix(date, stayMonth+"-")
	if !ok || len(d) != 2 {
		return 0
	}
	n, err := strconv.Atoi(d)
	if err != nil || n < 1 || n > 31 {
		return 0
	}
	return n
}

func (s *staysSite) bookForm(w http.ResponseWriter, r *http.Request) {
	st := s.byID[r.PathValue("id")]
	date := r.URL.Query().Get("date")
	if st == nil || dayOf(date) == 0 || !st.Free[dayOf(date)] {
		s.refuse(w, http.StatusNotFound, problem{Title: "Not available", Message: "That night cannot be booked.", Back: "/", BackText: "All cities"})
		return
	}
	p := s.page("Book " + st.Name)
	p.Stay, p.Date = st, date
	s.render(w, http.StatusOK, "book", p)
}

func (s *staysSite) book(w http.ResponseWriter, r *http.Request) {
	st := s.byID[r.PostFormValue("stay")]
	date := r.PostFormValue("date")
	first := dayOf(date)
	nights, err1 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("nights")))
	guests, err2 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("guests")))
	name := strings.TrimSpace(r.PostFormValue("name"))
	refuse := func(status int, msg string) {
		back, text := "/", "All cities"
		if st != nil {
			back, text = "/stay/"+st.ID, "Back to "+st.Name
		}
		s.refuse(w, status, problem{Title: "Not booked", Message: msg, Back: back, BackText: text})
	}
	switch {
	case st == nil || first == 0:
		refuse(http.StatusUnprocessableEntity, "Choose a stay and a night in March 2026.")
		return
	case err1 != nil || nights < 1 || nights > 14:
		refuse(http.StatusUnprocessableEntity, "The number of nights must be from 1 to 14.")
		return
	case err2 != nil || guests < 1:
		refuse(http.StatusUnprocessableEntity, "The number of guests must be at least 1.")
		return
	case guests > st.MaxGuests:
		refuse(http.StatusUnprocessableEntity, fmt.Sprintf("%s sleeps at most %d.", st.Name, st.MaxGuests))
		return
	case name == "":
		refuse(http.StatusUnprocessableEntity, "Please give the lead guest's name.")
		return
	}
	for d := first; d < first+nights; d++ {
		if d > 31 || !st.Free[d] {
			refuse(http.StatusConflict, fmt.Sprintf("%s is not free on %s-%02d.", st.Name, stayMonth, d))
			return
		}
	}
	for d := first; d < first+nights; d++ {
		st.Free[d] = false
	}
	b := &booking{ID: fmt.Sprintf("BK-%d", s.nextBooking), Stay: st, Date: date, Nights: nights, Guests: guests, Name: name,
		Status: "Confirmed", New: true, Request: strings.TrimSpace(r.PostFormValue("request"))}
	s.nextBooking++
	s.bookings = append([]*booking{b}, s.bookings...)
	seeOther(w, r, "/bookings/"+b.ID+"?"+confirmedParam)
}

func (s *staysSite) find(id string) *booking {
	for _, b := range s.bookings {
		if b.ID == id {
			return b
		}
	}
	return nil
}

func (s *staysSite) list(w http.ResponseWriter, r *http.Request) {
	p := s.page("Your bookings")
	p.Bookings = s.bookings
	s.render(w, http.StatusOK, "bookings", p)
}

func (s *staysSite) bookingPage(w http.ResponseWriter, r *http.Request) {
	b := s.find(r.PathValue("id"))
	if b == nil {
		s.refuse(w, http.StatusNotFound, problem{Title: "No such booking", Message: "You have no booking " + r.PathValue("id") + ".", Back: "/bookings", BackText: "Your bookings"})
		return
	}
	p := s.page("Booking " + b.ID)
	p.Booking = b
	p.Confirmed = b.New && r.URL.Query().Has(confirmedParam)
	s.render(w, http.StatusOK, "booking", p)
}

func (s *staysSite) cancel(w http.ResponseWriter, r *http.Request) {
	b := s.find(r.PathValue("id"))
	switch {
	case b == nil:
		s.refuse(w, http.StatusNotFound, problem{Title: "No such booking", Message: "You have no booking " + r.PathValue("id") + ".", Back: "/bookings", BackText: "Your bookings"})
		return
	case b.Lapsed():
		s.refuse(w, http.StatusConflict, problem{Title: "Not cancelled", Message: "Free cancellation of booking " + b.ID + " ended on " + b.CancelBy + ".", Back: "/bookings/" + b.ID, BackText: "Back to the booking"})
		return
	case !b.Cancellable():
		s.refuse(w, http.StatusConflict, problem{Title: "Not cancelled", Message: "Booking " + b.ID + " is already cancelled.", Back: "/bookings/" + b.ID, BackText: "Back to the booking"})
		return
	}
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	if reason == "" {
		s.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not cancelled", Message: "Please tell the host why you are cancelling.", Back: "/bookings/" + b.ID, BackText: "Back to the booking"})
		return
	}
	b.Status, b.Reason = "Cancelled", reason
	first := dayOf(b.Date)
	for d := first; d < first+b.Nights && d <= 31; d++ {
		b.Stay.Free[d] = true
	}
	seeOther(w, r, "/bookings/"+b.ID)
}

// StayBooking is one of the guest's bookings as a fresh stays site holds
// it (StaysData).
type StayBooking struct {
	ID, StayID, Date string
	Nights, Guests   int
	// Status is Confirmed or Cancelled.
	Status string
	// CancelBy is the last day of free cancellation, empty when the
	// booking can be cancelled until arrival; Cancellable says whether it
	// can be cancelled today.
	CancelBy    string
	Cancellable bool
	Reason      string
}

// StaysSnapshot is the data a fresh stays site starts with.
type StaysSnapshot struct {
	// Stays are in site order (H-101 ... H-606); each one's Free marks
	// the nights still free after the bookings.
	Stays []Stay
	// Bookings are in the order the bookings page lists them.
	Bookings []StayBooking
	// NextBooking is the number the first new booking gets (BK-2041).
	NextBooking string
}

// StaysData returns a copy of the data a fresh stays site starts with,
// for task templates to draw from.
func StaysData() StaysSnapshot {
	all, bookings := staysState()
	out := StaysSnapshot{Stays: all, NextBooking: "BK-2041"}
	for _, b := range bookings {
		out.Bookings = append(out.Bookings, StayBooking{ID: b.ID, StayID: b.Stay.ID, Date: b.Date, Nights: b.Nights, Guests: b.Guests,
			Status: b.Status, CancelBy: b.CancelBy, Cancellable: b.Cancellable(), Reason: b.Reason})
	}
	return out
}
