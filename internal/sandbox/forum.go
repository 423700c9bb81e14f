package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// forum is forum.sandbox.test: boards of threads, replies (posted, or
// kept as a draft), new threads, private messages and a signature.
type forum struct {
	*site
	boards  []*board
	threads []*thread // by id - 1
	me      string
	sig     string
	inbox   []*message
	// deleted are the messages deleted from the inbox, for the notice.
	deleted []*message
	sent    []*message
	nextMsg int
	members []string
	// profiles are the members' public details, by name.
	profiles map[string]*member
}

// member is a forum member's profile.
type member struct {
	Name, Joined, Location string
	// Closed marks a member who does not accept private messages.
	Closed bool
	Posts  int
}

type board struct {
	Slug, Name, About string
	Threads           []*thread // newest first
}

type thread struct {
	ID    int
	Board *board
	Title string
	Posts []*post
	Draft string
	// Locked marks a thread closed to new replies, on LockedOn.
	Locked   bool
	LockedOn string
}

// forumPageSize is how many posts a page of a thread shows.
const forumPageSize = 10

// pages is the number of pages the thread's posts fill.
func (t *thread) pages() int { return max(1, (len(t.Posts)+forumPageSize-1)/forumPageSize) }

type post struct {
	N            int
	Author, Date string
	Body         string
	Mine         bool
	Signature    string
}

type message struct {
	ID                int
	From, To, Subject string
	Body, Date        string
}

var forumBoards = []struct{ slug, name, about string }{
	{"bikes", "Bike repair", "Gears, brakes, wheels and the tools to fix them."},
	{"radio", "Radio and electronics", "Receivers, kits, soldering and test gear."},
	{"woodwork", "Woodwork", "Joinery, finishes and sharpening."},
	{"garden-tech", "Garden gadgets", "Irrigation timers, sensors and weather stations."},
	{"keyboards", "Mechanical keyboards", "Switches, firmware and builds."},
}

var forumTopics = map[string][]string{
	"bikes":       {"Rear derailleur skips under load", "Best chain checker?", "Hydraulic brake bleed went wrong", "Tubeless sealant dried out", "Creak from the bottom bracket", "Spoke tension for a rebuilt wheel", "Cable housing length rule of thumb", "Stuck seatpost in a steel frame"},
	"radio":       {"First shortwave kit: which one?", "Crackle on the volume pot", "Antenna for a small balcony", "Desoldering through-hole parts cleanly", "Calibrating a cheap frequency counter", "Hum in a valve amplifier", "Ferrite rod antenna winding", "Logic analyser recommendations"},
	"woodwork":    {"Hand plane chatters on oak", "Oil or wax for a kitchen table?", "Dovetail gaps: fill or redo?", "Sharpening a card scraper", "Glue-up clamps on a budget", "Cupped boards after planing", "Finishing walnut without blotching", "Mortise chisel size for a first set"},
	"garden-tech": {"Soil moisture sensor reads 100% always", "Rain barrel pump timer", "Weather station wind speed too low", "Drip line pressure for raised beds", "Solar panel for a greenhouse fan", "Frost alarm that texts me", "Automatic door for a hen house", "Mesh network for garden sensors"},
	"keyboards":   {"Chattering switch after a year", "Lubing linear switches: worth it?", "Firmware for a 40% board", "Stabiliser rattle on the space bar", "Hot-swap sockets came loose", "Split keyboard tenting angle", "Keycap profile for long typing", "Wireless battery life tips"},
}

var forumNames = []string{"gearhead_ana", "mkovacs", "solder_sam", "tideline", "oakandiron", "p_nakamura", "halfmoonbay", "r.okafor", "fenwick", "lindqvist", "quietbench", "joaquim_r", "v.petrova", "dmitri_k", "brightwater"}

