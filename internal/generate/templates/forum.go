package templates

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// forumTemplates are the templates over the forum application.
var forumTemplates = []generate.Template{
	{
		ID: "forum-find-post-author", App: "forum", Kind: generate.KindFind,
		Params:  []string{"thread", "post"},
		Summary: "find who wrote a numbered post of a long thread, on the page of the thread that shows it",
		Draw:    drawForumPostAuthor,
	},
	{
		ID: "forum-find-member-joined", App: "forum", Kind: generate.KindFind,
		Widgets: []generate.Widget{generate.WidgetNewTab},
		Params:  []string{"member"},
		Summary: "find when a member joined, on their profile, which the member directory opens in a new tab; names differ by a letter or a dot",
		Draw:    drawForumJoined,
	},
	{
		ID: "forum-navigate-last-page", App: "forum", Kind: generate.KindNavigate,
		Params:  []string{"thread"},
		Summary: "open the last page of a long thread through its pager",
		Draw:    drawForumLastPage,
	},
	{
		ID: "forum-delete-message", App: "forum", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetHoverMenu},
		Params:  []string{"message"},
		Summary: "delete one inbox message, named by subject and sender, through its actions menu; subjects and senders nearly repeat",
		Draw:    drawForumDelete,
	},
	{
		ID: "forum-save-draft", App: "forum", Kind: generate.KindChangeOne,
		Params:  []string{"thread", "text"},
		Summary: "save a reply as a draft without posting it",
		Draw:    drawForumDraft,
	},
	{
		ID: "forum-signature-then-reply", App: "forum", Kind: generate.KindChangeSeveral,
		Params:  []string{"signature", "thread", "text"},
		Summary: "change the signature, then reply to a thread so the reply carries the new signature",
		Draw:    drawForumSignatureReply,
	},
	{
		ID: "forum-message-poster", App: "forum", Kind: generate.KindMultiStep,
		Params:  []string{"thread", "who", "subject"},
		Summary: "find who started a thread, or who wrote its latest post (on its last page), and send them a private message",
		Draw:    drawForumMessagePoster,
	},
	{
		ID: "forum-impossible-locked-reply", App: "forum", Kind: generate.KindImpossible,
		Params:  []string{"thread", "text"},
		Summary: "reply to a thread a moderator has locked",
		Draw:    drawForumLocked,
	},
	{
		ID: "forum-impossible-closed-inbox", App: "forum", Kind: generate.KindImpossible,
		Widgets: []generate.Widget{generate.WidgetNewTab},
		Params:  []string{"member", "subject"},
		Summary: "send a private message to a member who does not accept them; their profile, opened in a new tab, says so",
		Draw:    drawForumClosed,
	},
}

const forumHost = "forum.sandbox.test"

// forumData is the forum's seeded data, as a fresh forum holds it.
var forumData = sandbox.ForumData()

var forumStart = forumURL("/")

func forumURL(path string) string { return "https://" + forumHost + path }

func forumPattern(path string) string { return "^" + regexp.QuoteMeta(forumURL(path)) }

var (
	// forumReplyPosted is any reply that was posted, not kept as a draft.
	forumReplyPosted = &contract.Network{URLPattern: forumPattern("/t/") + `[0-9]+/reply$`, Method: "POST",
		StatusIn: []int{303}, BodyPattern: `(?:^|&)action=post(?:&|$)`}
	forumOtherWrites = generate.Post(forumPattern("/")+`(?:b/[^/]+/threads|settings|messages|messages/[0-9]+/delete)$`, nil)
)

func forumThread(id int) sandbox.ForumThread { return forumData.Threads[id-1] }

func forumMember(name string) sandbox.ForumMember {
	for _, m := range forumData.Members {
		if m.Name == name {
			return m
		}
	}
	panic("generate: no member " + name)
}

// forumKey is a member name reduced to its letters.
func forumKey(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return -1
	}, strings.ToLower(name))
}

