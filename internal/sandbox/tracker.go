package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// tracker is tracker.sandbox.test, Keystone: projects of issues with
// filters and search, issue pages (assignee, due date, priority, labels,
// comments, status, delete), a board per project whose cards are dragged
// between columns, and linked design documents.
type tracker struct {
	*site
	issues      []*TrackerIssue // in key order; deleted ones removed
	watching    map[string]bool
	nextComment int
	// What the notices of some writes say, kept by the writes: the issue
	// each copy was made from, the issues deleted, the comments deleted.
	copyOf          map[string]string
	deleted         map[string]bool
	deletedComments map[int]bool
}

func newTracker(fallback http.Handler) *tracker {
	t := &tracker{issues: trackerData(), watching: map[string]bool{}, nextComment: 9001,
		copyOf: map[string]string{}, deleted: map[string]bool{}, deletedComments: map[int]bool{}}
	t.site = newSite("tracker", fallback, map[string]any{
		"person":      TrackerPersonName,
		"humanDate":   TrackerDate,
		"statusLabel": func(s string) string { return label(trackerStatuses, s) },
		"prioLabel":   func(s string) string { return label(trackerPriorities, s) },
	})
	t.serve(&Tracker, map[*Route]http.HandlerFunc{
		&Tracker.Home:          t.home,
		&Tracker.Issues:        t.list,
		&Tracker.Issue:         t.issuePage,
		&Tracker.Board:         t.board,
		&Tracker.Doc:           t.doc,
		&Tracker.Assign:        t.write(t.assign),
		&Tracker.SetDue:        t.write(t.setDue),
		&Tracker.SetPriority:   t.write(t.setPriority),
		&Tracker.SetLabels:     t.write(t.setLabels),
		&Tracker.Comment:       t.write(t.comment),
		&Tracker.Move:          t.write(t.move),
		&Tracker.Watch:         t.write(t.watch),
		&Tracker.Duplicate:     t.write(t.duplicate),
		&Tracker.DeleteIssue:   t.write(t.deleteIssue),
		&Tracker.DeleteComment: t.deleteComment,
	})
	return t
}

func label(pairs [][2]string, v string) string {
	for _, p := range pairs {
		if p[0] == v {
			return p[1]
		}
	}
	return ""
}

type trackerPage struct {
	Title    string
	Me       TrackerPerson
	Projects []TrackerProject
	People   []TrackerPerson
	Flash    string

	// The issue list.
	URL                          *url.URL
	Filter                       trackerFilter
	Project                      *TrackerProject
	Issues                       []*TrackerIssue
	Total, Page, Pages           int
	PrevURL, NextURL             string
	Statuses, Priorities         [][2]string
	Labels                       []string
	FilterPeople                 []TrackerPerson
	ReadOnly, Permission         string
	Issue                        *TrackerIssue
	Watching                     bool
	Columns                      []trackerColumn
	Today                        string
	LabelsToAdd                  []string
	IssueProject, DuplicateTitle string
}

type trackerColumn struct {
	Status, Label string
	Issues        []*TrackerIssue
}

type trackerFilter struct {
	Project, Status, Assignee, Label, Priority, Q, Sort string
}

func (t *tracker) page(title string) *trackerPage {
	return &trackerPage{Title: title, Me: TrackerMe, Projects: trackerProjects, People: trackerPeople,
		Statuses: trackerStatuses, Priorities: trackerPriorities, Labels: trackerLabels, Today: Today}
}

// The notices of the writes are carried by the URL each write redirects
// to, and each shows only while what it says is so: a visit never changes
// the tracker, a reload shows the same page, and a URL typed without the
// write confirms nothing.

