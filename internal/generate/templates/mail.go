package templates

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// The mail templates work on mail.sandbox.test (Fernhollow Mail, the
// mailbox of Nadia Brennan of Fernhollow Ceramics). Every attempt's first
// page carries the consent banner, which blocks clicks until answered, so
// every reference starts by answering it.

const mailHost = sandbox.MailHost

// mailData is the mail site's starting state, built once.
var mailData = sync.OnceValue(sandbox.MailData)

// mail is the site's route table.
var mail = &sandbox.Mail

func mailMsgURL(id int) string { return mail.Message.URL(strconv.Itoa(id)) }

// mailOnce holds when the site accepted (303) exactly one write to rt on
// the record args, carrying form's fields as the site stores them
// (trimmed).
func mailOnce(rt sandbox.Route, form map[string]string, args ...string) *contract.Network {
	return generate.Once(trimmed(posted(rt, form, args...)))
}

// mailMsgPath is a message's page, whatever its query and fragment.
func mailMsgPath(id int) string { return at(mail.Message, strconv.Itoa(id)) }

// mailSent reads the message an attempt sent: its page, the first new
// message's, is read by the judge after the agent stops.
func mailSent[C domClause](c C) C { return onPage(mailMsgURL(mailData().FirstNewID), c) }

// mailRefusedSend holds when the site refused (422) a message to addr:
// the agent tried to write to it and met the reason.
func mailRefusedSend(addr string) *contract.Network {
	var b strings.Builder
	for _, r := range addr {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			continue
		}
		b.WriteString("(?:" + regexp.QuoteMeta(string(r)) + "|" + regexp.QuoteMeta(url.QueryEscape(string(r))) + ")")
	}
	n := refused(mail.Send, 422)
	n.BodyPattern = `(?i)(?:^|&)` + mail.Send.Field("to") + `=[^&]*` + b.String() + `[^&]*(?:&|$)`
	return n
}

// mailConsent answers the consent banner every attempt starts with.
func mailConsent() suite.Step { return generate.Click("button", "Accept all") }

// mailOpen opens a message by its subject link.
func mailOpen(m sandbox.MailMessage) suite.Step {
	return generate.ClickLink(m.Subject, mail.Message.Href(strconv.Itoa(m.ID)))
}

// mailLook loads the site's page at path and reads it: an agent checking
// a result by reloading its page, or looking at it elsewhere.
func mailLook(u string) []suite.Step {
	return []suite.Step{generate.Navigate(u), generate.Read()}
}

// mailStarButton is the name of the button that stars m, or unstars it.
func mailStarButton(m sandbox.MailMessage) string {
	if m.Starred {
		return "Remove star"
	}
	return "Star"
}

// mailSearch searches the mailbox.
func mailSearch(q string) suite.Step { return generate.Type("Search mail", q, true) }

// mailFolder lists a folder's messages, newest first, as the site does.
func mailFolder(folder string) []sandbox.MailMessage {
	var out []sandbox.MailMessage
	for _, m := range mailData().Messages {
		if m.Folder == folder {
			out = append(out, m)
		}
	}
	return out
}

// mailSearchIndex is the index of message id among the site's results
// for the search q.
func mailSearchIndex(q string, id int) int {
	words := strings.Fields(strings.ToLower(q))
	i := 0
	for _, m := range mailData().Messages {
		if m.Folder == "trash" {
			continue
		}
		hay := strings.ToLower(strings.Join([]string{m.FromName, m.FromAddr, m.ToName, m.ToAddr, m.Subject, m.Body}, " "))
		all := true
		for _, w := range words {
			all = all && strings.Contains(hay, w)
		}
		if !all {
			continue
		}
		if m.ID == id {
			return i
		}
		i++
	}
	panic(fmt.Sprintf("generate: the search %q does not find message %d", q, id))
}

// mailEnds is how many End presses bring the message at index i of a
// list into the loaded rows.
func mailEnds(i int) int {
	ps := mailData().PageSize
	if i < ps {
		return 0
	}
	return (i-ps)/ps + 1
}

func mailPresses(n int) []suite.Step {
	var s []suite.Step
	for range n {
		s = append(s, generate.Press("End"))
	}
	return s
}

func mailContact(name string) sandbox.MailContact {
	for _, c := range mailData().Contacts {
		if c.Name == name {
			return c
		}
	}
	panic("generate: no mail contact " + name)
}

func mailLabelOf(c sandbox.MailContact) string { return c.Name + " <" + c.Addr + ">" }

