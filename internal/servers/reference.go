package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"contractbench/internal/llm"
	"contractbench/internal/problem"
	"contractbench/internal/suite"
)

// ReferenceName is the provider name of every reference driver, recorded as
// the transcript's recorded_by.
const ReferenceName = "reference"

// Reference returns a provider that plays a task's reference solution on
// this server, one tool call per turn, then answers. The steps are written
// for the built-in server; see the package doc for how they become a
// peer's calls. A step that cannot be translated, a target missing from
// the snapshot, or a tool call that failed ends the play with an error
// from Next naming the step. The provider keeps state: use one per task
// attempt.
func (p *Profile) Reference(steps []suite.Step) llm.Provider {
	r := &reference{profile: p}
	r.plan, r.err = p.plan(steps)
	return r
}

// CheckReference reports whether every step of a reference solution can be
// played on this server, without playing it.
func (p *Profile) CheckReference(steps []suite.Step) error {
	_, err := p.plan(steps)
	return err
}

// op is one planned tool call. An op with a target is played in two turns:
// the snapshot tool, then the action on the element found in its reply.
type op struct {
	step   int
	from   string // the built-in tool of the step, for messages
	action Action
	call   llm.ToolCall
	target *suite.Target
	// values fill the action's placeholders; {ref} is added once the
	// target is found.
	values map[string]any
}

// builtinArgs are the arguments of the built-in steps the driver reads.
type builtinArgs struct {
	URL    string `json:"url"`
	Text   string `json:"text"`
	Submit bool   `json:"submit"`
	Key    string `json:"key"`
	Value  string `json:"value"`
}

// plan turns reference steps into the server's calls. A step that acts on
// an element (click, type, select_option) becomes two calls, played in two
// turns: a look at the page, then the action on the element the look found
// by the step's target.
func (p *Profile) plan(steps []suite.Step) ([]op, error) {
	var ops []op
	for i, s := range steps {
		if err := p.offersStep(i, s); err != nil {
			return nil, err
		}
		var a builtinArgs
		if len(s.Args) > 0 {
			if err := json.Unmarshal(s.Args, &a); err != nil {
				return nil, fmt.Errorf("reference[%d] (%s): args: %w", i, s.Tool, err)
			}
		}
		if p.format == FormatBuiltin && !slices.Contains(suite.TargetTools, s.Tool) {
			// A step on no element is a built-in call: played as written.
			ops = append(ops, op{step: i, from: s.Tool, call: llm.ToolCall{Name: s.Tool, Args: s.Args}})
			continue
		}
		if s.Tool == "find" {
			// A lookup for the model's benefit: the driver finds targets
			// in the snapshot it takes before acting.
			continue
		}
		action, values, ok := builtinAction(s.Tool, a)
		if !ok {
			return nil, fmt.Errorf("reference[%d]: the %s driver has no translation of the built-in tool %q", i, p.name, s.Tool)
		}
		if _, ok := p.actions[action]; !ok {
			return nil, fmt.Errorf("reference[%d] (%s): server %s maps no %s action", i, s.Tool, p.name, action)
		}
		for ph, v := range values {
			if v == "" && ph != "{text}" {
				return nil, fmt.Errorf("reference[%d] (%s): no %s in args %s", i, s.Tool, strings.Trim(ph, "{}"), s.Args)
			}
		}
		target, err := elementTarget(i, s, action)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op{step: i, from: s.Tool, action: action, values: values, target: target})
	}
	return ops, nil
}

// offersStep checks that a built-in server limited to some tools offers
// those step i plays: its own, and find for a step on an element.
func (p *Profile) offersStep(i int, s suite.Step) error {
	if p.format != FormatBuiltin || p.allow == nil {
		return nil
	}
	need := []string{s.Tool}
	if slices.Contains(suite.TargetTools, s.Tool) {
		need = append(need, "find")
	}
	for _, tool := range need {
		if !slices.Contains(p.allow, tool) {
			return fmt.Errorf("reference[%d]: server %s offers no tool %q (it offers %s)", i, p.name, tool, strings.Join(p.allow, ", "))
		}
	}
	return nil
}

