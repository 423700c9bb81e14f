package templates

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// trackerTemplates are the templates over the tracker application
// (tracker.sandbox.test, Keystone).
var trackerTemplates = []generate.Template{
	{
		ID: "tracker-find-design-doc-owner", App: "tracker", Kind: generate.KindFind,
		Widgets: []generate.Widget{generate.WidgetNewTab},
		Params:  []string{"issue"},
		Summary: "open an issue's linked design doc (a new tab) and find its decision owner",
		Draw:    drawTrackerDocOwner,
	},
	{
		ID: "tracker-navigate-filtered-list", App: "tracker", Kind: generate.KindNavigate,
		Params:  []string{"project", "assignee", "priority"},
		Summary: "reach the list of a project's open issues of one assignee and priority through the filters",
		Draw:    drawTrackerFilteredList,
	},
	{
		ID: "tracker-assign-issue", App: "tracker", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetShadowDOM},
		Params:  []string{"issue", "assignee"},
		Summary: "assign an issue to a team member with the assignee picker (in a shadow root)",
		Draw:    drawTrackerAssign,
	},
	{
		ID: "tracker-set-due-date", App: "tracker", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetDatePicker},
		Params:  []string{"issue", "due"},
		Summary: "set an issue's due date with the calendar popup",
		Draw:    drawTrackerDueDate,
	},
	{
		ID: "tracker-board-move", App: "tracker", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetDragDrop},
		Params:  []string{"issue", "status"},
		Summary: "drag an issue's card to another column of its project's board",
		Draw:    drawTrackerBoardMove,
	},
	{
		ID: "tracker-delete-issue", App: "tracker", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetModal},
		Params:  []string{"issue"},
		Summary: "delete an issue, confirming in the modal dialog",
		Draw:    drawTrackerDelete,
	},
	{
		ID: "tracker-triage-issue", App: "tracker", Kind: generate.KindChangeSeveral,
		Widgets: []generate.Widget{generate.WidgetShadowDOM},
		Params:  []string{"issue", "assignee", "priority", "label"},
		Summary: "triage an issue: assignee, priority and a label, three saved changes",
		Draw:    drawTrackerTriage,
	},
	{
		ID: "tracker-watch-soonest-due", App: "tracker", Kind: generate.KindMultiStep,
		Widgets: []generate.Widget{generate.WidgetHoverMenu},
		Params:  []string{"project", "label"},
		Summary: "filter a project's open issues by label, sort by due date and watch the first from its row's menu",
		Draw:    drawTrackerWatchSoonest,
	},
	{
		ID: "tracker-delete-my-comment", App: "tracker", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetModal},
		Params:  []string{"comment"},
		Summary: "delete one of the user's own comments, found by its text, confirming in the modal dialog",
		Draw:    drawTrackerDeleteComment,
	},
	{
		ID: "tracker-comment-top-bug", App: "tracker", Kind: generate.KindMultiStep,
		Params:  []string{"project", "assignee", "label", "text"},
		Summary: "find a person's most urgent open issue with a label in a project through the filters and comment on it",
		Draw:    drawTrackerCommentTopBug,
	},
	{
		ID: "tracker-impossible-change", App: "tracker", Kind: generate.KindImpossible,
		Params:  []string{"issue", "action"},
		Summary: "change a shipped issue, an archived project's issue, or delete without permission: the issue page says why not",
		Draw:    drawTrackerImpossible,
	},
}

// tracker is the tracker's route table.
var tracker = &sandbox.Tracker

var trackerStart = tracker.Home.URL()

// trackerWorld is the tracker's data as the templates draw from it.
type trackerWorld struct {
	people   []sandbox.TrackerPerson
	projects map[string]sandbox.TrackerProject
	issues   []sandbox.TrackerIssue
	byKey    map[string]*sandbox.TrackerIssue
}

var trackerData = sync.OnceValue(func() *trackerWorld {
	people, projects, issues := sandbox.TrackerData()
	w := &trackerWorld{people: people, projects: map[string]sandbox.TrackerProject{}, issues: issues, byKey: map[string]*sandbox.TrackerIssue{}}
	for _, p := range projects {
		w.projects[p.Key] = p
	}
	for i := range w.issues {
		w.byKey[w.issues[i].Key] = &w.issues[i]
	}
	return w
})

// trackerStatusLabels are the board's columns by status value.
var trackerStatusLabels = map[string]string{"todo": "To do", "progress": "In progress", "review": "In review", "done": "Done"}

var trackerPriorityLabels = map[string]string{"highest": "Highest", "high": "High", "medium": "Medium", "low": "Low"}

// writable reports whether the issue can be changed at all.
func (w *trackerWorld) writable(is *sandbox.TrackerIssue) bool {
	return !is.Locked() && !w.projects[is.Project].Archived
}

// issuesWhere returns the issues ok accepts, in key order.
func (w *trackerWorld) issuesWhere(ok func(*sandbox.TrackerIssue) bool) []*sandbox.TrackerIssue {
	var out []*sandbox.TrackerIssue
	for i := range w.issues {
		if ok(&w.issues[i]) {
			out = append(out, &w.issues[i])
		}
	}
	return out
}

// twin is the near-duplicate of person u: the team comes in pairs of
// similar names (Dana Whitfield, Dana Whitford).
func (w *trackerWorld) twin(u string) sandbox.TrackerPerson {
	for i, p := range w.people {
		if p.User == u {
			return w.people[i^1]
		}
	}
	panic("tracker: no person " + u)
}

// trackerListWith matches the issue list whose query holds key=value
// (key=value), among any others, in any order, whatever its fragment.
func trackerListWith(key, value string) string {
	return "^" + regexp.QuoteMeta(tracker.Issues.URL()+"?") + `(?:[^#]*&)?` + regexp.QuoteMeta(tracker.Issues.Field(key)+"="+value) + `(?:[&#].*)?$`
}

// trackerOnce holds when the tracker accepted exactly one write to rt on
// the record args
// carrying form's fields as the tracker stores them (trimmed).
func trackerOnce(rt sandbox.Route, form map[string]string, args ...string) *contract.Network {
	return generate.Once(trimmed(posted(rt, form, args...)))
}