// mailNamesake is a contact whose name is nearest to c's (Dana Whitfield,
// Dana Whitfeld), the one a careless agent picks instead.
func mailNamesake(c sandbox.MailContact) sandbox.MailContact {
	best, bestD := c, 1<<30
	for _, o := range mailData().Contacts {
		if o.Name == c.Name || o.Bounced != "" {
			continue
		}
		if d := editDistance(o.Name, c.Name); d < bestD {
			best, bestD = o, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// mailPickRecipient types the start of a contact's name into the To
// combobox and picks the contact from the suggestions.
func mailPickRecipient(c sandbox.MailContact) []suite.Step {
	prefix := c.Name[:strings.Index(c.Name, " ")+4]
	return []suite.Step{generate.Type("To", prefix, false), generate.Click("option", mailLabelOf(c))}
}

var mailTemplates = []generate.Template{
	{
		ID: "mail-find-invoice-amount", App: "mail", Kind: generate.KindFind,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"invoice"},
		Summary: "Find the amount due on a named supplier invoice among invoices with close numbers.",
		Draw:    drawMailFindInvoice,
	},
	{
		ID: "mail-navigate-oldest-archived", App: "mail", Kind: generate.KindNavigate,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetInfiniteList},
		Params:  []string{"sender"},
		Summary: "Open the oldest archived message from one sender, deep in an infinite list.",
		Draw:    drawMailOldestArchived,
	},
	{
		ID: "mail-apply-label", App: "mail", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"message", "label"},
		Summary: "Put a label on one message among messages with the same subject or sender.",
		Draw:    drawMailApplyLabel,
	},
	{
		ID: "mail-send-new", App: "mail", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetAutocomplete},
		Params:  []string{"to", "subject"},
		Summary: "Send a new message to a contact who has a near namesake, picked from the recipient suggestions.",
		Draw:    drawMailSendNew,
	},
	{
		ID: "mail-send-attachment", App: "mail", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetAutocomplete, generate.WidgetFileUpload},
		Params:  []string{"to", "file"},
		Summary: "Send a file from the computer as an attachment to a contact.",
		Draw:    drawMailSendAttachment,
	},
	{
		ID: "mail-forward-largest-invoice", App: "mail", Kind: generate.KindMultiStep,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetAutocomplete},
		Params:  []string{"supplier", "from", "until"},
		Summary: "Compare a supplier's recent invoices and forward the largest to the accountant.",
		Draw:    drawMailForwardLargest,
	},
	{
		ID: "mail-archive-from-sender", App: "mail", Kind: generate.KindChangeSeveral,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"sender"},
		Summary: "Archive every Inbox message from one sender, and none from a namesake.",
		Draw:    drawMailArchiveSender,
	},
	{
		ID: "mail-delete-then-undo", App: "mail", Kind: generate.KindChangeSeveral,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetToast},
		Params:  []string{"message"},
		Summary: "Delete a message and restore it with the Undo notice before it disappears.",
		Draw:    drawMailDeleteUndo,
	},
	{
		ID: "mail-delete-label", App: "mail", Kind: generate.KindChangeOne,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetModal},
		Params:  []string{"label"},
		Summary: "Delete one label, confirming in a dialog, among labels with near names.",
		Draw:    drawMailDeleteLabel,
	},
	{
		ID: "mail-restore-then-empty-trash", App: "mail", Kind: generate.KindChangeSeveral,
		Widgets: []generate.Widget{generate.WidgetCookieBanner, generate.WidgetModal},
		Params:  []string{"message"},
		Summary: "Move one message out of Trash, then empty Trash, confirming in a dialog.",
		Draw:    drawMailRestoreEmpty,
	},
	{
		ID: "mail-delete-shared", App: "mail", Kind: generate.KindImpossible,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"message"},
		Summary: "Delete a message of the read-only shared accounts mailbox; its page says it cannot be changed.",
		Draw:    drawMailDeleteShared,
	},
	{
		ID: "mail-recall-sent", App: "mail", Kind: generate.KindImpossible,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"message"},
		Summary: "Recall a message sent weeks ago; the site says undo send lasts a few seconds.",
		Draw:    drawMailRecall,
	},
	{
		ID: "mail-reply-bounced", App: "mail", Kind: generate.KindImpossible,
		Widgets: []generate.Widget{generate.WidgetCookieBanner},
		Params:  []string{"message", "reply"},
		Summary: "Reply to a sender whose address bounces; the message says replies cannot be delivered.",
		Draw:    drawMailReplyBounced,
	},
}

func drawMailFindInvoice(r *rand.Rand) generate.Instance {
	var invs []sandbox.MailMessage
	for _, m := range mailData().Messages {
		if m.Invoice != "" && m.Folder != "shared" {
			invs = append(invs, m)
		}
	}
	m := pick(r, invs)
	// The near miss: the invoice of the same series with the closest number.
	var near sandbox.MailMessage
	for _, o := range invs {
		if o.ID != m.ID && o.FromName == m.FromName && (near.ID == 0 || abs(invoiceNo(o)-invoiceNo(m)) < abs(invoiceNo(near)-invoiceNo(m))) {
			near = o
		}
	}
	org := mailContact(m.FromName).Org
	ask := []string{
		"How much do I owe %s for invoice %s? Find the invoice in my mail and leave it open.",
		"Open invoice %[2]s from %[1]s in my mailbox: what is the amount due?",
		"My bookkeeper asks about %s invoice %s. Open it in Fernhollow Mail and tell me the amount it asks for.",
	}[r.IntN(3)]
	return generate.Instance{
		Params:      map[string]string{"invoice": m.Invoice},
		Instruction: fmt.Sprintf(ask, org, m.Invoice),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			generate.URLIs(mailMsgPath(m.ID)),
			generate.Text("#msg-body", "Amount due: "+m.Amount),
			generate.NoWrite(mailHost),
		},
		Reference: []suite.Step{mailConsent(), mailSearch(m.Invoice), mailOpen(m), generate.Read()},
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: []suite.Step{mailConsent(), mailSearch(near.Invoice), mailOpen(near), generate.Read()}, FailsOn: 0},
			{Name: "starred-it", Reference: []suite.Step{mailConsent(), mailSearch(m.Invoice), mailOpen(m), generate.Click("button", mailStarButton(m)), generate.Read()}, FailsOn: 2},
			{Name: "deleted-the-next", Reference: []suite.Step{mailConsent(), mailSearch(near.Invoice), mailOpen(near), generate.Click("button", "Delete"), mailSearch(m.Invoice), mailOpen(m), generate.Read()}, FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat([]suite.Step{mailConsent(), mailSearch(m.Invoice), mailOpen(m)}, mailLook(mailMsgURL(m.ID)+"#msg-body"))},
			{Name: "by-supplier", Reference: slices.Concat([]suite.Step{mailConsent(), mailSearch(m.FromName + " " + m.Invoice), mailOpen(m)}, mailLook(mailMsgURL(m.ID)+"?from=search"))},
		},
		Rationale: "The instruction asks to open the invoice: its own page (any query or fragment), and its amount in the message body. Invoices of one supplier have numbers a few apart and amounts within a few euros, so the neighbouring invoice fails the URL. Nothing may be written.",
	}
}