// builtinAction translates a built-in tool and its arguments into the
// action of a peer and the values of its placeholders; false when the
// tool has no translation.
func builtinAction(tool string, a builtinArgs) (Action, map[string]any, bool) {
	switch tool {
	case "read_page":
		return ActRead, nil, true
	case "navigate":
		return ActNavigate, map[string]any{"{url}": a.URL}, true
	case "go_back":
		return ActBack, nil, true
	case "press_key":
		return ActPressKey, map[string]any{"{key}": a.Key}, true
	case "click":
		return ActClick, nil, true
	case "type":
		return ActType, map[string]any{"{text}": a.Text, "{submit}": a.Submit}, true
	case "select_option":
		return ActSelect, map[string]any{"{value}": a.Value}, true
	}
	return "", nil, false
}

// elementTarget is the target of step i when its action acts on an
// element, nil otherwise. The element is found by role and name, so the
// step must give a target of a known role.
func elementTarget(i int, s suite.Step, action Action) (*suite.Target, error) {
	if action != ActClick && action != ActType && action != ActSelect {
		return nil, nil
	}
	if s.Target == nil {
		return nil, fmt.Errorf("reference[%d] (%s): no target: the element is found by its target (role and accessible name), never by a ref", i, s.Tool)
	}
	if _, ok := targetRoles[s.Target.Role]; !ok {
		return nil, fmt.Errorf("reference[%d] (%s): target role %q is not one of %s", i, s.Tool, s.Target.Role, strings.Join(suite.TargetRoles, ", "))
	}
	return s.Target, nil
}

// reference is the provider Reference returns.
type reference struct {
	profile *Profile
	plan    []op
	err     error
	next    int
	calls   int
	// sent is the call of the previous turn, whose result the next turn
	// checks, and sentOp the index in plan of the op it belongs to.
	sent   *llm.ToolCall
	sentOp int
	// waiting is the op whose target the snapshot just sent is for.
	waiting *op
}

func (r *reference) Name() string  { return ReferenceName }
func (r *reference) Model() string { return "" }

// Next returns the next call of the plan, or the final answer.
func (r *reference) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	if r.err != nil {
		return llm.Response{}, r.err
	}
	var reply string
	if r.sent != nil {
		res, err := resultOf(req, *r.sent)
		if err != nil {
			return llm.Response{}, r.fail(err)
		}
		if res.IsError {
			return llm.Response{}, r.fail(fmt.Errorf("%s failed: %s", r.sent.Name, problem.Bound(res.Content, 600)))
		}
		reply = res.Content
		r.sent = nil
	}
	if w := r.waiting; w != nil {
		r.waiting = nil
		call, err := r.act(w, reply)
		if err != nil {
			return llm.Response{}, r.fail(err)
		}
		return r.send(call, r.sentOp), nil
	}
	if r.next >= len(r.plan) {
		return llm.Response{Text: fmt.Sprintf("%s on %s: all %d steps done", ReferenceName, r.profile.name, len(r.plan)), StopReason: "end_turn"}, nil
	}
	i := r.next
	o := r.plan[i]
	r.next++
	if o.call.Name != "" {
		return r.send(o.call, i), nil
	}
	if o.target != nil {
		// Look first; the next turn acts on what the look shows.
		call, err := r.profile.look(*o.target)
		if err != nil {
			return llm.Response{}, r.failOp(&o, err)
		}
		r.waiting = &o
		return r.send(call, i), nil
	}
	call, err := r.profile.render(o.action, o.values)
	if err != nil {
		return llm.Response{}, r.failOp(&o, err)
	}
	return r.send(call, i), nil
}

// act finds w's target in the snapshot reply and returns the action on it.
// A type that should submit on a server whose type action cannot is
// followed by an Enter key press, planned right after it.
func (r *reference) act(w *op, reply string) (llm.ToolCall, error) {
	p := r.profile
	snap, err := parseSnapshot(p.format, reply)
	if err != nil {
		return llm.ToolCall{}, fmt.Errorf("reading the %s reply: %w; reply begins %q", p.lookTool(), err, problem.Bound(reply, 300))
	}
	snap.tool = p.lookTool()
	t := w.target
	what := fmt.Sprintf("%s %q", t.Role, t.Name)
	if t.Href != "" {
		what += fmt.Sprintf(" to a URL containing %q", t.Href)
	}
	fits := snap.find(*t)
	switch {
	case len(fits) == 0:
		more := ""
		if snap.partial {
			more = " (the reply lists only some of them)"
		}
		return llm.ToolCall{}, fmt.Errorf("no %s in the %s reply (page %s); %s%s", what, snap.tool, snap.pageURL, snap.candidates(*t), more)
	case !snap.same(fits):
		return llm.ToolCall{}, fmt.Errorf("%s is ambiguous in the %s reply (page %s): %d elements fit: %s; add href (for a link) or name another element", what, snap.tool, snap.pageURL, len(fits), describe(fits, len(fits)))
	}
	e := fits[0]
	values := map[string]any{"{ref}": e.ref}
	for k, v := range w.values {
		values[k] = v
	}
	if w.action == ActType && values["{submit}"] == true && !p.actions[ActType].uses("{submit}") {
		enter := op{step: w.step, from: w.from, action: ActPressKey, values: map[string]any{"{key}": "Enter"}}
		r.plan = append(r.plan[:r.next], append([]op{enter}, r.plan[r.next:]...)...)
	}
	return p.render(w.action, values)
}

