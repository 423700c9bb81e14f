package sandbox

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mailFirst returns the first message of the starting state that ok
// accepts, failing the test when there is none.
func mailFirst(t *testing.T, ok func(MailMessage) bool) MailMessage {
	t.Helper()
	for _, m := range MailData().Messages {
		if ok(m) {
			return m
		}
	}
	t.Fatal("no such message in the mail data")
	return MailMessage{}
}

func TestMailPagesRender(t *testing.T) {
	t.Parallel()
	web := New(archive)
	inv := mailFirst(t, func(m MailMessage) bool { return m.Invoice != "" && m.Folder == fInbox })
	u := "https://mail.sandbox.test"
	for _, p := range []string{"/", "/folder/inbox", "/folder/starred", "/folder/sent", "/folder/drafts", "/folder/archive",
		"/folder/trash", "/folder/shared", "/label/clients", "/search?q=invoice", "/search?q=zzzz", fmt.Sprintf("/m/%d", inv.ID),
		"/compose", fmt.Sprintf("/compose?reply=%d", inv.ID), fmt.Sprintf("/compose?forward=%d", inv.ID), "/labels"} {
		code, _, body := do(t, web, "GET", u+p, nil)
		if code != http.StatusOK || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d, want a whole page with 200:\n%.300s", p, code, body)
		}
	}
	// The consent banner covers every page until it is answered.
	if _, _, body := do(t, web, "GET", u+"/", nil); !strings.Contains(body, `id="consent"`) {
		t.Error("the first page has no consent banner")
	}
	for _, p := range []string{"/folder/nope", "/m/99", "/label/nope"} {
		if code, _, _ := do(t, web, "GET", u+p, nil); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
	if _, _, body := do(t, web, "GET", u+"/static/mail.css", nil); body != "static" {
		t.Errorf("a static file was not left to the archive: %.100s", body)
	}
}

func TestMailData(t *testing.T) {
	t.Parallel()
	a, b := MailData(), MailData()
	if len(a.Messages) < 250 {
		t.Errorf("%d messages, want a few hundred", len(a.Messages))
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("two builds of the mail data differ")
	}
	folders := map[string]int{}
	ids := map[int]bool{}
	for i, m := range a.Messages {
		folders[m.Folder]++
		if ids[m.ID] {
			t.Errorf("id %d twice", m.ID)
		}
		ids[m.ID] = true
		if i > 0 && a.Messages[i-1].Date < m.Date {
			t.Errorf("message %d (%s) listed after an older one", m.ID, m.Date)
		}
	}
	for _, f := range []string{fInbox, fSent, fDrafts, fArchive, fTrash, fShared} {
		if folders[f] == 0 {
			t.Errorf("folder %s is empty", f)
		}
	}
	if folders[fInbox] <= 2*mailPageSize {
		t.Errorf("inbox holds %d messages, want more than two pages", folders[fInbox])
	}
	_, _, p1 := do(t, New(archive), "GET", "https://mail.sandbox.test/folder/archive", nil)
	_, _, p2 := do(t, New(archive), "GET", "https://mail.sandbox.test/folder/archive", nil)
	if p1 != p2 {
		t.Error("the same page of two fresh sandboxes differs")
	}
}

// TestMailInfiniteList: the inbox shows a page and names the next, whose
// rows follow without repeats, until the last.
func TestMailInfiniteList(t *testing.T) {
	t.Parallel()
	web := New(archive)
	next := regexp.MustCompile(`data-next="([^"]+)"`)
	row := regexp.MustCompile(`href="/m/(\d+)"`)
	_, _, body := do(t, web, "GET", "https://mail.sandbox.test/", nil)
	seen := map[string]bool{}
	pages := 0
	for {
		list := body
		if i := strings.Index(body, `id="message-list"`); i >= 0 {
			list = body[i:]
		}
		if i := strings.Index(list, "</main>"); i >= 0 {
			list = list[:i]
		}
		n := 0
		for _, m := range row.FindAllStringSubmatch(list, -1) {
			if seen[m[1]] {
				t.Fatalf("message %s listed twice", m[1])
			}
			seen[m[1]] = true
			n++
		}
		if n == 0 || n > mailPageSize {
			t.Fatalf("a page of %d rows", n)
		}
		pages++
		m := next.FindStringSubmatch(body)
		if m == nil {
			// The last page ends with a marker as tall as the one that
			// loaded it, so the page never gets shorter.
			if !strings.Contains(body, `id="list-end"`) {
				t.Error("the last page has no end marker")
			}
			break
		}
		code, _, b := do(t, web, "GET", "https://mail.sandbox.test"+strings.ReplaceAll(m[1], "&amp;", "&"), nil)
		if code != http.StatusOK || strings.Contains(b, "<html") {
			t.Fatalf("next page %s: %d, want rows only", m[1], code)
		}
		body = b
	}
	inbox := 0
	for _, m := range MailData().Messages {
		if m.Folder == fInbox {
			inbox++
		}
	}
	if len(seen) != inbox || pages < 3 {
		t.Errorf("listed %d messages in %d pages, want the inbox's %d", len(seen), pages, inbox)
	}
}