// issueNotice is the notice an issue's page shows for the query q of its
// URL, or "".
func (t *tracker) issueNotice(is *TrackerIssue, q url.Values) string {
	if n := issueFieldNotice(is, q); n != "" {
		return n
	}
	l := q.Get("label")
	id, _ := strconv.Atoi(q.Get("comment"))
	switch {
	case q.Get("labelled") == "added" && slices.Contains(is.Labels, l):
		return "Label " + l + " added to " + is.Key + "."
	case q.Get("labelled") == "removed" && slices.Contains(trackerLabels, l) && !slices.Contains(is.Labels, l):
		return "Label " + l + " removed from " + is.Key + "."
	case q.Get("commented") == "1" && slices.ContainsFunc(is.Comments, func(c TrackerComment) bool { return c.ID == id && c.Author == TrackerMe.User }):
		return "Your comment was added to " + is.Key + "."
	case q.Get("commented") == "0" && t.deletedComments[id] && !slices.ContainsFunc(is.Comments, func(c TrackerComment) bool { return c.ID == id }):
		return "Your comment was deleted."
	case q.Get("watching") == "1" && t.watching[is.Key]:
		return "You are now watching " + is.Key + "."
	case q.Get("watching") == "0" && !t.watching[is.Key]:
		return "You stopped watching " + is.Key + "."
	case q.Has("copied") && t.copyOf[is.Key] == q.Get("copied"):
		return is.Key + " was created as a copy of " + q.Get("copied") + "."
	}
	return ""
}

// issueFieldNotice is the notice for a write of one of the issue's own
// fields (assignee, due date, priority, status), or "".
func issueFieldNotice(is *TrackerIssue, q url.Values) string {
	switch {
	case q.Has("assigned") && q.Get("assigned") == is.Assignee && is.Assignee == "":
		return is.Key + " is now unassigned."
	case q.Has("assigned") && q.Get("assigned") == is.Assignee:
		return is.Key + " is now assigned to " + TrackerPersonName(is.Assignee) + "."
	case q.Has("due") && q.Get("due") == is.Due && is.Due == "":
		return "The due date of " + is.Key + " was removed."
	case q.Has("due") && q.Get("due") == is.Due:
		return "The due date of " + is.Key + " is now " + TrackerDate(is.Due) + "."
	case q.Has("priority") && q.Get("priority") == is.Priority:
		return "The priority of " + is.Key + " is now " + label(trackerPriorities, is.Priority) + "."
	case q.Has("moved") && q.Get("moved") == is.Status:
		return is.Key + " moved to " + label(trackerStatuses, is.Status) + "."
	}
	return ""
}

// boardNotice is the notice a project's board shows for its query q: a
// card moved there, while it is in the column the move put it in.
func (t *tracker) boardNotice(pr *TrackerProject, q url.Values) string {
	is := t.find(q.Get("moved"))
	if is == nil || is.Project != pr.Key || is.Status != q.Get("to") {
		return ""
	}
	return is.Key + " moved to " + label(trackerStatuses, is.Status) + "."
}

// listNotice is the notice the issue list shows for its query q: an
// issue deleted.
func (t *tracker) listNotice(q url.Values) string {
	if k := q.Get("deleted"); t.deleted[k] && t.find(k) == nil {
		return k + " was deleted."
	}
	return ""
}

func (t *tracker) project(key string) *TrackerProject {
	for i := range trackerProjects {
		if trackerProjects[i].Key == key {
			return &trackerProjects[i]
		}
	}
	return nil
}

func (t *tracker) find(key string) *TrackerIssue {
	for _, is := range t.issues {
		if is.Key == key {
			return is
		}
	}
	return nil
}

func (t *tracker) home(w http.ResponseWriter, r *http.Request) {
	p := t.page("Projects")
	type row struct {
		TrackerProject
		Open, All int
	}
	var rows []row
	for _, pr := range trackerProjects {
		x := row{TrackerProject: pr}
		for _, is := range t.issues {
			if is.Project == pr.Key {
				x.All++
				if is.Status != "done" {
					x.Open++
				}
			}
		}
		rows = append(rows, x)
	}
	t.render(w, http.StatusOK, "home", struct {
		*trackerPage
		Rows []row
	}{p, rows})
}

const trackerPageSize = 25