func invoiceNo(m sandbox.MailMessage) int {
	var n int
	fmt.Sscanf(m.Invoice[strings.Index(m.Invoice, "-")+1:], "%d", &n)
	return n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func drawMailOldestArchived(r *rand.Rand) generate.Instance {
	archive := mailFolder("archive")
	type cand struct{ oldest, newest, oldestAt, newestAt int }
	bySender := map[string]*cand{}
	var senders []string
	for i, m := range archive {
		c := bySender[m.FromName]
		if c == nil {
			c = &cand{newest: i, newestAt: i}
			bySender[m.FromName] = c
			senders = append(senders, m.FromName)
		}
		c.oldest, c.oldestAt = i, i
	}
	var ok []string
	for _, s := range senders {
		c := bySender[s]
		if c.oldestAt >= mailData().PageSize && c.oldest != c.newest && s != "Nadia Brennan" {
			ok = append(ok, s)
		}
	}
	slices.Sort(ok)
	s := pick(r, ok)
	c := bySender[s]
	old, recent := archive[c.oldest], archive[c.newest]
	ask := []string{
		"Among the messages I archived, open the oldest one that %s sent me.",
		"Find the earliest message from %s in my Archive folder and open it.",
		"I archived a lot of mail. Open the very first message %s sent me that is still in Archive.",
	}[r.IntN(3)]
	nav := func(m sandbox.MailMessage, ends int) []suite.Step {
		return slices.Concat([]suite.Step{mailConsent(), generate.ClickLink("Archive", mail.Folder.Href("archive"))}, mailPresses(ends), []suite.Step{mailOpen(m), generate.Read()})
	}
	return generate.Instance{
		Params:      map[string]string{"sender": s},
		Instruction: fmt.Sprintf(ask, s),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			generate.URLIs(mailMsgPath(old.ID)),
			generate.Text("#msg-date", old.Date),
			generate.NoWrite(mailHost),
		},
		Reference: nav(old, mailEnds(c.oldestAt)),
		Controls: []generate.Control{
			{Name: "newest-not-oldest", Reference: nav(recent, mailEnds(c.newestAt)), FailsOn: 0},
			{Name: "moved-to-inbox", Reference: slices.Concat(nav(old, mailEnds(c.oldestAt)), []suite.Step{generate.Click("button", "Move to Inbox")}, mailLook(mailMsgURL(old.ID))), FailsOn: 2},
			{Name: "starred-it", Reference: slices.Concat(nav(old, mailEnds(c.oldestAt)), []suite.Step{generate.Click("button", mailStarButton(old)), generate.Read()}), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "reload-fragment", Reference: slices.Concat(nav(old, mailEnds(c.oldestAt)), mailLook(mailMsgURL(old.ID)+"#msg-body"))},
			{Name: "newest-first", Reference: slices.Concat(nav(recent, mailEnds(c.newestAt)), []suite.Step{generate.ClickLink("Archive", mail.Folder.Href("archive"))}, mailPresses(mailEnds(c.oldestAt)), []suite.Step{mailOpen(old), generate.Read()})},
		},
		Rationale: "Archive lists newest first and shows 25 messages at a time, loading more at the end of the list; the oldest message of the sender is only reached by scrolling. The instruction asks to open it: the URL pins the message (any query or fragment), its date the page; nothing may be written.",
	}
}

func drawMailApplyLabel(r *rand.Rand) generate.Instance {
	inbox := mailFolder("inbox")
	m := pick(r, inbox)
	var free []sandbox.MailLabel
	for _, l := range mailData().Labels {
		if !slices.Contains(m.Labels, l.Slug) {
			free = append(free, l)
		}
	}
	l := pick(r, free)
	// The near miss: another inbox message with the same subject, or from
	// the same sender, or the next one.
	var near sandbox.MailMessage
	for _, o := range inbox {
		if o.ID != m.ID && !slices.Contains(o.Labels, l.Slug) && (near.ID == 0 || o.Subject == m.Subject || o.FromName == m.FromName && near.Subject != m.Subject) {
			near = o
		}
	}
	ask := []string{
		"Label the message “%s” that %s sent me on %s with my label “%s”.",
		"Please put the “%[4]s” label on %[2]s's message “%[1]s” from %[3]s.",
	}[r.IntN(2)]
	steps := func(x sandbox.MailMessage, extra ...suite.Step) []suite.Step {
		return slices.Concat([]suite.Step{mailConsent(), mailSearch(x.Subject), mailOpen(x), generate.Select("Add label", l.Name), generate.Click("button", "Apply label")}, extra, []suite.Step{generate.Read()})
	}
	other := free[(slices.Index(free, l)+1)%len(free)]
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID), "label": l.Slug},
		Instruction: fmt.Sprintf(ask, m.Subject, m.FromName, m.Date, l.Name),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.SetLabel, map[string]string{"action": "add", "label": l.Slug}, strconv.Itoa(m.ID)),
			writesOn(mailHost, 1),
			onPage(mailMsgURL(m.ID), generate.Text("#msg-labels", l.Name)),
			generate.NoDialog(),
		},
		Reference: steps(m),
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: steps(near), FailsOn: 0},
			{Name: "second-label", Reference: steps(m, generate.Select("Add label", other.Name), generate.Click("button", "Apply label")), FailsOn: 1},
			{Name: "star-toggled", Reference: steps(m, generate.Click("button", mailStarButton(m))), FailsOn: 1},
			{Name: "near-one-too", Reference: slices.Concat(steps(m), steps(near)[1:], mailLook(mailMsgURL(m.ID))), FailsOn: 1},
			{Name: "archived-after", Reference: steps(m, generate.Click("button", "Archive"), generate.Navigate(mailMsgURL(m.ID))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "label-page", Reference: steps(m, generate.ClickLink(l.Name, mail.Label.Href(l.Slug)))},
			{Name: "reload-fragment", Reference: slices.Concat(steps(m), mailLook(mailMsgURL(m.ID)+"#msg-labels"))},
		},
		Rationale: "The label write on exactly this message with exactly this label, the only write the site accepts (no second label, no star, no archive, on any message), wherever the agent ends; the message's page, read after the run, shows the label.",
	}
}

// mailSendable are the contacts a new message may go to: those with a
// namesake, whose address does not bounce.
func mailSendable() []sandbox.MailContact {
	var out []sandbox.MailContact
	for _, c := range mailData().Contacts {
		if c.Bounced == "" && editDistance(mailNamesake(c).Name, c.Name) <= 3 && mailNamesake(c).Bounced == "" {
			out = append(out, c)
		}
	}
	return out
}

var mailNotes = []struct{ subject, body string }{
	{"Kiln booking next week", "Could we swap our kiln days next week? Thursday suits me better than Tuesday."},
	{"Samples on their way", "The glaze samples went out this morning; they should reach you by Friday."},
	{"Invoice question", "One line on the last invoice looks doubled. Could you check it before I pay?"},
	{"Delivery on Saturday", "Saturday morning works for the delivery. The side gate will be open."},
	{"Photos for the catalogue", "The catalogue photos are ready. Shall I send the full set or a shortlist?"},
	{"Open studio in April", "We are opening the studio on 18 April. You would be very welcome."},
	{"Price list request", "Could you send me your current wholesale price list?"},
	{"Thank you", "Thank you for your help this month; it made a real difference."},
}