func TestMailForms(t *testing.T) {
	t.Parallel()
	inv := mailFirst(t, func(m MailMessage) bool { return m.Invoice != "" && m.Folder == fInbox })
	shared := mailFirst(t, func(m MailMessage) bool { return m.Folder == fShared })
	bounced := mailFirst(t, func(m MailMessage) bool { return m.Bounced != "" && m.Folder != fSent })
	u := "https://mail.sandbox.test"
	id := fmt.Sprint(inv.ID)
	tests := []struct {
		name       string
		url        string
		form       url.Values
		wantStatus int
		wantLoc    string
		then       string
		thenHas    []string
	}{
		{"archive", "/m/" + id + "/archive", url.Values{}, 303, "/?undo=1", "/?undo=1", []string{"Message archived.", `name="token" value="1"`}},
		{"delete", "/m/" + id + "/delete", url.Values{}, 303, "/?undo=1", "/m/" + id, []string{`id="msg-folder">Trash`}},
		{"star", "/m/" + id + "/star", url.Values{}, 303, "/m/" + id + "?starred=1", "/m/" + id + "?starred=1", []string{"Message starred.", "Remove star"}},
		{"apply a label", "/m/" + id + "/labels", url.Values{"action": {"add"}, "label": {"follow-up"}}, 303, "/m/" + id + "?labelled=follow-up", "/m/" + id + "?labelled=follow-up", []string{"Label “Follow up” applied.", `<span class="label">Follow up</span>`}},
		{"apply an unknown label", "/m/" + id + "/labels", url.Values{"action": {"add"}, "label": {"nope"}}, 422, "", "", nil},
		{"remove a missing label", "/m/" + id + "/labels", url.Values{"action": {"remove"}, "label": {"studio"}}, 409, "", "", nil},
		{"archive a shared message", fmt.Sprintf("/m/%d/archive", shared.ID), url.Values{}, 403, "", fmt.Sprintf("/m/%d", shared.ID), []string{"read-only shared mailbox"}},
		{"undo with nothing done", "/undo", url.Values{"token": {"1"}}, 409, "", "", nil},
		{"send", "/send", url.Values{"to": {"Dana Whitfield <dana.whitfield@kilnworks.test>"}, "subject": {"Clay"}, "body": {"Hello"}, "action": {"send"}},
			303, "/m/3001?undo=1", "/m/3001?undo=1", []string{"Message sent.", `id="msg-folder">Sent`, "dana.whitfield@kilnworks.test"}},
		{"save a draft", "/send", url.Values{"to": {"Tomas Berg <tomas@bergaccounts.test>"}, "subject": {"Receipts"}, "body": {"x"}, "action": {"draft"}},
			303, "/m/3001?draft=saved", "/m/3001?draft=saved", []string{"Draft saved.", `id="msg-folder">Drafts`}},
		{"send to nobody", "/send", url.Values{"to": {"Dana"}, "subject": {"x"}, "action": {"send"}}, 422, "", "", nil},
		{"send to a bouncing address", "/send", url.Values{"to": {"Greta Voss <greta@oldmill-market.test>"}, "subject": {"x"}, "action": {"send"}}, 422, "", "", nil},
		{"send an attachment never uploaded", "/send", url.Values{"to": {"tomas@bergaccounts.test"}, "subject": {"x"}, "attachment": {"secret.pdf"}, "action": {"send"}}, 422, "", "", nil},
		{"forward with its attachment", "/send", url.Values{"to": {"tomas@bergaccounts.test"}, "subject": {"Fwd"}, "forward": {id}, "attachment": {inv.Attachments[0]}, "action": {"send"}},
			303, "/m/3001?undo=1", "/m/3001", []string{inv.Attachments[0]}},
		{"delete a label", "/labels/studio/delete", url.Values{}, 303, "/labels?deleted=studio", "/labels?deleted=studio", []string{"The label “Studio” was deleted."}},
		{"create a label twice", "/labels", url.Values{"name": {"Studio"}}, 409, "", "", nil},
		{"create a label", "/labels", url.Values{"name": {"Kiln repairs"}}, 303, "/labels?created=kiln-repairs", "/label/kiln-repairs", []string{"No messages have the label Kiln repairs."}},
		{"empty trash", "/trash/empty", url.Values{}, 303, "", "/folder/trash", []string{"No messages in Trash."}},
		{"consent", "/consent", url.Values{"choice": {"reject"}}, 204, "", "/", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			web := New(archive)
			code, loc, body := do(t, web, "POST", u+tc.url, tc.form)
			if code != tc.wantStatus || tc.wantLoc != "" && loc != tc.wantLoc {
				t.Fatalf("POST %s: %d to %q, want %d to %q:\n%.300s", tc.url, code, loc, tc.wantStatus, tc.wantLoc, body)
			}
			if tc.then == "" {
				return
			}
			_, _, page := do(t, web, "GET", u+tc.then, nil)
			for _, s := range tc.thenHas {
				if !strings.Contains(page, s) {
					t.Errorf("GET %s lacks %q", tc.then, s)
				}
			}
			if tc.name == "consent" && strings.Contains(page, `id="consent"`) {
				t.Error("the consent banner is still shown after an answer")
			}
		})
	}
	// The bounced sender's message says why a reply is impossible, and
	// the reply form is refused.
	web := New(archive)
	if _, _, page := do(t, web, "GET", fmt.Sprintf("%s/m/%d", u, bounced.ID), nil); !strings.Contains(page, `id="bounce-note"`) || strings.Contains(page, "compose?reply=") {
		t.Error("a bounced sender's message offers a reply or does not say why not")
	}
	if code, _, _ := do(t, web, "GET", fmt.Sprintf("%s/compose?reply=%d", u, bounced.ID), nil); code != http.StatusConflict {
		t.Errorf("reply to a bounced sender: %d, want 409", code)
	}
}

