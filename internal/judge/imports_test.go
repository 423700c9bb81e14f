package judge

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

// TestJudgeSideImports enforces the boundary the architecture rests on:
// the judge side (contract, phash, judge) reaches nothing of the agent
// side, directly or through another package of this module, so nothing the
// agent controls can take part in grading.
func TestJudgeSideImports(t *testing.T) {
	t.Parallel()
	const module = "contractbench/internal/"
	agentSide := []string{"agent", "llm", "mcpclient", "toolserver", "runner", "cli", "servers", "transcript"}
	allowed := map[string][]string{
		"judge":    {"cdpconn", "contract", "phash", "problem"},
		"contract": {"phash", "problem"},
		"phash":    {"problem"},
	}
	for pkg, allow := range allowed {
		seen := map[string]bool{}
		var visit func(path string, via []string)
		visit = func(path string, via []string) {
			p, err := build.Import(path, ".", 0)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, imp := range p.Imports {
				name, ok := strings.CutPrefix(imp, module)
				if !ok || seen[imp] {
					continue
				}
				seen[imp] = true
				chain := append(slices.Clone(via), name)
				top := strings.Split(name, "/")[0]
				if slices.Contains(agentSide, top) {
					t.Errorf("%s reaches the agent side: %s", pkg, strings.Join(chain, " -> "))
				}
				if len(via) == 1 && !slices.Contains(allow, top) {
					t.Errorf("%s imports %s, which is not on its list (%v)", pkg, name, allow)
				}
				visit(imp, chain)
			}
		}
		visit(module+pkg, []string{pkg})
	}
}
