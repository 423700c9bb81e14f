package generate

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/sandbox"
)

// notes is a small application's route table: pages to read, and three
// routes that write.
var notes = sandbox.Routes{
	{Name: "home", Method: "GET", Path: "/"},
	{Name: "note", Method: "GET", Path: "/notes/{id}"},
	{Name: "rename", Method: "POST", Path: "/notes/{id}/rename", Writes: true, Status: 303},
	{Name: "delete", Method: "POST", Path: "/notes/{id}/delete", Writes: true, Status: 303},
	{Name: "settings", Method: "POST", Path: "/settings", Writes: true, Status: 303},
}

const notesOrigin = "https://notes.sandbox.test"

// post is a write request the site answered with status.
func post(path, body string, status int) contract.NetworkEntry {
	return contract.NetworkEntry{URL: notesOrigin + path, Method: "POST", Status: status, Body: body}
}

func TestWriteSetRequiresTheWritesAskedAndForbidsEveryOther(t *testing.T) {
	t.Parallel()
	rename := Write{Route: "rename", Record: map[string]string{"id": "7"}, Form: map[string]string{"title": "Groceries"}, Trim: []string{"title"}}
	pc, err := WriteSet(notesOrigin, notes, rename)
	if err != nil {
		t.Fatal(err)
	}
	// The clauses must survive the contract's own decoding unchanged.
	data, err := pc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back contract.Postconditions
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatalf("the derived clauses do not load: %v\n%s", err, data)
	}
	asked := post("/notes/7/rename", "title=Groceries", 303)
	for _, tc := range []struct {
		name    string
		network []contract.NetworkEntry
		pass    bool
	}{
		{"the write asked", []contract.NetworkEntry{asked}, true},
		{"the value with spaces the site trims", []contract.NetworkEntry{post("/notes/7/rename", "title=+Groceries%20", 303)}, true},
		{"with a query string that does not choose the route", []contract.NetworkEntry{post("/notes/7/rename?from=list", "title=Groceries", 303)}, true},
		{"a refused attempt first", []contract.NetworkEntry{post("/notes/7/rename", "title=", 422), asked}, true},
		{"reading pages meanwhile", []contract.NetworkEntry{{URL: notesOrigin + "/notes/7", Method: "GET", Status: 200}, asked}, true},
		{"nothing written", nil, false},
		{"the write made twice", []contract.NetworkEntry{asked, asked}, false},
		{"another value", []contract.NetworkEntry{post("/notes/7/rename", "title=Grocery", 303)}, false},
		{"the same route with other values too", []contract.NetworkEntry{asked, post("/notes/7/rename", "title=Other", 303)}, false},
		{"the same change on a near-duplicate record too", []contract.NetworkEntry{asked, post("/notes/8/rename", "title=Groceries", 303)}, false},
		{"another write route too", []contract.NetworkEntry{asked, post("/notes/9/delete", "", 303)}, false},
		{"an extra setting sent too", []contract.NetworkEntry{asked, post("/settings", "theme=dark", 303)}, false},
	} {
		v := contract.Evaluate(pc, contract.Observation{Network: tc.network}, nil)
		if v.Passed != tc.pass {
			t.Errorf("%s: passed=%v, want %v; failed %s", tc.name, v.Passed, tc.pass, v.FailedClause())
		}
	}

	// A write route added to the table later is forbidden by default.
	grown := append(notes[:len(notes):len(notes)], sandbox.Route{Name: "share", Method: "POST", Path: "/notes/{id}/share", Writes: true, Status: 303})
	pc, err = WriteSet(notesOrigin, grown, rename)
	if err != nil {
		t.Fatal(err)
	}
	if v := contract.Evaluate(pc, contract.Observation{Network: []contract.NetworkEntry{asked, post("/notes/7/share", "to=x", 303)}}, nil); v.Passed {
		t.Error("a write to a route added later passed")
	}
}

func TestWriteSetCountsEachWriteAsListed(t *testing.T) {
	t.Parallel()
	del := func(id string) Write { return Write{Route: "delete", Record: map[string]string{"id": id}} }
	pc, err := WriteSet(notesOrigin, notes, del("3"), del("4"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ids  []string
		pass bool
	}{
		{[]string{"3", "4"}, true},
		{[]string{"4", "3"}, true},
		{[]string{"3"}, false},
		{[]string{"3", "3"}, false},
		{[]string{"3", "4", "5"}, false},
	} {
		var network []contract.NetworkEntry
		for _, id := range tc.ids {
			network = append(network, post("/notes/"+id+"/delete", "", 303))
		}
		if v := contract.Evaluate(pc, contract.Observation{Network: network}, nil); v.Passed != tc.pass {
			t.Errorf("deleting %v: passed=%v, want %v; failed %s", tc.ids, v.Passed, tc.pass, v.FailedClause())
		}
	}
}

func TestWriteSetRefusesWhatTheTableDoesNotHave(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w    Write
		want string
	}{
		{Write{Route: "archive"}, `no route "archive"`},
		{Write{Route: "note", Record: map[string]string{"id": "1"}}, "does not write"},
		{Write{Route: "rename"}, "needs a value for {id}"},
		{Write{Route: "settings", Form: map[string]string{"theme": "dark"}, FoldCase: []string{"lang"}}, `field "lang" is not in its form`},
	} {
		if _, err := WriteSet(notesOrigin, notes, tc.w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.w, err, tc.want)
		}
	}
}

// The server registers its handlers from the same table: the patterns the
// clauses match are the ones it serves.
func TestRoutesRegisterTheServer(t *testing.T) {
	t.Parallel()
	handlers := map[string]http.HandlerFunc{}
	for _, r := range notes {
		handlers[r.Name] = func(w http.ResponseWriter, req *http.Request) { w.Write([]byte(r.Name + " " + req.PathValue("id"))) }
	}
	mux := http.NewServeMux()
	if err := notes.Register(mux, handlers); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("POST", "/notes/7/rename", nil))
	if got := rec.Body.String(); got != "rename 7" {
		t.Errorf("POST /notes/7/rename served %q", got)
	}
	handlers["extra"] = handlers["home"]
	if err := notes.Register(http.NewServeMux(), handlers); err == nil || !strings.Contains(err.Error(), "handler extra is in no route") {
		t.Errorf("a handler outside the table: %v", err)
	}
	delete(handlers, "extra")
	delete(handlers, "home")
	if err := notes.Register(http.NewServeMux(), handlers); err == nil || !strings.Contains(err.Error(), "route home") {
		t.Errorf("a route without a handler: %v", err)
	}
}
