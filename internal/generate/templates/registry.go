package templates

import (
	"math/rand/v2"
	"slices"

	"contractbench/internal/generate"
)

// All returns every template, grouped by application.
func All() []generate.Template {
	return slices.Concat(shopTemplates, staysTemplates, forumTemplates, mailTemplates, trackerTemplates)
}

// pick returns one of xs, drawn with r.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
