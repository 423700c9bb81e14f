package cli

import (
	"fmt"
	"slices"
	"strings"

	"contractbench/internal/generate"
	"contractbench/internal/generate/templates"
)

const generateHelp = `
Draws instances of the task templates over the sandbox's five applications
(shop, stays, forum, mail, tracker; docs/benchmarks/generated.md) into a new
suite folder that every command accepts: tasks/, controls/tasks/ (one task
per near-miss control, with the same instruction and contract),
alternates/tasks/ (one task per alternate: another reasonable way to the
asked outcome, which must pass), baseline.json (every reference passes),
generated.json (each instance's template, parameters, its alternates and
the clause each control must fail on), and links web and uploads to the
sandbox suite's folders.

The same seed and count give the same suite, byte for byte; another seed
gives instances nobody has seen, to check a published number on. The count
is spread evenly over the templates drawn from; the instances of a template
have distinct parameters, and a template that has too few to give is an
error. A count below the number of templates (--count 12 of 53) draws one
instance from each of that many templates, sampled by the seed evenly over
the applications, and names them; --template PREFIX draws from chosen
templates instead. The folder is written beside --out and renamed into
place: an error leaves nothing.

Then, for example:
  contractbench validate DIR
  contractbench run --suite DIR --agent reference -j 2
  contractbench record --suite DIR --agent reference

Exit codes: 0 written; 2 bad usage or a template that cannot give the count.
`

func runGenerate(st *State, args []string) error {
	fs := newFlags(st, "contractbench generate --out DIR [--seed N] [--count K] [--template PREFIX]", generateHelp)
	out := fs.String("out", "", "the suite folder to write; must not exist or be empty (required)")
	seed := fs.Uint64("seed", 1, "the seed of the draw")
	count := fs.Int("count", 0, "instances in all (default: 8 per template)")
	prefix := fs.String("template", "", "draw only from templates whose id starts with this")
	from := fs.String("from", sandboxSuite, "the suite whose web and uploads folders the new suite links to")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("generate: --out DIR is required")
	}
	all := templates.All()
	matching := generate.Matching(all, *prefix)
	if *count == 0 {
		*count = 8 * matching
	}
	drawn, err := generate.Draw(all, *seed, *count, *prefix)
	if err != nil {
		return usagef("generate: %v", err)
	}
	m := generate.Manifest{Seed: *seed, Count: *count, Prefix: *prefix}
	src := generate.Source{WebDir: *from + "/web", UploadsDir: *from + "/uploads"}
	if err := generate.WriteSuite(*out, drawn, m, src); err != nil {
		return usagef("generate: %v", err)
	}
	controls := 0
	var used []string
	for _, d := range drawn {
		controls += len(d.Controls)
		used = append(used, d.Template.ID)
	}
	used = slices.Compact(used) // a template's instances are drawn together
	fmt.Fprintf(st.Stdout, "wrote %s: %d tasks from %d templates, %d controls (seed %d)\n", *out, len(drawn), len(used), controls, *seed)
	if len(used) < matching {
		fmt.Fprintf(st.Stdout, "sampled %d of the %d templates by the seed, evenly over the applications: %s\n", len(used), matching, strings.Join(used, ", "))
	}
	return nil
}
