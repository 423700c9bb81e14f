package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"contractbench/internal/llm"
	"contractbench/internal/problem"
	"contractbench/internal/suite"
)

// referenceName is the provider name of every reference driver, recorded as
// the transcript's recorded_by.
const referenceName = "reference"

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
	// to is a drag's destination, found in the same look as target, or in
	// a look of its own on the built-in server (whose find shows one
	// target at a time).
	to *suite.Target
	// waitTab, for a list_tabs op, is the tab number (from 1) the list
	// must show before the driver goes on: it lists again until it does.
	waitTab int
	// values fill the action's placeholders; {ref} is added once the
	// target is found.
	values map[string]any
}

// builtinArgs are the arguments of the built-in steps the driver reads.
type builtinArgs struct {
	URL    string   `json:"url"`
	Text   string   `json:"text"`
	Submit bool     `json:"submit"`
	Key    string   `json:"key"`
	Value  string   `json:"value"`
	Files  []string `json:"files"`
	Action string   `json:"action"`
	Index  int      `json:"index"`
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
		if s.Tool == "find" || (s.Tool == "tabs" && (a.Action == "" || a.Action == "list")) {
			// A lookup for the model's benefit: the driver finds targets
			// in the snapshot it takes before acting, and a peer lists its
			// tabs in replies of its own.
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
		if err := checkStepArgs(i, s, a); err != nil {
			return nil, err
		}
		target, err := elementTarget(i, s, action)
		if err != nil {
			return nil, err
		}
		if action == ActSelectTab {
			if _, ok := p.actions[ActListTabs]; ok {
				ops = append(ops, op{step: i, from: s.Tool, action: ActListTabs, waitTab: a.Index})
			}
		}
		o := op{step: i, from: s.Tool, action: action, values: values, target: target}
		if action == ActDrag {
			if o.to, err = checkTarget(i, s, s.To, "to"); err != nil {
				return nil, err
			}
		}
		ops = append(ops, o)
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
	case "drag":
		return ActDrag, nil, true
	case "upload_file":
		files, paths := make([]any, len(a.Files)), make([]any, len(a.Files))
		for i, f := range a.Files {
			files[i], paths[i] = f, uploadsFolder+"/"+f
		}
		return ActUpload, map[string]any{"{files}": files, "{paths}": paths}, true
	case "tabs":
		if a.Action != "switch" && a.Action != "select" {
			return "", nil, false
		}
		return ActSelectTab, map[string]any{"{index}": a.Index, "{index0}": a.Index - 1}, true
	}
	return "", nil, false
}

