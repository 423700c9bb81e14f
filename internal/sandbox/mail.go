package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// mail is mail.sandbox.test, Fernhollow Mail: the webmail of one user
// (Nadia Brennan of Fernhollow Ceramics) with folders, labels, search,
// a message view, compose with a recipient autocomplete and attachments,
// drafts, an Undo notice after archive, delete and send, a consent
// banner, and confirmation dialogs for emptying Trash and deleting a
// label.
type mail struct {
	*site
	msgs    []*mailMsg // newest first
	labels  []mailLabel
	consent string // "", accept or reject
	nextID  int
	// deletedLabels are the names of the labels deleted, by slug, and
	// emptied the number of messages each Empty Trash deleted: what the
	// notices of those writes say.
	deletedLabels map[string]string
	emptied       []int
	// uploads are the names of the files uploaded in this attempt.
	uploads    []string
	nextUpload int
	undo       *mailUndo
	nextUndo   int
}

// mailUndo is the last action, which the notice's Undo button reverts
// while it is the last.
type mailUndo struct {
	Token int
	Kind  string // archived, deleted, sent
	Msg   *mailMsg
	From  string // the folder the message was in
}

func newMail(fallback http.Handler) http.Handler {
	m := &mail{site: newSite("mail", fallback, nil), msgs: mailSeed(), labels: slices.Clone(mailLabelsSeed),
		nextID: mailFirstNew, nextUpload: 1, nextUndo: 1, deletedLabels: map[string]string{}}
	m.serve(&Mail, map[*Route]http.HandlerFunc{
		&Mail.Inbox:       func(w http.ResponseWriter, r *http.Request) { m.folder(w, r, fInbox) },
		&Mail.Folder:      func(w http.ResponseWriter, r *http.Request) { m.folder(w, r, r.PathValue("name")) },
		&Mail.Label:       m.labelPage,
		&Mail.Search:      m.search,
		&Mail.Message:     m.messagePage,
		&Mail.Archive:     m.act("archive"),
		&Mail.Delete:      m.act("delete"),
		&Mail.Star:        m.act("star"),
		&Mail.SetLabel:    m.act("labels"),
		&Mail.Move:        m.act("move"),
		&Mail.Undo:        m.undoAction,
		&Mail.Compose:     m.composePage,
		&Mail.Send:        m.send,
		&Mail.Attach:      m.attach,
		&Mail.Labels:      m.labelsPage,
		&Mail.NewLabel:    m.newLabel,
		&Mail.DeleteLabel: m.deleteLabel,
		&Mail.EmptyTrash:  m.emptyTrash,
		&Mail.Consent:     m.setConsent,
	})
	return m
}

// mailNav is one entry of the side bar.
type mailNav struct {
	Key, Name, Href string
	Count           int
}

type mailToast struct {
	Token int
	Text  string
}

type mailPage struct {
	Title       string
	Banner      bool
	Folders     []mailNav
	Labels      []mailNav
	Active      string
	Q           string
	Flash       string
	Toast       *mailToast
	Rows        []*mailMsg
	Total       int
	Next        string
	Empty       string
	CanEmpty    bool
	Msg         *mailMsg
	Thread      []*mailMsg
	MsgLabels   []mailLabel
	OtherLabels []mailLabel
	Recallable  bool
	Compose     *mailCompose
	Contacts    []*mailContact
	LabelList   []mailNav
}

type mailCompose struct {
	To, Subject, Body  string
	ReplyTo, Forward   int
	Draft              int
	Attach             []string
	Heading, ForwardOf string
}

func (m *mail) page(title, active string) *mailPage {
	p := &mailPage{Title: title, Banner: m.consent == "", Active: active}
	counts := map[string]int{}
	starred := 0
	for _, x := range m.msgs {
		if x.Folder == fInbox && x.Unread || x.Folder == fDrafts {
			counts[x.Folder]++
		}
		if x.Starred && x.Folder != fTrash {
			starred++
		}
	}
	for _, k := range []string{fInbox, "starred", fSent, fDrafts, fArchive, fTrash, fShared} {
		n := mailNav{Key: k, Name: mailFolderNames[k], Href: "/folder/" + k, Count: counts[k]}
		switch k {
		case fInbox:
			n.Href = "/"
		case "starred":
			n.Name, n.Count = "Starred", starred
		}
		p.Folders = append(p.Folders, n)
	}
	for _, l := range m.labels {
		p.Labels = append(p.Labels, mailNav{Key: "label:" + l.Slug, Name: l.Name, Href: "/label/" + l.Slug})
	}
	return p
}

