package generate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/sandbox"
)

// Write is one write a task asks for: a route of the application's table,
// the record it is made on (the route's wildcards), and the form values
// the site stores.
type Write struct {
	// Route names a write route of the application's table.
	Route string
	// Record gives every wildcard of the route's path its value
	// ({"id": "203"}).
	Record map[string]string
	// Form is the values the write must carry, as the site stores them.
	Form map[string]string
	// Trim names the fields of Form the site trims, FoldCase those whose
	// case it folds: a value sent with spaces at its ends, or in another
	// case, is the same write.
	Trim, FoldCase []string
}

// WriteSet derives, from an application's route table and the writes a
// task asks for, the clauses that require exactly those writes and forbid
// every other write to the application:
//
//   - each wanted write, on its record with its values, exactly once (as
//     many times as it is listed);
//   - on each write route of the table, as many writes as are wanted
//     there, on any record with any values: so the same route with other
//     values, or on another record, is one write too many, and a write
//     route the task does not ask for (one added to the table later too)
//     allows none.
//
// A write counts when the route answered it with its Status: a request
// the site refused wrote nothing. origin is the application's origin
// ("https://forum.sandbox.test").
func WriteSet(origin string, routes sandbox.Routes, want ...Write) (contract.Postconditions, error) {
	var out contract.Postconditions
	perRoute := map[string]int{}
	wanted := map[string]int{} // how many times each distinct write is listed
	for i, w := range want {
		r, ok := routes.Find(w.Route)
		switch {
		case !ok:
			return nil, fmt.Errorf("write %d: no route %q in the table", i, w.Route)
		case !r.Writes:
			return nil, fmt.Errorf("write %d: route %s (%s %s) does not write", i, r.Name, r.Method, r.Path)
		}
		for _, name := range r.Wildcards() {
			if w.Record[name] == "" {
				return nil, fmt.Errorf("write %d: route %s needs a value for {%s}", i, r.Name, name)
			}
		}
		for _, k := range slices.Concat(w.Trim, w.FoldCase) {
			if _, ok := w.Form[k]; !ok {
				return nil, fmt.Errorf("write %d: field %q is not in its form", i, k)
			}
		}
		perRoute[r.Name]++
		wanted[w.key()]++
	}
	seen := map[string]bool{}
	for _, w := range want {
		key := w.key()
		if seen[key] {
			continue
		}
		seen[key] = true
		r, _ := routes.Find(w.Route)
		c := writeClause(origin, r, w.Record, wanted[key])
		if len(w.Form) > 0 {
			c.Form = maps.Clone(w.Form)
			c.FormTrim = sortedCopy(w.Trim)
			c.FormFoldCase = sortedCopy(w.FoldCase)
		}
		out = append(out, c)
	}
	for _, r := range routes {
		if r.Writes {
			out = append(out, writeClause(origin, r, nil, perRoute[r.Name]))
		}
	}
	return out, nil
}

// key identifies a write among those listed (fmt prints maps sorted).
func (w Write) key() string {
	return fmt.Sprint(w.Route, w.Record, w.Form, w.Trim, w.FoldCase)
}

// writeClause is a network clause counting exactly n writes of route r on
// the record record (nil: any record).
func writeClause(origin string, r sandbox.Route, record map[string]string, n int) *contract.Network {
	return &contract.Network{
		URLPattern: r.URLPattern(origin, record),
		StatusIn:   []int{r.Status},
		Method:     strings.ToUpper(r.Method),
		Since:      contract.SinceTaskStart,
		Count:      &contract.Count{Op: contract.OpEq, Value: n},
	}
}

func sortedCopy(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