func drawMailSendNew(r *rand.Rand) generate.Instance {
	cs := mailSendable()
	c := pick(r, cs)
	n := pick(r, mailNotes)
	wrong := mailNamesake(c)
	ask := []string{
		"Write a new email to %s of %s. Subject: %s. Text: %s",
		"Send %s (%s) an email with the subject “%s” and exactly this text: %s",
	}[r.IntN(2)]
	steps := func(to sandbox.MailContact, button string) []suite.Step {
		return slices.Concat([]suite.Step{mailConsent(), generate.Click("link", "Compose")}, mailPickRecipient(to),
			[]suite.Step{generate.Type("Subject", n.subject, false), generate.Type("Message", n.body, false), generate.Click("button", button)})
	}
	other := mailNotes[(slices.Index(mailNotes, n)+1)%len(mailNotes)]
	return generate.Instance{
		Params:      map[string]string{"to": c.Addr, "subject": n.subject},
		Instruction: fmt.Sprintf(ask, c.Name, c.Org, n.subject, n.body),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.Send, map[string]string{"subject": n.subject, "body": n.body, "action": "send"}),
			writesOn(mailHost, 1),
			mailSent(generate.Text("#msg-to", "<"+c.Addr+">")),
			mailSent(generate.Text("#msg-folder", "Sent")),
			generate.NoDialog(),
		},
		Reference: steps(c, "Send"),
		Controls: []generate.Control{
			{Name: "namesake", Reference: steps(wrong, "Send"), FailsOn: 2},
			{Name: "draft-not-sent", Reference: steps(c, "Save draft"), FailsOn: 0},
			{Name: "sent-twice", Reference: slices.Concat(steps(c, "Send"), steps(c, "Send")[1:], mailLook(mailMsgURL(mailData().FirstNewID))), FailsOn: 0},
			{Name: "draft-too", Reference: slices.Concat(steps(c, "Send"), mailDraftOf(c, other.subject, other.body), mailLook(mailMsgURL(mailData().FirstNewID))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-sent", Reference: slices.Concat(steps(c, "Send"), []suite.Step{generate.ClickLink("Sent", mail.Folder.Href("sent")), generate.Read()})},
			{Name: "subject-first-spaced", Reference: slices.Concat([]suite.Step{mailConsent(), generate.Click("link", "Compose"), generate.Type("Subject", "  "+n.subject+" ", false)}, mailPickRecipient(c),
				[]suite.Step{generate.Type("Message", n.body, false), generate.Click("button", "Send"), generate.Read()})},
		},
		Rationale: "The send with the subject and text as the site stores them (trimmed), once, and the only write the site accepts (no draft, no second message, no Undo of the send), wherever the agent ends; the sent message's page, read after the run, shows the recipient's address (the contacts hold near namesakes such as Dana Whitfield and Dana Whitfeld) and the Sent folder.",
	}
}

// mailDraftOf saves a draft to c with subject and body from a new compose
// form: a second write on the send route, with other values.
func mailDraftOf(c sandbox.MailContact, subject, body string) []suite.Step {
	return slices.Concat([]suite.Step{generate.Click("link", "Compose")}, mailPickRecipient(c),
		[]suite.Step{generate.Type("Subject", subject, false), generate.Type("Message", body, false), generate.Click("button", "Save draft")})
}

// mailUploads are the files in the suite's uploads folder, with what
// each is, as a user would describe it.
var mailUploads = []struct{ file, what string }{
	{"kiln-log-february.csv", "February kiln log"},
	{"spring-price-list-2026.txt", "spring price list"},
	{"glaze-test-results.csv", "glaze test results"},
	{"studio-floor-plan.svg", "studio floor plan"},
	{"wholesale-terms.txt", "wholesale terms"},
	{"workshop-poster.txt", "workshop poster text"},
	{"receipts-february.csv", "February receipts"},
}

func drawMailSendAttachment(r *rand.Rand) generate.Instance {
	cs := mailSendable()
	c := pick(r, cs)
	u := pick(r, mailUploads)
	other := mailUploads[(slices.Index(mailUploads, u)+1)%len(mailUploads)]
	subject := strings.ToUpper(u.what[:1]) + u.what[1:]
	body := "Here is the " + u.what + ", as promised."
	ask := []string{
		"Email my file %[1]s to %[2]s at %[3]s. Use the subject “%[4]s” and the text “%[5]s”.",
		"Send %[2]s (%[3]s) the %[6]s: attach the file %[1]s from my computer, subject “%[4]s”, text “%[5]s”.",
	}[r.IntN(2)]
	steps := func(files ...string) []suite.Step {
		s := slices.Concat([]suite.Step{mailConsent(), generate.Click("link", "Compose")}, mailPickRecipient(c))
		if len(files) > 0 {
			s = append(s, generate.Upload("Attach files", files...))
		}
		return append(s, generate.Type("Subject", subject, false), generate.Type("Message", body, false), generate.Click("button", "Send"))
	}
	// attachLast fills the form the other way round: text first, the
	// recipient and the file last.
	attachLast := slices.Concat([]suite.Step{mailConsent(), generate.Click("link", "Compose"), generate.Type("Subject", subject, false), generate.Type("Message", body, false)},
		mailPickRecipient(c), []suite.Step{generate.Upload("Attach files", u.file), generate.Click("button", "Send"), generate.Read()})
	return generate.Instance{
		Params:      map[string]string{"to": c.Addr, "file": u.file},
		Instruction: fmt.Sprintf(ask, u.file, c.Name, c.Org, subject, body, u.what),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.Send, map[string]string{"subject": subject, "body": body, "attachment": u.file, "action": "send"}),
			writesOn(mailHost, 1),
			mailSent(generate.Text("#msg-to", "<"+c.Addr+">")),
			mailSent(generate.Text("#msg-attachments", u.file)),
			generate.NoDialog(),
		},
		Reference: steps(u.file),
		Controls: []generate.Control{
			{Name: "no-attachment", Reference: steps(), FailsOn: 0},
			{Name: "wrong-file", Reference: steps(other.file), FailsOn: 0},
			{Name: "extra-file", Reference: append(steps(u.file, other.file), generate.Read()), FailsOn: 0},
			{Name: "draft-too", Reference: slices.Concat(steps(u.file), mailDraftOf(c, "Re: "+subject, body), mailLook(mailMsgURL(mailData().FirstNewID))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-sent", Reference: append(steps(u.file), generate.ClickLink("Sent", mail.Folder.Href("sent")), generate.Read())},
			{Name: "attach-last", Reference: attachLast},
		},
		Rationale: "The send carries exactly one attachment field naming the file (the page uploads the file when it is chosen and adds the field; an upload is not a write the site keeps), with the subject and text as the site stores them; it is the only write the site accepts, wherever the agent ends, and the sent message's page, read after the run, lists the attachment and the recipient's address.",
	}
}