func (m *mail) notFound(w http.ResponseWriter, what string) {
	m.refuse(w, http.StatusNotFound, problem{Title: "Not found", Message: "There is no " + what + ".", Back: "/", BackText: "Back to Inbox"})
}

func (m *mail) labelName(slug string) string {
	for _, l := range m.labels {
		if l.Slug == slug {
			return l.Name
		}
	}
	return ""
}

// list renders a list of messages: the first page as a whole page, later
// pages (offset, partial=1) as the rows the list's script appends.
func (m *mail) list(w http.ResponseWriter, r *http.Request, p *mailPage, rows []*mailMsg) {
	off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	off = max(0, min(off, len(rows)))
	end := min(off+mailPageSize, len(rows))
	p.Rows, p.Total = rows[off:end], len(rows)
	if end < len(rows) {
		q := r.URL.Query()
		q.Set("offset", strconv.Itoa(end))
		q.Set("partial", "1")
		q.Del("undo")
		p.Next = r.URL.Path + "?" + q.Encode()
	}
	if r.URL.Query().Get("partial") == "1" {
		m.render(w, http.StatusOK, "rows", p)
		return
	}
	if t, err := strconv.Atoi(r.URL.Query().Get("undo")); err == nil && m.undo != nil && m.undo.Token == t {
		p.Toast = &mailToast{Token: t, Text: map[string]string{"archived": "Message archived.", "deleted": "Message moved to Trash.", "sent": "Message sent."}[m.undo.Kind]}
	}
	m.render(w, http.StatusOK, "list", p)
}

func (m *mail) folder(w http.ResponseWriter, r *http.Request, name string) {
	var rows []*mailMsg
	for _, x := range m.msgs {
		if x.Folder == name || name == "starred" && x.Starred && x.Folder != fTrash {
			rows = append(rows, x)
		}
	}
	title := mailFolderNames[name]
	if name == "starred" {
		title = "Starred"
	}
	if title == "" {
		m.notFound(w, "folder "+strconv.Quote(name))
		return
	}
	p := m.page(title, name)
	p.Empty = "No messages in " + title + "."
	p.CanEmpty = name == fTrash && len(rows) > 0
	switch n, err := strconv.Atoi(r.URL.Query().Get("emptied")); {
	case name == fShared:
		p.Flash = "Accounts (shared) is a read-only shared mailbox: you can read and forward its messages, but not archive, delete, star or label them."
	case name == fTrash && err == nil && len(rows) == 0 && slices.Contains(m.emptied, n):
		p.Flash = fmt.Sprintf("Trash emptied: %d messages deleted for good.", n)
	}
	m.list(w, r, p, rows)
}

func (m *mail) labelPage(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	name := m.labelName(slug)
	if name == "" {
		m.notFound(w, "label "+strconv.Quote(slug))
		return
	}
	var rows []*mailMsg
	for _, x := range m.msgs {
		if slices.Contains(x.Labels, slug) && x.Folder != fTrash {
			rows = append(rows, x)
		}
	}
	p := m.page("Label: "+name, "label:"+slug)
	p.Empty = "No messages have the label " + name + "."
	m.list(w, r, p, rows)
}

func (m *mail) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	words := strings.Fields(strings.ToLower(q))
	var rows []*mailMsg
	for _, x := range m.msgs {
		if x.Folder == fTrash || len(words) == 0 {
			continue
		}
		hay := strings.ToLower(strings.Join([]string{x.From.Name, x.From.Addr, x.To.Name, x.To.Addr, x.Subject, x.Body}, " "))
		all := true
		for _, wd := range words {
			all = all && strings.Contains(hay, wd)
		}
		if all {
			rows = append(rows, x)
		}
	}
	p := m.page("Search: "+q, "search")
	p.Q = q
	p.Empty = "No messages match " + strconv.Quote(q) + " (Trash is not searched)."
	m.list(w, r, p, rows)
}

func (m *mail) find(id string) *mailMsg {
	for _, x := range m.msgs {
		if strconv.Itoa(x.ID) == id {
			return x
		}
	}
	return nil
}