func (t *tracker) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := trackerFilter{Project: q.Get("project"), Status: q.Get("status"), Assignee: q.Get("assignee"),
		Label: q.Get("label"), Priority: q.Get("priority"), Q: strings.TrimSpace(q.Get("q")), Sort: q.Get("sort")}
	p := t.page("Issues")
	p.URL, p.Filter, p.FilterPeople = r.URL, f, trackerPeople
	p.Project = t.project(f.Project)
	if p.Project != nil {
		p.Title = p.Project.Name + " issues"
	}
	p.Flash = t.listNotice(q)
	var hits []*TrackerIssue
	needle := strings.ToLower(f.Q)
	for _, is := range t.issues {
		switch {
		case f.Project != "" && is.Project != f.Project,
			f.Status == "open" && is.Status == "done",
			f.Status != "" && f.Status != "open" && is.Status != f.Status,
			f.Assignee == "none" && is.Assignee != "",
			f.Assignee != "" && f.Assignee != "none" && is.Assignee != f.Assignee,
			f.Label != "" && !slices.Contains(is.Labels, f.Label),
			f.Priority != "" && is.Priority != f.Priority,
			needle != "" && !strings.Contains(strings.ToLower(is.Key+" "+is.Title), needle):
			continue
		}
		hits = append(hits, is)
	}
	switch f.Sort {
	case "due":
		// Soonest due first; issues without a due date last.
		slices.SortStableFunc(hits, func(a, b *TrackerIssue) int {
			switch {
			case a.Due == b.Due:
				return 0
			case a.Due == "":
				return 1
			case b.Due == "":
				return -1
			}
			return strings.Compare(a.Due, b.Due)
		})
	case "created":
		slices.SortStableFunc(hits, func(a, b *TrackerIssue) int { return strings.Compare(b.Created, a.Created) })
	}
	p.Total = len(hits)
	p.Pages = max(1, (len(hits)+trackerPageSize-1)/trackerPageSize)
	p.Page, _ = strconv.Atoi(q.Get("page"))
	p.Page = min(max(p.Page, 1), p.Pages)
	lo := (p.Page - 1) * trackerPageSize
	p.Issues = hits[lo:min(lo+trackerPageSize, len(hits))]
	if p.Page > 1 {
		p.PrevURL = queryWith(r.URL, "page", strconv.Itoa(p.Page-1))
	}
	if p.Page < p.Pages {
		p.NextURL = queryWith(r.URL, "page", strconv.Itoa(p.Page+1))
	}
	t.render(w, http.StatusOK, "list", p)
}

// why returns why the issue cannot be changed at all, or "".
func (t *tracker) why(is *TrackerIssue) string {
	pr := t.project(is.Project)
	switch {
	case pr.Archived:
		return pr.Name + " is archived, so its issues are read-only."
	case is.Locked():
		return fmt.Sprintf("%s is locked: it shipped in %s %s on %s, and shipped issues cannot be changed.", is.Key, pr.Name, pr.Release, TrackerDate(pr.Released))
	}
	return ""
}

// permission returns why the user may not delete the issue, or "".
func (t *tracker) permission(is *TrackerIssue) string {
	if pr := t.project(is.Project); !pr.Admin {
		return "Only admins of " + pr.Name + " can delete its issues, and you are a member."
	}
	return ""
}

func (t *tracker) notFound(w http.ResponseWriter, what string) {
	t.refuse(w, http.StatusNotFound, problem{Title: "Not found", Message: "There is no " + what + ".", Back: "/issues", BackText: "All issues"})
}

func (t *tracker) issuePage(w http.ResponseWriter, r *http.Request) {
	is := t.find(r.PathValue("key"))
	if is == nil {
		t.notFound(w, "issue "+r.PathValue("key"))
		return
	}
	p := t.page(is.Key + " " + is.Title)
	p.Issue, p.Project = is, t.project(is.Project)
	p.ReadOnly, p.Permission = t.why(is), t.permission(is)
	p.Watching = t.watching[is.Key]
	p.Flash = t.issueNotice(is, r.URL.Query())
	for _, l := range trackerLabels {
		if !slices.Contains(is.Labels, l) {
			p.LabelsToAdd = append(p.LabelsToAdd, l)
		}
	}
	t.render(w, http.StatusOK, "issue", p)
}