// trackerWritten holds when the tracker accepted exactly n writes, of any
// kind, on any issue: beside a clause for each asked write, it forbids
// every other.
func trackerWritten(n int) *contract.Network { return writesOn(sandbox.TrackerHost, n) }

// trackerIssueShows reads c on is's page after the run.
func trackerIssueShows[C domClause](key string, c C) C { return onPage(tracker.Issue.URL(key), c) }

// trackerOpenIssue goes from the projects page to the issue's page by the
// issue list's search.
func trackerOpenIssue(is *sandbox.TrackerIssue) []suite.Step {
	return []suite.Step{
		generate.ClickLink("Issues", tracker.Issues.Href()),
		generate.Type("Search issues", is.Key, true),
		generate.ClickLink(is.Title, tracker.Issue.Href(is.Key)),
	}
}

// trackerWatch watches is from its page's row menu in the issue list.
func trackerWatch(is *sandbox.TrackerIssue) []suite.Step {
	return append(trackerOpenIssueList(is), generate.Click("button", "More actions for "+is.Key), generate.Click("button", "Watch "+is.Key))
}

// trackerOpenIssueList lists the issues whose key or title holds is's key.
func trackerOpenIssueList(is *sandbox.TrackerIssue) []suite.Step {
	return []suite.Step{generate.ClickLink("Issues", tracker.Issues.Href()), generate.Type("Search issues", is.Key, true)}
}

// trackerComment adds text as a comment on is.
func trackerComment(is *sandbox.TrackerIssue, text string) []suite.Step {
	return append(trackerOpenIssue(is), generate.Type("Add a comment", text, false), generate.Click("button", "Add comment"))
}

func trackerQuote(is *sandbox.TrackerIssue) string { return is.Key + " (“" + is.Title + "”)" }

func drawTrackerDocOwner(r *rand.Rand) generate.Instance {
	w := trackerData()
	withDoc := w.issuesWhere(func(is *sandbox.TrackerIssue) bool { return is.Doc != nil })
	is := pick(r, withDoc)
	owner := sandbox.TrackerPersonName(is.Doc.Owner)
	// Another issue's doc with another owner, for the wrong-item control.
	var other *sandbox.TrackerIssue
	for _, o := range withDoc {
		if o.Project == is.Project && o.Doc.Owner != is.Doc.Owner && o.Key != is.Key {
			other = o
			break
		}
	}
	asks := []string{
		"Issue %s in %s links to a design doc. Who is its decision owner? Leave the document open when you have found it.",
		"I need to know who owns the decision in the design doc linked from %s (%s). Open that doc and find out.",
		"Find the decision owner named in the design document of %s, in the %s project. Stay on the document.",
	}
	// On the doc's tab the reference scrolls to the end, where the owner
	// is, as a reader would: chrome-devtools-mcp's select_page leaves no
	// trace a page can see, so a tab it switched to and only read would
	// not be the agent's choice (docs/contracts.md, the active page).
	ref := append(trackerOpenIssue(is),
		generate.ClickLink("Open linked design doc", tracker.Doc.Href(is.Key)),
		generate.SwitchTab(2),
		generate.Press("End"),
		generate.Read())
	short := append(trackerOpenIssue(is), generate.Read())
	// A writable issue other than is, for the near misses' extra write.
	bystander := w.openIssues(false)[0]
	if bystander.Key == is.Key {
		bystander = w.openIssues(false)[1]
	}
	// The issue watched by the near miss: is itself, unless the tracker
	// refuses to write to it.
	watched := is
	if !w.writable(is) {
		watched = bystander
	}
	controls := []generate.Control{
		{Name: "one-step-short", Reference: short, FailsOn: 0},
		{Name: "watched-it", Reference: slices.Concat(trackerWatch(watched), ref), FailsOn: 2},
		{Name: "commented-elsewhere", Reference: slices.Concat(trackerComment(bystander, "Read the design doc."), []suite.Step{generate.Navigate(trackerStart)}, ref), FailsOn: 2},
	}
	if other != nil {
		controls = append(controls, generate.Control{Name: "wrong-item", FailsOn: 0, Reference: append(trackerOpenIssue(other),
			generate.ClickLink("Open linked design doc", tracker.Doc.Href(other.Key)), generate.SwitchTab(2), generate.Read())})
	}
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key},
		Instruction: fmt.Sprintf(asks[is.Number%len(asks)], is.Key, w.projects[is.Project].Name),
		StartURL:    trackerStart,
		Contract: contract.Postconditions{
			generate.URLIs(at(tracker.Doc, is.Key)),
			generate.Text(".doc-owner", owner),
			generate.NoWrite(sandbox.TrackerHost),
		},
		Reference: ref,
		Controls:  controls,
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat(ref[:len(ref)-1], look(tracker.Doc.URL(is.Key)+"#decision"))},
			{Name: "same-tab", Reference: slices.Concat(trackerOpenIssue(is), look(tracker.Doc.URL(is.Key)+"?from=issue"))},
		},
		Rationale: fmt.Sprintf("The design doc of %s opens in a new tab from the issue page; its decision owner is %s. "+
			"The team has near-duplicate names, so the owner must be read from the doc (.doc-owner); the instruction asks to end on the doc, so the URL pins it (any query or fragment), in whichever tab. Nothing may be written.", is.Key, owner),
	}
}