func (m *mail) messagePage(w http.ResponseWriter, r *http.Request) {
	x := m.find(r.PathValue("id"))
	if x == nil {
		m.notFound(w, "message "+r.PathValue("id"))
		return
	}
	p := m.page(x.Subject, x.Folder)
	p.Msg, p.Flash = x, m.messageNotice(x, r.URL.Query())
	for _, y := range m.msgs {
		if x.Thread > 0 && y.Thread == x.Thread && y != x {
			p.Thread = append(p.Thread, y)
		}
	}
	for _, l := range m.labels {
		if slices.Contains(x.Labels, l.Slug) {
			p.MsgLabels = append(p.MsgLabels, l)
		} else {
			p.OtherLabels = append(p.OtherLabels, l)
		}
	}
	p.Recallable = m.undo != nil && m.undo.Msg == x && m.undo.Kind == "sent"
	if t, err := strconv.Atoi(r.URL.Query().Get("undo")); err == nil && m.undo != nil && m.undo.Token == t && m.undo.Msg == x {
		p.Toast = &mailToast{Token: t, Text: "Message sent."}
	}
	m.render(w, http.StatusOK, "message", p)
}

// The notices of the writes are carried by the URL each write redirects
// to, and each shows only while what it says is so: a visit never changes
// the mailbox (it does not even mark a message read), a reload shows the
// same page, and a URL typed without the write confirms nothing.

// messageNotice is the notice a message's page shows for the query q of
// its URL, or "".
func (m *mail) messageNotice(x *mailMsg, q url.Values) string {
	switch {
	case q.Get("starred") == "1" && x.Starred:
		return "Message starred."
	case q.Get("starred") == "0" && !x.Starred:
		return "Star removed."
	case q.Has("labelled") && slices.Contains(x.Labels, q.Get("labelled")):
		return "Label “" + m.labelName(q.Get("labelled")) + "” applied."
	case q.Has("unlabelled") && m.labelName(q.Get("unlabelled")) != "" && !slices.Contains(x.Labels, q.Get("unlabelled")):
		return "Label “" + m.labelName(q.Get("unlabelled")) + "” removed."
	case q.Get("moved") == fInbox && x.Folder == fInbox:
		return "Moved to Inbox."
	case q.Get("undone") == fDrafts && x.Folder == fDrafts:
		return "Sending undone: the message is back in Drafts."
	case q.Has("undone") && q.Get("undone") == x.Folder:
		return "Undone: the message is back in " + mailFolderNames[x.Folder] + "."
	case q.Get("draft") == "saved" && x.Folder == fDrafts:
		return "Draft saved. It has not been sent."
	}
	return ""
}

// labelsNotice is the notice the labels page shows for the query q.
func (m *mail) labelsNotice(q url.Values) string {
	if slug := q.Get("created"); slug != "" && m.labelName(slug) != "" {
		return "Label “" + m.labelName(slug) + "” created."
	}
	if name, ok := m.deletedLabels[q.Get("deleted")]; ok && m.labelName(q.Get("deleted")) == "" {
		return "The label “" + name + "” was deleted. Its messages were kept."
	}
	return ""
}

// listURL is the list a message's folder is shown in.
func listURL(folder string) string {
	if folder == fInbox {
		return "/"
	}
	return "/folder/" + folder
}

func (m *mail) readOnly(w http.ResponseWriter, x *mailMsg) bool {
	if x.Folder != fShared {
		return false
	}
	m.refuse(w, http.StatusForbidden, problem{Title: "Read-only mailbox", Message: "Accounts (shared) is a read-only shared mailbox: its messages cannot be archived, deleted, starred or labelled from your account.",
		Back: fmt.Sprintf("/m/%d", x.ID), BackText: "Back to the message"})
	return true
}

// act handles one of the writes on a message, each a route of its own:
// archive, delete, star, labels and move.
func (m *mail) act(action string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { m.actOn(w, r, action) }
}

