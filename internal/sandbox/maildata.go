package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The mail site's data: the mailbox of Nadia Brennan, who runs Fernhollow
// Ceramics, a small pottery studio. Everyone in it is invented; every
// address is under .test. The contacts include near namesakes (Dana
// Whitfield, Dana Whitfeld, Diana Whitfield), the suppliers send invoices
// with close numbers and amounts, and conversations have replies with the
// same subject, so a task must be read carefully.

type mailContact struct {
	Name, Addr, Org string
	// Bounced is the date mail to the address started bouncing, or "".
	Bounced string
}

// Label returns the contact as the recipient field writes it.
func (c *mailContact) Label() string { return c.Name + " <" + c.Addr + ">" }

var mailMe = &mailContact{Name: "Nadia Brennan", Addr: "nadia@fernhollow.test", Org: "Fernhollow Ceramics"}

var mailContacts = []*mailContact{
	{Name: "Dana Whitfield", Addr: "dana.whitfield@kilnworks.test", Org: "Kilnworks Supply"},
	{Name: "Dana Whitfeld", Addr: "dana@whitfeld-studio.test", Org: "Whitfeld Studio"},
	{Name: "Diana Whitfield", Addr: "diana.whitfield@harbourgallery.test", Org: "Harbour Gallery"},
	{Name: "Tomas Berg", Addr: "tomas@bergaccounts.test", Org: "Berg Accounts"},
	{Name: "Tomas Bergen", Addr: "t.bergen@claystone.test", Org: "Claystone Supplies"},
	{Name: "Priya Raman", Addr: "priya@claystone.test", Org: "Claystone Supplies"},
	{Name: "Priya Ramani", Addr: "priya.ramani@glazeco.test", Org: "GlazeCo"},
	{Name: "Marcus Hale", Addr: "marcus@harbourgallery.test", Org: "Harbour Gallery"},
	{Name: "Marcus Hall", Addr: "m.hall@northlight.test", Org: "Northlight Studio"},
	{Name: "Ines Okafor", Addr: "ines@fernhollow.test", Org: "Fernhollow Ceramics"},
	{Name: "Ines Okonkwo", Addr: "ines.okonkwo@parcelpoint.test", Org: "ParcelPoint"},
	{Name: "Leo Marchetti", Addr: "leo@marchetti-wholesale.test", Org: "Marchetti Wholesale"},
	{Name: "Lea Marchetti", Addr: "lea@marchetti-wholesale.test", Org: "Marchetti Wholesale"},
	{Name: "Sofia Lindqvist", Addr: "sofia@northlight.test", Org: "Northlight Studio"},
	{Name: "Sofie Lindqvist", Addr: "sofie.l@kilnworks.test", Org: "Kilnworks Supply"},
	{Name: "Owen Price", Addr: "owen.price@parcelpoint.test", Org: "ParcelPoint"},
	{Name: "Hana Sato", Addr: "hana@satodesign.test", Org: "Sato Design"},
	{Name: "Hanna Sato", Addr: "hanna.sato@glazeco.test", Org: "GlazeCo"},
	{Name: "Greta Voss", Addr: "greta@oldmill-market.test", Org: "Old Mill Market", Bounced: "2026-02-09"},
	{Name: "Ruben Ortega", Addr: "ruben@ortega-frames.test", Org: "Ortega Frames"},
	{Name: "Aoife Byrne", Addr: "aoife@byrnecraft.test", Org: "Byrne Craft"},
	{Name: "Felix Brandt", Addr: "felix@brandt-print.test", Org: "Brandt Print", Bounced: "2026-01-27"},
}

func mailContact0(name string) *mailContact {
	for _, c := range mailContacts {
		if c.Name == name {
			return c
		}
	}
	panic("sandbox: no mail contact " + name)
}

// mailLabel is a user label; Slug is its URL name.
type mailLabel struct{ Slug, Name string }

var mailLabelsSeed = []mailLabel{
	{"clients", "Clients"}, {"clients-wholesale", "Clients – wholesale"},
	{"suppliers", "Suppliers"}, {"suppliers-glaze", "Suppliers – glaze"},
	{"tax-2025", "Tax 2025"}, {"tax-2026", "Tax 2026"},
	{"studio", "Studio"}, {"follow-up", "Follow up"},
	{"exhibitions", "Exhibitions"}, {"newsletters", "Newsletters"},
}

