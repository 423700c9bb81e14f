package nullagent

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"contractbench/internal/llm"
	"contractbench/internal/servers"
)

// The null agents: players that do not try to do the task. A contract
// that one of them satisfies does not tell a finished task from an
// unfinished one, so every suite must score 0 with both. No model runs in
// either.
const (
	// NameNoop answers at once and calls no tool.
	NameNoop = "noop"
	// NameRandom plays seeded random actions on whatever page it is on.
	NameRandom = "random"
)

// Noop is the null agent that does nothing: its first turn is its final
// answer, without a tool call.
type Noop struct{}

func (Noop) Name() string  { return NameNoop }
func (Noop) Model() string { return "" }

// Next answers at once.
func (Noop) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	return llm.Response{Text: "noop: a null agent answered at once, without a tool call; no model ran", StopReason: "end_turn"}, nil
}

// randomSteps is the most tool calls a random agent makes before it
// answers: about half of them reads, so some fifteen actions, well within
// the default cap of tool iterations and a task's timeout.
const randomSteps = 30

// Random is the null agent that acts at random on the page it is on. It
// reads the page with the server's read action, picks one of the links,
// buttons or fields the reply shows, and clicks it, types random words
// into it (submitting or not), presses a key (PageDown, End, Tab, Enter,
// Escape...), goes back, or reads again; then it reads the page afresh and
// picks again, until it has made randomSteps calls. It never navigates to
// a URL of its own: it goes only where the page leads.
//
// Every call goes through the tool server's actions mapping (see package
// servers), so it plays on any server of servers.yaml, and only tools the
// session offers are used. The choices come from a PCG generator seeded
// with the seed alone: the same seed on the same page makes the same
// calls. A random agent keeps state; use one per task attempt.
type Random struct {
	server *servers.Profile
	seed   uint64
	rng    *rand.Rand
	made   int
	err    error

	// sent is the call of the previous turn, whose result the next turn
	// reads, and action what it played.
	sent   *llm.ToolCall
	action servers.Action
	// controls are what the last read showed, and fresh says whether no
	// action has been played since.
	controls []servers.Control
	fresh    bool
}

// NewRandom returns a random agent that plays on server with seed.
func NewRandom(server *servers.Profile, seed uint64) *Random {
	return &Random{server: server, seed: seed, rng: rand.New(rand.NewPCG(seed, 0))}
}

func (r *Random) Name() string  { return NameRandom }
func (r *Random) Model() string { return "" }

// randomKeys are the keys a random agent presses: scrolling keys, focus
// moves, and the keys that activate or dismiss what has focus.
var randomKeys = []string{"PageDown", "PageUp", "End", "Home", "ArrowDown", "ArrowUp", "Tab", "Enter", "Escape"}

// randomWords are what a random agent types, one to three of them: common
// words that name nothing in particular.
var randomWords = []string{
	"apple", "river", "yellow", "window", "seven", "garden", "paper", "quiet",
	"stone", "lamp", "orange", "bridge", "cloud", "pencil", "winter", "table",
	"silver", "forest", "candle", "morning", "button", "little", "ocean", "chair",
}

// Roles a random agent clicks, and roles it types into, as the three
// servers write them.
var (
	clickRoles = []string{"link", "button", "checkbox", "radio", "switch", "tab", "menuitem",
		"menuitemcheckbox", "menuitemradio", "option", "treeitem", "clickable", "summary"}
	typeRoles = []string{"textbox", "searchbox", "combobox", "spinbutton"}
)

