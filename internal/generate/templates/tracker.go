package templates

import (
	"fmt"
	"math/rand/v2"
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

const trackerBase = "https://" + sandbox.TrackerHost

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

// trackerPath is a URL pattern for exactly path on the tracker.
func trackerPath(path string) string { return generate.Exact(trackerBase + path) }

// trackerWrites is a pattern for the tracker's writes of the named kinds
// (assignee, due, priority, labels, comments, move, watch, duplicate,
// delete on any issue; comment-delete for deleting a comment).
func trackerWrites(kinds ...string) string {
	var issue []string
	alts := []string{}
	for _, k := range kinds {
		if k == "comment-delete" {
			alts = append(alts, `comments/[0-9]+/delete`)
			continue
		}
		issue = append(issue, k)
	}
	if len(issue) > 0 {
		alts = append(alts, `issues/[^/]+/(?:`+strings.Join(issue, "|")+`)`)
	}
	return "^" + regexp.QuoteMeta(trackerBase) + "/(?:" + strings.Join(alts, "|") + ")$"
}

var trackerWriteKinds = []string{"assignee", "due", "priority", "labels", "comments", "move", "watch", "duplicate", "delete", "comment-delete"}

// trackerNoOtherWrite holds when no write other than those of the kinds
// named was accepted.
func trackerNoOtherWrite(except ...string) *contract.Not {
	var others []string
	for _, k := range trackerWriteKinds {
		if !slices.Contains(except, k) {
			others = append(others, k)
		}
	}
	return generate.Not(&contract.Network{URLPattern: trackerWrites(others...), Method: "POST", StatusIn: []int{303}})
}

// trackerOnce holds when exactly one write of kind was accepted, on any issue.
func trackerOnce(kind string) *contract.Network {
	return generate.Once(&contract.Network{URLPattern: trackerWrites(kind), Method: "POST", StatusIn: []int{303}})
}

// trackerOpenIssue goes from the projects page to the issue's page by the
// issue list's search.
func trackerOpenIssue(is *sandbox.TrackerIssue) []suite.Step {
	return []suite.Step{
		generate.ClickLink("Issues", "/issues"),
		generate.Type("Search issues", is.Key, true),
		generate.ClickLink(is.Title, "/issues/"+is.Key),
	}
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
	docURL := trackerBase + "/docs/" + is.Key
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
		generate.ClickLink("Open linked design doc", "/docs/"+is.Key),
		generate.SwitchTab(2),
		generate.Press("End"),
		generate.Read())
	short := append(trackerOpenIssue(is), generate.Read())
	controls := []generate.Control{{Name: "one-step-short", Reference: short, FailsOn: 0}}
	if other != nil {
		controls = append(controls, generate.Control{Name: "wrong-item", FailsOn: 0, Reference: append(trackerOpenIssue(other),
			generate.ClickLink("Open linked design doc", "/docs/"+other.Key), generate.SwitchTab(2), generate.Read())})
	}
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key},
		Instruction: fmt.Sprintf(asks[is.Number%len(asks)], is.Key, w.projects[is.Project].Name),
		StartURL:    trackerBase + "/",
		Contract: contract.Postconditions{
			generate.URLIs(generate.Exact(docURL)),
			generate.Text(".doc-owner", owner),
		},
		Reference: ref,
		Controls:  controls,
		Rationale: fmt.Sprintf("The design doc of %s opens in a new tab from the issue page; its decision owner is %s. "+
			"The team has near-duplicate names, so the owner must be read from the doc (.doc-owner) and the agent must end on the doc's tab.", is.Key, owner),
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
	final := fmt.Sprintf("%s/issues?assignee=%s&priority=%s&project=%s&status=open", trackerBase, c.assignee, c.priority, c.project)
	ref := []suite.Step{
		generate.ClickLink("Issues", "/issues"),
		generate.ClickLink(pr.Name, "project="+c.project),
		generate.ClickLink(name, "assignee="+c.assignee),
		generate.ClickLink(trackerPriorityLabels[c.priority], "priority="+c.priority),
		generate.ClickLink("Open (not done)", "status=open"),
		generate.Read(),
	}
	wrong := slices.Clone(ref)
	wrong[2] = generate.ClickLink(twin.Name, "assignee="+twin.User)
	count := fmt.Sprintf("%d issue", c.n)
	if c.n != 1 {
		count += "s"
	}
	return generate.Instance{
		Params: map[string]string{"project": c.project, "assignee": c.assignee, "priority": c.priority},
		Instruction: fmt.Sprintf("In Keystone, show me the %s issues assigned to %s with %s priority that are not done yet.",
			pr.Name, name, strings.ToLower(trackerPriorityLabels[c.priority])),
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.URLIs(generate.Exact(final)),
			generate.Text(".result-count", count),
			generate.Count(".issue-row", c.n),
		},
		Reference: ref,
		Controls:  []generate.Control{{Name: "wrong-item", Reference: wrong, FailsOn: 0}},
		Rationale: fmt.Sprintf("Four filters (project, assignee, priority, open) give %s; %s has a near-namesake, %s, whose list is another one.", count, name, twin.Name),
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
	issueURL := trackerBase + "/issues/" + is.Key
	ref := []suite.Step{
		generate.ClickLink(pr.Name, "project="+is.Project),
		generate.Type("Search issues", is.Key, true),
		generate.ClickLink(is.Title, "/issues/"+is.Key),
		generate.Click("button", "Assign to "+to.Name),
		generate.Read(),
	}
	wrong := slices.Clone(ref)
	wrong[3] = generate.Click("button", "Assign to "+twin.Name)
	if twin.User == is.Assignee {
		wrong[3] = generate.Click("button", "Unassign")
	}
	// The side effect comes first, so that the page still ends on the
	// assignment's notice and only the not-clause sees it.
	side := append(slices.Clone(ref[:3]), generate.Select("Priority", "Highest"), generate.Click("button", "Save priority"), ref[3], generate.Read())
	if is.Priority == "highest" {
		side[3] = generate.Select("Priority", "Low")
	}
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "assignee": to.User},
		Instruction: fmt.Sprintf("Assign %s in %s to %s.", trackerQuote(is), pr.Name, to.Name),
		StartURL:    trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+is.Key+"/assignee"), map[string]string{"assignee": to.User})),
			generate.Text(".notice", is.Key+" is now assigned to "+to.Name+"."),
			generate.Text(".assignee", to.Name),
			generate.URLIs(generate.Exact(issueURL)),
			trackerOnce("assignee"),
			trackerNoOtherWrite("assignee"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "side-effect", Reference: side, FailsOn: 5},
		},
		Rationale: fmt.Sprintf("The assignee picker is a custom element whose buttons live in an open shadow root; its choice posts assignee=%s. "+
			"%s has a near-namesake (%s), so the network clause pins the user name; one assignment in all, and nothing else changed.", to.User, to.Name, twin.Name),
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
	issueURL := trackerBase + "/issues/" + is.Key
	ref := append(trackerOpenIssue(is), trackerCalendar(start, due)...)
	ref = append(ref, generate.Click("button", "Save due date"), generate.Read())
	off := nextDay(due)
	wrong := append(trackerOpenIssue(is), trackerCalendar(start, off)...)
	wrong = append(wrong, generate.Click("button", "Save due date"), generate.Read())
	short := append(trackerOpenIssue(is), trackerCalendar(start, due)...)
	short = append(short, generate.Read())
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "due": due},
		Instruction: fmt.Sprintf("Set the due date of %s to %s.", trackerQuote(is), human),
		StartURL:    trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+is.Key+"/due"), map[string]string{"due": due})),
			generate.Text(".notice", "The due date of "+is.Key+" is now "+human+"."),
			generate.Text(".due", human),
			generate.URLIs(generate.Exact(issueURL)),
			trackerNoOtherWrite("due"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "one-step-short", Reference: short, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("The due date is chosen in a calendar popup that opens on %s's month and needs month navigation; the day button puts %s into the form, and only Save due date posts it.", start, due),
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
	boardPath := "/projects/" + is.Project + "/board"
	card := suite.Target{Role: "link", Name: is.Key + " " + is.Title, Href: "/issues/" + is.Key}
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
			generate.Drag(suite.Target{Role: "link", Name: other.Key + " " + other.Title, Href: "/issues/" + other.Key}, column(to)), generate.Read()}})
	}
	return generate.Instance{
		Params: map[string]string{"issue": is.Key, "status": to},
		Instruction: fmt.Sprintf("On the %s board, move %s from %s to %s.", pr.Name, trackerQuote(is),
			trackerStatusLabels[is.Status], trackerStatusLabels[to]),
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+is.Key+"/move"), map[string]string{"status": to})),
			generate.Text(".notice", is.Key+" moved to "+trackerStatusLabels[to]+"."),
			generate.Text(`[aria-label="`+trackerStatusLabels[to]+` column"] .cards`, is.Key),
			generate.URLIs(generate.Exact(trackerBase + boardPath)),
			trackerOnce("move"),
			trackerNoOtherWrite("move"),
		},
		Reference: ref,
		Controls:  controls,
		Rationale: fmt.Sprintf("The board moves a card when it is dragged (pointer events) onto another column; the drop posts status=%s for %s and the board shows the card in its new column.", to, is.Key),
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
		StartURL:    trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+is.Key+"/delete"), nil)),
			generate.Text(".notice", is.Key+" was deleted."),
			generate.URLIs(generate.Exact(trackerBase + "/issues?project=" + is.Project)),
			trackerOnce("delete"),
			trackerNoOtherWrite("delete"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: cancel, FailsOn: 0},
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Delete issue opens a modal dialog; only its confirm button posts the delete of %s. One delete in all, nothing else written.", is.Key),
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
	issuePath := "/issues/" + is.Key
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
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath(issuePath+"/assignee"), map[string]string{"assignee": to.User})),
			generate.Once(generate.Post(trackerPath(issuePath+"/priority"), map[string]string{"priority": prio})),
			generate.Once(generate.Post(trackerPath(issuePath+"/labels"), map[string]string{"action": "add", "label": label})),
			generate.Text(".assignee", to.Name),
			generate.Text(".priority", pl),
			generate.Text(".labels", label),
			generate.URLIs(generate.Exact(trackerBase + issuePath)),
			trackerNoOtherWrite("assignee", "priority", "labels"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: short, FailsOn: 2},
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Three saved changes to %s, each its own form: assignee %s (shadow-root picker; near-namesake %s), priority %s, label %s; the page must show all three, and nothing else may be written.", is.Key, to.User, twin.Name, prio, label),
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
		generate.ClickLink("Issues", "/issues"),
		generate.ClickLink(pr.Name, "project="+p.project),
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
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+p.first.Key+"/watch"), nil)),
			generate.Text(".notice", "You are now watching "+p.first.Key+"."),
			generate.Text(".watching", "Yes"),
			generate.URLIs(generate.Exact(trackerBase + "/issues/" + p.first.Key)),
			trackerOnce("watch"),
			trackerNoOtherWrite("watch"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "twice", Reference: twice, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Filtering %s by label %s and open status and sorting by due date puts %s (due %s) first, ahead of %s (due %s); "+
			"Watch is in the row's hover menu. Watching twice stops watching, so exactly one watch is allowed.", p.project, p.label, p.first.Key, p.first.Due, p.second.Key, p.second.Due),
	}
}