// forumTwins lists the members whose names differ from name by a mark or
// a letter or two: fenwick and fenwick_j, quietbench and quiet.bench.
func forumTwins(name string) []string {
	k := forumKey(name)
	var out []string
	for _, m := range forumData.Members {
		o := forumKey(m.Name)
		if m.Name == name {
			continue
		}
		short, long := k, o
		if len(short) > len(long) {
			short, long = long, short
		}
		if strings.HasPrefix(long, short) && len(long)-len(short) <= 2 {
			out = append(out, m.Name)
		}
	}
	return out
}

// forumOpenThread goes from the home page to the first page of t.
func forumOpenThread(t sandbox.ForumThread) []suite.Step {
	return []suite.Step{generate.Click("link", t.BoardName), generate.Read(), generate.Click("link", t.Title), generate.Read()}
}

// forumTitled lists the threads that pass keep (titles are unique).
func forumTitled(keep func(sandbox.ForumThread) bool) []sandbox.ForumThread {
	var out []sandbox.ForumThread
	for _, t := range forumData.Threads {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}

func forumPageURL(t sandbox.ForumThread, page int) string {
	if page == 1 {
		return forumURL(fmt.Sprintf("/t/%d", t.ID))
	}
	return forumURL(fmt.Sprintf("/t/%d?page=%d", t.ID, page))
}

func drawForumPostAuthor(r *rand.Rand) generate.Instance {
	long := forumTitled(func(t sandbox.ForumThread) bool { return t.Pages > 1 })
	for {
		t := pick(r, long)
		n := sandbox.ForumPageSize + 1 + r.IntN(len(t.Authors)-sandbox.ForumPageSize)
		page := (n-1)/sandbox.ForumPageSize + 1
		author := t.Authors[n-1]
		if strings.Contains(strings.ToLower(t.Title), strings.ToLower(author)) {
			continue
		}
		return generate.Instance{
			Params: map[string]string{"thread": strconv.Itoa(t.ID), "post": strconv.Itoa(n)},
			Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, who wrote post #%d of the %s thread \"%s\"? Open the page of the thread that shows that post.",
				n, t.BoardName, t.Title),
			StartURL: forumStart,
			Contract: contract.Postconditions{
				generate.URLIs(generate.Exact(forumPageURL(t, page))),
				generate.Text(fmt.Sprintf("#post-%d .author", n), author),
				generate.NoWrite(forumHost),
			},
			Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Read()),
			Controls: []generate.Control{{
				Name:      "first-page-only",
				Reference: forumOpenThread(t),
				FailsOn:   0,
			}},
			Rationale: fmt.Sprintf("Thread %d has %d posts, %d a page; post #%d, by %s, is on page %d.", t.ID, len(t.Authors), sandbox.ForumPageSize, n, author, page),
		}
	}
}

func drawForumJoined(r *rand.Rand) generate.Instance {
	var names []string
	for _, m := range forumData.Members {
		if len(forumTwins(m.Name)) > 0 {
			names = append(names, m.Name)
		}
	}
	name := pick(r, names)
	m := forumMember(name)
	twin := forumMember(forumTwins(name)[0])
	open := func(n string) []suite.Step {
		return []suite.Step{generate.Click("link", "Member directory"), generate.Read(), generate.Click("link", n), generate.SwitchTab(2), generate.Press("End"), generate.Read()}
	}
	return generate.Instance{
		Params:      map[string]string{"member": name},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, when did the member %s join? Open their profile from the member directory.", name),
		StartURL:    forumStart,
		Contract: contract.Postconditions{
			generate.URLIs(generate.Exact(forumURL("/u/" + name))),
			generate.Text(".joined", m.Joined),
			generate.NoWrite(forumHost),
		},
		Reference: open(name),
		Controls: []generate.Control{{
			Name:      "wrong-member",
			Reference: open(twin.Name),
			FailsOn:   0,
		}},
		Rationale: fmt.Sprintf("%s joined on %s; %s, whose name differs by a mark or a letter, joined on %s. Profiles open in a new tab.", name, m.Joined, twin.Name, twin.Joined),
	}
}

