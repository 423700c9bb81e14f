package sandbox

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestTrackerPagesRender(t *testing.T) {
	t.Parallel()
	web := New(archive)
	for _, u := range []string{
		"https://tracker.sandbox.test/", "https://tracker.sandbox.test/issues",
		"https://tracker.sandbox.test/issues?project=ATL&assignee=dwhitfield&priority=high",
		"https://tracker.sandbox.test/issues?q=login&sort=due&page=2", "https://tracker.sandbox.test/issues?status=open&label=bug&sort=created",
		"https://tracker.sandbox.test/issues/ATL-101", "https://tracker.sandbox.test/issues/ORC-101", "https://tracker.sandbox.test/issues/CRN-120",
		"https://tracker.sandbox.test/projects/ATL/board", "https://tracker.sandbox.test/projects/ORC/board",
	} {
		code, _, body := do(t, web, "GET", u, nil)
		if code != http.StatusOK || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d, want a whole page with 200:\n%.300s", u, code, body)
		}
	}
	_, _, _, issues := trackerFixture()
	for _, is := range issues {
		if is.Doc == nil {
			continue
		}
		code, _, body := do(t, web, "GET", "https://tracker.sandbox.test/docs/"+is.Key, nil)
		if code != http.StatusOK || !strings.Contains(body, TrackerPersonName(is.Doc.Owner)) {
			t.Errorf("the design doc of %s: %d, or it lacks its owner", is.Key, code)
		}
		break
	}
	for _, u := range []string{"https://tracker.sandbox.test/issues/ATL-999", "https://tracker.sandbox.test/projects/XYZ/board", "https://tracker.sandbox.test/docs/ATL-999"} {
		if code, _, _ := do(t, web, "GET", u, nil); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", u, code)
		}
	}
	if _, _, body := do(t, web, "GET", "https://tracker.sandbox.test/static/tracker.js", nil); body != "static" {
		t.Errorf("the tracker's script is not left to the archive: %.100s", body)
	}
}

// trackerFixture returns the tracker's data as templates see it.
func trackerFixture() ([]TrackerPerson, []TrackerProject, map[string]TrackerIssue, []TrackerIssue) {
	people, projects, issues := TrackerData()
	byKey := map[string]TrackerIssue{}
	for _, is := range issues {
		byKey[is.Key] = is
	}
	return people, projects, byKey, issues
}

func TestTrackerData(t *testing.T) {
	t.Parallel()
	people, projects, byKey, issues := trackerFixture()
	if len(issues) < 250 || len(people) < 12 || len(projects) < 5 {
		t.Fatalf("%d issues, %d people, %d projects: want hundreds of issues, a dozen people, five projects", len(issues), len(people), len(projects))
	}
	_, _, again := TrackerData()
	for i := range issues {
		a, b := issues[i], again[i]
		if a.Key != b.Key || a.Title != b.Title || a.Assignee != b.Assignee || a.Due != b.Due || a.Status != b.Status || len(a.Comments) != len(b.Comments) {
			t.Fatalf("two builds differ at %d: %+v vs %+v", i, a, b)
		}
	}
	titles := map[string]int{}
	var locked, docs, mine int
	for _, is := range issues {
		titles[is.Title]++
		if is.Locked() {
			locked++
		}
		if is.Doc != nil {
			docs++
		}
		for _, c := range is.Comments {
			if c.Author == TrackerMe.User {
				mine++
			}
		}
		if is.Due != "" && is.Due < is.Created {
			t.Errorf("%s is due %s, before it was created (%s)", is.Key, is.Due, is.Created)
		}
	}
	if len(titles) > len(issues)*3/4 {
		t.Errorf("%d distinct titles among %d issues: want near-duplicates", len(titles), len(issues))
	}
	if locked < 20 || docs < 40 || mine < 20 {
		t.Errorf("%d locked issues, %d design docs, %d own comments: want enough of each to draw tasks from", locked, docs, mine)
	}
	if _, ok := byKey["ATL-101"]; !ok {
		t.Error("no ATL-101")
	}
	_, _, p1 := do(t, New(archive), "GET", "https://tracker.sandbox.test/issues/DLT-130", nil)
	_, _, p2 := do(t, New(archive), "GET", "https://tracker.sandbox.test/issues/DLT-130", nil)
	if p1 != p2 {
		t.Error("the same issue page of two fresh sandboxes differs")
	}
}

