package sandbox

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestForumData checks that ForumData describes what a fresh forum shows:
// each post's author on the page of the thread that holds it, locked
// threads without a reply form, profiles and the inbox.
func TestForumData(t *testing.T) {
	t.Parallel()
	d := ForumData()
	web := New(archive)
	locked, long := 0, 0
	for _, th := range d.Threads {
		for page := 1; page <= th.Pages; page++ {
			_, _, body := do(t, web, "GET", fmt.Sprintf("https://forum.sandbox.test/t/%d?page=%d", th.ID, page), nil)
			for n := (page-1)*ForumPageSize + 1; n <= min(len(th.Authors), page*ForumPageSize); n++ {
				want := fmt.Sprintf(`id="post-%d">`+"\n"+`    <p class="meta"><span class="author">%s</span>`, n, th.Authors[n-1])
				if !strings.Contains(body, want) {
					t.Errorf("thread %d page %d lacks post #%d by %s", th.ID, page, n, th.Authors[n-1])
				}
			}
			if th.Pages > 1 && !strings.Contains(body, fmt.Sprintf("Page %d of %d", page, th.Pages)) {
				t.Errorf("thread %d page %d: no pager", th.ID, page)
			}
			if hasForm := strings.Contains(body, `class="reply"`); hasForm == th.Locked {
				t.Errorf("thread %d: locked %v, reply form %v", th.ID, th.Locked, hasForm)
			}
		}
		if th.Locked {
			locked++
		}
		if th.Pages > 1 {
			long++
		}
	}
	if locked < 8 || long < 8 {
		t.Errorf("%d locked and %d long threads, want at least 8 of each", locked, long)
	}
	closed := 0
	for _, m := range d.Members {
		_, _, body := do(t, web, "GET", "https://forum.sandbox.test/u/"+m.Name, nil)
		if !strings.Contains(body, `<dd class="joined">`+m.Joined+"</dd>") {
			t.Errorf("profile of %s lacks the join date %s", m.Name, m.Joined)
		}
		if says := strings.Contains(body, m.Name+" does not accept private messages."); says != m.Closed {
			t.Errorf("profile of %s: says closed %v, ForumData %v", m.Name, says, m.Closed)
		}
		if m.Closed {
			closed++
		}
	}
	if closed < 8 {
		t.Errorf("%d members take no messages, want at least 8", closed)
	}
	_, _, inbox := do(t, web, "GET", "https://forum.sandbox.test/messages", nil)
	for _, m := range d.Inbox {
		if !strings.Contains(inbox, fmt.Sprintf(`<a href="/messages/%d">`, m.ID)) {
			t.Errorf("the inbox lacks message %d", m.ID)
		}
	}
}

// TestForumRefusals checks the writes the forum refuses and the new ones
// it takes.
func TestForumRefusals(t *testing.T) {
	t.Parallel()
	d := ForumData()
	var locked, long ForumThread
	for _, th := range d.Threads {
		if th.Locked && locked.ID == 0 {
			locked = th
		}
		if !th.Locked && th.Pages > 1 && long.ID == 0 {
			long = th
		}
	}
	var closed string
	for _, m := range d.Members {
		if m.Closed && closed == "" {
			closed = m.Name
		}
	}
	web := New(archive)
	code, _, body := do(t, web, "POST", fmt.Sprintf("https://forum.sandbox.test/t/%d/reply", locked.ID), url.Values{"body": {"x"}, "action": {"post"}})
	if code != http.StatusForbidden || !strings.Contains(body, "locked") {
		t.Errorf("reply to locked thread %d: %d, want 403", locked.ID, code)
	}
	code, _, body = do(t, web, "POST", "https://forum.sandbox.test/messages", url.Values{"to": {closed}, "subject": {"x"}, "body": {"y"}})
	if code != http.StatusForbidden || !strings.Contains(body, closed+" does not accept private messages.") {
		t.Errorf("message to %s: %d, want 403", closed, code)
	}
	// A reply to a long thread lands on its last page, the next message
	// number is still the first.
	code, loc, _ := do(t, web, "POST", fmt.Sprintf("https://forum.sandbox.test/t/%d/reply", long.ID), url.Values{"body": {"x"}, "action": {"post"}})
	n := len(long.Authors) + 1
	if want := fmt.Sprintf("/t/%d?page=%d&posted=%d#post-%d", long.ID, (n-1)/ForumPageSize+1, n, n); code != http.StatusSeeOther || loc != want {
		t.Errorf("reply to thread %d: %d to %q, want 303 to %q", long.ID, code, loc, want)
	}
	m := d.Inbox[len(d.Inbox)-1]
	code, loc, _ = do(t, web, "POST", fmt.Sprintf("https://forum.sandbox.test/messages/%d/delete", m.ID), url.Values{})
	if code != http.StatusSeeOther || loc != fmt.Sprintf("/messages?deleted=%d", m.ID) {
		t.Fatalf("delete %d: %d to %q", m.ID, code, loc)
	}
	_, _, inbox := do(t, web, "GET", "https://forum.sandbox.test"+loc, nil)
	if strings.Contains(inbox, fmt.Sprintf(`<a href="/messages/%d">`, m.ID)) || !strings.Contains(inbox, template.HTMLEscapeString(fmt.Sprintf("Deleted the message %q from %s.", m.Subject, m.From))) {
		t.Errorf("after deleting %d the inbox still lists it or does not say so", m.ID)
	}
	if code, _, _ := do(t, web, "POST", fmt.Sprintf("https://forum.sandbox.test/messages/%d/delete", m.ID), url.Values{}); code != http.StatusNotFound {
		t.Errorf("deleting %d twice: %d, want 404", m.ID, code)
	}
}