func drawForumLastPage(r *rand.Rand) generate.Instance {
	long := forumTitled(func(t sandbox.ForumThread) bool { return t.Pages > 1 })
	t := pick(r, long)
	return generate.Instance{
		Params: map[string]string{"thread": strconv.Itoa(t.ID)},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, open the %s thread \"%s\" at its last page, where the newest replies are.",
			t.BoardName, t.Title),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.URLIs(generate.Exact(forumPageURL(t, t.Pages))),
			generate.Text(".pager .current", fmt.Sprintf("Page %d of %d", t.Pages, t.Pages)),
			generate.NoWrite(forumHost),
		},
		Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Read()),
		Controls: []generate.Control{{
			Name:      "first-page-only",
			Reference: forumOpenThread(t),
			FailsOn:   0,
		}},
		Rationale: fmt.Sprintf("Thread %d has %d posts on %d pages.", t.ID, len(t.Authors), t.Pages),
	}
}

// forumDeleteSteps deletes message m through its actions menu.
func forumDeleteSteps(m sandbox.ForumMessage) []suite.Step {
	return []suite.Step{
		generate.Click("button", fmt.Sprintf("Actions for %s from %s", m.Subject, m.From)),
		generate.Click("button", "Delete"),
	}
}

func drawForumDelete(r *rand.Rand) generate.Instance {
	inbox := forumData.Inbox
	m := pick(r, inbox)
	// The near miss deletes a message with a like subject, or from the
	// same sender, or else the one listed next.
	var miss *sandbox.ForumMessage
	for i := range inbox {
		o := &inbox[i]
		if o.ID != m.ID && (strings.HasPrefix(o.Subject, m.Subject) || strings.HasPrefix(m.Subject, o.Subject) || o.From == m.From) {
			miss = o
			break
		}
	}
	if miss == nil {
		miss = &inbox[(slices.Index(inbox, m)+1)%len(inbox)]
	}
	open := []suite.Step{generate.Click("link", "Messages"), generate.Read()}
	return generate.Instance{
		Params:      map[string]string{"message": strconv.Itoa(m.ID)},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, delete the private message \"%s\" from %s from my inbox. Leave the other messages alone.", m.Subject, m.From),
		StartURL:    forumStart,
		Contract: contract.Postconditions{
			generate.Post(forumPattern(fmt.Sprintf("/messages/%d/delete", m.ID))+"$", nil),
			generate.Once(generate.Post(forumPattern("/messages/")+`[0-9]+/delete$`, nil)),
			generate.Text(".notice.deleted", fmt.Sprintf("%q from %s", m.Subject, m.From)),
			generate.URLIs(forumPattern("/messages?deleted=")),
			generate.Count(fmt.Sprintf(`.inbox a[href="/messages/%d"]`, m.ID), 0),
			generate.Not(generate.Post(forumPattern("/")+`(?:b/[^/]+/threads|settings|messages)$`, nil)),
			generate.Not(forumReplyPosted),
			generate.NoDialog(),
		},
		Reference: slices.Concat(open, forumDeleteSteps(m), []suite.Step{generate.Read()}),
		Controls: []generate.Control{
			{Name: "wrong-message", Reference: slices.Concat(open, forumDeleteSteps(*miss)), FailsOn: 0},
			{Name: "side-effect", Reference: slices.Concat(open, forumDeleteSteps(*miss), forumDeleteSteps(m)), FailsOn: 1},
		},
		Rationale: fmt.Sprintf("Message %d is %q from %s; %q from %s is the near miss. The delete sits in a menu that opens on hover or focus of the message's actions button.",
			m.ID, m.Subject, m.From, miss.Subject, miss.From),
	}
}