func drawTrackerFilteredList(r *rand.Rand) generate.Instance {
	w := trackerData()
	type combo struct {
		project, assignee, priority string
		n                           int
	}
	var combos []combo
	for _, pk := range []string{"ATL", "BRD", "CRN", "DLT"} {
		for _, p := range w.people {
			for _, prio := range []string{"highest", "high", "medium", "low"} {
				n := len(w.issuesWhere(func(is *sandbox.TrackerIssue) bool {
					return is.Project == pk && is.Assignee == p.User && is.Priority == prio && is.Status != "done"
				}))
				if n > 0 {
					combos = append(combos, combo{pk, p.User, prio, n})
				}
			}
		}
	}
	c := pick(r, combos)
	pr := w.projects[c.project]
	name := sandbox.TrackerPersonName(c.assignee)
	twin := w.twin(c.assignee)
	ref := []suite.Step{
		generate.ClickLink("Issues", tracker.Issues.Href()),
		generate.ClickLink(pr.Name, tracker.Issues.Field("project")+"="+c.project),
		generate.ClickLink(name, "assignee="+c.assignee),
		generate.ClickLink(trackerPriorityLabels[c.priority], "priority="+c.priority),
		generate.ClickLink("Open (not done)", "status=open"),
		generate.Read(),
	}
	wrong := slices.Clone(ref)
	wrong[2] = generate.ClickLink(twin.Name, "assignee="+twin.User)
	first := w.issuesWhere(func(is *sandbox.TrackerIssue) bool {
		return is.Project == c.project && is.Assignee == c.assignee && is.Priority == c.priority && is.Status != "done"
	})[0]
	count := fmt.Sprintf("%d issue", c.n)
	if c.n != 1 {
		count += "s"
	}
	return generate.Instance{
		Params: map[string]string{"project": c.project, "assignee": c.assignee, "priority": c.priority},
		Instruction: fmt.Sprintf("In Keystone, show me the %s issues assigned to %s with %s priority that are not done yet.",
			pr.Name, name, strings.ToLower(trackerPriorityLabels[c.priority])),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			generate.URLIs(trackerListWith("project", c.project)),
			generate.URLIs(trackerListWith("assignee", c.assignee)),
			generate.URLIs(trackerListWith("priority", c.priority)),
			generate.URLIs(trackerListWith("status", "open")),
			generate.Text(".result-count", count),
			generate.Count(".issue-row", c.n),
			generate.NoWrite(sandbox.TrackerHost),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 1},
			{Name: "watched-one", Reference: slices.Concat(ref[:len(ref)-1], []suite.Step{generate.Click("button", "More actions for "+first.Key), generate.Click("button", "Watch "+first.Key)}, ref), FailsOn: 6},
			{Name: "commented-one", Reference: slices.Concat(trackerComment(first, "Looking at this today."), ref), FailsOn: 6},
		},
		Alternates: []generate.Alternate{
			{Name: "other-order", Reference: []suite.Step{ref[0], ref[4], ref[3], ref[2], ref[1], ref[5]}},
			{Name: "sorted", Reference: slices.Concat(ref[:len(ref)-1], []suite.Step{generate.ClickLink("Due soonest", "sort=due"), generate.Read()})},
		},
		Rationale: fmt.Sprintf("Four filters (project, assignee, priority, open) give %s; %s has a near-namesake, %s, whose list is another one. The instruction asks to be shown the list: the URL must be the issue list with those four filters, in any order, whatever other parameter (a sort order) or fragment it has, and the list must show that many issues. Nothing may be written.", count, name, twin.Name),
	}
}

// trackerOpenIssues are the issues a change can be made to, in the
// projects whose issues the user may also delete when admin is set.
func (w *trackerWorld) openIssues(admin bool) []*sandbox.TrackerIssue {
	return w.issuesWhere(func(is *sandbox.TrackerIssue) bool {
		return w.writable(is) && is.Status != "done" && (!admin || w.projects[is.Project].Admin)
	})
}

func drawTrackerAssign(r *rand.Rand) generate.Instance {
	w := trackerData()
	is := pick(r, w.openIssues(false))
	var to sandbox.TrackerPerson
	for to = pick(r, w.people); to.User == is.Assignee; to = pick(r, w.people) {
	}
	twin := w.twin(to.User)
	pr := w.projects[is.Project]
	ref := []suite.Step{
		generate.ClickLink(pr.Name, "project="+is.Project),
		generate.Type("Search issues", is.Key, true),
		generate.ClickLink(is.Title, tracker.Issue.Href(is.Key)),
		generate.Click("button", "Assign to "+to.Name),
		generate.Read(),
	}
	wrong := slices.Clone(ref)
	wrong[3] = generate.Click("button", "Assign to "+twin.Name)
	if twin.User == is.Assignee {
		wrong[3] = generate.Click("button", "Unassign")
	}
	// Another open issue, which the near miss assigns too.
	other := w.openIssues(false)[0]
	if other.Key == is.Key || other.Assignee == to.User {
		other = w.openIssues(false)[1]
	}
	// The side effect comes first, so that the page still ends on the
	// assignment's notice and only the write count sees it.
	side := append(slices.Clone(ref[:3]), generate.Select("Priority", "Highest"), generate.Click("button", "Save priority"), ref[3], generate.Read())
	if is.Priority == "highest" {
		side[3] = generate.Select("Priority", "Low")
	}
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "assignee": to.User},
		Instruction: fmt.Sprintf("Assign %s in %s to %s.", trackerQuote(is), pr.Name, to.Name),
		StartURL:    trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.Assign, map[string]string{"assignee": to.User}, is.Key),
			trackerWritten(1),
			trackerIssueShows(is.Key, generate.Text(".assignee", to.Name)),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "side-effect", Reference: side, FailsOn: 1},
			{Name: "another-too", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssue(other), []suite.Step{generate.Click("button", "Assign to "+to.Name)}, look(tracker.Issue.URL(is.Key))), FailsOn: 1},
			{Name: "watched-too", Reference: slices.Concat(ref[:len(ref)-1], trackerWatch(is), look(tracker.Issue.URL(is.Key))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat(ref[:len(ref)-1], look(tracker.Issue.URL(is.Key)+"#comments"))},
			{Name: "check-the-list", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssueList(is), []suite.Step{generate.Read()})},
		},
		Rationale: fmt.Sprintf("The assignee picker is a custom element whose buttons live in an open shadow root; its choice posts assignee=%s. "+
			"%s has a near-namesake (%s), so the network clause pins the user name; that assignment is the only write the tracker accepts, wherever the agent ends, and the issue's page, read after the run, shows the assignee.", to.User, to.Name, twin.Name),
	}
}

// monthsBetween is the number of months from the month of date a to the
// month of date b (2006-01-02).
func monthsBetween(a, b string) int {
	var ya, ma, yb, mb int
	fmt.Sscanf(a, "%d-%d", &ya, &ma)
	fmt.Sscanf(b, "%d-%d", &yb, &mb)
	return (yb-ya)*12 + mb - ma
}

