package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The examples in docs/contracts.md are executed here, so the page cannot
// drift from the code. The page states the convention to its readers:
//
//   - a ```yaml contract block must parse with Parse;
//   - a ```yaml contract invalid block must fail to parse, and the
//     ```text errors block right after it lists the errors exactly, one per
//     line as "line N: path: message";
//   - a ```json observation block is evaluated against the closest
//     contract block above it, with the screenshot classes in docClasses;
//   - the ```json verdict block right after an observation gives the
//     expected Verdict as JSON; only the keys it names are compared, each
//     in full;
//   - a ```json canonical block is the exact canonical JSON of the closest
//     contract block above it.
const docsPath = "../../docs/contracts.md"

// docClasses are the screenshot classes the page's examples use; the page
// gives the same hash in prose.
var docClasses = fakeClasses{"example-home": 0xc3c3e1e1f0f07878}

type docBlock struct {
	line int // of the opening fence
	lang string
	tags []string
	body string
}

func (b docBlock) has(tag string) bool { return slices.Contains(b.tags, tag) }

func (b docBlock) String() string {
	return fmt.Sprintf("%s:%d (%s %s)", docsPath, b.line, b.lang, strings.Join(b.tags, " "))
}

func readDocBlocks(t *testing.T) []docBlock {
	t.Helper()
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatalf("the contract documentation must exist beside the code: %v", err)
	}
	var (
		blocks []docBlock
		cur    *docBlock
		body   strings.Builder
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "```") {
			if cur != nil {
				body.WriteString(line + "\n")
			}
			continue
		}
		if cur != nil {
			cur.body = body.String()
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		words := strings.Fields(strings.TrimPrefix(line, "```"))
		cur = &docBlock{line: n}
		if len(words) > 0 {
			cur.lang, cur.tags = words[0], words[1:]
		}
		body.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s: fence never closed", cur)
	}
	return blocks
}

func TestDocsExamples(t *testing.T) {
	t.Parallel()
	blocks := readDocBlocks(t)

	var (
		contract             Postconditions // closest valid contract block above
		contractAt           docBlock
		verdict              *Verdict // of the last observation, awaiting its verdict block
		invalidErr           error    // of the last invalid contract, awaiting its errors block
		parsed, invalid      int
		passing, failing     int
		canonical            int
		evaluatedAgainst     = map[int]bool{}
		previousWasExpecting bool
	)
	for _, b := range blocks {
		if previousWasExpecting && !b.has("verdict") && !b.has("errors") {
			t.Errorf("%s: expected a verdict or errors block right after the previous example", b)
		}
		previousWasExpecting = false
		switch {
		case b.has("contract") && b.has("invalid"):
			_, err := Parse([]byte(b.body))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Errorf("%s: Parse error = %v, want Errors", b, err)
			}
			invalidErr, previousWasExpecting = err, true
			invalid++
		case b.has("contract"):
			p, err := Parse([]byte(b.body))
			if err != nil {
				t.Errorf("%s: %v", b, err)
				continue
			}
			contract, contractAt = p, b
			parsed++
		case b.has("errors"):
			var errs Errors
			if !errors.As(invalidErr, &errs) {
				t.Errorf("%s: no invalid contract right before it", b)
				continue
			}
			var got []string
			for _, fe := range errs {
				got = append(got, fmt.Sprintf("line %d: %s", fe.Line, fe.Error()))
			}
			want := strings.Split(strings.TrimRight(b.body, "\n"), "\n")
			if !slices.Equal(got, want) {
				t.Errorf("%s: errors differ\n got:\n%s\nwant:\n%s", b, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			invalidErr = nil
		case b.has("observation"):
			if contract == nil {
				t.Errorf("%s: no contract above it", b)
				continue
			}
			var obs Observation
			dec := json.NewDecoder(strings.NewReader(b.body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&obs); err != nil {
				t.Errorf("%s: %v", b, err)
				continue
			}
			v := Evaluate(contract, obs, docClasses)
			verdict, previousWasExpecting = &v, true
			evaluatedAgainst[contractAt.line] = true
		case b.has("canonical"):
			got, err := contract.MarshalJSON()
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if want := strings.TrimSpace(b.body); string(got) != want {
				t.Errorf("%s: canonical JSON\n got %s\nwant %s", b, got, want)
			}
			canonical++
		case b.has("verdict"):
			if verdict == nil {
				t.Errorf("%s: no observation right before it", b)
				continue
			}
			checkDocVerdict(t, b, *verdict)
			if verdict.Passed {
				passing++
			} else {
				failing++
			}
			verdict = nil
		}
	}
	if previousWasExpecting {
		t.Errorf("%s: the last example has no verdict or errors block", docsPath)
	}
	t.Logf("%s: %d contracts (%d evaluated), %d passing and %d failing verdicts, %d invalid and %d canonical examples",
		docsPath, parsed, len(evaluatedAgainst), passing, failing, invalid, canonical)
	// The page must keep teaching by example: these floors stop examples
	// from quietly disappearing.
	if parsed < 8 || len(evaluatedAgainst) < 6 || passing < 3 || failing < 3 || invalid < 1 || canonical < 1 {
		t.Errorf("%s has %d contracts (%d evaluated), %d passing and %d failing verdicts, %d invalid and %d canonical examples; "+
			"want at least 8, 6, 3, 3, 1 and 1", docsPath, parsed, len(evaluatedAgainst), passing, failing, invalid, canonical)
	}
}

// checkDocVerdict compares the keys the verdict block names with the
// actual Verdict, through JSON so the page's notation is what counts.
func checkDocVerdict(t *testing.T, b docBlock, v Verdict) {
	t.Helper()
	var want map[string]any
	if err := json.Unmarshal([]byte(b.body), &want); err != nil {
		t.Errorf("%s: %v", b, err)
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: verdict has no key %q", b, k)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %q differs\n got: %s\nwant: %s", b, k, indented(g), indented(w))
		}
	}
}

// indented renders v for a failure message as the page would write it,
// without HTML escaping.
func indented(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return buf.String()
}
