package templates

import (
	"slices"
	"strconv"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/sandbox"
)

// TestForumTemplates checks the forum templates and that what each
// instance asks for is so in the forum's data.
func TestForumTemplates(t *testing.T) {
	for _, d := range checkApp(t, "forum", forumTemplates) {
		p := d.Params
		id, _ := strconv.Atoi(p["thread"])
		if len(d.Alternates) < 2 || len(d.Controls) < 2 {
			t.Errorf("%s: %d alternates and %d controls, want two of each at least", d.ID, len(d.Alternates), len(d.Controls))
		}
		switch d.Template.ID {
		case "forum-impossible-locked-reply":
			if !forumThread(id).Locked {
				t.Errorf("%s: thread %d is not locked", d.ID, id)
			}
		case "forum-save-draft", "forum-signature-then-reply":
			if forumThread(id).Locked {
				t.Errorf("%s: thread %d is locked", d.ID, id)
			}
		case "forum-impossible-closed-inbox":
			if !forumMember(p["member"]).Closed {
				t.Errorf("%s: %s takes messages", d.ID, p["member"])
			}
		case "forum-message-poster":
			th := forumThread(id)
			want := th.Authors[0]
			if p["who"] == "latest" {
				want = th.Authors[len(th.Authors)-1]
			}
			if got := d.Contract[0].(*contract.Network).Form["to"]; got != want || forumMember(want).Closed {
				t.Errorf("%s: writes to %s, want %s, who takes messages", d.ID, got, want)
			}
		case "forum-find-post-author":
			n, _ := strconv.Atoi(p["post"])
			if got := d.Contract[0].(*contract.DOMText).Contains; got != forumThread(id).Authors[n-1] {
				t.Errorf("%s: looks for %s", d.ID, got)
			}
		case "forum-find-member-joined":
			if len(forumTwins(p["member"])) == 0 {
				t.Errorf("%s: %s has no member of a near-identical name", d.ID, p["member"])
			}
		}
	}
}

func TestForumTwins(t *testing.T) {
	for name, twin := range map[string]string{"fenwick": "fenwick_j", "quietbench": "quiet.bench", "lindqvist": "lindqvist2", "solder_sam": "solder_sammy"} {
		if !slices.Contains(forumTwins(name), twin) {
			t.Errorf("forumTwins(%s) = %v, want %s among them", name, forumTwins(name), twin)
		}
	}
	if got := forumTwins("mkovacs"); slices.Contains(got, "fenwick") {
		t.Errorf("forumTwins(mkovacs) = %v", got)
	}
}

// forumThread returns the forum thread with id.
func forumThread(id int) sandbox.ForumThread { return forumData.Threads[id-1] }