// trackerCalendar are the steps that choose day in the calendar popup that
// opens on the month of start.
func trackerCalendar(start, day string) []suite.Step {
	steps := []suite.Step{generate.Click("button", "Choose due date")}
	n := monthsBetween(start, day)
	for range max(n, -n) {
		if n > 0 {
			steps = append(steps, generate.Click("button", "Next month"))
		} else {
			steps = append(steps, generate.Click("button", "Previous month"))
		}
	}
	return append(steps, generate.Click("button", sandbox.TrackerDate(day)))
}

func nextDay(d string) string {
	var y, m, day int
	fmt.Sscanf(d, "%d-%d-%d", &y, &m, &day)
	if day < 28 {
		return fmt.Sprintf("%04d-%02d-%02d", y, m, day+1)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, day-1)
}

func drawTrackerDueDate(r *rand.Rand) generate.Instance {
	w := trackerData()
	is := pick(r, w.openIssues(false))
	var due string
	for due = fmt.Sprintf("2026-%02d-%02d", 4+r.IntN(3), 1+r.IntN(28)); due == is.Due; {
		due = nextDay(due)
	}
	start := is.Due
	if start == "" {
		start = sandbox.Today
	}
	human := sandbox.TrackerDate(due)
	ref := append(trackerOpenIssue(is), trackerCalendar(start, due)...)
	ref = append(ref, generate.Click("button", "Save due date"), generate.Read())
	off := nextDay(due)
	// Another open issue, whose due date the near miss sets too, and a
	// priority other than is's.
	other := w.openIssues(false)[0]
	if other.Key == is.Key {
		other = w.openIssues(false)[1]
	}
	otherStart := other.Due
	if otherStart == "" {
		otherStart = sandbox.Today
	}
	otherPriority := "Highest"
	if is.Priority == "highest" {
		otherPriority = "Low"
	}
	wrong := append(trackerOpenIssue(is), trackerCalendar(start, off)...)
	wrong = append(wrong, generate.Click("button", "Save due date"), generate.Read())
	short := append(trackerOpenIssue(is), trackerCalendar(start, due)...)
	short = append(short, generate.Read())
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "due": due},
		Instruction: fmt.Sprintf("Set the due date of %s to %s.", trackerQuote(is), human),
		StartURL:    trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.SetDue, map[string]string{"due": due}, is.Key),
			trackerWritten(1),
			trackerIssueShows(is.Key, generate.Text(".due", human)),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "one-step-short", Reference: short, FailsOn: 0},
			{Name: "another-too", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssue(other), trackerCalendar(otherStart, due), []suite.Step{generate.Click("button", "Save due date")}, look(tracker.Issue.URL(is.Key))), FailsOn: 1},
			{Name: "priority-too", Reference: slices.Concat(ref[:len(ref)-1], []suite.Step{generate.Select("Priority", otherPriority), generate.Click("button", "Save priority"), generate.Read()}), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "reload", Reference: slices.Concat(ref[:len(ref)-1], look(tracker.Issue.URL(is.Key)))},
			{Name: "check-the-list", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssueList(is), []suite.Step{generate.Read()})},
		},
		Rationale: fmt.Sprintf("The due date is chosen in a calendar popup that opens on %s's month and needs month navigation; the day button puts %s into the form, and only Save due date posts it. That post is the only write the tracker accepts, wherever the agent ends, and the issue's page, read after the run, shows the date.", start, due),
	}
}

func drawTrackerBoardMove(r *rand.Rand) generate.Instance {
	w := trackerData()
	is := pick(r, w.issuesWhere(func(is *sandbox.TrackerIssue) bool { return w.writable(is) && is.Status != "done" }))
	statuses := []string{"todo", "progress", "review", "done"}
	var to string
	for to = pick(r, statuses); to == is.Status; to = pick(r, statuses) {
	}
	var wrongTo string
	for _, s := range statuses {
		if s != to && s != is.Status {
			wrongTo = s
			break
		}
	}
	pr := w.projects[is.Project]
	boardPath := tracker.Board.Href(is.Project)
	card := suite.Target{Role: "link", Name: is.Key + " " + is.Title, Href: tracker.Issue.Href(is.Key)}
	column := func(s string) suite.Target {
		return suite.Target{Role: "region", Name: trackerStatusLabels[s] + " column"}
	}
	// Another card of the same column, for the wrong-item control.
	var other *sandbox.TrackerIssue
	for _, o := range w.issuesWhere(func(o *sandbox.TrackerIssue) bool {
		return o.Project == is.Project && o.Status == is.Status && o.Key != is.Key
	}) {
		other = o
		break
	}
	ref := []suite.Step{
		generate.ClickLink(pr.Name+" board", boardPath),
		generate.Drag(card, column(to)),
		generate.Read(),
	}
	controls := []generate.Control{{Name: "wrong-column", FailsOn: 0, Reference: []suite.Step{
		generate.ClickLink(pr.Name+" board", boardPath), generate.Drag(card, column(wrongTo)), generate.Read()}}}
	if other != nil {
		controls = append(controls, generate.Control{Name: "wrong-item", FailsOn: 0, Reference: []suite.Step{
			generate.ClickLink(pr.Name+" board", boardPath),
			generate.Drag(suite.Target{Role: "link", Name: other.Key + " " + other.Title, Href: tracker.Issue.Href(other.Key)}, column(to)), generate.Read()}})
	}
	// The move made another way: closing the issue from its own page when
	// Done is asked, else the drag with the issue's page opened after.
	another := generate.Alternate{Name: "then-issue-page", Reference: slices.Concat(ref[:2], []suite.Step{generate.ClickLink(is.Key+" "+is.Title, tracker.Issue.Href(is.Key)), generate.Read()})}
	if to == "done" {
		another = generate.Alternate{Name: "closed-from-its-page", Reference: append(trackerOpenIssue(is), generate.Click("button", "Close issue"), generate.Read())}
	}
	controls = append(controls,
		generate.Control{Name: "watched-too", FailsOn: 1, Reference: slices.Concat(trackerWatch(is), []suite.Step{generate.ClickLink("Board", boardPath)}, ref[1:])},
		// Moved to the column twice: the move's own clause, which wants it
		// once, fails before the count of writes.
		generate.Control{Name: "moved-back", FailsOn: 0, Reference: slices.Concat(ref[:2], []suite.Step{generate.ClickLink(is.Key+" "+is.Title, tracker.Issue.Href(is.Key)), generate.Click("button", "Close issue"), generate.ClickLink("Board", boardPath), generate.Drag(card, column(to)), generate.Read()})},
	)
	if to == "done" {
		controls[len(controls)-1] = generate.Control{Name: "closed-twice", FailsOn: 0, Reference: slices.Concat(ref[:1], []suite.Step{generate.ClickLink(is.Key+" "+is.Title, tracker.Issue.Href(is.Key)), generate.Click("button", "Close issue"), generate.Click("button", "Reopen issue"), generate.Click("button", "Close issue"), generate.Read()})}
	}
	return generate.Instance{
		Params: map[string]string{"issue": is.Key, "status": to},
		Instruction: fmt.Sprintf("On the %s board, move %s from %s to %s.", pr.Name, trackerQuote(is),
			trackerStatusLabels[is.Status], trackerStatusLabels[to]),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.Move, map[string]string{"status": to}, is.Key),
			trackerWritten(1),
			onPage(tracker.Board.URL(is.Project), generate.Text(`[aria-label="`+trackerStatusLabels[to]+` column"] .cards`, is.Key)),
		},
		Reference: ref,
		Controls:  controls,
		Alternates: []generate.Alternate{
			{Name: "reload-board", Reference: slices.Concat(ref[:2], look(tracker.Board.URL(is.Project)+"#"+is.Key))},
			another,
		},
		Rationale: fmt.Sprintf("The board moves a card when it is dragged (pointer events) onto another column; the drop posts status=%s for %s (as the issue page's Close issue does for Done). That move is the only write the tracker accepts, wherever the agent ends, and the board, read after the run, shows the card in its new column.", to, is.Key),
	}
}

