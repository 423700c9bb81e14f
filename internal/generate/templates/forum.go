package templates

import (
	"fmt"
	"math/rand/v2"
	"net/url"
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

const forumHost = sandbox.ForumHost

// forum is the forum's route table.
var forum = &sandbox.Forum

// forumData is the forum's seeded data, as a fresh forum holds it.
var forumData = sandbox.ForumData()

var forumStart = forum.Home.URL()

// forumThreadURL is the page of thread id.
func forumThreadURL(id int) string { return forum.Thread.URL(strconv.Itoa(id)) }

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

// forumOtherPage is a page of t other than page: the one after it, or
// else the one before.
func forumOtherPage(t sandbox.ForumThread, page int) int {
	if page < t.Pages {
		return page + 1
	}
	return page - 1
}

// forumOtherReply is a reply text other than text.
func forumOtherReply(text string) string {
	return forumReplies[(slices.Index(forumReplies, text)+1)%len(forumReplies)]
}

// forumOtherSignature is a signature other than sig.
func forumOtherSignature(sig string) string {
	return forumSignatures[(slices.Index(forumSignatures, sig)+1)%len(forumSignatures)]
}

// forumOtherLocked is a locked thread other than t.
func forumOtherLocked(t sandbox.ForumThread) sandbox.ForumThread {
	for _, o := range forumData.Threads {
		if o.Locked && o.ID != t.ID {
			return o
		}
	}
	panic("generate: one locked thread only")
}

// forumOtherClosed is a member other than name who takes no messages.
func forumOtherClosed(name string) string {
	for _, m := range forumData.Members {
		if m.Closed && m.Name != name {
			return m.Name
		}
	}
	panic("generate: one closed member only")
}

// forumSaveSignature saves sig on the settings page and goes back to the
// boards.
func forumSaveSignature(sig string) []suite.Step {
	return []suite.Step{
		generate.Click("link", "Settings"),
		generate.Type("Signature (shown under your posts)", sig, false),
		generate.Click("button", "Save settings"),
		generate.Click("link", "Boards"),
	}
}

// forumSendSteps writes a private message from the messages page.
func forumSendSteps(to, subject, body string) []suite.Step {
	return []suite.Step{
		generate.Click("link", "Messages"),
		generate.Click("link", "Write a message"),
		generate.Type("To (member name)", to, false),
		generate.Type("Subject", subject, false),
		generate.Type("Message", body, false),
		generate.Click("button", "Send message"),
	}
}

func forumPageURL(t sandbox.ForumThread, page int) string {
	if page == 1 {
		return forumThreadURL(t.ID)
	}
	return forum.Thread.Query(url.Values{"page": {strconv.Itoa(page)}}, strconv.Itoa(t.ID))
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
				generate.Text(fmt.Sprintf("#post-%d .author", n), author),
				generate.URLIs(at(forum.Thread, strconv.Itoa(t.ID))),
				generate.NoWrite(forumHost),
			},
			Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Read()),
			Controls: []generate.Control{
				{Name: "first-page-only", Reference: forumOpenThread(t), FailsOn: 0},
				{Name: "next-page", Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Click("link", fmt.Sprintf("Page %d", forumOtherPage(t, page))), generate.Read()), FailsOn: 0},
				{Name: "drafted-there", Reference: slices.Concat(forumReplySteps(t, forumReplies[t.ID%len(forumReplies)], "Save draft"), []suite.Step{generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Read()}), FailsOn: 2},
			},
			Alternates: []generate.Alternate{
				{Name: "fragment", Reference: append(forumOpenThread(t), generate.Navigate(forumPageURL(t, page)+fmt.Sprintf("#post-%d", n)), generate.Read())},
				{Name: "back-and-forth", Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Click("link", fmt.Sprintf("Page %d", forumOtherPage(t, page))), generate.Read(), generate.Click("link", fmt.Sprintf("Page %d", page)), generate.Read())},
			},
			Rationale: fmt.Sprintf("Thread %d has %d posts, %d a page; post #%d, by %s, is on page %d. The instruction asks to end on that page: the post's author must show there, on the thread's page whatever its query or fragment.", t.ID, len(t.Authors), sandbox.ForumPageSize, n, author, page),
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
			generate.URLIs(at(forum.Profile, name)),
			generate.Text(".joined", m.Joined),
			generate.NoWrite(forumHost),
		},
		Reference: open(name),
		Controls: []generate.Control{
			{Name: "wrong-member", Reference: open(twin.Name), FailsOn: 0},
			{Name: "directory-tab", Reference: append(open(name), generate.SwitchTab(1), generate.Read()), FailsOn: 0},
			{Name: "signature-saved", Reference: slices.Concat(forumSaveSignature(forumSignatures[0]), open(name)), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "same-tab", Reference: []suite.Step{generate.Click("link", "Member directory"), generate.Read(), generate.Navigate(forum.Profile.URL(name)), generate.Read()}},
			{Name: "reload", Reference: append(open(name), generate.Navigate(forum.Profile.URL(name)+"#top"), generate.Read())},
		},
		Rationale: fmt.Sprintf("%s joined on %s; %s, whose name differs by a mark or a letter, joined on %s. Profiles open in a new tab. The instruction asks to end on the profile, whatever its query or fragment.", name, m.Joined, twin.Name, twin.Joined),
	}
}