// trackerPick returns the first issue of the fixture that ok accepts.
func trackerPick(t *testing.T, ok func(TrackerIssue) bool) TrackerIssue {
	t.Helper()
	_, _, _, issues := trackerFixture()
	for _, is := range issues {
		if ok(is) {
			return is
		}
	}
	t.Fatal("no issue fits")
	return TrackerIssue{}
}

func TestTrackerForms(t *testing.T) {
	t.Parallel()
	const host = "https://tracker.sandbox.test"
	open := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "ATL" && !is.Locked() && is.Status == "todo" })
	locked := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "BRD" && is.Locked() })
	archived := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "ORC" && !is.Locked() })
	cairn := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "CRN" && !is.Locked() })
	mineOn := trackerPick(t, func(is TrackerIssue) bool {
		for _, c := range is.Comments {
			if c.Author == TrackerMe.User && !is.Locked() && is.Project != "ORC" {
				return true
			}
		}
		return false
	})
	var myComment, theirComment int
	for _, c := range mineOn.Comments {
		if c.Author == TrackerMe.User && myComment == 0 {
			myComment = c.ID
		}
	}
	other := trackerPick(t, func(is TrackerIssue) bool {
		return !is.Locked() && is.Project != "ORC" && len(is.Comments) > 0 && is.Comments[0].Author != TrackerMe.User
	})
	theirComment = other.Comments[0].ID
	issue := func(is TrackerIssue) string { return host + "/issues/" + is.Key }
	tests := []struct {
		name       string
		url        string
		form       url.Values
		wantStatus int
		wantLoc    string
		// then is a page fetched afterwards and the texts it must hold.
		then    string
		thenHas []string
	}{
		{"assign", issue(open) + "/assignee", url.Values{"assignee": {"dwhitford"}}, http.StatusSeeOther, "/issues/" + open.Key + "?assigned=dwhitford",
			issue(open) + "?assigned=dwhitford", []string{open.Key + " is now assigned to Dana Whitford.", `<dd class="assignee">Dana Whitford</dd>`}},
		{"assign a stranger", issue(open) + "/assignee", url.Values{"assignee": {"nobody"}}, http.StatusUnprocessableEntity, "", "", nil},
		{"due date", issue(open) + "/due", url.Values{"due": {"2026-04-14"}}, http.StatusSeeOther, "/issues/" + open.Key + "?due=2026-04-14",
			issue(open) + "?due=2026-04-14", []string{"is now 14 April 2026.", `<dd class="due">14 April 2026</dd>`}},
		{"due before creation", issue(open) + "/due", url.Values{"due": {"2025-01-01"}}, http.StatusUnprocessableEntity, "",
			issue(open), []string{`<dd class="due">`}},
		{"priority", issue(open) + "/priority", url.Values{"priority": {"highest"}}, http.StatusSeeOther, "/issues/" + open.Key + "?priority=highest",
			issue(open) + "?priority=highest", []string{"The priority of " + open.Key + " is now Highest.", `<dd class="priority">Highest</dd>`}},
		{"add a label", issue(open) + "/labels", url.Values{"action": {"add"}, "label": {"security"}}, http.StatusSeeOther, "/issues/" + open.Key + "?label=security&labelled=added",
			issue(open) + "?label=security&labelled=added", []string{"Label security added to " + open.Key, `<span class="label">security</span>`}},
		{"comment", issue(open) + "/comments", url.Values{"body": {"Looks fixed on staging."}}, http.StatusSeeOther, "/issues/" + open.Key + "?commented=1&comment=9001#comment-9001",
			issue(open) + "?commented=1&comment=9001", []string{"Your comment was added to " + open.Key + ".", `id="comment-9001"`, "Looks fixed on staging."}},
		{"empty comment", issue(open) + "/comments", url.Values{"body": {"  "}}, http.StatusUnprocessableEntity, "", "", nil},
		{"move on the board", issue(open) + "/move", url.Values{"status": {"review"}, "from": {"board"}}, http.StatusSeeOther, "/projects/ATL/board?moved=" + open.Key + "&to=review",
			host + "/projects/ATL/board?moved=" + open.Key + "&to=review", []string{open.Key + " moved to In review."}},
		{"close", issue(open) + "/move", url.Values{"status": {"done"}}, http.StatusSeeOther, "/issues/" + open.Key + "?moved=done",
			issue(open) + "?moved=done", []string{open.Key + " moved to Done.", `<dd class="status">Done</dd>`, "Reopen issue"}},
		{"watch", issue(open) + "/watch", nil, http.StatusSeeOther, "/issues/" + open.Key + "?watching=1",
			issue(open) + "?watching=1", []string{"You are now watching " + open.Key + ".", `<dd class="watching">Yes</dd>`}},
		{"duplicate", issue(open) + "/duplicate", nil, http.StatusSeeOther, "/issues/ATL-165?copied=" + open.Key,
			host + "/issues/ATL-165?copied=" + open.Key, []string{"ATL-165 was created as a copy of " + open.Key + ".", open.Title}},
		{"delete", issue(open) + "/delete", nil, http.StatusSeeOther, "/issues?deleted=" + open.Key + "&project=ATL",
			host + "/issues?deleted=" + open.Key + "&project=ATL", []string{open.Key + " was deleted.", "63 issues"}},
		{"delete without permission", issue(cairn) + "/delete", nil, http.StatusForbidden, "",
			issue(cairn), []string{"Only admins of Cairn API can delete its issues"}},
		{"change a shipped issue", issue(locked) + "/move", url.Values{"status": {"todo"}}, http.StatusConflict, "",
			issue(locked), []string{locked.Key + " is locked: it shipped in Birdseye Mobile 5.1"}},
		{"comment in an archived project", issue(archived) + "/comments", url.Values{"body": {"x"}}, http.StatusConflict, "",
			issue(archived), []string{"Orchard Legacy is archived, so its issues are read-only."}},
		{"delete my comment", host + "/comments/" + itoa(myComment) + "/delete", nil, http.StatusSeeOther, "/issues/" + mineOn.Key + "?comment=" + itoa(myComment) + "&commented=0",
			issue(mineOn) + "?comment=" + itoa(myComment) + "&commented=0", []string{"Your comment was deleted."}},
		{"delete another's comment", host + "/comments/" + itoa(theirComment) + "/delete", nil, http.StatusForbidden, "", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			web := New(archive)
			form := tc.form
			if form == nil {
				form = url.Values{}
			}
			code, loc, body := do(t, web, "POST", tc.url, form)
			if code != tc.wantStatus || tc.wantLoc != "" && loc != tc.wantLoc {
				t.Fatalf("POST %s: %d to %q, want %d to %q:\n%.300s", tc.url, code, loc, tc.wantStatus, tc.wantLoc, body)
			}
			if code != http.StatusSeeOther && !strings.Contains(body, `<p class="error">`) {
				t.Errorf("POST %s refused without saying why:\n%.300s", tc.url, body)
			}
			if tc.then == "" {
				return
			}
			_, _, page := do(t, web, "GET", tc.then, nil)
			for _, want := range tc.thenHas {
				if !strings.Contains(page, want) {
					t.Errorf("GET %s lacks %q", tc.then, want)
				}
			}
			if code != http.StatusSeeOther {
				return
			}
			// A visit changes nothing: the redirect's page shows the same
			// again, and the page without the write's query no notice.
			if _, _, again := do(t, web, "GET", tc.then, nil); again != page {
				t.Errorf("GET %s shows another page on a second visit", tc.then)
			}
			plain, _, _ := strings.Cut(tc.then, "?")
			if _, _, bare := do(t, web, "GET", plain, nil); strings.Contains(bare, `class="notice"`) {
				t.Errorf("GET %s shows a notice without the write's query", plain)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTrackerRefusalsSayWhy: the pages of issues that cannot change say why
// before any attempt, and a refused due date says why.
func TestTrackerRefusalsSayWhy(t *testing.T) {
	t.Parallel()
	web := New(archive)
	locked := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "DLT" && is.Locked() })
	_, _, page := do(t, web, "GET", "https://tracker.sandbox.test/issues/"+locked.Key, nil)
	if !strings.Contains(page, `<p class="readonly-reason" role="note">`+locked.Key+` is locked`) || strings.Contains(page, "Save due date") {
		t.Errorf("the page of shipped %s does not say it is locked, or offers changes", locked.Key)
	}
	cairn := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "CRN" && !is.Locked() })
	_, _, page = do(t, web, "GET", "https://tracker.sandbox.test/issues/"+cairn.Key, nil)
	if !strings.Contains(page, `class="permission-note"`) || strings.Contains(page, "Delete issue") {
		t.Errorf("the page of %s does not say why it cannot be deleted, or offers to delete it", cairn.Key)
	}
	open := trackerPick(t, func(is TrackerIssue) bool { return is.Project == "ATL" && !is.Locked() })
	code, _, body := do(t, web, "POST", "https://tracker.sandbox.test/issues/"+open.Key+"/due", url.Values{"due": {"2025-01-01"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "A due date cannot be before the issue was created ("+TrackerDate(open.Created)+").") {
		t.Errorf("a due date before creation: %d %.300s", code, body)
	}
}
