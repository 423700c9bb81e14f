package contract_test

import (
	"errors"
	"fmt"

	"contractbench/internal/contract"
)

func Example() {
	p, err := contract.Parse([]byte(`
postconditions:
  - kind: url
    pattern: '^https://example\.com/$'
  - kind: or
    children:
      - {kind: dom_text, selector: h1, contains: "Example Domain"}
      - {kind: dom_count, selector: h1, op: gte, value: 1}
`))
	if err != nil {
		fmt.Println(err)
		return
	}

	obs := contract.Observation{
		URL:      "https://wrong.example/",
		Elements: map[string]contract.Elements{"h1": {Count: 1, Texts: []string{"Example\u00a0Domain"}}},
	}
	v := contract.Evaluate(p, obs, nil)
	fmt.Println("passed:", v.Passed, "failed:", v.FailedClause())
	for _, e := range v.Evidence {
		fmt.Printf("%s %s %v: %s\n", e.Path, e.Kind, e.Passed, e.Seen)
	}
	// Output:
	// passed: false failed: postconditions[0] (url)
	// postconditions[0] url false: https://wrong.example/
	// postconditions[1].children[0] dom_text true: h1: 1 match; match 1: "Example Domain"
	// postconditions[1].children[1] dom_count true: count 1
}

func ExampleParse_errors() {
	_, err := contract.Parse([]byte(`{"postconditions": [
  {"kind": "url", "pattern": "("},
  {"kind": "dom_count", "selector": "li", "op": "gt", "value": -1}
]}`))
	var errs contract.Errors
	if errors.As(err, &errs) {
		for _, e := range errs {
			fmt.Printf("line %d: %v\n", e.Line, e)
		}
	}
	// Output:
	// line 2: postconditions[0].pattern: invalid regexp "(": missing closing )
	// line 3: postconditions[1].op: "gt" is not one of eq, gte, lte
	// line 3: postconditions[1].value: -1 is negative: a count is never below 0
}