// TestForumVisitsChangeNothing checks that the forum's pages change no
// state: a write's notice is carried by the URL its redirect names and
// shows, on every visit of that URL, only while what it says is so, and a
// thread's saved draft shows on the thread's page.
func TestForumVisitsChangeNothing(t *testing.T) {
	t.Parallel()
	d := ForumData()
	var open ForumThread
	for _, th := range d.Threads {
		if !th.Locked && th.Pages == 1 {
			open = th
			break
		}
	}
	web := New(archive)
	base := "https://forum.sandbox.test"
	thread := fmt.Sprintf("%s/t/%d", base, open.ID)
	for _, u := range []string{thread + "?draft=saved", fmt.Sprintf("%s?posted=%d", thread, len(open.Authors)), thread + "?posted=1", base + "/messages?deleted=" + fmt.Sprint(d.Inbox[0].ID)} {
		if _, _, body := do(t, web, "GET", u, nil); strings.Contains(body, `class="notice`) {
			t.Errorf("%s shows a notice before any write", u)
		}
	}
	code, loc, _ := do(t, web, "POST", thread+"/reply", url.Values{"body": {"  Kept for later.  "}, "action": {"draft"}})
	if code != http.StatusSeeOther || loc != fmt.Sprintf("/t/%d?draft=saved", open.ID) {
		t.Fatalf("draft: %d to %q", code, loc)
	}
	for range 2 {
		_, _, body := do(t, web, "GET", base+loc, nil)
		if !strings.Contains(body, "Draft saved. It is not posted yet.") || !strings.Contains(body, `<span class="draft-text">Kept for later.</span>`) {
			t.Errorf("%s: the notice or the draft is missing on a visit", loc)
		}
		if _, _, plain := do(t, web, "GET", thread, nil); strings.Contains(plain, `class="notice`) || !strings.Contains(plain, "Kept for later.") {
			t.Errorf("%s: a notice without the redirect's URL, or no draft", thread)
		}
	}
	code, loc, _ = do(t, web, "POST", thread+"/reply", url.Values{"body": {"Posted now."}, "action": {"post"}})
	if code != http.StatusSeeOther {
		t.Fatalf("reply: %d", code)
	}
	loc, _, _ = strings.Cut(loc, "#") // a browser sends no fragment
	for range 2 {
		if _, _, body := do(t, web, "GET", base+loc, nil); !strings.Contains(body, "Your reply was posted.") || strings.Contains(body, "draft-text") {
			t.Errorf("%s: no notice on a second visit, or the draft is still there", loc)
		}
	}
	code, loc, _ = do(t, web, "POST", base+"/settings", url.Values{"signature": {"Robin"}})
	for range 2 {
		if _, _, body := do(t, web, "GET", base+loc, nil); code != http.StatusSeeOther || !strings.Contains(body, "Your settings were saved.") {
			t.Errorf("settings: %d to %q, no notice on a visit", code, loc)
		}
	}
	if _, _, body := do(t, web, "GET", base+"/settings", nil); strings.Contains(body, "were saved") {
		t.Errorf("/settings shows the saved notice without the redirect's URL")
	}
}