// The folders a message can be in. Starred and the labels are views, not
// folders; shared is a read-only mailbox the user can only read.
const (
	fInbox   = "inbox"
	fSent    = "sent"
	fDrafts  = "drafts"
	fArchive = "archive"
	fTrash   = "trash"
	fShared  = "shared"
)

var mailFolderNames = map[string]string{
	fInbox: "Inbox", fSent: "Sent", fDrafts: "Drafts", fArchive: "Archive", fTrash: "Trash", fShared: "Accounts (shared)",
}

type mailMsg struct {
	ID            int
	Folder        string
	From, To      *mailContact
	Subject, Body string
	When          time.Time
	Starred       bool
	Unread        bool
	Labels        []string // slugs
	Thread        int
	Attach        []string
	Invoice       string
	Amount        string
	ReplyTo       int // the message this one answers, if any
	Forward       int // the message this one forwards, if any
	restoreFolder string
}

// Date is the message's date as the site shows it.
func (m *mailMsg) Date() string { return m.When.Format("2006-01-02") }

// Time is the message's time of day.
func (m *mailMsg) Time() string { return m.When.Format("15:04") }

// Mine reports whether the user wrote it.
func (m *mailMsg) Mine() bool { return m.From == mailMe }

// FolderName is its folder's display name.
func (m *mailMsg) FolderName() string { return mailFolderNames[m.Folder] }

type invoiceSeries struct {
	from   string
	prefix string
	base   int
	cents  int // a typical amount, in cents
	what   []string
	label  string
	shared bool
}

var mailInvoices = []invoiceSeries{
	{"Dana Whitfield", "KW", 1040, 41250, []string{"25 kg stoneware clay", "kiln shelves and posts", "cone packs and kiln wash", "10 bags of porcelain body"}, "suppliers", false},
	{"Priya Raman", "CS", 2200, 38890, []string{"red earthenware, 20 bags", "grog and sand", "stoneware clay, 15 bags", "a pallet of buff clay"}, "suppliers", false},
	{"Priya Ramani", "GC", 5100, 21460, []string{"celadon and tenmoku glazes", "underglaze set", "glaze stains", "clear matt glaze, 10 kg"}, "suppliers-glaze", false},
	{"Hanna Sato", "GC", 5130, 19980, []string{"shino glaze, 5 kg", "wax resist and brushes", "ash glaze samples"}, "suppliers-glaze", false},
	{"Owen Price", "PP", 7700, 6420, []string{"courier collections in the month", "fragile-parcel surcharge", "pallet delivery to Harbour Gallery"}, "", true},
	{"Felix Brandt", "BP", 330, 15600, []string{"printed price lists", "gift cards and labels", "exhibition posters"}, "", false},
}

type mailTopic struct {
	with    string
	subject string
	lines   []string
	labels  []string
}