func drawTrackerImpossible(r *rand.Rand) generate.Instance {
	w := trackerData()
	type cand struct {
		is      *sandbox.TrackerIssue
		action  string
		sel     string
		because string
	}
	var cands []cand
	for i := range w.issues {
		is := &w.issues[i]
		pr := w.projects[is.Project]
		switch {
		case pr.Archived:
			for _, a := range []string{"move", "due", "label", "assign"} {
				cands = append(cands, cand{is, a, ".readonly-reason", pr.Name + " is archived, so its issues are read-only."})
			}
		case is.Locked():
			for _, a := range []string{"reopen", "due", "label", "assign"} {
				cands = append(cands, cand{is, a, ".readonly-reason", fmt.Sprintf("%s is locked: it shipped in %s %s", is.Key, pr.Name, pr.Release)})
			}
		case !pr.Admin && is.Status != "done":
			cands = append(cands, cand{is, "delete", ".permission-note", "Only admins of " + pr.Name + " can delete its issues"})
		}
	}
	c := pick(r, cands)
	is := c.is
	pr := w.projects[is.Project]
	person := w.people[is.Number%len(w.people)]
	if person.User == is.Assignee {
		person = w.twin(person.User)
	}
	var ask string
	switch c.action {
	case "reopen":
		ask = fmt.Sprintf("%s in %s is back: reopen it.", trackerQuote(is), pr.Name)
	case "move":
		to := "In review"
		if is.Status == "review" {
			to = "In progress"
		}
		ask = fmt.Sprintf("Move %s in %s to %s.", trackerQuote(is), pr.Name, to)
	case "due":
		ask = fmt.Sprintf("Set the due date of %s in %s to %s.", trackerQuote(is), pr.Name, sandbox.TrackerDate(fmt.Sprintf("2026-04-%02d", 1+is.Number%28)))
	case "label":
		ask = fmt.Sprintf("Add the docs label to %s in %s.", trackerQuote(is), pr.Name)
	case "assign":
		ask = fmt.Sprintf("Hand %s in %s over to %s.", trackerQuote(is), pr.Name, person.Name)
	case "delete":
		ask = fmt.Sprintf("Delete %s in %s; it duplicates another issue.", trackerQuote(is), pr.Name)
	}
	issueURL := trackerBase + "/issues/" + is.Key
	ref := append(trackerOpenIssue(is), generate.Read())
	short := []suite.Step{generate.ClickLink("Issues", "/issues"), generate.Type("Search issues", is.Key, true), generate.Read()}
	// Something else written instead: a comment on an issue that takes
	// one, then back to the issue.
	open := w.openIssues(true)[0]
	other := append(trackerOpenIssue(open),
		generate.Type("Add a comment", "Could not do this one.", false),
		generate.Click("button", "Add comment"),
		generate.Navigate(issueURL), generate.Read())
	return generate.Instance{
		Params:      map[string]string{"issue": is.Key, "action": c.action},
		Instruction: ask,
		StartURL:    trackerBase + "/",
		Contract: contract.Postconditions{
			generate.NoWrite(sandbox.TrackerHost),
			generate.URLIs(generate.Exact(issueURL)),
			generate.Text(c.sel, c.because),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: short, FailsOn: 1},
			{Name: "did-something-else", Reference: other, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("%s cannot take this change: its page says %q (%s). The right outcome is no write on the tracker, ending on that page.", is.Key, c.because, c.sel),
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
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/comments/"+id+"/delete"), nil)),
			generate.Text(".notice", "Your comment was deleted."),
			generate.Count("#comment-"+id, 0),
			generate.URLIs(generate.Exact(trackerBase + "/issues/" + is.Key)),
			trackerOnce("comment-delete"),
			trackerNoOtherWrite("comment-delete"),
		},
		Reference: deleteSteps(m),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: cancel, FailsOn: 0},
			{Name: "wrong-item", Reference: deleteSteps(other), FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Comment #%d on %s is the user's; its delete button opens a modal dialog whose confirm button posts the delete. Exactly one comment deleted, nothing else written.", c.ID, is.Key),
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
		generate.ClickLink("Issues", "/issues"),
		generate.ClickLink(pr.Name, "project="+p.project),
		generate.ClickLink(p.person.Name, "assignee="+p.person.User),
		generate.ClickLink(p.label, "label="+p.label),
		generate.ClickLink("Open (not done)", "status=open"),
	}
	comment := func(is *sandbox.TrackerIssue) []suite.Step {
		return []suite.Step{generate.ClickLink(is.Title, "/issues/"+is.Key), generate.Type("Add a comment", text, false), generate.Click("button", "Add comment")}
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
		StartURL: trackerBase + "/",
		Contract: contract.Postconditions{
			generate.Once(generate.Post(trackerPath("/issues/"+p.top.Key+"/comments"), map[string]string{"body": text})),
			generate.Text("#comment-9001 .comment-body", text),
			generate.URLIs("^" + regexp.QuoteMeta(trackerBase+"/issues/"+p.top.Key) + "(?:#comment-9001)?$"),
			trackerOnce("comments"),
			trackerNoOtherWrite("comments"),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: wrong, FailsOn: 0},
			{Name: "twice", Reference: twice, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Of %s's open %s issues in %s, %s (%s) has the highest priority, above %s (%s); the comment must carry the exact text and be the task's only comment (the first new comment is #9001).",
			p.person.Name, p.label, p.project, p.top.Key, p.top.Priority, p.next.Key, p.next.Priority),
	}
}
