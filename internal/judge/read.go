package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
	"contractbench/internal/problem"
)

// queryResult is what query.js answers for one query.
type queryResult struct {
	Count  int      `json:"count"`
	Hidden int      `json:"hidden"`
	Texts  []string `json:"texts"`
	Cut    bool     `json:"cut"`
	Found  [][3]any `json:"found"`
	Skips  bool     `json:"skips"`
	Error  *string  `json:"error"`
	// hits is Found decoded.
	hits []hit
}

// hit is where a looked-for string was found: the 1-based index of the
// match (0: not found), the text around it, and the pieces of the page it
// was read from (paint.js's spans).
type hit struct {
	match   int
	excerpt string
	spans   []word
}

// decodeHits fills r.hits from r.Found.
func (r *queryResult) decodeHits() {
	r.hits = make([]hit, len(r.Found))
	for k, f := range r.Found {
		match, _ := f[0].(float64)
		h := hit{match: int(match)}
		h.excerpt, _ = f[1].(string)
		spans, _ := f[2].([]any)
		for _, sp := range spans {
			if w, ok := sp.([]any); ok && len(w) == 3 {
				a, _ := w[0].(float64)
				b, _ := w[1].(float64)
				c, _ := w[2].(float64)
				h.spans = append(h.spans, word{int(a), int(b), int(c)})
			}
		}
		r.hits[k] = h
	}
}

// elements turns what query.js answered into an Observation's elements.
func (j *Judge) elements(queries []contract.Query, results []queryResult) map[string]contract.Elements {
	if len(queries) == 0 {
		return nil
	}
	out := make(map[string]contract.Elements, len(queries))
	for i, r := range results {
		q := queries[i]
		el := contract.Elements{Count: r.Count, Hidden: r.Hidden, TextsCut: r.Cut}
		for k, t := range r.Texts {
			if cut := truncateUTF8(t, j.opts.MaxTextBytes); len(cut) < len(t) {
				r.Texts[k], el.TextsCut = cut, true
			}
		}
		if len(r.Texts) > 0 {
			el.Texts = r.Texts // nil when empty, as a stored Observation decodes
		}
		for k, want := range q.Contains {
			if el.Contains == nil {
				el.Contains = make(map[string]contract.Hit, len(q.Contains))
			}
			el.Contains[want] = contract.Hit{Match: r.hits[k].match, Excerpt: problem.Bound(r.hits[k].excerpt, excerptMax)}
		}
		out[q.Selector] = el
	}
	return out
}

// read runs query.js, leaving out the words refused.
func (j *Judge) read(ctx context.Context, v *pageView, queries []contract.Query, refused []word) ([]queryResult, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	if refused == nil {
		refused = []word{}
	}
	var results []queryResult
	if err := j.call(ctx, v, queryJS, &results, queries, j.opts.MaxTexts, j.opts.MaxTextBytes, minTextPx, refused); err != nil {
		return nil, fmt.Errorf("querying %s: %w", v.state.URL, err)
	}
	if len(results) != len(queries) {
		return nil, fmt.Errorf("querying %s: %d results for %d selectors", v.state.URL, len(results), len(queries))
	}
	for i, r := range results {
		q := queries[i]
		if r.Error != nil {
			return nil, fmt.Errorf("selector %q is not valid CSS: %s", q.Selector, *r.Error)
		}
		if len(r.Found) != len(q.Contains) {
			return nil, fmt.Errorf("querying %s: selector %q: %d answers for %d strings", v.state.URL, q.Selector, len(r.Found), len(q.Contains))
		}
		results[i].decodeHits()
	}
	return results, nil
}

// screenshotMax bounds the wait for the final screenshot of a page that
// says it is visible, in the machine's spare time (internal/spare).
const screenshotMax = 10 * time.Second

// minTextPx is the least height, in CSS pixels, of a line of text a person
// can read; text in smaller (or more clipped) boxes is not seen.
const minTextPx = 6

// excerptMax bounds an excerpt kept with a found string.
const excerptMax = 300

// call calls the script fn with args in the judge's world of v and
// decodes its answer into out, unless out is nil.
func (j *Judge) call(ctx context.Context, v *pageView, fn string, out any, args ...any) error {
	cargs, err := callArguments(args...)
	if err != nil {
		return err
	}
	res, err := cdpconn.Send(ctx, j.conn, v.page.session, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ExecutionContextID:  v.world,
		Arguments:           cargs,
		ReturnByValue:       new(true),
	})
	if err := evalErr(res.ExceptionDetails, err); err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := decodeResult(res.Result, out); err != nil {
		return fmt.Errorf("decoding the answer: %w", err)
	}
	return nil
}

// callArguments encodes values as the arguments of Runtime.callFunctionOn.
func callArguments(values ...any) ([]*runtime.CallArgument, error) {
	args := make([]*runtime.CallArgument, len(values))
	for i, v := range values {
		raw, err := jsonv2.Marshal(v, chromedp.DefaultMarshalOptions)
		if err != nil {
			return nil, fmt.Errorf("encoding argument %d: %w", i, err)
		}
		args[i] = &runtime.CallArgument{Value: raw}
	}
	return args, nil
}

// decodeResult decodes the by-value result of a script into v.
func decodeResult(obj *runtime.RemoteObject, v any) error {
	if obj == nil || len(obj.Value) == 0 {
		return errors.New("the script returned no value")
	}
	return jsonv2.Unmarshal(obj.Value, v, chromedp.DefaultUnmarshalOptions)
}

// evalErr turns a failed call or a thrown exception into an error.
func evalErr(exc *runtime.ExceptionDetails, err error) error {
	if err != nil {
		return err
	}
	if exc != nil {
		msg := exc.Text
		if exc.Exception != nil && exc.Exception.Description != "" {
			msg = exc.Exception.Description
		}
		return fmt.Errorf("script threw: %s", strings.TrimSpace(msg))
	}
	return nil
}

// truncateUTF8 cuts s to at most max bytes without splitting a character.
func truncateUTF8(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