func drawMailForwardLargest(r *rand.Rand) generate.Instance {
	type series struct {
		from string
		invs []sandbox.MailMessage // newest first
	}
	var all []series
	for _, m := range mailData().Messages {
		if m.Invoice == "" || m.Folder == "shared" || m.Bounced != "" {
			continue
		}
		i := slices.IndexFunc(all, func(s series) bool { return s.from == m.FromName })
		if i < 0 {
			all = append(all, series{from: m.FromName})
			i = len(all) - 1
		}
		all[i].invs = append(all[i].invs, m)
	}
	s := pick(r, all)
	k := 2 + r.IntN(3) // invoices in the window
	start := r.IntN(len(s.invs) - k + 1)
	window := s.invs[start : start+k]
	// A window whose largest amount is not unique is widened until it is.
	for !mailUniqueMax(window) && start+k < len(s.invs) {
		k++
		window = s.invs[start : start+k]
	}
	best, second := mailTopTwo(window)
	from, until := window[len(window)-1].Date, window[0].Date
	acct, wrongAcct := mailContact("Tomas Berg"), mailContact("Tomas Bergen")
	ask := []string{
		"Of the invoices %s sent me between %s and %s (both days included), forward the one with the highest amount due to my accountant, %s of %s.",
		"My accountant %[4]s (%[5]s) needs the largest invoice %[1]s sent me from %[2]s to %[3]s. Forward it to them.",
	}[r.IntN(2)]
	// Each invoice is opened from the results and the results loaded
	// again (the page a Back would show: @playwright/mcp loses the page's
	// refs after its go back, so the reference navigates instead).
	results := generate.Navigate(mail.Search.Query(url.Values{"q": {"invoice " + s.from}}))
	var read []suite.Step
	for _, m := range window {
		read = append(read, mailOpen(m), results)
	}
	steps := func(x sandbox.MailMessage, to sandbox.MailContact) []suite.Step {
		return slices.Concat([]suite.Step{mailConsent(), mailSearch("invoice " + s.from)}, mailPresses(mailEnds(mailSearchIndex("invoice "+s.from, window[len(window)-1].ID))), read,
			[]suite.Step{mailOpen(x), generate.Click("link", "Forward")}, mailPickRecipient(to), []suite.Step{generate.Click("button", "Send")})
	}
	org := mailContact(s.from).Org
	return generate.Instance{
		Params:      map[string]string{"supplier": s.from, "from": from, "until": until},
		Instruction: fmt.Sprintf(ask, s.from+" of "+org, from, until, acct.Name, acct.Org),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.Send, map[string]string{"forward": fmt.Sprint(best.ID), "attachment": best.Attachments[0], "action": "send"}),
			writesOn(mailHost, 1),
			mailSent(generate.Text("#msg-to", "<"+acct.Addr+">")),
			mailSent(generate.Text("#msg-attachments", best.Attachments[0])),
		},
		Reference: steps(best, acct),
		Controls: []generate.Control{
			{Name: "second-largest", Reference: steps(second, acct), FailsOn: 0},
			{Name: "namesake", Reference: steps(best, wrongAcct), FailsOn: 2},
			{Name: "second-too", Reference: slices.Concat(steps(best, acct), []suite.Step{results, mailOpen(second), generate.Click("link", "Forward")}, mailPickRecipient(acct),
				[]suite.Step{generate.Click("button", "Send")}, mailLook(mailMsgURL(mailData().FirstNewID))), FailsOn: 1},
			{Name: "draft-too", Reference: slices.Concat(steps(best, acct), []suite.Step{results, mailOpen(second), generate.Click("link", "Forward")}, mailPickRecipient(acct),
				[]suite.Step{generate.Click("button", "Save draft")}, mailLook(mailMsgURL(mailData().FirstNewID))), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "check-sent", Reference: append(steps(best, acct), generate.ClickLink("Sent", mail.Folder.Href("sent")), generate.Read())},
			{Name: "newest-last", Reference: slices.Concat([]suite.Step{mailConsent(), mailSearch("invoice " + s.from)}, mailPresses(mailEnds(mailSearchIndex("invoice "+s.from, window[len(window)-1].ID))), mailReversed(read),
				[]suite.Step{mailOpen(best), generate.Click("link", "Forward")}, mailPickRecipient(acct), []suite.Step{generate.Click("button", "Send"), generate.Read()})},
		},
		Rationale: "The amounts are only in the invoices' text, a few euros apart, so each must be opened; the forward of the largest, with its PDF, once, the only write the site accepts (no other message sent or saved), wherever the agent ends; the sent message's page, read after the run, shows the accountant's address (not Tomas Bergen of Claystone) and the PDF.",
	}
}

// mailReversed is steps taken in pairs (open a message, back to the
// results), the pairs in the other order.
func mailReversed(steps []suite.Step) []suite.Step {
	var out []suite.Step
	for i := len(steps) - 2; i >= 0; i -= 2 {
		out = append(out, steps[i:i+2]...)
	}
	return out
}

func mailAmount(m sandbox.MailMessage) int {
	var e, c int
	fmt.Sscanf(strings.ReplaceAll(strings.TrimPrefix(m.Amount, "€"), ",", ""), "%d.%d", &e, &c)
	return e*100 + c
}

func mailUniqueMax(ms []sandbox.MailMessage) bool {
	a, b := mailTopTwo(ms)
	return mailAmount(a) != mailAmount(b)
}

func mailTopTwo(ms []sandbox.MailMessage) (sandbox.MailMessage, sandbox.MailMessage) {
	s := slices.Clone(ms)
	slices.SortStableFunc(s, func(a, b sandbox.MailMessage) int { return mailAmount(b) - mailAmount(a) })
	return s[0], s[1]
}