func (m *mail) actOn(w http.ResponseWriter, r *http.Request, action string) {
	x := m.find(r.PathValue("id"))
	if x == nil {
		m.notFound(w, "message "+r.PathValue("id"))
		return
	}
	if m.readOnly(w, x) {
		return
	}
	back := fmt.Sprintf("/m/%d", x.ID)
	conflict := func(msg string) {
		m.refuse(w, http.StatusConflict, problem{Title: "Not done", Message: msg, Back: back, BackText: "Back to the message"})
	}
	switch action {
	case "archive":
		if x.Folder != fInbox {
			conflict("Only messages in Inbox can be archived; this one is in " + x.FolderName() + ".")
			return
		}
		m.undo = &mailUndo{Token: m.nextUndo, Kind: "archived", Msg: x, From: x.Folder}
		m.nextUndo++
		x.Folder = fArchive
		seeOther(w, r, fmt.Sprintf("%s?undo=%d", listURL(m.undo.From), m.undo.Token))
	case "delete":
		if x.Folder == fTrash {
			conflict("This message is already in Trash. Empty Trash to delete it for good.")
			return
		}
		m.undo = &mailUndo{Token: m.nextUndo, Kind: "deleted", Msg: x, From: x.Folder}
		m.nextUndo++
		x.restoreFolder, x.Folder = x.Folder, fTrash
		seeOther(w, r, fmt.Sprintf("%s?undo=%d", listURL(m.undo.From), m.undo.Token))
	case "star":
		m.undo = nil
		x.Starred = !x.Starred
		seeOther(w, r, fmt.Sprintf("%s?starred=%d", back, map[bool]int{true: 1, false: 0}[x.Starred]))
	case "labels":
		slug, name := r.PostFormValue("label"), m.labelName(r.PostFormValue("label"))
		if name == "" {
			m.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not done", Message: "Choose one of your labels.", Back: back, BackText: "Back to the message"})
			return
		}
		has := slices.Contains(x.Labels, slug)
		switch r.PostFormValue("action") {
		case "add":
			if has {
				conflict("The message already has the label " + name + ".")
				return
			}
			x.Labels = append(x.Labels, slug)
			back += "?labelled=" + url.QueryEscape(slug)
		case "remove":
			if !has {
				conflict("The message does not have the label " + name + ".")
				return
			}
			x.Labels = slices.DeleteFunc(x.Labels, func(s string) bool { return s == slug })
			back += "?unlabelled=" + url.QueryEscape(slug)
		default:
			m.refuse(w, http.StatusBadRequest, problem{Title: "Not done", Message: "Add or remove a label.", Back: back, BackText: "Back to the message"})
			return
		}
		m.undo = nil
		seeOther(w, r, back)
	case "move":
		if r.PostFormValue("folder") != fInbox || x.Folder != fArchive && x.Folder != fTrash {
			conflict("Only archived or deleted messages can be moved back to Inbox.")
			return
		}
		m.undo = nil
		x.Folder = fInbox
		seeOther(w, r, back+"?moved=inbox")
	}
}

func (m *mail) undoAction(w http.ResponseWriter, r *http.Request) {
	t, _ := strconv.Atoi(r.PostFormValue("token"))
	if m.undo == nil || m.undo.Token != t {
		m.refuse(w, http.StatusConflict, problem{Title: "Nothing to undo", Message: "Undo is only possible for a few seconds after an action, and only for the last one.", Back: "/", BackText: "Back to Inbox"})
		return
	}
	u := m.undo
	m.undo = nil
	u.Msg.Folder = u.From
	seeOther(w, r, fmt.Sprintf("/m/%d?undone=%s", u.Msg.ID, u.From))
}

func quote(body string) string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}

func (m *mail) composePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c := &mailCompose{Heading: "New message"}
	switch {
	case q.Get("reply") != "":
		x := m.find(q.Get("reply"))
		if x == nil {
			m.notFound(w, "message "+q.Get("reply"))
			return
		}
		to := x.From
		if x.Mine() {
			to = x.To
		}
		if to.Bounced != "" {
			m.refuse(w, http.StatusConflict, problem{Title: "Cannot reply", Message: bounceNote(to), Back: fmt.Sprintf("/m/%d", x.ID), BackText: "Back to the message"})
			return
		}
		c.Heading, c.To, c.ReplyTo = "Reply", to.Label(), x.ID
		c.Subject = x.Subject
		if !strings.HasPrefix(c.Subject, "Re: ") {
			c.Subject = "Re: " + c.Subject
		}
		c.Body = "\n\nOn " + x.Date() + ", " + x.From.Name + " wrote:\n" + quote(x.Body)
	case q.Get("forward") != "":
		x := m.find(q.Get("forward"))
		if x == nil {
			m.notFound(w, "message "+q.Get("forward"))
			return
		}
		c.Heading, c.Forward, c.Subject, c.Attach = "Forward", x.ID, "Fwd: "+x.Subject, x.Attach
		c.ForwardOf = x.Subject
		c.Body = "\n\n---------- Forwarded message ----------\nFrom: " + x.From.Label() + "\nDate: " + x.Date() + "\nSubject: " + x.Subject + "\n\n" + x.Body
	case q.Get("draft") != "":
		x := m.find(q.Get("draft"))
		if x == nil || x.Folder != fDrafts {
			m.notFound(w, "draft "+q.Get("draft"))
			return
		}
		c.Heading, c.Draft, c.To, c.Subject, c.Body, c.ReplyTo, c.Forward = "Edit draft", x.ID, x.To.Label(), x.Subject, x.Body, x.ReplyTo, x.Forward
		if x.To == mailMe {
			c.To = ""
		}
	}
	p := m.page(c.Heading, "compose")
	p.Compose, p.Contacts = c, mailContacts
	m.render(w, http.StatusOK, "compose", p)
}