func (t *tracker) board(w http.ResponseWriter, r *http.Request) {
	pr := t.project(r.PathValue("key"))
	if pr == nil {
		t.notFound(w, "project "+r.PathValue("key"))
		return
	}
	p := t.page(pr.Name + " board")
	p.Project = pr
	p.Flash = t.boardNotice(pr, r.URL.Query())
	if pr.Archived {
		p.ReadOnly = pr.Name + " is archived, so its issues are read-only."
	}
	for _, s := range trackerStatuses {
		c := trackerColumn{Status: s[0], Label: s[1]}
		for _, is := range t.issues {
			if is.Project == pr.Key && is.Status == s[0] {
				c.Issues = append(c.Issues, is)
			}
		}
		p.Columns = append(p.Columns, c)
	}
	t.render(w, http.StatusOK, "board", p)
}

func (t *tracker) doc(w http.ResponseWriter, r *http.Request) {
	is := t.find(r.PathValue("key"))
	if is == nil || is.Doc == nil {
		t.notFound(w, "design document for "+r.PathValue("key"))
		return
	}
	p := t.page(is.Doc.Title)
	p.Issue, p.Project = is, t.project(is.Project)
	t.render(w, http.StatusOK, "doc", p)
}

// write wraps a change to one issue: it finds the issue and refuses every
// change to a read-only one (archived project, shipped issue) before the
// change runs.
func (t *tracker) write(change func(w http.ResponseWriter, r *http.Request, is *TrackerIssue)) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		is := t.find(r.PathValue("key"))
		if is == nil {
			t.notFound(w, "issue "+r.PathValue("key"))
			return
		}
		if why := t.why(is); why != "" {
			t.refuse(w, http.StatusConflict, problem{Title: "Not changed", Message: why, Back: "/issues/" + is.Key, BackText: "Back to " + is.Key})
			return
		}
		change(w, r, is)
	}
}

func (t *tracker) invalid(w http.ResponseWriter, is *TrackerIssue, msg string) {
	t.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not changed", Message: msg, Back: "/issues/" + is.Key, BackText: "Back to " + is.Key})
}

// done sends the browser to the issue's page, with the query of the
// write's notice (issueNotice): key is value.
func (t *tracker) done(w http.ResponseWriter, r *http.Request, is *TrackerIssue, key, value string) {
	seeOther(w, r, "/issues/"+is.Key+"?"+url.Values{key: {value}}.Encode())
}

func (t *tracker) assign(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	u := r.PostFormValue("assignee")
	if u == "" {
		is.Assignee = ""
		t.done(w, r, is, "assigned", "")
		return
	}
	name := TrackerPersonName(u)
	if name == "" || u == TrackerMe.User {
		t.invalid(w, is, "There is no team member "+strconv.Quote(u)+".")
		return
	}
	is.Assignee = u
	t.done(w, r, is, "assigned", u)
}

func (t *tracker) setDue(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	d := r.PostFormValue("due")
	if d == "" {
		is.Due = ""
		t.done(w, r, is, "due", "")
		return
	}
	if TrackerDate(d) == d || len(d) != 10 {
		t.invalid(w, is, "Choose a due date from the calendar.")
		return
	}
	if d < is.Created {
		t.invalid(w, is, fmt.Sprintf("A due date cannot be before the issue was created (%s).", TrackerDate(is.Created)))
		return
	}
	is.Due = d
	t.done(w, r, is, "due", d)
}

func (t *tracker) setPriority(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	v := r.PostFormValue("priority")
	if label(trackerPriorities, v) == "" {
		t.invalid(w, is, "Choose a priority.")
		return
	}
	is.Priority = v
	t.done(w, r, is, "priority", v)
}

// setLabels adds (action=add) or removes (action=remove) one label.
func (t *tracker) setLabels(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	l := r.PostFormValue("label")
	if !slices.Contains(trackerLabels, l) {
		t.invalid(w, is, "There is no label "+strconv.Quote(l)+".")
		return
	}
	switch r.PostFormValue("action") {
	case "add":
		if !slices.Contains(is.Labels, l) {
			is.Labels = append(is.Labels, l)
			sortLabels(is.Labels)
		}
		seeOther(w, r, "/issues/"+is.Key+"?"+url.Values{"labelled": {"added"}, "label": {l}}.Encode())
	case "remove":
		is.Labels = slices.DeleteFunc(is.Labels, func(x string) bool { return x == l })
		seeOther(w, r, "/issues/"+is.Key+"?"+url.Values{"labelled": {"removed"}, "label": {l}}.Encode())
	default:
		t.invalid(w, is, "Add or remove a label.")
	}
}