func (r *reference) send(call llm.ToolCall, opIndex int) llm.Response {
	r.calls++
	call.ID = fmt.Sprintf("ref_%d", r.calls)
	r.sent, r.sentOp = &call, opIndex
	return llm.Response{ToolCalls: []llm.ToolCall{call}, StopReason: "tool_use"}
}

// fail names the step whose call was last sent.
func (r *reference) fail(err error) error {
	return r.failOp(&r.plan[r.sentOp], err)
}

func (r *reference) failOp(o *op, err error) error {
	r.err = fmt.Errorf("%s on %s: reference[%d] (%s): %w", ReferenceName, r.profile.name, o.step, o.from, err)
	return r.err
}

// resultOf finds the result of call in the request's last turn.
func resultOf(req llm.Request, call llm.ToolCall) (llm.ToolResult, error) {
	if n := len(req.Messages); n > 0 {
		for _, res := range req.Messages[n-1].ToolResults {
			if res.CallID == call.ID {
				return res, nil
			}
		}
	}
	return llm.ToolResult{}, fmt.Errorf("the request carries no result for call %s (%s)", call.ID, call.Name)
}

// look returns the call that shows the page before acting on t: the
// built-in server's find, asked for t's role and name (a field by its name
// alone, as its role may be textbox or another), or a peer's snapshot.
func (p *Profile) look(t suite.Target) (llm.ToolCall, error) {
	if p.format != FormatBuiltin {
		return p.render(ActRead, nil)
	}
	query := t.Name
	if t.Role != "field" {
		query = "role:" + builtinRoles[t.Role] + " " + t.Name
	}
	args, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		return llm.ToolCall{}, err
	}
	return llm.ToolCall{Name: "find", Args: args}, nil
}

// lookTool is the tool look calls.
func (p *Profile) lookTool() string {
	if p.format == FormatBuiltin {
		return "find"
	}
	return p.Tool(ActRead)
}

// render builds an action's call, filling its placeholders from values.
func (p *Profile) render(a Action, values map[string]any) (llm.ToolCall, error) {
	t, ok := p.actions[a]
	if !ok {
		return llm.ToolCall{}, fmt.Errorf("server %s maps no %s action", p.name, a)
	}
	args, err := fillArgs(t.args, values)
	if err != nil {
		return llm.ToolCall{}, fmt.Errorf("%s: %w", a, err)
	}
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return llm.ToolCall{}, fmt.Errorf("%s: %w", a, err)
	}
	return llm.ToolCall{Name: t.tool, Args: raw}, nil
}

// fillArgs returns a copy of v with every string that is a placeholder
// replaced by its value.
func fillArgs(v map[string]any, values map[string]any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	out := make(map[string]any, len(v))
	for k, x := range v {
		filled, err := fillValue(x, values)
		if err != nil {
			return nil, err
		}
		out[k] = filled
	}
	return out, nil
}

func fillValue(x any, values map[string]any) (any, error) {
	switch x := x.(type) {
	case string:
		if !placeholderPattern.MatchString(x) {
			return x, nil
		}
		val, ok := values[x]
		if !ok {
			return nil, fmt.Errorf("no value for %s", x)
		}
		return val, nil
	case map[string]any:
		return fillArgs(x, values)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			f, err := fillValue(e, values)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	return x, nil
}

// uses reports whether the template's args mention placeholder ph.
func (t template) uses(ph string) bool {
	var walk func(x any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case string:
			return x == ph
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(t.args)
}