func bounceNote(c *mailContact) string {
	return "Mail to " + c.Addr + " has bounced since " + c.Bounced + ": the address no longer exists, so replies to " + c.Name + " cannot be delivered."
}

// recipient reads the To field: "Name <addr>" or a bare address.
func recipient(s string) (*mailContact, bool) {
	s = strings.TrimSpace(s)
	addr := s
	if i, j := strings.LastIndex(s, "<"), strings.LastIndex(s, ">"); i >= 0 && j > i {
		addr = strings.TrimSpace(s[i+1 : j])
	}
	at := strings.Index(addr, "@")
	if at <= 0 || at == len(addr)-1 || strings.ContainsAny(addr, " ,;<>") {
		return nil, false
	}
	for _, c := range mailContacts {
		if strings.EqualFold(c.Addr, addr) {
			return c, true
		}
	}
	return &mailContact{Name: addr, Addr: addr}, true
}

func (m *mail) send(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f := r.PostForm
	back := "/compose"
	bad := func(status int, msg string) {
		m.refuse(w, status, problem{Title: "Not sent", Message: msg, Back: back, BackText: "Back to the message"})
	}
	action := f.Get("action")
	if action != "send" && action != "draft" {
		bad(http.StatusBadRequest, "Send the message or save it as a draft.")
		return
	}
	subject, body := strings.TrimSpace(f.Get("subject")), strings.TrimRight(f.Get("body"), " \n\r")
	to, ok := recipient(f.Get("to"))
	switch {
	case action == "send" && !ok:
		bad(http.StatusUnprocessableEntity, "The To field needs one address, such as a contact picked from the list.")
		return
	case ok && to.Bounced != "":
		bad(http.StatusUnprocessableEntity, bounceNote(to))
		return
	case action == "send" && subject == "" && strings.TrimSpace(body) == "":
		bad(http.StatusUnprocessableEntity, "A message needs a subject or some text.")
		return
	}
	var fwd *mailMsg
	if id := f.Get("forward"); id != "" {
		if fwd = m.find(id); fwd == nil {
			bad(http.StatusUnprocessableEntity, "The message being forwarded no longer exists.")
			return
		}
	}
	attach := f["attachment"]
	for _, a := range attach {
		if !slices.Contains(m.uploads, a) && (fwd == nil || !slices.Contains(fwd.Attach, a)) {
			bad(http.StatusUnprocessableEntity, "The attachment "+strconv.Quote(a)+" was not uploaded.")
			return
		}
	}
	var x *mailMsg
	if id := f.Get("draft"); id != "" {
		if x = m.find(id); x == nil || x.Folder != fDrafts {
			bad(http.StatusConflict, "That draft no longer exists.")
			return
		}
	} else {
		x = &mailMsg{ID: m.nextID}
		m.nextID++
		m.msgs = append([]*mailMsg{x}, m.msgs...)
	}
	if !ok {
		to = mailMe
	}
	x.From, x.To, x.Subject, x.Body, x.Attach = mailMe, to, subject, body, slices.Clone(attach)
	x.When = mailStart.AddDate(0, 6, 0).Add(9 * 60 * 60 * 1e9)
	x.ReplyTo, _ = strconv.Atoi(f.Get("reply_to"))
	if fwd != nil {
		x.Forward = fwd.ID
	}
	if x.Subject == "" {
		x.Subject = "(no subject)"
	}
	if action == "draft" {
		x.Folder = fDrafts
		m.undo = nil
		seeOther(w, r, fmt.Sprintf("/m/%d?draft=saved", x.ID))
		return
	}
	x.Folder = fSent
	m.undo = &mailUndo{Token: m.nextUndo, Kind: "sent", Msg: x, From: fDrafts}
	m.nextUndo++
	seeOther(w, r, fmt.Sprintf("/m/%d?undo=%d", x.ID, m.undo.Token))
}