func (t *tracker) comment(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	body := strings.TrimSpace(r.PostFormValue("body"))
	if body == "" {
		t.invalid(w, is, "A comment cannot be empty.")
		return
	}
	c := TrackerComment{ID: t.nextComment, Author: TrackerMe.User, Date: Today, Body: body}
	t.nextComment++
	is.Comments = append(is.Comments, c)
	seeOther(w, r, fmt.Sprintf("/issues/%s?commented=1&comment=%d#comment-%d", is.Key, c.ID, c.ID))
}

// move sets the issue's status: from the board (from=board, back to the
// board) or the issue page's close and reopen buttons.
func (t *tracker) move(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	s := r.PostFormValue("status")
	if label(trackerStatuses, s) == "" {
		t.invalid(w, is, "Choose a column: To do, In progress, In review or Done.")
		return
	}
	is.Status = s
	if r.PostFormValue("from") == "board" {
		seeOther(w, r, "/projects/"+is.Project+"/board?"+url.Values{"moved": {is.Key}, "to": {s}}.Encode())
		return
	}
	t.done(w, r, is, "moved", s)
}

func (t *tracker) watch(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	if t.watching[is.Key] {
		delete(t.watching, is.Key)
		t.done(w, r, is, "watching", "0")
		return
	}
	t.watching[is.Key] = true
	t.done(w, r, is, "watching", "1")
}

func (t *tracker) duplicate(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	n := 0
	for _, x := range t.issues {
		if x.Project == is.Project {
			n = max(n, x.Number)
		}
	}
	// Numbers of deleted issues are never given again.
	n = max(n+1, t.issueFloor(is.Project))
	c := &TrackerIssue{Key: fmt.Sprintf("%s-%d", is.Project, n), Project: is.Project, Number: n, Title: is.Title,
		Description: is.Description, Status: "todo", Priority: is.Priority, Assignee: is.Assignee,
		Labels: slices.Clone(is.Labels), Created: Today, Due: is.Due}
	t.issues = append(t.issues, c)
	t.copyOf[c.Key] = is.Key
	t.done(w, r, c, "copied", is.Key)
}

// issueFloor is the first issue number a new issue of project may take.
func (t *tracker) issueFloor(project string) int {
	if project == "ORC" {
		return 141
	}
	return 165
}

func (t *tracker) deleteIssue(w http.ResponseWriter, r *http.Request, is *TrackerIssue) {
	if why := t.permission(is); why != "" {
		t.refuse(w, http.StatusForbidden, problem{Title: "Not deleted", Message: why, Back: "/issues/" + is.Key, BackText: "Back to " + is.Key})
		return
	}
	t.issues = slices.DeleteFunc(t.issues, func(x *TrackerIssue) bool { return x == is })
	delete(t.watching, is.Key)
	t.deleted[is.Key] = true
	seeOther(w, r, "/issues?"+url.Values{"project": {is.Project}, "deleted": {is.Key}}.Encode())
}

// deleteComment deletes one of the user's own comments.
func (t *tracker) deleteComment(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	for _, is := range t.issues {
		for i, c := range is.Comments {
			if c.ID != id {
				continue
			}
			if why := t.why(is); why != "" {
				t.refuse(w, http.StatusConflict, problem{Title: "Not deleted", Message: why, Back: "/issues/" + is.Key, BackText: "Back to " + is.Key})
				return
			}
			if c.Author != TrackerMe.User {
				t.refuse(w, http.StatusForbidden, problem{Title: "Not deleted", Message: "You can delete only your own comments.", Back: "/issues/" + is.Key, BackText: "Back to " + is.Key})
				return
			}
			is.Comments = slices.Delete(is.Comments, i, i+1)
			t.deletedComments[id] = true
			seeOther(w, r, fmt.Sprintf("/issues/%s?comment=%d&commented=0", is.Key, id))
			return
		}
	}
	t.notFound(w, "comment "+r.PathValue("id"))
}