var forumSentences = []string{
	"I had the same thing last winter and it turned out to be something simple.",
	"Check the obvious first: is everything tight and seated properly?",
	"A photo would help a lot here.",
	"Mine did that until I cleaned it properly and started again from scratch.",
	"I would not spend money on it before trying the free fix.",
	"The manual is vague about this, which does not help.",
	"It took me three attempts, so do not give up.",
	"Measure twice before you order parts.",
	"There is a good write-up of this in the pinned thread.",
	"Temperature makes more difference than people think.",
	"Go slowly and it works; rush it and it does not.",
	"I ended up replacing the part, and it has been fine since.",
}

// forumLocked are the threads closed to new replies, by id.
var forumLocked = map[int]string{11: "2026-02-12", 14: "2026-02-19", 19: "2026-02-08", 23: "2026-02-21", 26: "2026-02-15", 30: "2026-02-25", 35: "2026-02-10", 38: "2026-02-17"}

// forumLong are the threads that run to several pages, by id, with how
// many posts they are given in all.
var forumLong = map[int]int{2: 23, 5: 31, 10: 18, 13: 27, 18: 34, 21: 15, 27: 22, 29: 38, 34: 26, 39: 19, 19: 24, 35: 17}

// forumMoreNames are members who joined later; several names are close
// to an older member's.
var forumMoreNames = []string{"fenwick_j", "m.kovacs", "solder_sammy", "tide_line", "oak_and_iron", "gearhead_anna", "brightwaters", "r_okafor", "lindqvist2", "quiet.bench", "halfmoon_bay", "p.nakamura"}

// forumClosed are the members who do not accept private messages.
var forumClosed = map[string]bool{"tideline": true, "lindqvist": true, "dmitri_k": true, "halfmoonbay": true, "quiet.bench": true, "oak_and_iron": true, "v.petrova": true, "p.nakamura": true, "brightwaters": true}

var forumPlaces = []string{"Leeds", "Graz", "Tampere", "Porto", "Utrecht", "Brno", "Cork", "Lund", "Aarhus", "Trieste", "Ghent", "Bergen"}

var forumInboxSubjects = []string{"Spare parts list", "Meet-up in May?", "Your brake question (follow-up)", "Thanks again", "Chain checker loan", "Soldering station for sale", "Spare parts", "Club night in April", "Wheel truing stand", "Antenna photos", "Keyboard group buy", "Rain barrel pump", "Oak offcuts", "Thanks for the tip!", "Meet-up in April", "Frost alarm code", "Switch samples", "Bench vice", "Your radio kit question", "Plane iron sharpening"}

func newForum(fallback http.Handler) *forum {
	f := &forum{site: newSite("forum", fallback, nil), me: "robin_a", sig: "Robin — fixing things since 1998", nextMsg: 301}
	f.build()
	f.serve(&Forum, map[*Route]http.HandlerFunc{
		&Forum.Home:          f.home,
		&Forum.Board:         f.boardPage,
		&Forum.NewThreadPage: f.newThreadPage,
		&Forum.NewThread:     f.newThread,
		&Forum.Thread:        f.threadPage,
		&Forum.Reply:         f.reply,
		&Forum.Settings:      f.settingsPage,
		&Forum.SaveSettings:  f.saveSettings,
		&Forum.Messages:      f.messages,
		&Forum.Compose:       f.composePage,
		&Forum.Send:          f.send,
		&Forum.Message:       f.messagePage,
		&Forum.DeleteMessage: f.deleteMessage,
		&Forum.Members:       f.membersPage,
		&Forum.Profile:       f.profilePage,
	})
	return f
}