func drawMailArchiveSender(r *rand.Rand) generate.Instance {
	inbox := mailFolder("inbox")
	by := map[string][]sandbox.MailMessage{}
	var senders []string
	for _, m := range inbox {
		if by[m.FromName] == nil {
			senders = append(senders, m.FromName)
		}
		by[m.FromName] = append(by[m.FromName], m)
	}
	var ok []string
	for _, s := range senders {
		if n := len(by[s]); n >= 2 && n <= 4 {
			ok = append(ok, s)
		}
	}
	slices.Sort(ok)
	s := pick(r, ok)
	ms := by[s]
	// Another inbox message, preferably from a namesake.
	var extra sandbox.MailMessage
	for _, m := range inbox {
		if m.FromName != s && (extra.ID == 0 || editDistance(m.FromName, s) < editDistance(extra.FromName, s)) {
			extra = m
		}
	}
	ask := []string{
		"Archive every message from %s that is in my Inbox. Leave everything else where it is.",
		"Tidy my Inbox: move all of %s's messages in it to Archive, and nothing else.",
	}[r.IntN(2)]
	archive := func(list []sandbox.MailMessage) []suite.Step {
		steps := []suite.Step{mailConsent()}
		for _, m := range list {
			steps = append(steps, mailSearch(m.Subject), mailOpen(m), generate.Click("button", "Archive"))
		}
		return steps
	}
	var c contract.Postconditions
	for _, m := range ms {
		c = append(c, mailOnce(mail.Archive, nil, strconv.Itoa(m.ID)))
	}
	countAt := len(c)
	c = append(c, writesOn(mailHost, len(ms)), generate.NoDialog())
	return generate.Instance{
		Params:      map[string]string{"sender": s},
		Instruction: fmt.Sprintf(ask, s),
		StartURL:    mail.Inbox.URL(),
		Contract:    c,
		Reference:   archive(ms),
		Controls: []generate.Control{
			{Name: "one-short", Reference: archive(ms[:len(ms)-1]), FailsOn: len(ms) - 1},
			{Name: "one-too-many", Reference: archive(append(slices.Clone(ms), extra)), FailsOn: countAt},
			{Name: "starred-one", Reference: slices.Concat(archive(ms), []suite.Step{mailSearch(ms[0].Subject), mailOpen(ms[0]), generate.Click("button", mailStarButton(ms[0])), generate.ClickLink("Inbox", mail.Inbox.Href()), generate.Read()}), FailsOn: countAt},
			{Name: "moved-one-back", Reference: slices.Concat(archive(ms), []suite.Step{mailSearch(ms[0].Subject), mailOpen(ms[0]), generate.Click("button", "Move to Inbox"), generate.ClickLink("Inbox", mail.Inbox.Href()), generate.Read()}), FailsOn: countAt},
		},
		Alternates: []generate.Alternate{
			{Name: "check-archive", Reference: append(archive(ms), generate.ClickLink("Archive", mail.Folder.Href("archive")), generate.Read())},
			{Name: "oldest-first", Reference: append(archive(mailBackwards(ms)), generate.Read())},
		},
		Rationale: fmt.Sprintf("One archive write for each of the %d Inbox messages from the sender, in any order, and exactly %d writes of any kind in all (the Inbox has messages from near namesakes; no star, no move back), wherever the agent ends.", len(ms), len(ms)),
	}
}

// mailBackwards is ms in the other order.
func mailBackwards(ms []sandbox.MailMessage) []sandbox.MailMessage {
	out := slices.Clone(ms)
	slices.Reverse(out)
	return out
}

func drawMailDeleteUndo(r *rand.Rand) generate.Instance {
	inbox := mailFolder("inbox")
	m := pick(r, inbox)
	near := inbox[(slices.IndexFunc(inbox, func(o sandbox.MailMessage) bool { return o.ID == m.ID })+1)%len(inbox)]
	ask := []string{
		"Delete the message “%s” from %s (%s), then undo it straight away with the Undo button on the notice that appears, so it goes back to my Inbox.",
		"I want to see Undo work: delete %[2]s's message “%[1]s” of %[3]s and restore it at once with Undo on the notice.",
	}[r.IntN(2)]
	steps := func(x sandbox.MailMessage, undo bool) []suite.Step {
		s := []suite.Step{mailConsent(), mailSearch(x.Subject), mailOpen(x), generate.Click("button", "Delete")}
		if undo {
			return append(s, generate.Click("button", "Undo"), generate.Read())
		}
		return append(s, generate.ClickLink("Trash", mail.Folder.Href("trash")), mailOpen(x), generate.Click("button", "Move to Inbox"), generate.Read())
	}
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID)},
		Instruction: fmt.Sprintf(ask, m.Subject, m.FromName, m.Date),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.Delete, nil, strconv.Itoa(m.ID)),
			mailOnce(mail.Undo, nil),
			writesOn(mailHost, 2),
			onPage(mailMsgURL(m.ID), generate.Text("#msg-folder", "Inbox")),
		},
		Reference: steps(m, true),
		Controls: []generate.Control{
			{Name: "wrong-item", Reference: steps(near, true), FailsOn: 0},
			{Name: "restored-by-hand", Reference: steps(m, false), FailsOn: 1},
			{Name: "deleted-next-too", Reference: slices.Concat(steps(m, true), steps(near, true)[1:4], mailLook(mailMsgURL(m.ID))), FailsOn: 2},
			{Name: "starred-after", Reference: append(steps(m, true), generate.Click("button", mailStarButton(m)), generate.Navigate(mailMsgURL(m.ID)), generate.Read()), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "reload", Reference: slices.Concat(steps(m, true), mailLook(mailMsgURL(m.ID)))},
			{Name: "check-inbox", Reference: append(steps(m, true), generate.ClickLink("Inbox", mail.Inbox.Href()), generate.Read())},
		},
		Rationale: "The delete of this message and one Undo from the notice, which disappears after a few seconds, are the only writes the site accepts, wherever the agent ends; the message's page, read after the run, says it is back in Inbox, so the Undo was of that delete. Moving it back from Trash by hand is not an Undo.",
	}
}