// attach takes one uploaded file (multipart field "file") and answers its
// id and name as JSON; the compose form then names it in an attachment
// field. An upload changes nothing a task checks until the message is
// sent, so it answers 200, not a redirect.
func (m *mail) attach(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	file, hdr, err := r.FormFile("file")
	if err != nil {
		http.Error(w, "send one file in the field \"file\"", http.StatusBadRequest)
		return
	}
	file.Close()
	if hdr.Size > 5<<20 {
		http.Error(w, "attachments are at most 5 MB", http.StatusRequestEntityTooLarge)
		return
	}
	name := hdr.Filename
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if !slices.Contains(m.uploads, name) {
		m.uploads = append(m.uploads, name)
	}
	id := m.nextUpload
	m.nextUpload++
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": id, "name": name, "size": hdr.Size})
}

func (m *mail) labelsPage(w http.ResponseWriter, r *http.Request) {
	p := m.page("Labels", "labels")
	p.Flash = m.labelsNotice(r.URL.Query())
	for _, l := range m.labels {
		n := 0
		for _, x := range m.msgs {
			if slices.Contains(x.Labels, l.Slug) && x.Folder != fTrash {
				n++
			}
		}
		p.LabelList = append(p.LabelList, mailNav{Key: l.Slug, Name: l.Name, Href: "/label/" + l.Slug, Count: n})
	}
	m.render(w, http.StatusOK, "labels", p)
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func (m *mail) newLabel(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("name"))
	slug := slugify(name)
	switch {
	case slug == "" || len(name) > 40:
		m.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not created", Message: "A label needs a name of at most 40 characters, with a letter or digit.", Back: "/labels", BackText: "Back to labels"})
		return
	case m.labelName(slug) != "":
		m.refuse(w, http.StatusConflict, problem{Title: "Not created", Message: "You already have the label " + m.labelName(slug) + ".", Back: "/labels", BackText: "Back to labels"})
		return
	}
	m.undo = nil
	m.labels = append(m.labels, mailLabel{Slug: slug, Name: name})
	seeOther(w, r, "/labels?created="+url.QueryEscape(slug))
}

func (m *mail) deleteLabel(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	name := m.labelName(slug)
	if name == "" {
		m.notFound(w, "label "+strconv.Quote(slug))
		return
	}
	m.undo = nil
	m.labels = slices.DeleteFunc(m.labels, func(l mailLabel) bool { return l.Slug == slug })
	for _, x := range m.msgs {
		x.Labels = slices.DeleteFunc(x.Labels, func(s string) bool { return s == slug })
	}
	m.deletedLabels[slug] = name
	seeOther(w, r, "/labels?deleted="+url.QueryEscape(slug))
}

func (m *mail) emptyTrash(w http.ResponseWriter, r *http.Request) {
	n := len(m.msgs)
	m.msgs = slices.DeleteFunc(m.msgs, func(x *mailMsg) bool { return x.Folder == fTrash })
	if n == len(m.msgs) {
		m.refuse(w, http.StatusConflict, problem{Title: "Nothing to delete", Message: "Trash is already empty.", Back: "/folder/trash", BackText: "Back to Trash"})
		return
	}
	m.undo = nil
	m.emptied = append(m.emptied, n-len(m.msgs))
	seeOther(w, r, fmt.Sprintf("/folder/trash?emptied=%d", n-len(m.msgs)))
}

// setConsent records the consent banner's answer. The banner's script
// posts it and removes the banner; it answers 204, as it changes nothing
// a task is about.
func (m *mail) setConsent(w http.ResponseWriter, r *http.Request) {
	c := r.PostFormValue("choice")
	if c != "accept" && c != "reject" {
		http.Error(w, "choice must be accept or reject", http.StatusBadRequest)
		return
	}
	m.consent = c
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}