// build fills the forum with its seeded boards, threads, members and
// messages.
func (f *forum) build() {
	g := &gen{s: 0xf0_7e57}
	day := 0
	for _, b := range forumBoards {
		bd := &board{Slug: b.slug, Name: b.name, About: b.about}
		f.boards = append(f.boards, bd)
		for _, title := range forumTopics[b.slug] {
			t := &thread{ID: len(f.threads) + 1, Board: bd, Title: title}
			for n := range g.between(2, 7) {
				day++
				var body []string
				for range g.between(1, 3) {
					body = append(body, pick(g, forumSentences))
				}
				t.Posts = append(t.Posts, &post{N: n + 1, Author: pick(g, forumNames),
					Date: fmt.Sprintf("2026-02-%02d", 1+day%27), Body: strings.Join(body, " ")})
			}
			f.threads = append(f.threads, t)
			bd.Threads = append([]*thread{t}, bd.Threads...)
		}
	}
	f.members = append([]string(nil), forumNames...)
	for i := range 4 {
		f.inbox = append(f.inbox, &message{ID: 201 + i, From: forumNames[g.intn(len(forumNames))], To: f.me,
			Subject: []string{"Your brake question", "Spare parts", "Meet-up in April?", "Thanks for the tip"}[i],
			Body:    pick(g, forumSentences), Date: fmt.Sprintf("2026-02-%02d", 20+i)})
	}
	// What follows draws from generators of its own, so the data above
	// stays as the sandbox suite's tasks were written for.
	f.members = append(f.members, forumMoreNames...)
	g = &gen{s: 0x10_c4ed}
	for id, n := range forumLocked {
		f.threads[id-1].Locked, f.threads[id-1].LockedOn = true, n
	}
	for id := 1; id <= len(f.threads); id++ {
		total, ok := forumLong[id]
		if !ok {
			continue
		}
		t := f.threads[id-1]
		for n := len(t.Posts); n < total; n++ {
			var body []string
			for range g.between(1, 3) {
				body = append(body, pick(g, forumSentences))
			}
			t.Posts = append(t.Posts, &post{N: n + 1, Author: pick(g, f.members),
				Date: fmt.Sprintf("2026-02-%02d", min(28, 1+n)), Body: strings.Join(body, " ")})
		}
	}
	f.profiles = make(map[string]*member, len(f.members))
	for i, name := range f.members {
		year := 2019 + g.intn(6)
		if i >= len(forumNames) {
			year = 2025
		}
		f.profiles[name] = &member{Name: name, Joined: fmt.Sprintf("%d-%02d-%02d", year, g.between(1, 12), g.between(1, 28)),
			Location: pick(g, forumPlaces), Closed: forumClosed[name]}
	}
	for _, t := range f.threads {
		for _, p := range t.Posts {
			f.profiles[p.Author].Posts++
		}
	}
	for i, subject := range forumInboxSubjects {
		from := f.members[g.intn(len(f.members))]
		for f.profiles[from].Closed {
			from = f.members[g.intn(len(f.members))]
		}
		f.inbox = append(f.inbox, &message{ID: 205 + i, From: from, To: f.me, Subject: subject,
			Body: pick(g, forumSentences), Date: fmt.Sprintf("2026-02-%02d", 19-i/2)})
	}
}

type forumPage struct {
	Title     string
	Me        string
	Boards    []*board
	Board     *board
	Thread    *thread
	Flash     string
	Signature string
	Saved     bool
	Inbox     []*message
	Sent      []*message
	Message   *message
	To        string
	Members   []string
	// Posts are the thread's posts on page PageNo of Pages.
	Posts    []*post
	PageNo   int
	Pages    int
	PageList []int
	Subject  string
	Profiles []*member
	Profile  *member
	// Deleted names the message just deleted.
	Deleted string
}

func (f *forum) page(title string) *forumPage {
	return &forumPage{Title: title, Me: f.me, Boards: f.boards, Signature: f.sig}
}

func (f *forum) home(w http.ResponseWriter, r *http.Request) {
	f.render(w, http.StatusOK, "home", f.page("Boards"))
}

func (f *forum) findBoard(slug string) *board {
	for _, b := range f.boards {
		if b.Slug == slug {
			return b
		}
	}
	return nil
}

func (f *forum) findThread(id string) *thread {
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 || n > len(f.threads) {
		return nil
	}
	return f.threads[n-1]
}

func (f *forum) notFound(w http.ResponseWriter, what string) {
	f.refuse(w, http.StatusNotFound, problem{Title: "Not found", Message: "There is no " + what + ".", Back: "/", BackText: "All boards"})
}