func drawMailDeleteLabel(r *rand.Rand) generate.Instance {
	ls := mailData().Labels
	l := pick(r, ls)
	var near sandbox.MailLabel
	for _, o := range ls {
		if o != l && (near.Slug == "" || editDistance(o.Name, l.Name) < editDistance(near.Name, l.Name)) {
			near = o
		}
	}
	ask := []string{
		"I no longer use my label “%s”. Delete the label, but keep its messages.",
		"Remove the label “%s” from my mail settings; the messages themselves should stay.",
	}[r.IntN(2)]
	steps := func(x sandbox.MailLabel, confirm string) []suite.Step {
		return []suite.Step{mailConsent(), generate.ClickLink("Manage labels", mail.Labels.Href()), generate.Click("button", "Delete label "+x.Name), generate.Click("button", confirm), generate.Read()}
	}
	return generate.Instance{
		Params:      map[string]string{"label": l.Slug},
		Instruction: fmt.Sprintf(ask, l.Name),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.DeleteLabel, nil, l.Slug),
			writesOn(mailHost, 1),
			onPage(mail.Labels.URL(), generate.Count(`[aria-label="Delete label `+l.Name+`"]`, 0)),
			generate.NoDialog(),
		},
		Reference: steps(l, "Delete label"),
		Controls: []generate.Control{
			{Name: "cancelled", Reference: steps(l, "Cancel"), FailsOn: 0},
			{Name: "wrong-label", Reference: steps(near, "Delete label"), FailsOn: 0},
			{Name: "near-one-too", Reference: slices.Concat(steps(l, "Delete label"), steps(near, "Delete label")[1:]), FailsOn: 1},
			{Name: "created-again", Reference: slices.Concat(steps(l, "Delete label"), []suite.Step{generate.Type("Label name", l.Name, false), generate.Click("button", "Create label"), generate.Read()}), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "go-to-inbox", Reference: append(steps(l, "Delete label"), generate.ClickLink("Inbox", mail.Inbox.Href()), generate.Read())},
			{Name: "reload", Reference: slices.Concat(steps(l, "Delete label"), mailLook(mail.Labels.URL()))},
		},
		Rationale: "Deleting asks for confirmation in a dialog; only its Delete label button posts. The delete of exactly this label (labels have near names such as Clients and Clients – wholesale), once, the only write the site accepts, wherever the agent ends; the labels page, read after the run, no longer lists it.",
	}
}

func drawMailRecall(r *rand.Rand) generate.Instance {
	sent := mailFolder("sent")
	i := r.IntN(len(sent))
	m := sent[i]
	ask := []string{
		"Unsend the email I sent to %s on %s (subject “%s”): recall it before they read it.",
		"I sent %s a message on %s about “%s” by mistake. Recall it, please.",
	}[r.IntN(2)]
	open := slices.Concat([]suite.Step{mailConsent(), generate.ClickLink("Sent", mail.Folder.Href("sent"))}, mailPresses(mailEnds(i)))
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID)},
		Instruction: fmt.Sprintf(ask, m.ToName, m.Date, m.Subject),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(mailHost),
			generate.URLIs(mailMsgPath(m.ID)),
			generate.Text("#recall-note", "cannot be recalled"),
		},
		Reference: append(slices.Clone(open), mailOpen(m), generate.Read()),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: append(slices.Clone(open), generate.Read()), FailsOn: 1},
			{Name: "deleted-instead", Reference: append(slices.Clone(open), mailOpen(m), generate.Click("button", "Delete"), generate.ClickLink("Trash", mail.Folder.Href("trash")), mailOpen(m)), FailsOn: 0},
			{Name: "starred-it", Reference: append(slices.Clone(open), mailOpen(m), generate.Click("button", mailStarButton(m)), generate.Read()), FailsOn: 0},
			{Name: "another-sent", Reference: append(slices.Clone(open), mailOpen(sent[(i+1)%len(sent)]), generate.Read()), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "by-search", Reference: []suite.Step{mailConsent(), mailSearch(m.Subject), mailOpen(m), generate.Read()}},
			{Name: "reload-fragment", Reference: slices.Concat(open, []suite.Step{mailOpen(m)}, mailLook(mailMsgURL(m.ID)+"#msg-body"))},
		},
		Rationale: "Undo send lasts a few seconds after sending; this message was delivered weeks ago, and its page says it cannot be recalled. Nothing may be written (deleting the sent copy recalls nothing), and the run must end on that very message's page (any query or fragment), where the agent meets the reason: the site has no recall to refuse.",
	}
}

func drawMailReplyBounced(r *rand.Rand) generate.Instance {
	var ms []sandbox.MailMessage
	for _, m := range mailData().Messages {
		if m.Bounced != "" && m.Folder != "sent" && m.Folder != "drafts" && m.Folder != "trash" {
			ms = append(ms, m)
		}
	}
	m := pick(r, ms)
	reply := pick(r, mailNotes).body
	ask := []string{
		"Reply to the message “%s” that %s sent me on %s, with the text: %s",
		"Answer %[2]s's email “%[1]s” from %[3]s. Write back: %[4]s",
	}[r.IntN(2)]
	namesake := mailNamesake(mailContact(m.FromName))
	// Another bounced sender's message, whose page gives the reason for
	// that sender, not this one.
	otherBounced := ms[(slices.IndexFunc(ms, func(o sandbox.MailMessage) bool { return o.ID == m.ID })+1)%len(ms)]
	open := []suite.Step{mailConsent(), mailSearch(m.Subject)}
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID), "reply": reply},
		Instruction: fmt.Sprintf(ask, m.Subject, m.FromName, m.Date, reply),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(mailHost),
			generate.Or(
				mailRefusedSend(m.FromAddr),
				&contract.And{Children: []contract.Clause{generate.URLIs(mailMsgPath(m.ID)), generate.Text("#bounce-note", "has bounced")}},
			),
		},
		Reference: append(slices.Clone(open), mailOpen(m), generate.Read()),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: append(slices.Clone(open), generate.Read()), FailsOn: 1},
			{Name: "wrote-to-someone-else", Reference: slices.Concat(open, []suite.Step{mailOpen(m), generate.Click("link", "Compose")}, mailPickRecipient(namesake),
				[]suite.Step{generate.Type("Subject", "Re: "+m.Subject, false), generate.Type("Message", reply, false), generate.Click("button", "Send"), mailSearch(m.Subject), mailOpen(m)}), FailsOn: 0},
			{Name: "starred-it", Reference: append(slices.Clone(open), mailOpen(m), generate.Click("button", mailStarButton(m)), generate.Read()), FailsOn: 0},
			{Name: "another-bounced", Reference: []suite.Step{mailConsent(), mailSearch(otherBounced.Subject), mailOpen(otherBounced), generate.Read()}, FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "refused-send", Reference: []suite.Step{mailConsent(), generate.Click("link", "Compose"), generate.Type("To", m.FromAddr, false), generate.Type("Subject", "Re: "+m.Subject, false),
				generate.Type("Message", reply, false), generate.Click("button", "Send"), generate.Read()}},
			{Name: "reload-fragment", Reference: slices.Concat(open, []suite.Step{mailOpen(m)}, mailLook(mailMsgURL(m.ID)+"#msg-body"))},
		},
		Rationale: "The sender's address bounces, so a reply cannot be delivered; the message's page says so and offers no Reply. Nothing may be written (a message to a namesake instead is wrong), and the agent must meet the reason for this sender: end on that message's page (any query or fragment), or have the site refuse (422) a message written to the sender's address.",
	}
}