var forumReplies = []string{
	"Try a new cable before anything else; mine was frayed inside the housing.",
	"I would check the ground connection first, it fixed the same fault for me.",
	"Clean it with isopropyl alcohol and let it dry overnight before testing again.",
	"Measure it with the part removed, otherwise the reading means little.",
	"Half a turn at a time, then test; it is easy to overshoot.",
	"A dab of graphite grease cured mine for good.",
	"Check the date code on the part; the early batch had this fault.",
	"Post a photo of the back side and we can say more.",
}

// forumOpen lists the threads that take replies and fit on one page.
func forumOpen() []sandbox.ForumThread {
	return forumTitled(func(t sandbox.ForumThread) bool { return !t.Locked && t.Pages == 1 })
}

func forumReplyClause(t sandbox.ForumThread, action, text string) *contract.Network {
	return generate.Post(forumPattern(fmt.Sprintf("/t/%d/reply", t.ID))+"$", map[string]string{"action": action, "body": text})
}

func forumReplySteps(t sandbox.ForumThread, text, button string) []suite.Step {
	return append(forumOpenThread(t), generate.Type("Your reply", text, false), generate.Click("button", button))
}

func drawForumDraft(r *rand.Rand) generate.Instance {
	open := forumOpen()
	t := pick(r, open)
	text := pick(r, forumReplies)
	var same []sandbox.ForumThread
	for _, o := range open {
		if o.ID != t.ID && o.BoardSlug == t.BoardSlug {
			same = append(same, o)
		}
	}
	other := pick(r, same)
	return generate.Instance{
		Params: map[string]string{"thread": strconv.Itoa(t.ID), "text": text},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, in the %s thread \"%s\", save a draft reply, without posting it yet, that says exactly: %s",
			t.BoardName, t.Title, text),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.Once(forumReplyClause(t, "draft", text)),
			generate.Text(".notice", "Draft saved. It is not posted yet."),
			generate.URLIs(generate.Exact(forumURL(fmt.Sprintf("/t/%d", t.ID)))),
			generate.Count(".post.mine", 0),
			generate.Not(forumReplyPosted),
			generate.Not(forumOtherWrites),
			generate.NoDialog(),
		},
		Reference: forumReplySteps(t, text, "Save draft"),
		Controls: []generate.Control{
			{Name: "posted", Reference: forumReplySteps(t, text, "Post reply"), FailsOn: 0},
			{Name: "wrong-thread", Reference: forumReplySteps(other, text, "Save draft"), FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Thread %d's reply form has two buttons; only Save draft keeps the text unposted (action=draft).", t.ID),
	}
}

var forumSignatures = []string{
	"Robin A. - bikes, radios and glue",
	"Robin Ashdown, Leeds bike kitchen",
	"Robin - measure twice, solder once",
	"robin_a: ask me about brakes",
	"Robin A. - usually covered in sawdust",
	"Robin, fixing things slowly since 1998",
}