var mailTopics = []mailTopic{
	{"Leo Marchetti", "Spring wholesale order", []string{"Could you quote for 60 speckled mugs and 40 side plates for the spring catalogue?", "Sixty mugs is fine; I can ship the first half by the end of March.", "Great, please send the pro forma and we will pay the deposit.", "Pro forma attached; the deposit is 30 percent."}, []string{"clients-wholesale"}},
	{"Lea Marchetti", "Spring wholesale order – delivery address", []string{"Please deliver to our new warehouse, not the shop.", "Noted, I have changed the address on the order.", "Thank you, the loading bay is at the back."}, []string{"clients-wholesale"}},
	{"Diana Whitfield", "Harbour Gallery summer show", []string{"We would love eight vases for the summer show in June.", "I can do eight, in the blue ash glaze if that suits the room.", "Blue ash is perfect. Hanging day is 2 June."}, []string{"exhibitions", "clients"}},
	{"Marcus Hale", "Harbour Gallery summer show – labels", []string{"Can you send titles and prices for the wall labels?", "Titles and prices are in the list below; all pieces are signed.", "Thanks, the labels go to print on Friday."}, []string{"exhibitions"}},
	{"Dana Whitfeld", "Studio share in April", []string{"Is the spare wheel in your studio still free in April?", "It is, Tuesdays and Thursdays. Kiln space is shared.", "Lovely, I will bring my own tools."}, []string{"studio"}},
	{"Ines Okafor", "Kiln firing schedule for March", []string{"I have drafted the firing schedule for March; bisque on Mondays.", "Looks good. Can we move the glaze firing to Thursday?", "Moved. The cone 6 firing is now on Thursdays."}, []string{"studio"}},
	{"Ines Okafor", "Kiln firing schedule for February", []string{"February schedule attached, two glaze firings a week.", "Fine by me. Please log the cone readings.", "Will do."}, []string{"studio"}},
	{"Hana Sato", "New logo sketches", []string{"Here are three sketches for the new Fernhollow logo.", "I like the second one, with the leaf.", "I will work it up in colour for next week."}, []string{"follow-up"}},
	{"Ruben Ortega", "Frames for the tile panels", []string{"The oak frames for the four tile panels are ready.", "Wonderful. Can you deliver them on Saturday?", "Saturday morning it is."}, []string{"clients"}},
	{"Aoife Byrne", "Craft fair stall in May", []string{"We have a corner stall for you at the May craft fair.", "Yes please. Is there power at the stall?", "There is one socket; bring an extension lead."}, []string{"exhibitions", "follow-up"}},
	{"Tomas Berg", "Year-end accounts 2025", []string{"Please send the supplier invoices for the last quarter of 2025.", "I will forward them this week.", "Thanks, the deadline is the end of March."}, []string{"tax-2025", "follow-up"}},
	{"Tomas Berg", "VAT return for January", []string{"Your January VAT return is ready for you to check.", "Checked, it looks right. Please file it.", "Filed today."}, []string{"tax-2026"}},
	{"Greta Voss", "Old Mill Market Christmas stall", []string{"Would you like a stall at the Christmas market again?", "Yes, the same pitch as last year if possible.", "Booked you in for both weekends."}, []string{"clients"}},
	{"Sofia Lindqvist", "Workshop swap", []string{"Would you teach a throwing workshop at Northlight in exchange for kiln time?", "Happy to. Two Saturdays in April?", "Perfect, I will put it in the programme."}, []string{"studio"}},
	{"Marcus Hall", "Photographs of the new range", []string{"The photographs of the new range are ready to review.", "They look beautiful. Could the mug shots be a little warmer?", "Warmer versions attached."}, []string{"follow-up"}},
	{"Leo Marchetti", "Autumn wholesale order", []string{"Please repeat last autumn's order of bowls, but twice the quantity.", "Confirmed: 80 bowls, ready in two batches.", "Thank you, invoice to the usual address."}, []string{"clients-wholesale"}},
}

var mailNewsletters = []struct {
	from, subject string
	label         string
}{
	{"Sofia Lindqvist", "Northlight Studio news – %s", "newsletters"},
	{"Marcus Hale", "Harbour Gallery: what's on in %s", "newsletters"},
	{"Hanna Sato", "GlazeCo offers for %s", "newsletters"},
	{"Aoife Byrne", "Byrne Craft fairs calendar, %s", "newsletters"},
}

var mailShipping = []string{
	"Parcel PP-%d is on its way", "Parcel PP-%d was delivered", "Collection booked: parcel PP-%d",
}

var mailFiller = []string{
	"Let me know if anything is unclear.",
	"Best wishes from the studio.",
	"I hope the week is going well.",
	"Speak soon.",
	"Thanks again for your patience.",
	"Have a good weekend.",
}

func mailEuros(cents int) string {
	s := fmt.Sprintf("%d", cents/100)
	if len(s) > 3 {
		s = s[:len(s)-3] + "," + s[len(s)-3:]
	}
	return fmt.Sprintf("€%s.%02d", s, cents%100)
}

// mailStart is the first day of the mailbox; the site's today is Today.
var mailStart = time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)

// mailSeeder builds the mailbox every attempt starts from, section by
// section, from one seeded generator: the order of the sections is the
// order of the draws, so it must not change.
type mailSeeder struct {
	g    *gen
	span int // days from mailStart to the last day with mail
	ms   []*mailMsg
}

// mailSeed builds the mailbox every attempt starts from: messages sorted
// newest first, with ids in date order.
func mailSeed() []*mailMsg {
	s := &mailSeeder{g: &gen{s: 0x6d_a11b_0c5}, span: int(time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC).Sub(mailStart).Hours() / 24)}
	s.invoices()
	s.statements()
	s.conversations()
	s.newsletters()
	s.shipping()
	s.notes()
	s.sent()
	s.drafts()
	s.trash()
	return s.finish()
}

// at is a time of day on day, during working hours.
func (s *mailSeeder) at(day int) time.Time {
	return mailStart.AddDate(0, 0, day).Add(time.Duration(s.g.between(7*60, 19*60)) * time.Minute)
}

