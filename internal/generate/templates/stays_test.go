package templates

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// perAppTemplate is how many distinct instances each template of stays
// and forum must give at least.
const perAppTemplate = 12

// checkApp checks one application's templates: all six kinds, at least
// eight templates, references of six steps or more at the median, every
// instance a valid task, read-only instructions free of their answers,
// and draws that repeat with the seed.
func checkApp(t *testing.T, app string, ts []generate.Template) []generate.Drawn {
	t.Helper()
	if len(ts) < 8 {
		t.Errorf("%s: %d templates, want at least 8", app, len(ts))
	}
	kinds := map[generate.Kind]bool{}
	for _, tpl := range ts {
		kinds[tpl.Kind] = true
		if tpl.App != app || !strings.HasPrefix(tpl.ID, app+"-") {
			t.Errorf("%s: app %q", tpl.ID, tpl.App)
		}
	}
	for _, k := range generate.Kinds {
		if !kinds[k] {
			t.Errorf("%s: no template of kind %s", app, k)
		}
	}
	var all []generate.Drawn
	var lengths []int
	for i := range ts {
		drawn, err := generate.Draw(ts[i:i+1], 3, perAppTemplate, "")
		if err != nil {
			t.Fatal(err)
		}
		again, _ := generate.Draw(ts[i:i+1], 3, perAppTemplate, "")
		if !reflect.DeepEqual(drawn, again) {
			t.Errorf("%s: two draws with one seed differ", ts[i].ID)
		}
		for _, d := range drawn {
			lengths = append(lengths, len(d.Reference))
			task := &suite.Task{ID: d.ID, Instruction: d.Instruction, StartURL: d.StartURL, Timeout: generate.Timeout,
				Postconditions: d.Contract, Reference: d.Reference, Rationale: d.Rationale}
			data, err := generate.TaskYAML(task)
			if err != nil {
				t.Fatalf("%s: %v", d.ID, err)
			}
			if _, err := suite.ParseTask(d.ID+".yaml", data); err != nil {
				t.Errorf("%s: not a valid task: %v\n%s", d.ID, err, data)
			}
			if !changes(d.Template.Kind) {
				for _, s := range answers(d.Contract) {
					if strings.Contains(strings.ToLower(d.Instruction), strings.ToLower(s)) {
						t.Errorf("%s: the instruction gives away %q", d.ID, s)
					}
				}
			}
			for _, c := range d.Controls {
				if c.FailsOn < 0 || c.FailsOn >= len(d.Contract) || reflect.DeepEqual(c.Reference, d.Reference) {
					t.Errorf("%s: control %s fails on %d of %d clauses, or is the reference", d.ID, c.Name, c.FailsOn, len(d.Contract))
				}
			}
			if d.Template.Kind == generate.KindImpossible {
				if _, ok := d.Contract[0].(*contract.Not); !ok {
					t.Errorf("%s: a task that cannot be done starts with a clause forbidding every write", d.ID)
				}
			}
		}
		all = append(all, drawn...)
	}
	slices.Sort(lengths)
	if m := lengths[len(lengths)/2]; m < 6 {
		t.Errorf("%s: median reference %d steps, want at least 6", app, m)
	}
	return all
}

// formOf returns the form fields the contract's first clause pins.
func formOf(t *testing.T, d generate.Drawn, i int) map[string]string {
	t.Helper()
	n, ok := d.Contract[i].(*contract.Network)
	if !ok {
		t.Fatalf("%s: clause %d is %T, want a network clause", d.ID, i, d.Contract[i])
	}
	return n.Form
}

