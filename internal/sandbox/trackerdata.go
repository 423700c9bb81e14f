package sandbox

import (
	"fmt"
	"strings"
	"time"
)

// TrackerPerson is a member of the tracker's invented team.
type TrackerPerson struct {
	// User is the short user name the assignee form field carries.
	User, Name string
}

// TrackerProject is one of the tracker's projects.
type TrackerProject struct {
	Key, Name, About string
	// Archived projects are read-only.
	Archived bool
	// Admin reports whether the signed-in user administers the project;
	// only admins may delete its issues.
	Admin bool
	// Release is the project's latest shipped release; issues fixed in it
	// are locked.
	Release, Released string
}

// TrackerComment is a comment on an issue.
type TrackerComment struct {
	ID           int
	Author, Date string
	Body         string
}

// TrackerIssue is an issue as the tracker starts with it.
type TrackerIssue struct {
	Key, Project string
	Number       int
	Title        string
	Description  string
	// Status is todo, progress, review or done.
	Status string
	// Priority is highest, high, medium or low.
	Priority string
	// Assignee is a user name, or "" when nobody is assigned.
	Assignee string
	Labels   []string
	Created  string
	// Due is a date (2006-01-02), or "".
	Due string
	// FixedIn is the release the issue shipped in; such an issue is locked.
	FixedIn  string
	Comments []TrackerComment
	// Doc is the linked design document, if any.
	Doc *TrackerDoc
}

// TrackerDoc is an issue's linked design document, a page of its own.
type TrackerDoc struct {
	Title    string
	Owner    string // a user name
	Release  string
	Decision string
}

// Locked reports whether the issue shipped in a release and so cannot change.
func (i *TrackerIssue) Locked() bool { return i.FixedIn != "" }

// TrackerMe is the signed-in user.
var TrackerMe = TrackerPerson{User: "skeller", Name: "Sam Keller"}

var trackerPeople = []TrackerPerson{
	{"dwhitfield", "Dana Whitfield"}, {"dwhitford", "Dana Whitford"},
	{"jberg", "Jonas Berg"}, {"jberger", "Jonas Berger"},
	{"mosei", "Mira Osei"}, {"minaosei", "Mina Osei"},
	{"treyes", "Tomás Reyes"}, {"treyna", "Tomas Reyna"},
	{"pnair", "Priya Nair"}, {"pnaik", "Priya Naik"},
	{"lhartmann", "Leo Hartmann"}, {"leahartmann", "Lea Hartmann"},
}

var trackerProjects = []TrackerProject{
	{Key: "ATL", Name: "Atlas Web", About: "The customer-facing web app.", Admin: true, Release: "2.4", Released: "2026-02-12"},
	{Key: "BRD", Name: "Birdseye Mobile", About: "The iOS and Android apps.", Admin: true, Release: "5.1", Released: "2026-02-19"},
	{Key: "CRN", Name: "Cairn API", About: "The public REST API and its gateway.", Admin: false, Release: "1.9", Released: "2026-02-05"},
	{Key: "DLT", Name: "Delta Sync", About: "The background sync service.", Admin: true, Release: "3.0", Released: "2026-02-24"},
	{Key: "ORC", Name: "Orchard Legacy", About: "The old desktop client, retired in January.", Archived: true, Admin: true, Release: "0.9", Released: "2025-12-15"},
}

// trackerStatuses are the board's columns, in order: value and label.
var trackerStatuses = [][2]string{{"todo", "To do"}, {"progress", "In progress"}, {"review", "In review"}, {"done", "Done"}}

var trackerPriorities = [][2]string{{"highest", "Highest"}, {"high", "High"}, {"medium", "Medium"}, {"low", "Low"}}

var trackerLabels = []string{"bug", "feature", "ui", "backend", "docs", "performance", "security", "chore"}

// trackerTitles are the bases of issue titles; %s takes one of the
// variants, so that near-duplicate titles appear across and within
// projects.
var trackerTitles = []struct {
	base     string
	variants []string
}{
	{"Login button misaligned on %s", []string{"Safari", "Firefox", "small screens"}},
	{"Export to CSV drops %s", []string{"the header row", "empty columns", "accented names"}},
	{"Password reset email %s", []string{"arrives twice", "has a broken link", "goes to spam"}},
	{"Search results ignore %s", []string{"the date filter", "archived items", "quoted phrases"}},
	{"Crash when %s", []string{"opening an empty folder", "rotating the screen", "uploading a large file"}},
	{"Slow %s on the dashboard", []string{"first load", "chart rendering", "filter changes"}},
	{"Add %s to settings", []string{"a dark mode toggle", "a language picker", "two-factor setup"}},
	{"Rate limit headers missing on %s", []string{"batch endpoints", "error responses", "the health check"}},
	{"Sync stalls after %s", []string{"a network change", "a clock change", "a large delete"}},
	{"Document the %s", []string{"webhook retries", "pagination cursors", "release process"}},
	{"Upgrade %s", []string{"the database driver", "the charting library", "the build image"}},
	{"Tooltip text %s", []string{"cut off in German", "overlaps the icon", "missing on hover"}},
	{"Notification badge %s", []string{"never clears", "shows the wrong count", "flickers on resume"}},
	{"Token refresh fails %s", []string{"after sleep", "behind a proxy", "for SSO users"}},
	{"Timezone shown wrong in %s", []string{"reminders", "the activity feed", "exported reports"}},
	{"Flaky test in %s", []string{"the checkout suite", "the sync suite", "the auth suite"}},
}