func drawTrackerDelete(r *rand.Rand) generate.Instance {
	w := trackerData()
	candidates := w.openIssues(true)
	is := pick(r, candidates)
	// The issue's neighbour in the same project, for the wrong-item control.
	var other *sandbox.TrackerIssue
	for _, o := range candidates {
		if o.Project == is.Project && o.Key != is.Key {
			other = o
			if o.Number > is.Number {
				break
			}
		}
	}
	pr := w.projects[is.Project]
	ref := append(trackerOpenIssue(is),
		generate.Click("button", "Delete issue"),
		generate.Click("button", "Yes, delete "+is.Key),
		generate.Read())
	cancel := append(trackerOpenIssue(is), generate.Click("button", "Delete issue"), generate.Click("button", "Cancel"), generate.Read())
	wrong := append(trackerOpenIssue(other), generate.Click("button", "Delete issue"), generate.Click("button", "Yes, delete "+other.Key), generate.Read())
	asks := []string{
		"%s in %s was filed by mistake. Delete it.",
		"Please delete %s from %s; we will not work on it.",
	}
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key},
		Instruction: fmt.Sprintf(asks[is.Number%len(asks)], trackerQuote(is), pr.Name),
		StartURL:    trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.DeleteIssue, nil, is.Key),
			trackerWritten(1),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: cancel, FailsOn: 0},
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "neighbour-too", Reference: slices.Concat(ref[:len(ref)-1], wrong), FailsOn: 1},
			{Name: "commented-first", Reference: slices.Concat(trackerComment(is, "Filed by mistake."), ref), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-the-list", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssueList(is), []suite.Step{generate.Read()})},
			{Name: "from-the-board", Reference: slices.Concat([]suite.Step{generate.ClickLink(pr.Name+" board", tracker.Board.Href(is.Project)), generate.ClickLink(is.Key+" "+is.Title, tracker.Issue.Href(is.Key))}, ref[3:])},
		},
		Rationale: fmt.Sprintf("Delete issue opens a modal dialog; only its confirm button posts the delete of %s. That delete is the only write the tracker accepts (no other issue deleted, nothing else written), wherever the agent ends.", is.Key),
	}
}

func drawTrackerTriage(r *rand.Rand) generate.Instance {
	w := trackerData()
	is := pick(r, w.openIssues(false))
	var to sandbox.TrackerPerson
	for to = pick(r, w.people); to.User == is.Assignee; to = pick(r, w.people) {
	}
	prios := []string{"highest", "high", "medium", "low"}
	var prio string
	for prio = pick(r, prios); prio == is.Priority; prio = pick(r, prios) {
	}
	labels := []string{"bug", "feature", "ui", "backend", "docs", "performance", "security", "chore"}
	var label string
	for label = pick(r, labels); slices.Contains(is.Labels, label); label = pick(r, labels) {
	}
	twin := w.twin(to.User)
	pl := trackerPriorityLabels[prio]
	// A label neither is nor the triage gives it, for the near miss.
	var extra string
	for _, l := range labels {
		if l != label && !slices.Contains(is.Labels, l) {
			extra = l
			break
		}
	}
	issueURL := tracker.Issue.URL(is.Key)
	ref := append(trackerOpenIssue(is),
		generate.Click("button", "Assign to "+to.Name),
		generate.Select("Priority", pl),
		generate.Click("button", "Save priority"),
		generate.Select("Add a label", label),
		generate.Click("button", "Add label"),
		generate.Read())
	short := slices.Clone(ref[:len(ref)-3])
	short = append(short, generate.Read())
	wrong := slices.Clone(ref)
	wrong[3] = generate.Click("button", "Assign to "+twin.Name)
	if twin.User == is.Assignee {
		wrong[3] = generate.Click("button", "Unassign")
	}
	return generate.Instance{
		Params: map[string]string{"issue": is.Key, "assignee": to.User, "priority": prio, "label": label},
		Instruction: fmt.Sprintf("Triage %s: assign it to %s, set its priority to %s and add the %s label.",
			trackerQuote(is), to.Name, pl, label),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.Assign, map[string]string{"assignee": to.User}, is.Key),
			trackerOnce(tracker.SetPriority, map[string]string{"priority": prio}, is.Key),
			trackerOnce(tracker.SetLabels, map[string]string{"action": "add", "label": label}, is.Key),
			trackerWritten(3),
			trackerIssueShows(is.Key, generate.Text(".assignee", to.Name)),
			trackerIssueShows(is.Key, generate.Text(".priority", pl)),
			trackerIssueShows(is.Key, generate.Text(".labels", label)),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: short, FailsOn: 2},
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "second-label", Reference: slices.Concat(ref[:len(ref)-1], []suite.Step{generate.Select("Add a label", extra), generate.Click("button", "Add label"), generate.Read()}), FailsOn: 3},
			{Name: "watched-too", Reference: slices.Concat(ref[:len(ref)-1], trackerWatch(is), look(issueURL)), FailsOn: 3},
		},
		Alternates: []generate.Alternate{
			{Name: "other-order", Reference: slices.Concat(trackerOpenIssue(is), []suite.Step{ref[6], ref[7], ref[4], ref[5], ref[3]}, look(issueURL))},
			{Name: "check-the-list", Reference: slices.Concat(ref[:len(ref)-1], trackerOpenIssueList(is), []suite.Step{generate.Read()})},
		},
		Rationale: fmt.Sprintf("Three saved changes to %s, each its own form: assignee %s (shadow-root picker; near-namesake %s), priority %s, label %s; in any order; they are the only writes the tracker accepts, wherever the agent ends, and the issue's page, read after the run, shows all three.", is.Key, to.User, twin.Name, prio, label),
	}
}

