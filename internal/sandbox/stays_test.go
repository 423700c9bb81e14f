package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestStaysData checks that StaysData describes what a fresh site shows:
// every booking's page, its cancellability and every calendar.
func TestStaysData(t *testing.T) {
	t.Parallel()
	d := StaysData()
	if len(d.Stays) != 36 || len(d.Bookings) < 15 {
		t.Fatalf("%d stays, %d bookings; want 36 and at least 15", len(d.Stays), len(d.Bookings))
	}
	web := New(archive)
	kinds := map[string]int{}
	for _, b := range d.Bookings {
		code, _, page := do(t, web, "GET", "https://stays.sandbox.test/bookings/"+b.ID, nil)
		if code != http.StatusOK || !strings.Contains(page, `<dd class="arrive">`+b.Date+"</dd>") || !strings.Contains(page, `<dd class="booking-status">`+b.Status+"</dd>") {
			t.Errorf("%s: %d, the page does not show arrival %s and status %s", b.ID, code, b.Date, b.Status)
		}
		switch {
		case b.Cancellable:
			kinds["cancellable"]++
			if !strings.Contains(page, "Cancel booking "+b.ID) {
				t.Errorf("%s is cancellable but its page has no cancel button", b.ID)
			}
		case b.Status == "Cancelled":
			kinds["cancelled"]++
			if !strings.Contains(page, "Booking "+b.ID+" is cancelled.") {
				t.Errorf("%s is cancelled but its page does not say so", b.ID)
			}
		default:
			kinds["lapsed"]++
			if !strings.Contains(page, "Free cancellation of booking "+b.ID+" ended on "+b.CancelBy) || strings.Contains(page, "Cancel booking "+b.ID) {
				t.Errorf("%s: free cancellation ended on %s; its page must say so and offer no cancel", b.ID, b.CancelBy)
			}
		}
	}
	for _, k := range []string{"cancellable", "cancelled", "lapsed"} {
		if kinds[k] < 3 {
			t.Errorf("%d %s bookings, want at least 3 for the templates to draw from", kinds[k], k)
		}
	}
	for _, st := range d.Stays {
		_, _, page := do(t, web, "GET", "https://stays.sandbox.test/stay/"+st.ID, nil)
		for day := 1; day <= 31; day++ {
			date := fmt.Sprintf("2026-03-%02d", day)
			if free := strings.Contains(page, "book?date="+date); free != st.Free[day] {
				t.Errorf("%s on %s: the calendar says free=%v, StaysData %v", st.ID, date, free, st.Free[day])
			}
		}
	}
}

// TestStaysRefusals checks the writes the site refuses: a cancel after
// free cancellation ended, a second cancel, and nights of which one is
// taken; each leaves the booking or the calendar as it was.
func TestStaysRefusals(t *testing.T) {
	t.Parallel()
	d := StaysData()
	web := New(archive)
	for _, b := range d.Bookings {
		if b.Cancellable {
			continue
		}
		code, _, page := do(t, web, "POST", "https://stays.sandbox.test/bookings/"+b.ID+"/cancel", url.Values{"reason": {"x"}})
		want := "is already cancelled"
		if b.Status == "Confirmed" {
			want = "ended on " + b.CancelBy
		}
		if code != http.StatusConflict || !strings.Contains(page, want) {
			t.Errorf("cancel %s: %d, want 409 saying %q:\n%.300s", b.ID, code, want, page)
		}
		if _, _, page := do(t, web, "GET", "https://stays.sandbox.test/bookings/"+b.ID, nil); !strings.Contains(page, `<dd class="booking-status">`+b.Status+"</dd>") {
			t.Errorf("%s changed status after a refused cancel", b.ID)
		}
	}
	// A run of nights whose first is free and a later one taken.
	for _, st := range d.Stays {
		for day := 1; day < 31; day++ {
			if !st.Free[day] || st.Free[day+1] {
				continue
			}
			form := url.Values{"stay": {st.ID}, "date": {fmt.Sprintf("2026-03-%02d", day)}, "nights": {"2"}, "guests": {"1"}, "name": {"R"}}
			code, _, page := do(t, web, "POST", "https://stays.sandbox.test/bookings", form)
			if code != http.StatusConflict || !strings.Contains(page, fmt.Sprintf("is not free on 2026-03-%02d", day+1)) {
				t.Errorf("book %s from %d March for 2 nights: %d, want 409:\n%.300s", st.ID, day, code, page)
			}
			if _, _, cal := do(t, web, "GET", "https://stays.sandbox.test/stay/"+st.ID, nil); !strings.Contains(cal, fmt.Sprintf("book?date=2026-03-%02d", day)) {
				t.Errorf("%s: %d March is no longer free after a refused booking", st.ID, day)
			}
			return
		}
	}
	t.Fatal("no stay has a free night before a taken one")
}