func drawForumLastPage(r *rand.Rand) generate.Instance {
	long := forumTitled(func(t sandbox.ForumThread) bool { return t.Pages > 1 })
	t := pick(r, long)
	ref := append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Read())
	// The near miss replies on the last page before reading it; a locked
	// thread takes no reply, so there the reply goes to an open thread
	// first.
	replied := slices.Concat(ref[:len(ref)-1], []suite.Step{generate.Type("Your reply", forumReplies[t.ID%len(forumReplies)], false), generate.Click("button", "Post reply"), generate.Read()})
	if t.Locked {
		replied = slices.Concat(forumReplySteps(forumOpen()[0], forumReplies[t.ID%len(forumReplies)], "Post reply"), []suite.Step{generate.Navigate(forumStart)}, ref)
	}
	return generate.Instance{
		Params: map[string]string{"thread": strconv.Itoa(t.ID)},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, open the %s thread \"%s\" at its last page, where the newest replies are.",
			t.BoardName, t.Title),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.Text(".pager .current", fmt.Sprintf("Page %d of %d", t.Pages, t.Pages)),
			generate.URLIs(at(forum.Thread, strconv.Itoa(t.ID))),
			generate.NoWrite(forumHost),
		},
		Reference: ref,
		Controls: []generate.Control{
			{Name: "first-page-only", Reference: forumOpenThread(t), FailsOn: 0},
			{Name: "page-before", Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Click("link", fmt.Sprintf("Page %d", t.Pages-1)), generate.Read()), FailsOn: 0},
			{Name: "replied", Reference: replied, FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "fragment", Reference: append(forumOpenThread(t), generate.Navigate(forumPageURL(t, t.Pages)+fmt.Sprintf("#post-%d", len(t.Authors))), generate.Read())},
			{Name: "back-and-forth", Reference: append(forumOpenThread(t), generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Click("link", "Page 1"), generate.Read(), generate.Click("link", fmt.Sprintf("Page %d", t.Pages)), generate.Read())},
		},
		Rationale: fmt.Sprintf("Thread %d has %d posts on %d pages. The instruction asks to end on the last page: its pager must say so, on the thread's page whatever its query or fragment.", t.ID, len(t.Authors), t.Pages),
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
			generate.Once(posted(forum.DeleteMessage, nil, strconv.Itoa(m.ID))),
			writesOn(forumHost, 1),
			onPage(forum.Messages.URL(), generate.Count(`.inbox a[href="`+forum.Message.Href(strconv.Itoa(m.ID))+`"]`, 0)),
			onPage(forum.Messages.URL(), generate.Count(".inbox li", len(inbox)-1)),
			generate.NoDialog(),
		},
		Reference: slices.Concat(open, forumDeleteSteps(m), []suite.Step{generate.Read()}),
		Controls: []generate.Control{
			{Name: "wrong-message", Reference: slices.Concat(open, forumDeleteSteps(*miss)), FailsOn: 0},
			{Name: "side-effect", Reference: slices.Concat(open, forumDeleteSteps(*miss), forumDeleteSteps(m)), FailsOn: 1},
			{Name: "draft-first", Reference: slices.Concat(forumReplySteps(forumOpen()[0], forumReplies[0], "Save draft"), open, forumDeleteSteps(m), []suite.Step{generate.Read()}), FailsOn: 1},
			{Name: "notice-only", Reference: []suite.Step{generate.Navigate(forum.Messages.Query(url.Values{"deleted": {fmt.Sprintf("%q from %s", m.Subject, m.From)}})), generate.Read()}, FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "back-to-messages", Reference: slices.Concat(open, forumDeleteSteps(m), []suite.Step{generate.Click("link", "Messages"), generate.Read()})},
			{Name: "then-boards", Reference: slices.Concat(open, forumDeleteSteps(m), []suite.Step{generate.Click("link", "Boards"), generate.Read()})},
		},
		Rationale: fmt.Sprintf("Message %d is %q from %s; %q from %s is the near miss. The delete sits in a menu that opens on hover or focus of the message's actions button. The one write asked for is that delete, and the inbox as the site lists it lacks that message only, wherever the browser ends.",
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

// forumReplyClause is a reply to t with action post or draft, whatever
// its text: what the site stored is read back from the thread's page.
func forumReplyClause(t sandbox.ForumThread, action string) *contract.Network {
	return posted(forum.Reply, map[string]string{"action": action}, strconv.Itoa(t.ID))
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
	threadURL := forumThreadURL(t.ID)
	return generate.Instance{
		Params: map[string]string{"thread": strconv.Itoa(t.ID), "text": text},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, in the %s thread \"%s\", save a draft reply, without posting it yet, that says exactly: %s",
			t.BoardName, t.Title, text),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.Once(forumReplyClause(t, "draft")),
			onPage(threadURL, generate.Text(".draft-text", text)),
			onPage(threadURL, generate.Count(".post.mine", 0)),
			writesOn(forumHost, 1),
			generate.NoDialog(),
		},
		Reference: forumReplySteps(t, text, "Save draft"),
		Controls: []generate.Control{
			{Name: "posted", Reference: forumReplySteps(t, text, "Post reply"), FailsOn: 0},
			{Name: "wrong-thread", Reference: forumReplySteps(other, text, "Save draft"), FailsOn: 0},
			{Name: "also-other-thread", Reference: slices.Concat(forumReplySteps(other, text, "Save draft"), []suite.Step{generate.Click("link", "Boards")}, forumReplySteps(t, text, "Save draft")), FailsOn: 3},
			{Name: "overwritten", Reference: slices.Concat(forumReplySteps(t, text, "Save draft"), []suite.Step{generate.Type("Your reply", forumOtherReply(text), false), generate.Click("button", "Save draft")}), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "reload", Reference: append(forumReplySteps(t, text, "Save draft"), generate.Navigate(forumThreadURL(t.ID)), generate.Read())},
			{Name: "spaces", Reference: forumReplySteps(t, "  "+text+"  ", "Save draft")},
			{Name: "then-board", Reference: append(forumReplySteps(t, text, "Save draft"), generate.Click("link", t.BoardName), generate.Read())},
		},
		Rationale: fmt.Sprintf("Thread %d's reply form has two buttons; only Save draft keeps the text unposted (action=draft). The thread's page shows the saved draft (as the site stores it, trimmed) and no post of the user's, wherever the browser ends; that draft is the one write.", t.ID),
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
	setSig := forumSaveSignature(sig)
	threadURL := forumThreadURL(t.ID)
	reply := forumReplySteps(t, text, "Post reply")
	var elsewhere sandbox.ForumThread
	for _, o := range forumOpen() {
		if o.ID != t.ID && o.BoardSlug == t.BoardSlug {
			elsewhere = o
		}
	}
	return generate.Instance{
		Params: map[string]string{"signature": sig, "thread": strconv.Itoa(t.ID), "text": text},
		Instruction: fmt.Sprintf("On the Tinkerers' Bench forum, change my signature to \"%s\", then reply to the %s thread \"%s\" so that the reply carries the new signature. The reply says exactly: %s",
			sig, t.BoardName, t.Title, text),
		StartURL: forumStart,
		Contract: contract.Postconditions{
			generate.Once(posted(forum.SaveSettings, nil)),
			generate.Once(forumReplyClause(t, "post")),
			onPage(forum.Settings.URL(), generate.Text(".current-signature", sig)),
			onPage(threadURL, generate.Text(".post.mine .signature", sig)),
			onPage(threadURL, generate.Text(".post.mine .post-body", text)),
			onPage(threadURL, generate.Count(".post.mine", 1)),
			writesOn(forumHost, 2),
			generate.NoDialog(),
		},
		Reference: slices.Concat(setSig, reply),
		Controls: []generate.Control{
			{Name: "reply-only", Reference: reply, FailsOn: 0},
			{Name: "reversed", Reference: slices.Concat(reply, setSig[:3]), FailsOn: 3},
			{Name: "signature-changed-after", Reference: slices.Concat(setSig, reply, forumSaveSignature(forumOtherSignature(sig)), forumOpenThread(t)), FailsOn: 0},
			{Name: "draft-elsewhere", Reference: slices.Concat(forumReplySteps(elsewhere, text, "Save draft"), []suite.Step{generate.Click("link", "Boards")}, setSig, reply), FailsOn: 6},
		},
		Alternates: []generate.Alternate{
			{Name: "spaces", Reference: slices.Concat(forumSaveSignature(sig+"  "), reply)},
			{Name: "reload", Reference: slices.Concat(setSig, reply, []suite.Step{generate.Navigate(forumThreadURL(t.ID)), generate.Read()})},
			{Name: "check-settings", Reference: slices.Concat(setSig, reply, []suite.Step{generate.Click("link", "Settings"), generate.Read()})},
		},
		Rationale: fmt.Sprintf("A post carries the signature saved when it was posted, so the signature must be saved first; thread %d's page must show the user's one reply with it, and the settings the signature as the site stores it (trimmed), wherever the browser ends. Those two are the only writes.", t.ID),
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
		send := func(to string) []suite.Step { return forumSendSteps(to, subject, body) }
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
				generate.Once(postField(forum.Send, "to", name)),
				postField(forum.Send, "subject", subject),
				postField(forum.Send, "body", body),
				writesOn(forumHost, 1),
				generate.NoDialog(),
			},
			Reference: slices.Concat(find, send(name)),
			Controls: []generate.Control{
				{Name: "wrong-member", Reference: slices.Concat(find, send(miss)), FailsOn: 0},
				{Name: "twice", Reference: slices.Concat(find, send(name), send(name)), FailsOn: 0},
				{Name: "also-near-member", Reference: slices.Concat(find, send(miss), send(name)), FailsOn: 3},
				{Name: "draft-first", Reference: slices.Concat(forumReplySteps(forumOpen()[0], forumReplies[0], "Save draft"), []suite.Step{generate.Click("link", "Boards")}, find, send(name)), FailsOn: 3},
			},
			Alternates: forumMessageAlternates(find, name, subject, body),
			Rationale: fmt.Sprintf("Thread %d was started by %s and its latest post (on page %d) is by %s; the message must go to %s, once, with the subject and text as the site stores them (trimmed), and be the only write.",
				t.ID, t.Authors[0], t.Pages, t.Authors[len(t.Authors)-1], name),
		}
	}
}