// Next reads the result of the previous call and returns the next one, or
// the final answer once randomSteps calls have been made.
func (r *Random) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	if r.err != nil {
		return llm.Response{}, r.err
	}
	if sent := r.sent; sent != nil {
		if err := r.receive(req); err != nil {
			r.err = fmt.Errorf("%s (seed %d), call %d (%s): %w", NameRandom, r.seed, r.made, sent.Name, err)
			return llm.Response{}, r.err
		}
	}
	if r.made >= randomSteps {
		return llm.Response{Text: fmt.Sprintf("%s (seed %d): a null agent made %d random tool calls; no model ran", NameRandom, r.seed, r.made),
			StopReason: "end_turn"}, nil
	}
	offered := make(map[string]bool, len(req.Tools))
	for _, t := range req.Tools {
		offered[t.Name] = true
	}
	action, values := r.choose(offered)
	if action == "" {
		return llm.Response{Text: fmt.Sprintf("%s (seed %d): the session offers none of the tools of server %s's actions; no model ran", NameRandom, r.seed, r.server.Name()),
			StopReason: "end_turn"}, nil
	}
	call, err := r.server.Call(action, values)
	if err != nil {
		r.err = fmt.Errorf("%s (seed %d): %w", NameRandom, r.seed, err)
		return llm.Response{}, r.err
	}
	r.made++
	call.ID = fmt.Sprintf("random_%d", r.made)
	r.sent, r.action = &call, action
	if action != servers.ActRead {
		r.fresh = false
	}
	return llm.Response{ToolCalls: []llm.ToolCall{call}, StopReason: "tool_use"}, nil
}

// receive reads the result of the call sent last. A read that succeeded
// replaces the controls; a tool error (a click on a covered element, a
// page that is gone) is part of playing at random and is not.
func (r *Random) receive(req llm.Request) error {
	call := *r.sent
	r.sent = nil
	var res *llm.ToolResult
	if n := len(req.Messages); n > 0 {
		for i, tr := range req.Messages[n-1].ToolResults {
			if tr.CallID == call.ID {
				res = &req.Messages[n-1].ToolResults[i]
			}
		}
	}
	if res == nil {
		return errors.New("the request carries no result for it")
	}
	if r.action != servers.ActRead || res.IsError {
		return nil
	}
	_, controls, err := r.server.Controls(res.Content)
	if err != nil {
		return err
	}
	r.controls = r.controls[:0]
	for _, c := range controls {
		if !c.Disabled && (slices.Contains(clickRoles, c.Role) || slices.Contains(typeRoles, c.Role)) {
			r.controls = append(r.controls, c)
		}
	}
	r.fresh = true
	return nil
}

// choose picks the next action among those whose tool is offered: a read
// when the page may have changed since the last one, otherwise a weighted
// pick of click, type, key, back and read.
func (r *Random) choose(offered map[string]bool) (servers.Action, map[string]any) {
	can := func(a servers.Action) bool { return offered[r.server.Tool(a)] }
	if !r.fresh && can(servers.ActRead) {
		return servers.ActRead, nil
	}
	var clicks, fields []servers.Control
	for _, c := range r.controls {
		if slices.Contains(typeRoles, c.Role) {
			fields = append(fields, c)
		} else {
			clicks = append(clicks, c)
		}
	}
	type option struct {
		action servers.Action
		weight int
	}
	var options []option
	add := func(a servers.Action, weight int, ok bool) {
		if ok && can(a) {
			options = append(options, option{a, weight})
		}
	}
	add(servers.ActClick, 6, len(clicks) > 0)
	add(servers.ActType, 2, len(fields) > 0)
	add(servers.ActPressKey, 2, true)
	add(servers.ActBack, 1, true)
	add(servers.ActRead, 1, true)
	total := 0
	for _, o := range options {
		total += o.weight
	}
	if total == 0 {
		return "", nil
	}
	n := r.rng.IntN(total)
	var action servers.Action
	for _, o := range options {
		if n < o.weight {
			action = o.action
			break
		}
		n -= o.weight
	}
	switch action {
	case servers.ActClick:
		return action, map[string]any{"{ref}": clicks[r.rng.IntN(len(clicks))].Ref}
	case servers.ActType:
		words := make([]string, 1+r.rng.IntN(3))
		for i := range words {
			words[i] = randomWords[r.rng.IntN(len(randomWords))]
		}
		field := fields[r.rng.IntN(len(fields))]
		return action, map[string]any{"{ref}": field.Ref, "{text}": strings.Join(words, " "), "{submit}": r.rng.IntN(2) == 0}
	case servers.ActPressKey:
		return action, map[string]any{"{key}": randomKeys[r.rng.IntN(len(randomKeys))]}
	}
	return action, nil
}