// TestStaysLargest checks the city page's statement of its largest stay
// and the guest filter that shows no stay at all.
func TestStaysLargest(t *testing.T) {
	t.Parallel()
	d := StaysData()
	largest := map[string]int{}
	for _, st := range d.Stays {
		largest[st.CitySlug] = max(largest[st.CitySlug], st.MaxGuests)
	}
	web := New(archive)
	for slug, n := range largest {
		_, _, page := do(t, web, "GET", fmt.Sprintf("https://stays.sandbox.test/city/%s?guests=%d", slug, n+1), nil)
		if !strings.Contains(page, fmt.Sprintf("sleeps %d.</p>", n)) || !strings.Contains(page, `class="empty"`) || !strings.Contains(page, "0 stays for") {
			t.Errorf("%s for %d guests: the page does not say no stay fits and the largest sleeps %d:\n%.2000s", slug, n+1, n, page)
		}
		_, _, page = do(t, web, "GET", fmt.Sprintf("https://stays.sandbox.test/city/%s?guests=%d", slug, n), nil)
		if strings.Contains(page, `class="empty"`) {
			t.Errorf("%s for %d guests: says no stay fits, but one sleeps %d", slug, n, n)
		}
	}
}

// TestStaysConfirmationOnce checks that a booking's confirmation is the
// page its redirect names, not a state of the booking: the same booking's
// page without that URL, or a seeded booking's page with it, shows none,
// and no visit changes what a later one shows.
func TestStaysConfirmationOnce(t *testing.T) {
	t.Parallel()
	d := StaysData()
	web := New(archive)
	st := d.Stays[0]
	day := 0
	for n := 1; n <= 31 && day == 0; n++ {
		if st.Free[n] {
			day = n
		}
	}
	form := url.Values{"stay": {st.ID}, "date": {fmt.Sprintf("2026-03-%02d", day)}, "nights": {"1"}, "guests": {"1"}, "name": {"R"}}
	code, to, _ := do(t, web, "POST", "https://stays.sandbox.test/bookings", form)
	if code != http.StatusSeeOther || to != "/bookings/"+d.NextBooking+"?confirmed" {
		t.Fatalf("booking: %d to %q, want 303 to the new booking's confirmation", code, to)
	}
	const notice = "is confirmed."
	for i := range 2 {
		if _, _, page := do(t, web, "GET", "https://stays.sandbox.test"+to, nil); !strings.Contains(page, notice) {
			t.Errorf("visit %d of the redirect's page shows no confirmation", i+1)
		}
		if _, _, page := do(t, web, "GET", "https://stays.sandbox.test/bookings/"+d.NextBooking, nil); strings.Contains(page, notice) {
			t.Errorf("visit %d of the booking's own page shows the confirmation", i+1)
		}
	}
	if _, _, page := do(t, web, "GET", "https://stays.sandbox.test/bookings/"+d.Bookings[0].ID+"?confirmed", nil); strings.Contains(page, notice) {
		t.Errorf("a booking the site started with shows a confirmation")
	}
}
