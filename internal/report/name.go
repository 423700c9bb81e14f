package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// BaseName is the base file name of the report of r in a report folder:
// <base>.json, <base>.md and <base>-<task>.png. It is the one place that
// names reports, so that runs of different kinds never overwrite each
// other.
//
// The default run of a commit (the replay agent on the built-in server and
// the hermetic web, every task of the suite, one attempt each) is named by
// the commit alone: <git-sha>. Every other run adds what makes it
// different, in this order:
//
//	<git-sha>-<agent>[-<model>]-<server>-<web>-<selection>[-x<repeat>]
//
// where model is the model an agent ran (none for the agents that run
// no model: replay, reference and the null agents, whose settings
// describe the model in words), selection is "all", the task id of a single task, or
// "<n>tasks-<digest>" (the first 8 hex digits of the SHA-256 of the
// selected ids, in run order). Each run of characters a file name should
// not hold becomes one '_', and a part neither begins nor ends with one.
// Reports written under earlier names are read by the names their JSON
// gives their images, never by BaseName. Two runs with the same name are the same kind of run of the
// same commit, so the later one replaces the earlier one's files.
func BaseName(r *Run) string {
	s := r.Settings
	sha := OrNone(r.GitSHA)
	if isDefaultRun(s) {
		return fileSafe(sha)
	}
	parts := []string{sha, OrNone(s.Agent)}
	if s.Model != "" && ranModel(s.Agent) {
		parts = append(parts, s.Model)
	}
	parts = append(parts, OrNone(s.Server), OrNone(s.Web), selectionName(s))
	if s.Repeat > 1 {
		parts = append(parts, fmt.Sprintf("x%d", s.Repeat))
	}
	for i, p := range parts {
		parts[i] = fileSafe(p)
	}
	return strings.Join(parts, "-")
}

// isDefaultRun reports whether s asks for what `make bench` runs.
func isDefaultRun(s Settings) bool {
	return s.Agent == "replay" && s.Model == "" && s.Server == "builtin" && s.Web == "replay" &&
		s.AllTasks && s.Repeat <= 1
}

func selectionName(s Settings) string {
	switch {
	case s.AllTasks:
		return "all"
	case len(s.Tasks) == 1:
		return s.Tasks[0]
	}
	sum := sha256.Sum256([]byte(strings.Join(s.Tasks, "\n")))
	return fmt.Sprintf("%dtasks-%s", len(s.Tasks), hex.EncodeToString(sum[:4]))
}

// ranModel reports whether agent ("random --seed 3" is the agent random)
// runs a model, so that its settings' model names one rather than saying
// that none ran.
func ranModel(agent string) bool {
	name, _, _ := strings.Cut(agent, " ")
	switch name {
	case "replay", "mock", "reference", "noop", "random":
		return false
	}
	return true
}

// fileSafe replaces each run of characters SafeName rejects with one
// '_', and drops those at either end: "meta/llama 3 (beta)" becomes
// "meta_llama_3_beta".
func fileSafe(s string) string {
	var b strings.Builder
	pending := false
	for _, c := range s {
		if SafeName(string(c)) || c == '.' {
			if pending && b.Len() > 0 {
				b.WriteByte('_')
			}
			pending = false
			b.WriteRune(c)
			continue
		}
		pending = true
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// AgentLabel says in words what played the agent of a run, for every view:
// a reader must never take replayed or scripted tool calls for a model's
// work.
func AgentLabel(s Settings) string {
	switch s.Agent {
	case "replay", "mock":
		return "replayed transcripts, no model ran"
	case "reference":
		return "the tasks' scripted reference solutions, no model ran"
	case "noop", "random":
		return "null agent " + s.Agent + ", no model ran"
	case "":
		return "agent not recorded"
	}
	if s.Model != "" {
		return s.Agent + " model " + s.Model
	}
	return s.Agent + " model (the provider's default)"
}