// before keeps a day before c's address started bouncing: nobody writes
// from an address that no longer exists.
func (s *mailSeeder) before(c *mailContact, day, room int) int {
	if c.Bounced == "" {
		return day
	}
	b, _ := time.Parse("2006-01-02", c.Bounced)
	return min(day, int(b.Sub(mailStart).Hours()/24)-room)
}

func (s *mailSeeder) add(m *mailMsg) *mailMsg {
	if m.From == nil {
		m.From = mailMe
	}
	if m.To == nil {
		m.To = mailMe
	}
	s.ms = append(s.ms, m)
	return m
}

// body joins a message's paragraphs, with a closing line before the last
// (the signature).
func (s *mailSeeder) body(lines ...string) string {
	f := pick(s.g, mailFiller)
	if len(lines) < 2 {
		return strings.Join(append(lines, f), "\n\n")
	}
	out := append(slices.Clone(lines[:len(lines)-1]), f, lines[len(lines)-1])
	return strings.Join(out, "\n\n")
}

// invoices adds a series of invoices per supplier, numbers close together,
// amounts near each other.
func (s *mailSeeder) invoices() {
	for _, sup := range mailInvoices {
		c := mailContact0(sup.from)
		n := sup.base
		for day := s.g.between(2, 12); day < s.span; day += s.g.between(12, 26) {
			n += s.g.between(1, 3)
			if c.Bounced != "" && mailStart.AddDate(0, 0, day).Format("2006-01-02") >= c.Bounced {
				break
			}
			amount := sup.cents + s.g.between(-1500, 1500)
			if s.g.intn(4) == 0 { // a near twin of the typical amount
				amount = sup.cents + 900*s.g.between(-1, 1)
			}
			num := fmt.Sprintf("%s-%d", sup.prefix, n)
			due := mailStart.AddDate(0, 0, day+30).Format("2006-01-02")
			m := &mailMsg{From: c, Subject: "Invoice " + num + " – " + c.Org, Invoice: num, Amount: mailEuros(amount),
				When: s.at(day), Attach: []string{num + ".pdf"}}
			m.Body = s.body(fmt.Sprintf("Dear Nadia,\n\nplease find attached invoice %s for %s.", num, pick(s.g, sup.what)),
				fmt.Sprintf("Amount due: %s. Payment due by %s.", m.Amount, due), c.Name+", "+c.Org)
			switch {
			case sup.shared:
				m.Folder = fShared
			case day > s.span-40:
				m.Folder = fInbox
			default:
				m.Folder = fArchive
			}
			if sup.label != "" && m.Folder != fShared {
				m.Labels = append(m.Labels, sup.label)
			}
			if m.When.Year() == 2025 && m.Folder != fShared {
				m.Labels = append(m.Labels, "tax-2025")
			}
			s.add(m)
		}
	}
}

// statements adds a few bank statements to the shared accounts mailbox.
func (s *mailSeeder) statements() {
	bank := &mailContact{Name: "Quayside Bank", Addr: "statements@quaysidebank.test", Org: "Quayside Bank"}
	for i, mon := range []string{"September", "October", "November", "December", "January", "February"} {
		s.add(&mailMsg{From: bank, Folder: fShared, Subject: "Statement for " + mon, When: s.at(30*i + 29),
			Body: "Your business account statement for " + mon + " is ready. Closing balance: " + mailEuros(s.g.between(400000, 900000)) + "."})
	}
}

// conversations adds threads: the contact writes, the user answers, and so on.
func (s *mailSeeder) conversations() {
	thread := 0
	for _, t := range mailTopics {
		thread++
		c := mailContact0(t.with)
		day := s.before(c, s.g.between(0, s.span-20), 4*len(t.lines)+1)
		var prev *mailMsg
		for i, line := range t.lines {
			subj := t.subject
			if i > 0 {
				subj = "Re: " + t.subject
			}
			m := &mailMsg{Subject: subj, Thread: thread, When: s.at(day), Body: s.body(line)}
			if prev != nil {
				m.ReplyTo = prev.ID // fixed up below, once ids exist
			}
			if i%2 == 0 {
				m.From, m.Body = c, s.body("Hi Nadia,", line, c.Name)
				switch {
				case day > s.span-60:
					m.Folder = fInbox
				default:
					m.Folder = fArchive
				}
				m.Labels = append([]string(nil), t.labels...)
			} else {
				m.To, m.Folder, m.Body = c, fSent, s.body("Hi "+strings.Fields(c.Name)[0]+",", line, "Nadia")
			}
			prev = s.add(m)
			day += s.g.between(1, 4)
		}
	}
}

