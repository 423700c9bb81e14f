package problem

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Collector gathers the problems of one file while a decoder walks its
// YAML tree, so the decoder reports everything at once instead of stopping
// at the first problem.
type Collector struct {
	File string
	List List
}

// Add records a problem at node n (its line; 0 when n is nil) and path.
func (c *Collector) Add(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	c.List = append(c.List, Problem{File: c.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Fields checks that n is a mapping whose keys are all among required and
// optional, none repeated and every required one present, and returns its
// values by key. Each violation is recorded; what could be read is
// returned all the same.
func (c *Collector) Fields(n *yaml.Node, path string, required, optional []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		c.Add(n, path, "must be a mapping, not %s", Describe(n))
		return out
	}
	known := append(slices.Clone(required), optional...)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := Join(path, k.Value)
		switch {
		case !slices.Contains(known, k.Value):
			c.Add(k, p, "unknown field %q (known: %s)", k.Value, strings.Join(known, ", "))
		case out[k.Value] != nil:
			c.Add(k, p, "field %q appears twice", k.Value)
		default:
			out[k.Value] = v
		}
	}
	for _, r := range required {
		if out[r] == nil {
			c.Add(n, Join(path, r), "missing")
		}
	}
	return out
}

// Join extends a document path with a field: Join("budget", "max_usd") is
// "budget.max_usd", and Join("", "id") is "id".
func Join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}