// TestStaysTemplates checks the stays templates and that what each
// instance asks for is so in the site's data: the nights booked are free,
// the stays taken are taken, the bookings that cannot be cancelled cannot.
func TestStaysTemplates(t *testing.T) {
	for _, d := range checkApp(t, "stays", staysTemplates) {
		p := d.Params
		switch d.Template.ID {
		case "stays-book-dates", "stays-book-cheapest-free":
			f := formOf(t, d, 0)
			st := staysStay(f["stay"])
			nights, _ := strconv.Atoi(f["nights"])
			guests, _ := strconv.Atoi(f["guests"])
			if !staysFree(st, staysDay(f["date"]), nights) || guests > st.MaxGuests {
				t.Errorf("%s: books %v, which the site refuses", d.ID, f)
			}
			if d.Template.ID == "stays-book-cheapest-free" {
				g, _ := strconv.Atoi(p["guests"])
				list := staysCity(p["city"], g)
				if staysFree(list[0], staysDay(p["date"]), nights) || list[0].ID == st.ID {
					t.Errorf("%s: the cheapest stay for the group is free, so nothing need be compared", d.ID)
				}
				for _, o := range list {
					if o.Cents < st.Cents && staysFree(o, staysDay(p["date"]), nights) {
						t.Errorf("%s: %s is cheaper than %s and free", d.ID, o.ID, st.ID)
					}
				}
			}
		case "stays-cancel-booking", "stays-move-booking":
			if b := staysBooking(p["booking"]); !b.Cancellable {
				t.Errorf("%s: %s cannot be cancelled", d.ID, b.ID)
			}
		case "stays-impossible-cancel":
			if b := staysBooking(p["booking"]); b.Cancellable {
				t.Errorf("%s: %s can be cancelled", d.ID, b.ID)
			}
		case "stays-impossible-taken-night":
			nights, _ := strconv.Atoi(p["nights"])
			st := staysStay(p["stay"])
			if day := staysDay(p["date"]); !st.Free[day] || staysFree(st, day, nights) {
				t.Errorf("%s: arrival must be free and a later night taken", d.ID)
			}
		case "stays-impossible-too-many-guests":
			g, _ := strconv.Atoi(p["guests"])
			if len(staysCity(p["city"], g)) != 0 {
				t.Errorf("%s: a stay in %s sleeps %d", d.ID, p["city"], g)
			}
		case "stays-find-cheapest-for-group":
			g, _ := strconv.Atoi(p["guests"])
			want := staysAt(stays.Stay, staysCity(p["city"], g)[0].ID, "", "")
			if u := d.Contract[0].(*contract.URL).Pattern; u != want {
				t.Errorf("%s: ends on %s, want %s", d.ID, u, want)
			}
		}
		if len(d.Alternates) < 2 || len(d.Controls) < 3 {
			t.Errorf("%s: %d alternates and %d controls, want at least 2 and 3", d.ID, len(d.Alternates), len(d.Controls))
		}
	}
}

// TestStaysPatterns checks the URL and form patterns the stays contracts
// compare with: a fragment or an unrelated parameter never decides, the
// parameter the task is about does.
func TestStaysPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{staysAt(stays.Stay, "H-101", "", ""), staysURL("/stay/H-101"), true},
		{staysAt(stays.Stay, "H-101", "", ""), staysURL("/stay/H-101#availability"), true},
		{staysAt(stays.Stay, "H-101", "", ""), staysURL("/stay/H-101?from=list#x"), true},
		{staysAt(stays.Stay, "H-101", "", ""), staysURL("/stay/H-1011"), false},
		{staysAt(stays.BookForm, "H-101", "date", "2026-03-05"), staysURL("/stay/H-101/book?date=2026-03-05#nights"), true},
		{staysAt(stays.BookForm, "H-101", "date", "2026-03-05"), staysURL("/stay/H-101/book?ref=x&date=2026-03-05"), true},
		{staysAt(stays.BookForm, "H-101", "date", "2026-03-05"), staysURL("/stay/H-101/book?date=2026-03-06"), false},
		{staysAt(stays.BookForm, "H-101", "date", "2026-03-05"), staysURL("/stay/H-101/book#date=2026-03-05"), false},
	} {
		if got := regexp.MustCompile(c.pattern).MatchString(c.s); got != c.want {
			t.Errorf("%s on %q: %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// TestStaysWordsAndCalendar checks the words a stays instruction uses
// for a date and the calendar link the reference names.
func TestStaysWordsAndCalendar(t *testing.T) {
	for day, words := range map[int]string{1: "Sunday 1 March", 4: "Wednesday 4 March", 31: "Tuesday 31 March"} {
		if got := staysWords(day); got != words {
			t.Errorf("staysWords(%d) = %q, want %q", day, got, words)
		}
	}
	if got := staysArrive(4); got != "Arrive Wed 4 March" {
		t.Errorf("staysArrive(4) = %q", got)
	}
	if got := fmt.Sprint(staysCount(1, "night", "nights"), ", ", staysCount(3, "guest", "guests")); got != "one night, three guests" {
		t.Errorf("staysCount: %q", got)
	}
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

// staysURL is the site's URL of path, written out: what a browser shows.
func staysURL(path string) string { return "https://stays.sandbox.test" + path }