// newsletters adds monthly newsletters.
func (s *mailSeeder) newsletters() {
	months := []string{"September", "October", "November", "December", "January", "February"}
	for _, n := range mailNewsletters {
		c := mailContact0(n.from)
		for i, mon := range months {
			day := 30*i + s.g.between(0, 8)
			m := &mailMsg{From: c, Subject: fmt.Sprintf(n.subject, mon), When: s.at(day), Labels: []string{n.label},
				Body: s.body("This month at "+c.Org+": new classes, open studio evenings and a few announcements.", "Unsubscribe at any time from your account page.")}
			switch {
			case i >= 4:
				m.Folder = fInbox
			case s.g.intn(3) == 0:
				m.Folder, m.restoreFolder = fTrash, fInbox
			default:
				m.Folder = fArchive
			}
			s.add(m)
		}
	}
}

// shipping adds shipping notices, with parcel numbers close together.
func (s *mailSeeder) shipping() {
	owen := mailContact0("Owen Price")
	ines := mailContact0("Ines Okonkwo")
	parcel := 88200
	for day := 3; day < s.span; day += s.g.between(3, 8) {
		parcel += s.g.between(1, 9)
		c := owen
		if s.g.intn(3) == 0 {
			c = ines
		}
		m := &mailMsg{From: c, Subject: fmt.Sprintf(pick(s.g, mailShipping), parcel), When: s.at(day),
			Body: s.body(fmt.Sprintf("Parcel PP-%d for Fernhollow Ceramics: tracking updated.", parcel), c.Name+", ParcelPoint")}
		if day > s.span-50 {
			m.Folder = fInbox
		} else {
			m.Folder = fArchive
		}
		s.add(m)
	}
}

// mailNoteSubjects are the subjects of notes from customers and friends,
// and mailNoteTexts what each may say.
var mailNoteSubjects = []string{"Thank you for the mugs", "Question about a commission", "Order arrived broken", "Do you ship abroad?",
	"Gift card balance", "Class on Saturday", "Glaze recipe you mentioned", "Catching up"}

var mailNoteTexts = map[string][]string{
	"Thank you for the mugs":      {"The mugs arrived safely and they are lovely.", "We use the speckled ones every morning now."},
	"Question about a commission": {"Would you make a set of six bowls in a colour of our choosing?", "Is a commission possible before the summer?"},
	"Order arrived broken":        {"One plate in the parcel was cracked when it arrived.", "A mug handle came off in transit; photos attached."},
	"Do you ship abroad?":         {"A friend in Lisbon would like to order two vases.", "Can you send a parcel to Denmark, and what would it cost?"},
	"Gift card balance":           {"How much is left on the gift card I was given at Christmas?", "Could you check the balance of gift card GC-%d?"},
	"Class on Saturday":           {"Is there still a place in Saturday's throwing class?", "I have to miss Saturday's class; can I join the next one?"},
	"Glaze recipe you mentioned":  {"Could you send the glaze recipe you mentioned at the fair?", "Was the celadon recipe from the old book or your own?"},
	"Catching up":                 {"It has been a while; shall we have coffee next week?", "Are you going to the craft fair in May?"},
}

// notes adds short notes from customers and friends.
func (s *mailSeeder) notes() {
	for range 90 {
		c := pick(s.g, mailContacts)
		day := s.before(c, s.g.between(0, s.span), 1+s.g.intn(20))
		subj := pick(s.g, mailNoteSubjects)
		text := pick(s.g, mailNoteTexts[subj])
		if strings.Contains(text, "%d") {
			text = fmt.Sprintf(text, s.g.between(100, 999))
		}
		m := &mailMsg{From: c, Subject: subj, When: s.at(day), Body: s.body("Hi Nadia,", text, c.Name)}
		if day > s.span-60 {
			m.Folder = fInbox
			m.Unread = s.g.intn(2) == 0
		} else {
			m.Folder = fArchive
		}
		if s.g.intn(5) == 0 {
			m.Starred = true
		}
		s.add(m)
	}
}

// sent adds messages the user sent on her own.
func (s *mailSeeder) sent() {
	for range 18 {
		c := pick(s.g, mailContacts)
		s.add(&mailMsg{To: c, Folder: fSent, Subject: pick(s.g, []string{"Price list for 2026", "Studio closed next week", "Your order is ready", "Photos of the new glazes", "Invoice query"}),
			When: s.at(s.g.between(0, s.span)), Body: s.body("Hi "+strings.Fields(c.Name)[0]+",", "Details below; let me know what you think.", "Nadia")})
	}
}

