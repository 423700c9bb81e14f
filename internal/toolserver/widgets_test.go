package toolserver

import (
	"testing"
)

// TestDrag checks that drag moves a card between two drop zones of a
// page that drags with pointer events: the page sees a press on the card,
// several moves and a release over the zone, and the reply names both
// elements and what changed.
func TestDrag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/widgets.html")
	wantContains(t, "regions in read_page", e.ok("read_page", nil),
		"[To do](e1 region)\n## To do\n[Fix the lamp](e2)\n[Done](e3 region)\n## Done\nNo card moved.")
	wantContains(t, "find a region", e.ok("find", map[string]any{"query": "role:region Done"}), "[Done](e3 region)")
	got := e.ok("drag", map[string]any{"ref": "e2", "to": "e3"})
	wantContains(t, "drag", got, "dragged [Fix the lamp](e2) onto [Done](e3 region)",
		"+ Moved to Done after 11 moves.")
	wantContains(t, "the card in its new zone", e.ok("read_page", nil), "[Done](e3 region)\n## Done\n[Fix the lamp](e2)\nMoved to Done")
	wantContains(t, "drag onto itself", e.fails("drag", map[string]any{"ref": "e2", "to": "e2"}), "drag an element onto another one")
	wantContains(t, "drag without to", e.fails("drag", map[string]any{"ref": "e2", "to": " "}), "to is missing")
}

// TestUploadFile checks that upload_file chooses files from the uploads
// folder for a file input, that the page's change handler sees them, and
// that names outside the folder are refused with the list of files.
func TestUploadFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/widgets.html")
	wantContains(t, "find the file input", e.ok("find", map[string]any{"query": "role:file Attachment"}), "[Attachment](e4 file)")
	got := e.ok("upload_file", map[string]any{"ref": "e4", "files": []string{"notes.txt", "plan.txt"}})
	wantContains(t, "upload", got, "chose notes.txt, plan.txt for [Attachment](e4 file)",
		"+ Chosen: notes.txt (110 bytes), plan.txt (47 bytes)", `[Attachment](e4 file value="notes.txt, plan.txt")`)
	for _, name := range []string{"../widgets_test.go", "/etc/passwd", "missing.txt"} {
		wantContains(t, "upload of "+name, e.fails("upload_file", map[string]any{"ref": "e4", "files": []string{name}}),
			"no file \""+name+"\" to upload: the files are notes.txt, plan.txt")
	}
	wantContains(t, "upload into a non-file control", e.fails("upload_file", map[string]any{"ref": "e2", "files": []string{"notes.txt"}}),
		"is not a file input")
}

// TestOptionsAndShadowRoots checks listbox options as click targets, and
// that find, click and type reach controls inside an open shadow root.
func TestOptionsAndShadowRoots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/widgets.html")
	got := e.ok("find", map[string]any{"query": "role:option Ann Ode"})
	wantContains(t, "find an option", got, "[Ann Ode <ann@example.test>](e6 option)")
	wantContains(t, "click an option", e.ok("click", map[string]any{"ref": "e6"}), "+ Picked Ann Ode <ann@example.test>")

	got = e.ok("find", map[string]any{"query": "role:button Cleo"})
	wantContains(t, "find in a shadow root", got, "[Cleo](e10 button)")
	wantContains(t, "click in a shadow root", e.ok("click", map[string]any{"ref": "e10"}), "clicked [Cleo](e10 button)", "+ Assigned to Cleo")
	wantContains(t, "type in a shadow root", e.ok("type", map[string]any{"ref": "e11", "text": "on leave"}),
		`typed "on leave" into [Note](e11 textbox)`, `[Note](e11 textbox value="on leave")`)
}

// TestSameSiteFrame checks that a frame of another origin of the same
// site (a payment form embedded in a shop) is read in place, found, and
// typed into and clicked with real input at the right screen points.
func TestSameSiteFrame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open("/checkout.html")
	wantContains(t, "read_page", e.ok("read_page", nil),
		"# Checkout\nTotal: 12.50\n[Card holder](e10001 textbox) [Pay now](e10002 button)\nNot paid.\nAfter the card form.")
	wantContains(t, "find in the frame", e.ok("find", map[string]any{"query": "role:button Pay"}), "[Pay now](e10002 button)")
	wantContains(t, "type in the frame", e.ok("type", map[string]any{"ref": "e10001", "text": "Ada Byron"}),
		`typed "Ada Byron" into [Card holder](e10001 textbox)`, `[Card holder](e10001 textbox value="Ada Byron")`)
	got := e.ok("click", map[string]any{"ref": "e10002"})
	wantContains(t, "click in the frame", got, "clicked [Pay now](e10002 button)", "+ Paid by Ada Byron.")
	wantContains(t, "an unknown frame ref", e.fails("click", map[string]any{"ref": "e20001"}), "ref e20001 is no longer on the page")
}