// forumMessageAlternates are other reasonable ways to send the message:
// from the member's profile, or typed with spaces the forum trims, then
// looked at in the list of messages.
func forumMessageAlternates(find []suite.Step, name, subject, body string) []generate.Alternate {
	return []generate.Alternate{
		{Name: "from-profile", Reference: slices.Concat(find, []suite.Step{
			generate.Click("link", "Boards"), generate.Click("link", "Member directory"), generate.Read(), generate.Click("link", name), generate.SwitchTab(2),
			generate.Click("link", "Send "+name+" a private message"),
			generate.Type("Subject", subject, false), generate.Type("Message", body, false), generate.Click("button", "Send message"),
		})},
		{Name: "spaces-then-list", Reference: slices.Concat(find, []suite.Step{
			generate.Click("link", "Messages"), generate.Click("link", "Write a message"),
			generate.Type("To (member name)", " "+name+" ", false), generate.Type("Subject", subject+" ", false),
			generate.Type("Message", body, false), generate.Click("button", "Send message"),
			generate.Click("link", "All messages"), generate.Read(),
		})},
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
			generate.Or(
				&contract.And{Children: []contract.Clause{
					generate.URLIs(at(forum.Thread, strconv.Itoa(t.ID))),
					generate.Text(".locked-notice", "locked by a moderator on "+t.LockedOn),
				}},
				refused(forum.Reply, 403, strconv.Itoa(t.ID)),
			),
		},
		Reference: forumOpenThread(t),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: []suite.Step{generate.Click("link", t.BoardName), generate.Read()}, FailsOn: 1},
			{Name: "replied-elsewhere", Reference: forumReplySteps(other, text, "Post reply"), FailsOn: 0},
			{Name: "other-locked-thread", Reference: forumOpenThread(forumOtherLocked(t)), FailsOn: 1},
			{Name: "new-thread-instead", Reference: append(forumOpenThread(t), generate.Click("link", t.BoardName), generate.Click("link", "Start a new thread"),
				generate.Type("Title", "Re: "+t.Title, false), generate.Type("First post", text, false), generate.Click("button", "Post thread")), FailsOn: 0},
		},
		Alternates: []generate.Alternate{
			{Name: "fragment", Reference: append(forumOpenThread(t), generate.Navigate(forumThreadURL(t.ID)+"#post-1"), generate.Read())},
			{Name: "last-page", Reference: append(forumOpenThread(t), generate.Navigate(forumThreadURL(t.ID)+fmt.Sprintf("?page=%d&from=board", t.Pages)), generate.Read())},
		},
		Rationale: fmt.Sprintf("Thread %d was locked on %s: nothing may be written, and the agent must have met the reason for this very thread, on its page (any page of it) or in the site's refusal (403) of a reply to it.", t.ID, t.LockedOn),
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
			generate.Or(
				&contract.And{Children: []contract.Clause{
					generate.URLIs(at(forum.Profile, name)),
					generate.Text(".no-messages", name+" does not accept private messages"),
				}},
				trimmed(refusedWith(forum.Send, 403, map[string]string{"to": name})),
			),
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
			{Name: "other-closed-profile", Reference: []suite.Step{generate.Click("link", "Member directory"), generate.Read(), generate.Click("link", forumOtherClosed(name)), generate.SwitchTab(2), generate.Press("End"), generate.Read()}, FailsOn: 1},
			{Name: "gave-up-at-compose", Reference: []suite.Step{generate.Click("link", "Messages"), generate.Click("link", "Write a message"), generate.Read()}, FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "tried-send", Reference: forumSendSteps(name, subject, "Do you still have the part you mentioned?")},
			{Name: "refused-then-profile", Reference: append(forumSendSteps(name, subject, "Do you still have the part you mentioned?"), generate.Click("link", "Back to "+name+"'s profile"), generate.Read())},
		},
		Rationale: fmt.Sprintf("%s does not accept private messages: nothing may be written, and the agent must have met the reason for this very member, on their profile (opened in a new tab from the directory) or in the site's refusal (403) of a message to them; %s is the near miss.", name, miss),
	}
}