// drafts adds the user's drafts.
func (s *mailSeeder) drafts() {
	for _, d := range []struct{ to, subj string }{{"Leo Marchetti", "Summer wholesale prices"}, {"Hana Sato", "Logo: final colours"}, {"Tomas Berg", "Receipts for February"}} {
		s.add(&mailMsg{To: mailContact0(d.to), Folder: fDrafts, Subject: d.subj, When: s.at(s.span - s.g.between(0, 5)), Body: "Hi,\n\n(unfinished)"})
	}
}

// trash adds older messages in the trash.
func (s *mailSeeder) trash() {
	for range 6 {
		c := pick(s.g, mailContacts)
		s.add(&mailMsg{From: c, Folder: fTrash, restoreFolder: fInbox, Subject: pick(s.g, mailNoteSubjects), When: s.at(s.g.between(0, 60)), Body: s.body("An old note.", c.Name)})
	}
}

// finish numbers the messages in date order, points thread replies at
// their ids, and returns them newest first.
func (s *mailSeeder) finish() []*mailMsg {
	// Ids in date order, then newest first; thread replies point at ids.
	order := slices.Clone(s.ms)
	slices.SortStableFunc(order, func(a, b *mailMsg) int { return a.When.Compare(b.When) })
	for i, m := range order {
		m.ID = 1001 + i
	}
	byThread := map[int][]*mailMsg{}
	for _, m := range order {
		if m.Thread > 0 {
			byThread[m.Thread] = append(byThread[m.Thread], m)
		}
	}
	for _, t := range byThread {
		slices.SortStableFunc(t, func(a, b *mailMsg) int { return a.When.Compare(b.When) })
		for i := range t {
			t[i].ReplyTo = 0
			if i > 0 {
				t[i].ReplyTo = t[i-1].ID
			}
		}
	}
	slices.Reverse(order)
	return order
}

// MailMessage is one message of the mail site's starting state, as tasks
// name it.
type MailMessage struct {
	ID int
	// Folder is inbox, sent, drafts, archive, trash or shared.
	Folder                             string
	FromName, FromAddr, ToName, ToAddr string
	Subject, Date, Body                string
	// Invoice and Amount are set on invoices (KW-1043, €412.50).
	Invoice, Amount string
	Labels          []string
	Attachments     []string
	Thread          int
	// Bounced is set when the sender's address bounces (the date).
	Bounced string
	Starred bool
}

// MailContact is one entry of the mail site's address book.
type MailContact struct {
	Name, Addr, Org, Bounced string
}

// MailLabel is one of the user's labels.
type MailLabel struct{ Slug, Name string }

// MailState is the mail site's starting state, read-only: what task
// templates draw from.
type MailState struct {
	// Messages are in the order every folder lists them: newest first.
	Messages []MailMessage
	Contacts []MailContact
	Labels   []MailLabel
	// FirstNewID is the id of the first message an attempt creates
	// (sent or saved as a draft).
	FirstNewID int
	// PageSize is how many messages a list shows before it loads more.
	PageSize int
	// Me is the user's address.
	Me string
}

// MailData returns the mail site's starting state. Every call builds it
// afresh from the same seed, so callers may keep or change what it returns.
func MailData() MailState {
	st := MailState{FirstNewID: mailFirstNew, PageSize: mailPageSize, Me: mailMe.Label()}
	for _, m := range mailSeed() {
		st.Messages = append(st.Messages, MailMessage{ID: m.ID, Folder: m.Folder, FromName: m.From.Name, FromAddr: m.From.Addr,
			ToName: m.To.Name, ToAddr: m.To.Addr, Subject: m.Subject, Date: m.Date(), Body: m.Body, Invoice: m.Invoice, Amount: m.Amount,
			Labels: slices.Clone(m.Labels), Attachments: slices.Clone(m.Attach), Thread: m.Thread, Bounced: m.From.Bounced, Starred: m.Starred})
	}
	for _, c := range mailContacts {
		st.Contacts = append(st.Contacts, MailContact{Name: c.Name, Addr: c.Addr, Org: c.Org, Bounced: c.Bounced})
	}
	for _, l := range mailLabelsSeed {
		st.Labels = append(st.Labels, MailLabel(l))
	}
	return st
}

const (
	mailFirstNew = 3001
	mailPageSize = 25
)