// TestMailUndo: Undo reverts the last action while it is the last, and
// only then.
func TestMailUndo(t *testing.T) {
	t.Parallel()
	web := New(archive)
	u := "https://mail.sandbox.test"
	inv := mailFirst(t, func(m MailMessage) bool { return m.Folder == fInbox })
	other := mailFirst(t, func(m MailMessage) bool { return m.Folder == fInbox && m.ID != inv.ID })
	do(t, web, "POST", fmt.Sprintf("%s/m/%d/delete", u, inv.ID), url.Values{})
	code, loc, _ := do(t, web, "POST", u+"/undo", url.Values{"token": {"1"}})
	if code != 303 || loc != fmt.Sprintf("/m/%d?undone=inbox", inv.ID) {
		t.Fatalf("undo: %d to %s", code, loc)
	}
	if _, _, page := do(t, web, "GET", u+loc, nil); !strings.Contains(page, "Undone: the message is back in Inbox.") || !strings.Contains(page, `id="msg-folder">Inbox`) {
		t.Error("the undone message is not back in Inbox")
	}
	if code, _, _ := do(t, web, "POST", u+"/undo", url.Values{"token": {"1"}}); code != http.StatusConflict {
		t.Errorf("a second undo: %d, want 409", code)
	}
	do(t, web, "POST", fmt.Sprintf("%s/m/%d/archive", u, inv.ID), url.Values{})
	do(t, web, "POST", fmt.Sprintf("%s/m/%d/archive", u, other.ID), url.Values{})
	if code, _, _ := do(t, web, "POST", u+"/undo", url.Values{"token": {"2"}}); code != http.StatusConflict {
		t.Errorf("undo of an action that is no longer the last: %d, want 409", code)
	}
	// A message sent long ago says it cannot be recalled.
	sent := mailFirst(t, func(m MailMessage) bool { return m.Folder == fSent })
	if _, _, page := do(t, web, "GET", fmt.Sprintf("%s/m/%d", u, sent.ID), nil); !strings.Contains(page, "cannot be recalled") {
		t.Error("an old sent message does not say it cannot be recalled")
	}
}