func drawTrackerWatchSoonest(r *rand.Rand) generate.Instance {
	w := trackerData()
	type choice struct {
		project, label string
		first, second  *sandbox.TrackerIssue
	}
	var picks []choice
	for _, pk := range []string{"ATL", "BRD", "CRN", "DLT"} {
		for _, l := range []string{"bug", "feature", "ui", "backend", "docs", "performance", "security", "chore"} {
			open := w.issuesWhere(func(is *sandbox.TrackerIssue) bool {
				return is.Project == pk && is.Status != "done" && is.Due != "" && slices.Contains(is.Labels, l)
			})
			slices.SortStableFunc(open, func(a, b *sandbox.TrackerIssue) int { return strings.Compare(a.Due, b.Due) })
			if len(open) >= 2 && open[0].Due < open[1].Due {
				picks = append(picks, choice{pk, l, open[0], open[1]})
			}
		}
	}
	p := pick(r, picks)
	pr := w.projects[p.project]
	listSteps := []suite.Step{
		generate.ClickLink("Issues", tracker.Issues.Href()),
		generate.ClickLink(pr.Name, tracker.Issues.Field("project")+"="+p.project),
		generate.ClickLink(p.label, "label="+p.label),
		generate.ClickLink("Open (not done)", "status=open"),
		generate.ClickLink("Due soonest", "sort=due"),
	}
	watch := func(is *sandbox.TrackerIssue) []suite.Step {
		return []suite.Step{generate.Click("button", "More actions for "+is.Key), generate.Click("button", "Watch "+is.Key)}
	}
	ref := append(slices.Clone(listSteps), watch(p.first)...)
	ref = append(ref, generate.Read())
	wrong := append(slices.Clone(listSteps), watch(p.second)...)
	wrong = append(wrong, generate.Read())
	twice := append(slices.Clone(ref[:len(ref)-1]), generate.Back())
	twice = append(twice, watch(p.first)...)
	twice = append(twice, generate.Read())
	return generate.Instance{
		Params: map[string]string{"project": p.project, "label": p.label},
		Instruction: fmt.Sprintf("Of the %s issues labelled %s that are not done yet, start watching the one that is due soonest.",
			pr.Name, p.label),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.Watch, nil, p.first.Key),
			trackerWritten(1),
			trackerIssueShows(p.first.Key, generate.Text(".watching", "Yes")),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "twice", Reference: twice, FailsOn: 0},
			{Name: "second-too", Reference: slices.Concat(ref[:len(ref)-1], listSteps, watch(p.second), look(tracker.Issue.URL(p.first.Key))), FailsOn: 1},
			{Name: "duplicated-too", Reference: slices.Concat(ref[:len(ref)-1], listSteps, []suite.Step{generate.Click("button", "More actions for "+p.first.Key), generate.Click("button", "Duplicate "+p.first.Key)}, look(tracker.Issue.URL(p.first.Key))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-the-list", Reference: slices.Concat(ref[:len(ref)-1], listSteps, []suite.Step{generate.Read()})},
			{Name: "reload-fragment", Reference: slices.Concat(ref[:len(ref)-1], look(tracker.Issue.URL(p.first.Key)+"#comments"))},
		},
		Rationale: fmt.Sprintf("Filtering %s by label %s and open status and sorting by due date puts %s (due %s) first, ahead of %s (due %s); "+
			"Watch is in the row's hover menu. Watching twice stops watching, so that one watch is the only write the tracker accepts, wherever the agent ends; the issue's page, read after the run, says it is watched.", p.project, p.label, p.first.Key, p.first.Due, p.second.Key, p.second.Due),
	}
}

// trackerBlocked is a change an issue cannot take, and the reason its
// page gives (the element sel, the text because).
type trackerBlocked struct {
	is      *sandbox.TrackerIssue
	action  string
	sel     string
	because string
}

// blockedChanges lists every change some issue cannot take: any change
// to an issue of an archived project or a locked one, and a delete
// without the project's admin rights.
func (w *trackerWorld) blockedChanges() []trackerBlocked {
	var out []trackerBlocked
	for i := range w.issues {
		is := &w.issues[i]
		pr := w.projects[is.Project]
		switch {
		case pr.Archived:
			for _, a := range []string{"move", "due", "label", "assign"} {
				out = append(out, trackerBlocked{is, a, ".readonly-reason", pr.Name + " is archived, so its issues are read-only."})
			}
		case is.Locked():
			for _, a := range []string{"reopen", "due", "label", "assign"} {
				out = append(out, trackerBlocked{is, a, ".readonly-reason", fmt.Sprintf("%s is locked: it shipped in %s %s", is.Key, pr.Name, pr.Release)})
			}
		case !pr.Admin && is.Status != "done":
			out = append(out, trackerBlocked{is, "delete", ".permission-note", "Only admins of " + pr.Name + " can delete its issues"})
		}
	}
	return out
}