func drawMailRestoreEmpty(r *rand.Rand) generate.Instance {
	trash := mailFolder("trash")
	m := pick(r, trash)
	ask := []string{
		"Take the message “%s” from %s (%s) out of Trash and back into my Inbox, then empty the Trash for good.",
		"Before you empty my Trash, rescue %[2]s's message “%[1]s” of %[3]s into the Inbox. Then empty the Trash.",
	}[r.IntN(2)]
	restore := []suite.Step{generate.ClickLink("Trash", mail.Folder.Href("trash")), mailOpen(m), generate.Click("button", "Move to Inbox")}
	// Another message of Trash, and the newest of Inbox.
	other := trash[(slices.IndexFunc(trash, func(o sandbox.MailMessage) bool { return o.ID == m.ID })+1)%len(trash)]
	inboxMsg := mailFolder("inbox")[0]
	empty := func(confirm string) []suite.Step {
		return []suite.Step{generate.ClickLink("Trash", mail.Folder.Href("trash")), generate.Click("button", "Empty Trash"), generate.Click("button", confirm), generate.Read()}
	}
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID)},
		Instruction: fmt.Sprintf(ask, m.Subject, m.FromName, m.Date),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			mailOnce(mail.Move, map[string]string{"folder": "inbox"}, strconv.Itoa(m.ID)),
			mailOnce(mail.EmptyTrash, nil),
			writesOn(mailHost, 2),
			onPage(mailMsgURL(m.ID), generate.Text("#msg-folder", "Inbox")),
			generate.NoDialog(),
		},
		Reference: slices.Concat([]suite.Step{mailConsent()}, restore, empty("Delete forever")),
		Controls: []generate.Control{
			{Name: "emptied-without-rescue", Reference: slices.Concat([]suite.Step{mailConsent()}, empty("Delete forever")), FailsOn: 0},
			{Name: "cancelled", Reference: slices.Concat([]suite.Step{mailConsent()}, restore, empty("Cancel")), FailsOn: 1},
			{Name: "restored-another", Reference: slices.Concat([]suite.Step{mailConsent()}, restore, []suite.Step{generate.ClickLink("Trash", mail.Folder.Href("trash")), mailOpen(other), generate.Click("button", "Move to Inbox")}, empty("Delete forever")), FailsOn: 2},
			{Name: "deleted-after", Reference: slices.Concat([]suite.Step{mailConsent()}, restore, empty("Delete forever"), []suite.Step{generate.ClickLink("Inbox", mail.Inbox.Href()), mailOpen(inboxMsg), generate.Click("button", "Delete")}, mailLook(mail.Folder.URL("trash"))), FailsOn: 2},
		},
		Alternates: []generate.Alternate{
			{Name: "check-inbox", Reference: append(slices.Concat([]suite.Step{mailConsent()}, restore, empty("Delete forever")), generate.ClickLink("Inbox", mail.Inbox.Href()), generate.Read())},
			{Name: "reload-trash", Reference: slices.Concat([]suite.Step{mailConsent()}, restore, empty("Delete forever"), mailLook(mail.Folder.URL("trash")))},
		},
		Rationale: "The move of this message back to Inbox and one Empty Trash confirmed in its dialog (Cancel posts nothing) are the only writes the site accepts, wherever the agent ends; the message's page, read after the run, shows it in Inbox, which it cannot be if Trash was emptied first.",
	}
}

func drawMailDeleteShared(r *rand.Rand) generate.Instance {
	shared := mailFolder("shared")
	m := pick(r, shared)
	what := "the message “" + m.Subject + "”"
	if m.Invoice != "" {
		what = "invoice " + m.Invoice
	}
	ask := []string{
		"In the shared Accounts mailbox, delete %s from %s; we do not need it any more.",
		"Please get rid of %s (from %s) in our shared accounts folder.",
	}[r.IntN(2)]
	open := []suite.Step{mailConsent(), generate.ClickLink("Accounts (shared)", mail.Folder.Href("shared"))}
	otherShared := shared[(slices.IndexFunc(shared, func(o sandbox.MailMessage) bool { return o.ID == m.ID })+1)%len(shared)]
	inboxMsg := mailFolder("inbox")[0]
	return generate.Instance{
		Params:      map[string]string{"message": fmt.Sprint(m.ID)},
		Instruction: fmt.Sprintf(ask, what, m.FromName),
		StartURL:    mail.Inbox.URL(),
		Contract: contract.Postconditions{
			generate.NoWrite(mailHost),
			generate.Or(
				refused(mail.Delete, 403, strconv.Itoa(m.ID)),
				&contract.And{Children: []contract.Clause{generate.URLIs(mailMsgPath(m.ID)), generate.Text("#readonly-note", "read-only shared mailbox")}},
			),
		},
		Reference: append(slices.Clone(open), mailOpen(m), generate.Read()),
		Controls: []generate.Control{
			{Name: "one-step-short", Reference: append(slices.Clone(open), generate.Read()), FailsOn: 1},
			{Name: "forwarded-instead", Reference: slices.Concat(open, []suite.Step{mailOpen(m), generate.Click("link", "Forward")},
				mailPickRecipient(mailContact("Tomas Berg")), []suite.Step{generate.Click("button", "Send"), generate.ClickLink("Accounts (shared)", mail.Folder.Href("shared")), mailOpen(m)}), FailsOn: 0},
			{Name: "deleted-another", Reference: []suite.Step{mailConsent(), mailOpen(inboxMsg), generate.Click("button", "Delete"), generate.ClickLink("Accounts (shared)", mail.Folder.Href("shared")), mailOpen(m), generate.Read()}, FailsOn: 0},
			{Name: "another-shared", Reference: append(slices.Clone(open), mailOpen(otherShared), generate.Read()), FailsOn: 1},
		},
		Alternates: []generate.Alternate{
			{Name: "by-search", Reference: []suite.Step{mailConsent(), mailSearch(m.Subject), mailOpen(m), generate.Read()}},
			{Name: "reload-fragment", Reference: slices.Concat(open, []suite.Step{mailOpen(m)}, mailLook(mailMsgURL(m.ID)+"#msg-body"))},
		},
		Rationale: "Accounts (shared) is a read-only shared mailbox: its messages have no Delete button and the site refuses the write. The run must write nothing, and the agent must meet the reason for this very message: end on its page (any query or fragment), which says why, or have the site refuse (403) its delete.",
	}
}