func TestMailAttachmentUpload(t *testing.T) {
	t.Parallel()
	web := New(archive)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "kiln-log-february.csv")
	fw.Write([]byte("date,cone\n2026-02-02,6\n"))
	mw.Close()
	r := httptest.NewRequest("POST", "https://mail.sandbox.test/attachments", &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	w := httptest.NewRecorder()
	web.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"name":"kiln-log-february.csv"`) || !strings.Contains(w.Body.String(), `"id":1`) {
		t.Fatalf("upload: %d %s", w.Code, w.Body.String())
	}
	code, loc, body := do(t, web, "POST", "https://mail.sandbox.test/send", url.Values{"to": {"Ines Okafor <ines@fernhollow.test>"},
		"subject": {"Kiln log"}, "attachment": {"kiln-log-february.csv"}, "action": {"send"}})
	if code != 303 || loc != "/m/3001?undo=1" {
		t.Fatalf("send with the upload: %d %s %.300s", code, loc, body)
	}
	if _, _, page := do(t, web, "GET", "https://mail.sandbox.test/m/3001", nil); !strings.Contains(page, "<li>kiln-log-february.csv</li>") {
		t.Error("the sent message does not list its attachment")
	}
}

// TestMailVisitsChangeNothing checks that the mail's pages change no
// state: a write's notice is carried by the URL its redirect names and
// shows, on every visit of that URL, only while what it says is so; a
// message shown is not marked read.
func TestMailVisitsChangeNothing(t *testing.T) {
	t.Parallel()
	web := New(archive)
	u := "https://mail.sandbox.test"
	unread := mailFirst(t, func(m MailMessage) bool {
		return m.Folder == fInbox && !m.Starred && !slices.Contains(m.Labels, "studio")
	})
	msg := fmt.Sprintf("%s/m/%d", u, unread.ID)
	_, _, before := do(t, web, "GET", u+"/", nil)
	// Each query claims what is not so of this message or mailbox.
	for _, q := range []string{"?starred=1", "?labelled=studio", "?unlabelled=nope", "?undone=archive", "?draft=saved"} {
		if _, _, page := do(t, web, "GET", msg+q, nil); strings.Contains(page, `class="flash"`) {
			t.Errorf("%s%s shows a notice before any write", msg, q)
		}
	}
	for _, v := range []string{"/labels?deleted=studio", "/labels?created=nope", "/folder/trash?emptied=3"} {
		if _, _, page := do(t, web, "GET", u+v, nil); strings.Contains(page, `class="flash"`) {
			t.Errorf("%s shows a notice before any write", v)
		}
	}
	if _, _, after := do(t, web, "GET", u+"/", nil); after != before {
		t.Error("visiting a message changed the Inbox (marked it read?)")
	}
	code, loc, _ := do(t, web, "POST", msg+"/star", url.Values{})
	for range 2 {
		if _, _, page := do(t, web, "GET", u+loc, nil); code != 303 || !strings.Contains(page, "Message starred.") {
			t.Errorf("star: %d to %q, no notice on a visit", code, loc)
		}
	}
	if _, _, page := do(t, web, "GET", msg, nil); strings.Contains(page, "Message starred.") {
		t.Error("the star's notice shows without the redirect's URL")
	}
	do(t, web, "POST", msg+"/star", url.Values{})
	if _, _, page := do(t, web, "GET", u+loc, nil); strings.Contains(page, "Message starred.") {
		t.Errorf("%s says starred after the star was removed", loc)
	}
	code, loc, _ = do(t, web, "POST", u+"/trash/empty", url.Values{})
	for range 2 {
		if _, _, page := do(t, web, "GET", u+loc, nil); code != 303 || !strings.Contains(page, "Trash emptied:") {
			t.Errorf("empty trash: %d to %q, no notice on a visit", code, loc)
		}
	}
}