func drawForumSignatureReply(r *rand.Rand) generate.Instance {
	open := forumOpen()
	t := pick(r, open)
	sig := pick(r, forumSignatures)
	text := pick(r, forumReplies)
	setSig := []suite.Step{
		generate.Click("link", "Settings"),
		generate.Type("Signature (shown under your posts)", sig, false),
		generate.Click("button", "Save settings"),
		generate.Click("link", "Boards"),
	}
	reply := forumReplySteps(t, text, "Post reply")
	return generate.Instance{
		Params: map[string]string{"signature": sig, "thread": strconv.Itoa(t.ID), "text": text},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, change my signature to \"%s\", then reply to the %s thread \"%s\" so that the reply carries the new signature. The reply says exactly: %s",
			sig, t.BoardName, t.Title, text),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.Post(forumPattern("/settings")+"$", map[string]string{"signature": sig}),
			generate.Once(forumReplyClause(t, "post", text)),
			generate.Text(".post.mine .signature", sig),
			generate.Text(".notice", "Your reply was posted."),
			generate.URLIs(forumPattern(fmt.Sprintf("/t/%d", t.ID)) + `(?:\?page=[0-9]+)?(?:#post-[0-9]+)?$`),
			generate.Once(&contract.Network{URLPattern: forumReplyPosted.URLPattern, Method: "POST", StatusIn: []int{303}, BodyPattern: forumReplyPosted.BodyPattern}),
			generate.Not(generate.Post(forumPattern("/")+`(?:b/[^/]+/threads|messages|messages/[0-9]+/delete)$`, nil)),
			generate.NoDialog(),
		},
		Reference: slices.Concat(setSig, reply),
		Controls: []generate.Control{
			{Name: "reply-only", Reference: reply, FailsOn: 0},
			{Name: "reversed", Reference: slices.Concat(reply, setSig[:3]), FailsOn: 2},
		},
		Rationale: fmt.Sprintf("A post carries the signature saved when it was posted, so the signature must be saved first; thread %d's post by the user must show it.", t.ID),
	}
}

var forumSubjects = []string{"Your thread", "A question about your fix", "Parts you mentioned", "Meet-up next month?", "Thanks for the write-up", "Tool loan"}

var forumBodies = []string{
	"I read your thread and have a spare part that might help. Shall I post it?",
	"Could you share a photo of how you mounted it? I am trying the same.",
	"Thanks for the detail in your post, it saved me an afternoon.",
	"Are you coming to the repair cafe next month? I could bring the tool.",
}

func drawForumMessagePoster(r *rand.Rand) generate.Instance {
	for {
		t := pick(r, forumData.Threads)
		who := []string{"started", "latest"}[r.IntN(2)]
		name, find := t.Authors[0], []suite.Step{generate.Click("link", t.BoardName), generate.Read()}
		if who == "latest" {
			name = t.Authors[len(t.Authors)-1]
			find = forumOpenThread(t)
			if t.Pages > 1 {
				find = append(find, generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Read())
			}
		}
		if forumMember(name).Closed || (who == "latest" && t.Pages == 1 && len(t.Authors) < 3) {
			continue
		}
		// The near miss writes to the other end of the thread: the last
		// poster for the starter, the starter for the last poster, or a
		// member whose name is nearly the same.
		miss := t.Authors[len(t.Authors)-1]
		if who == "latest" {
			miss = t.Authors[0]
		}
		if miss == name || forumMember(miss).Closed {
			miss = ""
			for _, tw := range forumTwins(name) {
				if !forumMember(tw).Closed {
					miss = tw
				}
			}
			if miss == "" {
				continue
			}
		}
		subject := pick(r, forumSubjects)
		body := pick(r, forumBodies)
		send := func(to string) []suite.Step {
			return []suite.Step{
				generate.Click("link", "Messages"),
				generate.Click("link", "Write a message"),
				generate.Type("To (member name)", to, false),
				generate.Type("Subject", subject, false),
				generate.Type("Message", body, false),
				generate.Click("button", "Send message"),
			}
		}
		whom := "the member who started"
		if who == "latest" {
			whom = "the member who wrote the latest post in"
		}
		return generate.Instance{
			Params: map[string]string{"thread": strconv.Itoa(t.ID), "who": who, "subject": subject},
			Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, send a private message to %s the %s thread \"%s\", with the subject \"%s\" and this text: %s",
				whom, t.BoardName, t.Title, subject, body),
			StartURL: forumStart,
			Contract: contract.Postconditions{
				generate.Once(generate.Post(forumPattern("/messages")+"$", map[string]string{"to": name, "subject": subject, "body": body})),
				generate.Text(".notice", "Message sent to "+name+"."),
				generate.URLIs(generate.Exact(forumURL("/messages/301?sent=1"))),
				generate.Not(generate.Post(forumPattern("/")+`(?:b/[^/]+/threads|settings|messages/[0-9]+/delete)$`, nil)),
				generate.Not(forumReplyPosted),
				generate.NoDialog(),
			},
			Reference: slices.Concat(find, send(name)),
			Controls: []generate.Control{
				{Name: "wrong-member", Reference: slices.Concat(find, send(miss)), FailsOn: 0},
				{Name: "twice", Reference: slices.Concat(find, send(name), send(name)), FailsOn: 0},
			},
			Rationale: fmt.Sprintf("Thread %d was started by %s and its latest post (on page %d) is by %s; the message must go to %s, once.",
				t.ID, t.Authors[0], t.Pages, t.Authors[len(t.Authors)-1], name),
		}
	}
}