func (f *forum) boardPage(w http.ResponseWriter, r *http.Request) {
	b := f.findBoard(r.PathValue("board"))
	if b == nil {
		f.notFound(w, "board "+r.PathValue("board"))
		return
	}
	p := f.page(b.Name)
	p.Board = b
	f.render(w, http.StatusOK, "board", p)
}

func (f *forum) newThreadPage(w http.ResponseWriter, r *http.Request) {
	b := f.findBoard(r.PathValue("board"))
	if b == nil {
		f.notFound(w, "board "+r.PathValue("board"))
		return
	}
	p := f.page("New thread in " + b.Name)
	p.Board = b
	f.render(w, http.StatusOK, "newthread", p)
}

func (f *forum) newThread(w http.ResponseWriter, r *http.Request) {
	b := f.findBoard(r.PathValue("board"))
	if b == nil {
		f.notFound(w, "board "+r.PathValue("board"))
		return
	}
	title, body := strings.TrimSpace(r.PostFormValue("title")), strings.TrimSpace(r.PostFormValue("body"))
	if title == "" || body == "" {
		f.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not posted", Message: "A thread needs a title and a first post.", Back: "/b/" + b.Slug + "/new", BackText: "Back to the form"})
		return
	}
	t := &thread{ID: len(f.threads) + 1, Board: b, Title: title}
	t.Posts = []*post{{N: 1, Author: f.me, Date: Today, Body: body, Mine: true, Signature: f.sig}}
	f.threads = append(f.threads, t)
	b.Threads = append([]*thread{t}, b.Threads...)
	seeOther(w, r, fmt.Sprintf("/t/%d?posted=1", t.ID))
}

// The notices a write's redirect shows are carried by the URL it
// redirects to, and each is shown only while what it says is so: a visit
// never changes the forum's state, and a URL typed without the write
// shows no confirmation of it.
func (f *forum) threadNotice(t *thread, q url.Values) string {
	n, err := strconv.Atoi(q.Get("posted"))
	switch {
	case err == nil && n == 1 && len(t.Posts) > 0 && t.Posts[0].Mine:
		return "Your thread was posted."
	case err == nil && n > 1 && n <= len(t.Posts) && t.Posts[n-1].Mine:
		return "Your reply was posted."
	case q.Get("draft") == "saved" && t.Draft != "":
		return "Draft saved. It is not posted yet."
	}
	return ""
}

func (f *forum) threadPage(w http.ResponseWriter, r *http.Request) {
	t := f.findThread(r.PathValue("id"))
	if t == nil {
		f.notFound(w, "thread "+r.PathValue("id"))
		return
	}
	p := f.page(t.Title)
	p.Thread, p.Board, p.Flash = t, t.Board, f.threadNotice(t, r.URL.Query())
	p.Pages, p.PageNo = t.pages(), 1
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n >= 1 && n <= p.Pages {
		p.PageNo = n
	}
	p.Posts = t.Posts[(p.PageNo-1)*forumPageSize : min(len(t.Posts), p.PageNo*forumPageSize)]
	for n := range p.Pages {
		p.PageList = append(p.PageList, n+1)
	}
	f.render(w, http.StatusOK, "thread", p)
}