// ask is the instruction that asks for the blocked change c.
func (w *trackerWorld) ask(c trackerBlocked) string {
	is := c.is
	pr := w.projects[is.Project]
	switch c.action {
	case "reopen":
		return fmt.Sprintf("%s in %s is back: reopen it.", trackerQuote(is), pr.Name)
	case "move":
		to := "In review"
		if is.Status == "review" {
			to = "In progress"
		}
		return fmt.Sprintf("Move %s in %s to %s.", trackerQuote(is), pr.Name, to)
	case "due":
		return fmt.Sprintf("Set the due date of %s in %s to %s.", trackerQuote(is), pr.Name, sandbox.TrackerDate(fmt.Sprintf("2026-04-%02d", 1+is.Number%28)))
	case "label":
		return fmt.Sprintf("Add the docs label to %s in %s.", trackerQuote(is), pr.Name)
	case "assign":
		person := w.people[is.Number%len(w.people)]
		if person.User == is.Assignee {
			person = w.twin(person.User)
		}
		return fmt.Sprintf("Hand %s in %s over to %s.", trackerQuote(is), pr.Name, person.Name)
	}
	return fmt.Sprintf("Delete %s in %s; it duplicates another issue.", trackerQuote(is), pr.Name)
}

func drawTrackerImpossible(r *rand.Rand) generate.Instance {
	w := trackerData()
	cands := w.blockedChanges()
	c := pick(r, cands)
	is := c.is
	pr := w.projects[is.Project]
	ask := w.ask(c)
	issueURL := tracker.Issue.URL(is.Key)
	// The tracker refuses a change to a read-only issue with 409, a
	// delete without permission with 403.
	refusal := http.StatusConflict
	if c.action == "delete" {
		refusal = http.StatusForbidden
	}
	ref := append(trackerOpenIssue(is), generate.Read())
	short := []suite.Step{generate.ClickLink("Issues", tracker.Issues.Href()), generate.Type("Search issues", is.Key, true), generate.Read()}
	// Something else written instead: a comment on an issue that takes
	// one, then back to the issue.
	open := w.openIssues(true)[0]
	// Another issue that cannot take a change, for the same or another
	// reason: its page gives the reason for that issue, not this one.
	near := cands[0].is
	for _, o := range cands {
		if o.is.Key != is.Key {
			near = o.is
			if o.sel == c.sel {
				break
			}
		}
	}
	other := append(trackerOpenIssue(open),
		generate.Type("Add a comment", "Could not do this one.", false),
		generate.Click("button", "Add comment"),
		generate.Navigate(issueURL), generate.Read())
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "action": c.action},
		Instruction: ask,
		StartURL:    trackerStart,
		Contract: contract.Postconditions{
			generate.NoWrite(sandbox.TrackerHost),
			generate.Or(
				refused(trackerRoutes[c.action], refusal, is.Key),
				&contract.And{Children: []contract.Clause{generate.URLIs(at(tracker.Issue, is.Key)), generate.Text(c.sel, c.because)}},
			),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: short, FailsOn: 1},
			{Name: "did-something-else", Reference: other, FailsOn: 0},
			{Name: "another-issue", Reference: append(trackerOpenIssue(near), generate.Read()), FailsOn: 1},
			{Name: "watched-another", Reference: slices.Concat(trackerWatch(open), ref), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat(ref[:len(ref)-1], look(tracker.Issue.URL(is.Key)+"#comments"))},
			{Name: "project-list", Reference: []suite.Step{generate.ClickLink("Issues", tracker.Issues.Href()), generate.ClickLink(pr.Name, "project="+is.Project), generate.Type("Search issues", is.Key, true),
				generate.ClickLink(is.Title, tracker.Issue.Href(is.Key)), generate.Read()}},
		},
		Rationale: fmt.Sprintf("%s cannot take this change: its page says %q (%s). The right outcome is no write on the tracker, and the reason met for this very issue: its page left open (any query or fragment), or the tracker's refusal of the asked change to it.", is.Key, c.because, c.sel),
	}
}

func drawTrackerDeleteComment(r *rand.Rand) generate.Instance {
	w := trackerData()
	type mine struct {
		is *sandbox.TrackerIssue
		c  sandbox.TrackerComment
	}
	var all []mine
	for _, is := range w.issuesWhere(w.writable) {
		for _, c := range is.Comments {
			if c.Author != sandbox.TrackerMe.User {
				continue
			}
			// The comment must be the only one of the user's with its
			// text and date on the issue, so the instruction names it.
			same := 0
			for _, o := range is.Comments {
				if o.Author == c.Author && o.Body == c.Body && o.Date == c.Date {
					same++
				}
			}
			if same == 1 {
				all = append(all, mine{is, c})
			}
		}
	}
	m := pick(r, all)
	is, c := m.is, m.c
	// Another comment of the user's, on the same issue when there is one.
	var other mine
	for _, o := range all {
		if o.c.ID != c.ID && (other.is == nil || o.is == is && other.is != is) {
			other = o
		}
	}
	id := fmt.Sprint(c.ID)
	deleteSteps := func(m mine) []suite.Step {
		n := fmt.Sprint(m.c.ID)
		return append(trackerOpenIssue(m.is), generate.Click("button", "Delete comment #"+n), generate.Click("button", "Yes, delete comment #"+n), generate.Read())
	}
	cancel := append(trackerOpenIssue(is), generate.Click("button", "Delete comment #"+id), generate.Click("button", "Cancel"), generate.Read())
	return generate.Instance{
		Params: map[string]string{"comment": id},
		Instruction: fmt.Sprintf("On %s, delete the comment I wrote on %s that says “%s”. Leave the other comments alone.",
			trackerQuote(is), sandbox.TrackerDate(c.Date), c.Body),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.DeleteComment, nil, id),
			trackerWritten(1),
			trackerIssueShows(is.Key, generate.Count("#comment-"+id, 0)),
		},
		Reference: deleteSteps(m),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: cancel, FailsOn: 0},
			{Name: "wrong-item", Reference: deleteSteps(other), FailsOn: 0},
			{Name: "other-too", Reference: slices.Concat(deleteSteps(m)[:5], deleteSteps(other)[:5], look(tracker.Issue.URL(is.Key))), FailsOn: 1},
			{Name: "commented-too", Reference: slices.Concat(deleteSteps(m)[:5], []suite.Step{generate.Type("Add a comment", "Deleted the duplicate note.", false), generate.Click("button", "Add comment"), generate.Read()}), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat(deleteSteps(m)[:5], look(tracker.Issue.URL(is.Key)+"#comments"))},
			{Name: "check-the-list", Reference: slices.Concat(deleteSteps(m)[:5], trackerOpenIssueList(is), []suite.Step{generate.Read()})},
		},
		Rationale: fmt.Sprintf("Comment #%d on %s is the user's; its delete button opens a modal dialog whose confirm button posts the delete. That delete is the only write the tracker accepts (no other comment deleted, none added), wherever the agent ends; the issue's page, read after the run, no longer shows it.", c.ID, is.Key),
	}
}