func drawForumLocked(r *rand.Rand) generate.Instance {
	locked := forumTitled(func(t sandbox.ForumThread) bool { return t.Locked })
	t := pick(r, locked)
	text := pick(r, forumReplies)
	var same []sandbox.ForumThread
	for _, o := range forumOpen() {
		if o.BoardSlug == t.BoardSlug {
			same = append(same, o)
		}
	}
	other := pick(r, same)
	return generate.Instance{
		Params: map[string]string{"thread": strconv.Itoa(t.ID), "text": text},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, reply to the %s thread \"%s\". The reply says: %s",
			t.BoardName, t.Title, text),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.NoWrite(forumHost),
			generate.URLIs(forumPattern(fmt.Sprintf("/t/%d", t.ID)) + `(?:\?page=[0-9]+)?$`),
			generate.Text(".locked-notice", "locked by a moderator on "+t.LockedOn),
		},
		Reference: forumOpenThread(t),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", t.BoardName), generate.Read()}, FailsOn: 1},
			{Name: "replied-elsewhere", Reference: forumReplySteps(other, text, "Post reply"), FailsOn: 0},
		},
		Rationale: fmt.Sprintf("Thread %d was locked on %s: its page has no reply form and says so; the site refuses a reply.", t.ID, t.LockedOn),
	}
}

func drawForumClosed(r *rand.Rand) generate.Instance {
	var closed []string
	for _, m := range forumData.Members {
		if m.Closed {
			closed = append(closed, m.Name)
		}
	}
	name := pick(r, closed)
	subject := pick(r, forumSubjects)
	// The near miss writes to a member whose name is nearly the same and
	// who does take messages, or else to the first member who does.
	miss := ""
	for _, tw := range forumTwins(name) {
		if !forumMember(tw).Closed {
			miss = tw
		}
	}
	for i := 0; miss == ""; i++ {
		if !forumData.Members[i].Closed {
			miss = forumData.Members[i].Name
		}
	}
	return generate.Instance{
		Params: map[string]string{"member": name, "subject": subject},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, send %s a private message with the subject \"%s\" asking whether they still have the part they mentioned.",
			name, subject),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.NoWrite(forumHost),
			generate.Text("main", name+" does not accept private messages"),
			generate.Or(generate.URLIs(generate.Exact(forumURL("/u/"+name))), generate.URLIs(forumPattern("/messages")+"$")),
		},
		Reference: []suite.Step{generate.Click("link", "Member directory"), generate.Read(), generate.Click("link", name), generate.SwitchTab(2), generate.Press("End"), generate.Read()},
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", "Member directory"), generate.Read()}, FailsOn: 1},
			{Name: "messaged-another", Reference: []suite.Step{
				generate.Click("link", "Messages"), generate.Click("link", "Write a message"),
				generate.Type("To (member name)", miss, false), generate.Type("Subject", subject, false),
				generate.Type("Message", "Do you still have the part you mentioned?", false),
				generate.Click("button", "Send message"),
			}, FailsOn: 0},
		},
		Rationale: fmt.Sprintf("%s does not accept private messages: the profile (opened in a new tab from the directory) says so, and so does the site's refusal of a message; %s is the near miss.", name, miss),
	}
}