// reply posts a reply, or with action=draft keeps the text as the thread's
// draft without posting it.
func (f *forum) reply(w http.ResponseWriter, r *http.Request) {
	t := f.findThread(r.PathValue("id"))
	if t == nil {
		f.notFound(w, "thread "+r.PathValue("id"))
		return
	}
	if t.Locked {
		f.refuse(w, http.StatusForbidden, problem{Title: "Not posted", Message: "This thread is locked; it takes no new replies.", Back: fmt.Sprintf("/t/%d", t.ID), BackText: "Back to the thread"})
		return
	}
	body := strings.TrimSpace(r.PostFormValue("body"))
	if body == "" {
		f.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not posted", Message: "A reply cannot be empty.", Back: fmt.Sprintf("/t/%d", t.ID), BackText: "Back to the thread"})
		return
	}
	switch r.PostFormValue("action") {
	case "draft":
		t.Draft = body
		seeOther(w, r, fmt.Sprintf("/t/%d?draft=saved", t.ID))
	case "post":
		n := len(t.Posts) + 1
		t.Posts = append(t.Posts, &post{N: n, Author: f.me, Date: Today, Body: body, Mine: true, Signature: f.sig})
		t.Draft = ""
		if k := t.pages(); k > 1 {
			seeOther(w, r, fmt.Sprintf("/t/%d?page=%d&posted=%d#post-%d", t.ID, k, n, n))
			return
		}
		seeOther(w, r, fmt.Sprintf("/t/%d?posted=%d#post-%d", t.ID, n, n))
	default:
		f.refuse(w, http.StatusBadRequest, problem{Title: "Not posted", Message: "Post the reply or save it as a draft.", Back: fmt.Sprintf("/t/%d", t.ID), BackText: "Back to the thread"})
	}
}

func (f *forum) settingsPage(w http.ResponseWriter, r *http.Request) {
	p := f.page("Settings")
	p.Saved = r.URL.Query().Get("saved") == "1"
	f.render(w, http.StatusOK, "settings", p)
}

func (f *forum) saveSettings(w http.ResponseWriter, r *http.Request) {
	sig := strings.TrimSpace(r.PostFormValue("signature"))
	if len(sig) > 120 {
		f.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not saved", Message: "A signature has at most 120 characters.", Back: "/settings", BackText: "Back to settings"})
		return
	}
	f.sig = sig
	seeOther(w, r, "/settings?saved=1")
}

func (f *forum) messages(w http.ResponseWriter, r *http.Request) {
	p := f.page("Private messages")
	p.Inbox, p.Sent = f.inbox, f.sent
	for _, m := range f.deleted {
		if strconv.Itoa(m.ID) == r.URL.Query().Get("deleted") {
			p.Deleted = fmt.Sprintf("%q from %s", m.Subject, m.From)
		}
	}
	f.render(w, http.StatusOK, "messages", p)
}

func (f *forum) composePage(w http.ResponseWriter, r *http.Request) {
	p := f.page("New message")
	p.To, p.Members, p.Subject = r.URL.Query().Get("to"), f.members, r.URL.Query().Get("subject")
	f.render(w, http.StatusOK, "compose", p)
}

func (f *forum) send(w http.ResponseWriter, r *http.Request) {
	m := &message{From: f.me, To: strings.TrimSpace(r.PostFormValue("to")), Subject: strings.TrimSpace(r.PostFormValue("subject")),
		Body: strings.TrimSpace(r.PostFormValue("body")), Date: Today}
	known := false
	for _, n := range f.members {
		known = known || n == m.To
	}
	switch {
	case !known:
		f.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not sent", Message: "There is no member called " + strconv.Quote(m.To) + ".", Back: "/messages/new", BackText: "Back to the message"})
		return
	case f.profiles[m.To].Closed:
		f.refuse(w, http.StatusForbidden, problem{Title: "Not sent", Message: m.To + " does not accept private messages.", Back: "/u/" + m.To, BackText: "Back to " + m.To + "'s profile"})
		return
	case m.Subject == "" || m.Body == "":
		f.refuse(w, http.StatusUnprocessableEntity, problem{Title: "Not sent", Message: "A message needs a subject and some text.", Back: "/messages/new", BackText: "Back to the message"})
		return
	}
	m.ID = f.nextMsg
	f.nextMsg++
	f.sent = append([]*message{m}, f.sent...)
	seeOther(w, r, fmt.Sprintf("/messages/%d?sent=1", m.ID))
}