var trackerSentences = []string{
	"I can reproduce this on the staging build.",
	"Steps are in the description; it happens about one time in three.",
	"This blocks the release checklist, so it should go first.",
	"Could be related to the change we made last sprint.",
	"I added logs around the failing call; they are in the shared folder.",
	"Customers noticed this; support has two tickets about it.",
	"A quick fix is possible, but the right fix touches the data model.",
	"Let us pair on this tomorrow morning.",
	"Moved the investigation notes to the design doc.",
	"Not seen on the previous version.",
}

var trackerDecisions = []string{
	"Keep the current schema and add an index.",
	"Move the work to a background queue.",
	"Replace the custom widget with the shared component.",
	"Cache the result for five minutes.",
	"Split the endpoint in two and deprecate the old one.",
	"Retry with backoff, at most three times.",
}

// trackerData builds the tracker's issues from a fixed seed.
func trackerData() []*TrackerIssue {
	g := &gen{s: 0x7ac_4e5}
	day0 := time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC)
	date := func(t time.Time) string { return t.Format("2006-01-02") }
	var issues []*TrackerIssue
	commentID := 1
	for pi, p := range trackerProjects {
		n := 64
		if p.Archived {
			n = 40
		}
		for k := range n {
			num := 101 + k
			tt := trackerTitles[g.intn(len(trackerTitles))]
			title := fmt.Sprintf(tt.base, pick(g, tt.variants))
			created := day0.AddDate(0, 0, (k*148)/n+g.intn(3))
			is := &TrackerIssue{
				Key: fmt.Sprintf("%s-%d", p.Key, num), Project: p.Key, Number: num, Title: title,
				Created: date(created),
			}
			is.Description = pick(g, trackerSentences) + " " + pick(g, trackerSentences)
			switch x := g.intn(10); {
			case x < 4:
				is.Status = "todo"
			case x < 6:
				is.Status = "progress"
			case x < 7:
				is.Status = "review"
			default:
				is.Status = "done"
			}
			is.Priority = trackerPriorities[[]int{0, 1, 1, 2, 2, 2, 3, 3}[g.intn(8)]][0]
			if g.intn(8) > 0 {
				is.Assignee = trackerPeople[g.intn(len(trackerPeople))].User
			}
			first := g.intn(len(trackerLabels))
			is.Labels = []string{trackerLabels[first]}
			if g.intn(2) == 0 {
				if second := g.intn(len(trackerLabels)); second != first {
					is.Labels = append(is.Labels, trackerLabels[second])
				}
			}
			sortLabels(is.Labels)
			if g.intn(5) < 3 {
				is.Due = date(created.AddDate(0, 0, 14+g.intn(120)))
			}
			if is.Status == "done" && (p.Archived || g.intn(2) == 0) {
				is.FixedIn = p.Release
			}
			// Comments follow each other a few days apart, none after Today.
			last := created
			for range g.intn(4) {
				author := trackerPeople[g.intn(len(trackerPeople))].User
				if g.intn(4) == 0 {
					author = TrackerMe.User
				}
				last = last.AddDate(0, 0, 1+g.intn(7))
				on := date(last)
				if on > Today {
					on = Today
				}
				is.Comments = append(is.Comments, TrackerComment{ID: commentID, Author: author, Date: on, Body: pick(g, trackerSentences)})
				commentID++
			}
			if (k+pi)%5 == 2 {
				is.Doc = &TrackerDoc{Title: "Design: " + title, Owner: trackerPeople[g.intn(len(trackerPeople))].User,
					Release: fmt.Sprintf("%s.%d", strings.Split(p.Release, ".")[0], 1+g.intn(6)), Decision: pick(g, trackerDecisions)}
			}
			issues = append(issues, is)
		}
	}
	return issues
}

func sortLabels(ls []string) {
	rank := func(l string) int {
		for i, x := range trackerLabels {
			if x == l {
				return i
			}
		}
		return len(trackerLabels)
	}
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && rank(ls[j]) < rank(ls[j-1]); j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// TrackerData returns the tracker's people, projects and issues as every
// task starts with them. The values are fresh copies: changing them
// changes nothing on the site.
func TrackerData() (people []TrackerPerson, projects []TrackerProject, issues []TrackerIssue) {
	for _, is := range trackerData() {
		issues = append(issues, *is)
	}
	return append([]TrackerPerson(nil), trackerPeople...), append([]TrackerProject(nil), trackerProjects...), issues
}

// TrackerPersonName returns the full name of user name u, or "" when there
// is none.
func TrackerPersonName(u string) string {
	if u == TrackerMe.User {
		return TrackerMe.Name
	}
	for _, p := range trackerPeople {
		if p.User == u {
			return p.Name
		}
	}
	return ""
}

// TrackerDate formats a 2006-01-02 date as the tracker shows it to people
// ("14 April 2026").
func TrackerDate(d string) string {
	t, err := time.Parse("2006-01-02", d)
	if err != nil {
		return d
	}
	return t.Format("2 January 2006")
}
