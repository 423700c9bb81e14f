package report

import (
	"slices"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// The web check lists each page a reference loaded, with its status, and
// counts as problems a failed load, an error status (but the refusal a
// task that cannot be done expects), a miss and a harness error.
func TestWriteWebCheck(t *testing.T) {
	t.Parallel()
	doc := func(method, url string, status int, failed string) contract.NetworkEntry {
		return contract.NetworkEntry{Method: method, URL: url, Status: status, Error: failed, ResourceType: "Document"}
	}
	run := &Run{Results: []TaskResult{
		{Task: "a", Outcome: OutcomePassed, Observation: &contract.Observation{URL: "https://a.test/done", Network: []contract.NetworkEntry{
			doc("GET", "https://a.test/", 200, ""),
			{Method: "GET", URL: "https://a.test/missing.png", Status: 404, ResourceType: "Image"},
			doc("POST", "https://a.test/cart", 409, ""),
			doc("GET", "https://a.test/done", 0, "net::ERR_FAILED"),
		}}, WebMisses: []string{"GET https://a.test/gone"}},
		{Task: "b", Tags: []string{"kind:impossible"}, Outcome: OutcomePassed, Observation: &contract.Observation{URL: "https://b.test/cart",
			Network: []contract.NetworkEntry{doc("POST", "https://b.test/cart", 409, ""), doc("GET", "https://b.test/x", 500, "")}}},
		{Task: "c", Outcome: OutcomeError, Reason: "the browser died"},
	}}
	var out strings.Builder
	problems, err := WriteWebCheck(&out, run)
	if err != nil {
		t.Fatal(err)
	}
	want := `a: passed
  200   https://a.test/
  409   https://a.test/cart
  net::ERR_FAILED https://a.test/done
  final https://a.test/done
  MISS  GET https://a.test/gone
b: passed
  409   https://b.test/cart  (the refusal this task expects)
  500   https://b.test/x
  final https://b.test/cart
c: error
  error: the browser died
`
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
	wantProblems := []string{
		"a: POST https://a.test/cart answered 409",
		"a: GET https://a.test/done failed: net::ERR_FAILED",
		"a: not in the fixture web: GET https://a.test/gone",
		"b: GET https://b.test/x answered 500",
		"c: error: the browser died",
	}
	if !slices.Equal(problems, wantProblems) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}