func (f *forum) messagePage(w http.ResponseWriter, r *http.Request) {
	var m *message
	for _, x := range append(append([]*message(nil), f.inbox...), f.sent...) {
		if strconv.Itoa(x.ID) == r.PathValue("id") {
			m = x
		}
	}
	if m == nil {
		f.notFound(w, "message "+r.PathValue("id"))
		return
	}
	p := f.page(m.Subject)
	p.Message = m
	if r.URL.Query().Get("sent") == "1" && m.From == f.me {
		p.Flash = "Message sent to " + m.To + "."
	}
	f.render(w, http.StatusOK, "message", p)
}

// deleteMessage removes a message from the inbox.
func (f *forum) deleteMessage(w http.ResponseWriter, r *http.Request) {
	i := slices.IndexFunc(f.inbox, func(m *message) bool { return strconv.Itoa(m.ID) == r.PathValue("id") })
	if i < 0 {
		f.notFound(w, "message "+r.PathValue("id")+" in your inbox")
		return
	}
	m := f.inbox[i]
	f.inbox = slices.Delete(f.inbox, i, i+1)
	f.deleted = append(f.deleted, m)
	seeOther(w, r, fmt.Sprintf("/messages?deleted=%d", m.ID))
}

func (f *forum) membersPage(w http.ResponseWriter, r *http.Request) {
	p := f.page("Members")
	for _, n := range f.members {
		p.Profiles = append(p.Profiles, f.profiles[n])
	}
	slices.SortFunc(p.Profiles, func(a, b *member) int { return strings.Compare(a.Name, b.Name) })
	f.render(w, http.StatusOK, "members", p)
}

func (f *forum) profilePage(w http.ResponseWriter, r *http.Request) {
	m := f.profiles[r.PathValue("name")]
	if m == nil {
		f.notFound(w, "member "+r.PathValue("name"))
		return
	}
	p := f.page(m.Name)
	p.Profile = m
	f.render(w, http.StatusOK, "profile", p)
}

// ForumThread is a thread as a fresh forum holds it (ForumData).
type ForumThread struct {
	ID                   int
	BoardSlug, BoardName string
	Title                string
	// Authors and Dates are the posts' authors and dates, post #1 first.
	Authors, Dates []string
	Locked         bool
	LockedOn       string
	// Pages is how many pages of ForumPageSize posts the thread fills.
	Pages int
}

// ForumMember is a member's profile.
type ForumMember struct {
	Name, Joined, Location string
	Posts                  int
	// Closed marks a member who does not accept private messages.
	Closed bool
}

// ForumMessage is a message in the user's inbox.
type ForumMessage struct {
	ID                  int
	From, Subject, Date string
}

// ForumSnapshot is the data a fresh forum starts with.
type ForumSnapshot struct {
	Me, Signature string
	Threads       []ForumThread // by id, from 1
	// Members are in the order the compose page lists them.
	Members []ForumMember
	// Inbox is in the order the messages page lists it.
	Inbox []ForumMessage
}

// ForumPageSize is how many posts a page of a thread shows.
const ForumPageSize = forumPageSize

// ForumData returns a copy of the data a fresh forum starts with, for
// task templates to draw from.
func ForumData() ForumSnapshot {
	f := &forum{me: "robin_a", sig: "Robin — fixing things since 1998"}
	f.build()
	out := ForumSnapshot{Me: f.me, Signature: f.sig}
	for _, t := range f.threads {
		ft := ForumThread{ID: t.ID, BoardSlug: t.Board.Slug, BoardName: t.Board.Name, Title: t.Title, Locked: t.Locked, LockedOn: t.LockedOn, Pages: t.pages()}
		for _, p := range t.Posts {
			ft.Authors, ft.Dates = append(ft.Authors, p.Author), append(ft.Dates, p.Date)
		}
		out.Threads = append(out.Threads, ft)
	}
	for _, n := range f.members {
		m := f.profiles[n]
		out.Members = append(out.Members, ForumMember{Name: m.Name, Joined: m.Joined, Location: m.Location, Posts: m.Posts, Closed: m.Closed})
	}
	for _, m := range f.inbox {
		out.Inbox = append(out.Inbox, ForumMessage{ID: m.ID, From: m.From, Subject: m.Subject, Date: m.Date})
	}
	return out
}
