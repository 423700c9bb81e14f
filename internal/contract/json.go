package contract

import "encoding/json"

// The canonical JSON form of a contract: every clause is an object whose
// first key is "kind", followed by its fields in declaration order, with
// defaults written out (a dom_text selector, a network since), encoded as
// encoding/json does (so <, > and & appear as \u003c, \u003e, \u0026).
// Equal contracts encode to equal bytes, and UnmarshalJSON or Parse read
// the bytes back to an equal value.

// MarshalJSON writes p in canonical form: a JSON array of clauses. A nil
// Postconditions encodes as [].
func (p Postconditions) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("[]"), nil
	}
	return encode([]Clause(p))
}

// Each clause type encodes its fields behind a "kind" key. The local type
// `fields` has the clause's fields and tags but not its methods, so
// encoding it does not recurse into MarshalJSON.

func (c *URL) MarshalJSON() ([]byte, error) {
	type fields URL
	return withKind(KindURL, fields(*c))
}

func (c *DOMText) MarshalJSON() ([]byte, error) {
	type fields DOMText
	f := fields(*c)
	f.Selector = c.selector()
	return withKind(KindDOMText, f)
}

func (c *DOMCount) MarshalJSON() ([]byte, error) {
	type fields DOMCount
	return withKind(KindDOMCount, fields(*c))
}

func (c *Network) MarshalJSON() ([]byte, error) {
	type fields Network
	f := fields(*c)
	f.Since = c.since()
	if f.StatusIn == nil {
		f.StatusIn = []int{}
	}
	return withKind(KindNetwork, f)
}

func (c *ScreenshotClass) MarshalJSON() ([]byte, error) {
	type fields ScreenshotClass
	return withKind(KindScreenshotClass, fields(*c))
}

func (c *NoDialog) MarshalJSON() ([]byte, error) {
	return withKind(KindNoDialog, struct{}{})
}

func (c *And) MarshalJSON() ([]byte, error) {
	type fields And
	f := fields(*c)
	f.Children = nonNil(f.Children)
	return withKind(KindAnd, f)
}

func (c *Or) MarshalJSON() ([]byte, error) {
	type fields Or
	f := fields(*c)
	f.Children = nonNil(f.Children)
	return withKind(KindOr, f)
}

func (c *Not) MarshalJSON() ([]byte, error) {
	type fields Not
	return withKind(KindNot, fields(*c))
}

// withKind encodes fields, a struct, as a JSON object whose first key is
// "kind", set to k, followed by the struct's own keys.
func withKind(k Kind, fields any) ([]byte, error) {
	body, err := encode(fields)
	if err != nil {
		return nil, err
	}
	kind, err := encode(k)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"kind":`), kind...)
	if len(body) > len("{}") {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

func nonNil(cs []Clause) []Clause {
	if cs == nil {
		return []Clause{}
	}
	return cs
}

// encode is json.Marshal under the name the canonical form relies on.
// HTML escaping stays on: json.Marshal applies it to a Marshaler's output
// anyway, and keeping it makes MarshalJSON and json.Marshal agree byte for
// byte.
func encode(v any) ([]byte, error) {
	return json.Marshal(v)
}