// checkStepArgs checks what builtinAction cannot say with a missing
// value: an upload names files that are plain names, and a tab switch a
// tab number.
func checkStepArgs(i int, s suite.Step, a builtinArgs) error {
	switch s.Tool {
	case "upload_file":
		if len(a.Files) == 0 {
			return fmt.Errorf("reference[%d] (%s): no files in args %s", i, s.Tool, s.Args)
		}
		for _, f := range a.Files {
			if f == "" || f == "." || f == ".." || strings.ContainsAny(f, `/\`) {
				return fmt.Errorf("reference[%d] (%s): file %q is not the name of a file in the suite's uploads folder", i, s.Tool, f)
			}
		}
	case "tabs":
		if a.Index < 1 {
			return fmt.Errorf("reference[%d] (%s): index must be a tab number from 1, not %d", i, s.Tool, a.Index)
		}
	}
	return nil
}

// elementTarget is the target of step i when its action acts on an
// element, nil otherwise. The element is found by role and name, so the
// step must give a target of a known role.
func elementTarget(i int, s suite.Step, action Action) (*suite.Target, error) {
	switch action {
	case ActClick, ActType, ActSelect, ActDrag, ActUpload:
		return checkTarget(i, s, s.Target, "target")
	}
	return nil, nil
}

// checkTarget checks a target of step i (its target, or a drag's to).
func checkTarget(i int, s suite.Step, t *suite.Target, field string) (*suite.Target, error) {
	if t == nil {
		return nil, fmt.Errorf("reference[%d] (%s): no %s: the element is found by its target (role and accessible name), never by a ref", i, s.Tool, field)
	}
	if _, ok := targetRoles[t.Role]; !ok {
		return nil, fmt.Errorf("reference[%d] (%s): %s role %q is not one of %s", i, s.Tool, field, t.Role, strings.Join(suite.TargetRoles, ", "))
	}
	return t, nil
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
	// waiting is the op whose target the snapshot just sent is for, and
	// found the values its looks have found so far ({ref} of a drag whose
	// {to} the next look finds).
	waiting *op
	found   map[string]any
	// polls counts the list_tabs calls of the op being waited on.
	polls int
}

// maxTabPolls bounds how many times the driver lists the tabs waiting for
// a new one to show: a server that learns of new tabs from the browser's
// events (chrome-devtools-mcp) may not list a tab a click just opened.
const maxTabPolls = 50

// tabListed reports whether a list_tabs reply lists tab n (from 1):
// chrome-devtools-mcp writes a line "n: title (url)" per page, numbered
// from 1 in the order the pages opened.
func tabListed(reply string, n int) bool {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^\s*%d: `, n)).MatchString(reply)
}

func (r *reference) Name() string  { return referenceName }
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
		if o := r.plan[r.sentOp]; o.waitTab > 0 && !tabListed(reply, o.waitTab) {
			r.polls++
			if r.polls >= maxTabPolls {
				return llm.Response{}, r.fail(fmt.Errorf("tab %d is not listed after %d lists; the last: %s", o.waitTab, r.polls, problem.Bound(reply, 300)))
			}
			call, err := r.profile.Call(ActListTabs, nil)
			if err != nil {
				return llm.Response{}, r.fail(err)
			}
			return r.send(call, r.sentOp), nil
		}
	}
	if w := r.waiting; w != nil {
		r.waiting = nil
		call, more, err := r.act(w, reply)
		if err != nil {
			return llm.Response{}, r.fail(err)
		}
		if more {
			r.waiting = w
		}
		return r.send(call, r.sentOp), nil
	}
	if r.next >= len(r.plan) {
		return llm.Response{Text: fmt.Sprintf("%s on %s: all %d steps done", referenceName, r.profile.name, len(r.plan)), StopReason: "end_turn"}, nil
	}
	i := r.next
	o := r.plan[i]
	r.next++
	r.polls = 0
	if o.call.Name != "" {
		return r.send(o.call, i), nil
	}
	if o.target != nil {
		// Look first; the next turn acts on what the look shows.
		r.found = nil
		call, err := r.profile.look(*o.target, o.action)
		if err != nil {
			return llm.Response{}, r.failOp(&o, err)
		}
		r.waiting = &o
		return r.send(call, i), nil
	}
	call, err := r.profile.Call(o.action, o.values)
	if err != nil {
		return llm.Response{}, r.failOp(&o, err)
	}
	return r.send(call, i), nil
}