// trackerCommentTexts are the comments the multi-step template asks for.
var trackerCommentTexts = []string{
	"Taking this to stand-up tomorrow.",
	"Customer escalation: please look at this first.",
	"Can you post an estimate by Friday?",
	"Blocked on the design review; pinging the owner.",
	"Reproduced on the release candidate.",
	"Pairing on this after lunch.",
}

// trackerRoutes are the write routes of an issue, by the change a task
// asks for.
var trackerRoutes = map[string]sandbox.Route{"reopen": tracker.Move, "move": tracker.Move, "due": tracker.SetDue, "label": tracker.SetLabels,
	"assign": tracker.Assign, "delete": tracker.DeleteIssue}

var trackerPriorityRank = map[string]int{"highest": 0, "high": 1, "medium": 2, "low": 3}

func drawTrackerCommentTopBug(r *rand.Rand) generate.Instance {
	w := trackerData()
	type choice struct {
		project, label string
		person         sandbox.TrackerPerson
		top, next      *sandbox.TrackerIssue
	}
	var picks []choice
	for _, pk := range []string{"ATL", "BRD", "CRN", "DLT"} {
		for _, p := range w.people {
			for _, l := range []string{"bug", "feature", "ui", "backend", "docs", "performance", "security", "chore"} {
				hits := w.issuesWhere(func(is *sandbox.TrackerIssue) bool {
					return is.Project == pk && is.Assignee == p.User && is.Status != "done" && slices.Contains(is.Labels, l)
				})
				slices.SortStableFunc(hits, func(a, b *sandbox.TrackerIssue) int {
					return trackerPriorityRank[a.Priority] - trackerPriorityRank[b.Priority]
				})
				if len(hits) >= 2 && hits[0].Priority != hits[1].Priority {
					picks = append(picks, choice{pk, l, p, hits[0], hits[1]})
				}
			}
		}
	}
	p := pick(r, picks)
	text := pick(r, trackerCommentTexts)
	pr := w.projects[p.project]
	list := []suite.Step{
		generate.ClickLink("Issues", tracker.Issues.Href()),
		generate.ClickLink(pr.Name, tracker.Issues.Field("project")+"="+p.project),
		generate.ClickLink(p.person.Name, "assignee="+p.person.User),
		generate.ClickLink(p.label, "label="+p.label),
		generate.ClickLink("Open (not done)", "status=open"),
	}
	comment := func(is *sandbox.TrackerIssue) []suite.Step {
		return []suite.Step{generate.ClickLink(is.Title, tracker.Issue.Href(is.Key)), generate.Type("Add a comment", text, false), generate.Click("button", "Add comment")}
	}
	ref := append(slices.Clone(list), comment(p.top)...)
	ref = append(ref, generate.Read())
	wrong := append(slices.Clone(list), comment(p.next)...)
	wrong = append(wrong, generate.Read())
	twice := append(slices.Clone(ref[:len(ref)-1]), generate.Type("Add a comment", text, false), generate.Click("button", "Add comment"), generate.Read())
	return generate.Instance{
		Params: map[string]string{"project": p.project, "assignee": p.person.User, "label": p.label, "text": text},
		Instruction: fmt.Sprintf("Find the most urgent open %s issue assigned to %s in %s (the one with the highest priority) and comment on it: “%s”",
			p.label, p.person.Name, pr.Name, text),
		StartURL: trackerStart,
		Contract: contract.Postconditions{
			trackerOnce(tracker.Comment, map[string]string{"body": text}, p.top.Key),
			trackerWritten(1),
			trackerIssueShows(p.top.Key, generate.Text("#comment-9001 .comment-body", text)),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "twice", Reference: twice, FailsOn: 0},
			{Name: "next-too", Reference: slices.Concat(ref[:len(ref)-1], list, comment(p.next), look(tracker.Issue.URL(p.top.Key))), FailsOn: 1},
			{Name: "watched-too", Reference: slices.Concat(ref[:len(ref)-1], trackerWatch(p.top), look(tracker.Issue.URL(p.top.Key))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "spaces", Reference: slices.Concat(list, []suite.Step{generate.ClickLink(p.top.Title, tracker.Issue.Href(p.top.Key)), generate.Type("Add a comment", "  "+text+"  ", false), generate.Click("button", "Add comment"), generate.Read()})},
			{Name: "back-to-list", Reference: slices.Concat(ref[:len(ref)-1], list, []suite.Step{generate.Read()})},
		},
		Rationale: fmt.Sprintf("Of %s's open %s issues in %s, %s (%s) has the highest priority, above %s (%s); the comment must carry the text as the tracker stores it (trimmed) and be the only write the tracker accepts, wherever the agent ends; the issue's page, read after the run, shows it (the first new comment is #9001).",
			p.person.Name, p.label, p.project, p.top.Key, p.top.Priority, p.next.Key, p.next.Priority),
	}
}