// act finds w's target in the snapshot reply and returns the action on it.
// A type that should submit on a server whose type action cannot is
// followed by an Enter key press, planned right after it; an upload on a
// server that uploads into an open file chooser is a click on the input
// followed by the upload. A drag's destination is found in the same reply
// when it is there; otherwise (the built-in find shows one target) act
// returns a look for it, with more set: the next reply is for w too.
func (r *reference) act(w *op, reply string) (call llm.ToolCall, more bool, err error) {
	p := r.profile
	snap, err := parseSnapshot(p.format, reply)
	if err != nil {
		return llm.ToolCall{}, false, fmt.Errorf("reading the %s reply: %w; reply begins %q", p.lookTool(), err, problem.Bound(reply, 300))
	}
	snap.tool = p.lookTool()
	values := map[string]any{}
	for k, v := range w.values {
		values[k] = v
	}
	if r.found == nil {
		e, err := snap.pick(*w.target)
		if err != nil {
			return llm.ToolCall{}, false, err
		}
		r.found = map[string]any{"{ref}": e.ref}
		if w.to != nil {
			if e, err := snap.pick(*w.to); err == nil {
				r.found["{to}"] = e.ref
			} else if p.format != FormatBuiltin {
				return llm.ToolCall{}, false, fmt.Errorf("the drop target: %w", err)
			} else {
				call, err := p.look(*w.to, w.action)
				return call, true, err
			}
		}
	} else if w.to != nil {
		e, err := snap.pick(*w.to)
		if err != nil {
			return llm.ToolCall{}, false, fmt.Errorf("the drop target: %w", err)
		}
		r.found["{to}"] = e.ref
	}
	for k, v := range r.found {
		values[k] = v
	}
	r.found = nil
	if w.action == ActType && values["{submit}"] == true && !p.actions[ActType].uses("{submit}") {
		enter := op{step: w.step, from: w.from, action: ActPressKey, values: map[string]any{"{key}": "Enter"}}
		r.plan = append(r.plan[:r.next], append([]op{enter}, r.plan[r.next:]...)...)
	}
	if w.action == ActUpload && !p.actions[ActUpload].uses("{ref}") {
		// The click opens the input's file chooser; the upload fills it.
		upload := op{step: w.step, from: w.from, action: ActUpload, values: w.values}
		r.plan = append(r.plan[:r.next], append([]op{upload}, r.plan[r.next:]...)...)
		call, err := p.Call(ActClick, values)
		return call, false, err
	}
	call, err = p.Call(w.action, values)
	return call, false, err
}

// pick returns the one element of the snapshot that t names, or an error
// listing what is there instead.
func (s snapshot) pick(t suite.Target) (element, error) {
	what := fmt.Sprintf("%s %q", t.Role, t.Name)
	if t.Href != "" {
		what += fmt.Sprintf(" to a URL containing %q", t.Href)
	}
	fits := s.find(t)
	switch {
	case len(fits) == 0:
		more := ""
		if s.partial {
			more = " (the reply lists only some of them)"
		}
		return element{}, fmt.Errorf("no %s in the %s reply (page %s); %s%s", what, s.tool, s.pageURL, s.candidates(t), more)
	case !s.same(fits):
		return element{}, fmt.Errorf("%s is ambiguous in the %s reply (page %s): %d elements fit: %s; add href (for a link) or name another element", what, s.tool, s.pageURL, len(fits), describe(fits, len(fits)))
	}
	return fits[0], nil
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
	r.err = fmt.Errorf("%s on %s: reference[%d] (%s): %w", referenceName, r.profile.name, o.step, o.from, err)
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
func (p *Profile) look(t suite.Target, a Action) (llm.ToolCall, error) {
	if p.format != FormatBuiltin {
		if _, ok := p.actions[ActReadAll]; ok && t.Role == "option" {
			return p.Call(ActReadAll, nil)
		}
		return p.Call(ActRead, nil)
	}
	query := t.Name
	switch {
	case a == ActUpload:
		// A file input, which the peers' snapshots call a button.
		query = "role:file " + t.Name
	case t.Role != "field":
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

// Call returns the tool call that plays action a on this server, its
// placeholders filled from values ({url}, {ref}, {text}, {submit},
// {key}); a value the action's args do not use is ignored.
func (p *Profile) Call(a Action, values map[string]any) (llm.ToolCall, error) {
	t, ok := p.actions[a]
	if !ok {
		return llm.ToolCall{}, fmt.Errorf("server %s maps no %s action", p.name, a)
	}
	args, err := fill(t.args, values)
	if err != nil {
		return llm.ToolCall{}, fmt.Errorf("%s: %w", a, err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return llm.ToolCall{}, fmt.Errorf("%s: %w", a, err)
	}
	return llm.ToolCall{Name: t.tool, Args: raw}, nil
}

// fill returns a copy of x with every string that is a placeholder
// replaced by its value. A nil map is copied as an empty one: a call's
// arguments are an object.
func fill(x any, values map[string]any) (any, error) {
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
		out := make(map[string]any, len(x))
		for k, e := range x {
			f, err := fill(e, values)
			if err != nil {
				return nil, err
			}
			out[k] = f
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			f, err := fill(e, values)
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
