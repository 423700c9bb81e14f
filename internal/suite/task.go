package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/contract"
	"contractbench/internal/problem"
)

// Task is one benchmark task: what the agent is asked to do and the
// contract its outcome must satisfy.
type Task struct {
	// ID equals the file name without extension (task-01-example-com-title).
	ID string `json:"id"`
	// Instruction is what the agent is asked, in a user's words.
	Instruction string `json:"instruction"`
	// StartURL is where the browser is before the agent's first step;
	// empty means about:blank.
	StartURL string `json:"start_url,omitempty"`
	// Timeout bounds the whole task: agent loop and judging.
	Timeout time.Duration `json:"timeout"`
	// Budget lowers the default caps for this task; zero fields keep them.
	Budget Budget   `json:"budget,omitzero"`
	Tags   []string `json:"tags,omitempty"`
	// Postconditions must all hold on the browser's final state.
	Postconditions contract.Postconditions `json:"postconditions"`
	// Reference is the scripted solution for the built-in tool server.
	Reference []Step `json:"reference"`
	// Rationale says why the task is stable and what its contract pins.
	Rationale string `json:"rationale"`
	// AllowUnsafe lists tools that could forge the evidence (a peer
	// server's script or DOM tools) which this task nevertheless offers to
	// the agent. A task in which one was called is tainted.
	AllowUnsafe []string `json:"allow_unsafe,omitempty"`

	// File is the path the task was loaded from; not part of the spec.
	File string `json:"-"`
}

// Budget holds per-task overrides of the agent's caps. A zero field keeps
// the default; the runner refuses values above the defaults.
type Budget struct {
	MaxTokensPerTurn  int     `json:"max_tokens_per_turn,omitempty"`
	MaxToolIterations int     `json:"max_tool_iterations,omitempty"`
	MaxUSD            float64 `json:"max_usd,omitempty"`
}

// Step is one tool call of a reference solution.
type Step struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	// Target describes, in terms any tool server can match, the element a
	// click, type or select_option step acts on. Args never name it by a
	// ref: every server's reference driver finds the target in a snapshot
	// it takes just before acting.
	Target *Target `json:"target,omitempty"`
	// To, for a drag step, is the element the dragged one is dropped on.
	To *Target `json:"to,omitempty"`
}

// Target identifies an element on the page independently of any tool
// server's refs.
type Target struct {
	// Role is link, button, field (anything typed into), select (a
	// drop-down list), tab (a tab of a tab widget), option (an option of
	// a listbox, such as an autocomplete's suggestions) or region (a
	// landmark with role=region and a label, such as a drop zone).
	Role string `json:"role"`
	// Name is the element's accessible name (its text or label), compared
	// after folding white space.
	Name string `json:"name"`
	// Href, for a link, is a part of the URL it points to.
	Href string `json:"href,omitempty"`
}

// TargetRoles are the roles a Target may have.
var TargetRoles = []string{"link", "button", "field", "select", "tab", "option", "region"}

// TargetTools are the reference tools that act on an element, and so need
// a target. A drag step also needs To, the element it drops onto; an
// upload_file step's target is the file input (role button, named by its
// label).
var TargetTools = []string{"click", "type", "select_option", "drag", "upload_file"}

// maxTimeout bounds a task's timeout so a typo cannot stall a run for hours.
const maxTimeout = 30 * time.Minute

// minTimeout is the shortest timeout a task may have. The timeout is the
// agent's (its turns and tool calls, not the harness's set-up or
// judging), and a tool call that loads a page takes seconds on a busy
// machine: a shorter one would measure the machine, not the agent.
const minTimeout = 10 * time.Second

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// ParseTask decodes and validates one task spec. file names the source in
// problems and must be the task's file name: the id has to match it. Every
// problem found is returned together, as problem.List.
func ParseTask(file string, data []byte) (*Task, error) {
	d := &taskDecoder{problem.Collector{File: file}}
	root := d.Document(data)
	if root == nil {
		return nil, d.List
	}
	t := d.task(root)
	if ps := d.Result(); ps != nil {
		return nil, ps
	}
	t.File = file
	return t, nil
}

// taskDecoder walks a task file's YAML tree with the problem package's
// decoding kit, collecting its problems.
type taskDecoder struct {
	problem.Collector
}

func (d *taskDecoder) task(n *yaml.Node) *Task {
	f := d.Fields(n, "", []string{"id", "instruction", "timeout", "rationale"},
		[]string{"start_url", "budget", "tags", "postconditions", "reference", "allow_unsafe"})
	t := &Task{}
	want := strings.TrimSuffix(filepath.Base(d.File), filepath.Ext(d.File))
	t.ID = d.Text(f["id"], "id")
	if t.ID != "" {
		switch {
		case !idPattern.MatchString(t.ID):
			d.Add(f["id"], "id", "%q must be lower-case letters, digits and dashes", t.ID)
		case t.ID != want:
			d.Add(f["id"], "id", "%q must equal the file name %q", t.ID, want)
		}
	}
	t.Instruction = d.Text(f["instruction"], "instruction")
	if v := f["start_url"]; v != nil {
		t.StartURL = d.Text(v, "start_url")
		if t.StartURL != "" {
			if u, err := url.Parse(t.StartURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				d.Add(v, "start_url", "%q must be an absolute http(s) URL", t.StartURL)
			}
		}
	}
	t.Timeout = d.timeout(f["timeout"])
	if v := f["budget"]; v != nil {
		t.Budget = d.budget(v)
	}
	t.Tags = d.Strings(f["tags"], "tags")
	if v := f["postconditions"]; v == nil {
		d.Add(n, "postconditions", "missing (a task needs at least one postcondition)")
	} else {
		pc, errs := contract.DecodePostconditions(v, "postconditions")
		d.List = append(d.List, errs.In(d.File)...)
		t.Postconditions = pc
	}
	if v := f["reference"]; v == nil {
		d.Add(n, "reference", "missing (the scripted solution: a list of {tool, args})")
	} else {
		t.Reference = d.reference(v)
	}
	t.Rationale = d.Text(f["rationale"], "rationale")
	t.AllowUnsafe = d.Strings(f["allow_unsafe"], "allow_unsafe")
	return t
}

func (d *taskDecoder) timeout(n *yaml.Node) time.Duration {
	s := d.Text(n, "timeout")
	if s == "" {
		return 0
	}
	t, err := time.ParseDuration(s)
	switch {
	case err != nil:
		d.Add(n, "timeout", "%q is not a duration (write 90s or 2m)", s)
	case t < minTimeout || t > maxTimeout:
		d.Add(n, "timeout", "%s must be at least %s (starting the browser and the tool server alone takes seconds) and at most %s", t, minTimeout, maxTimeout)
	}
	return t
}

func (d *taskDecoder) budget(n *yaml.Node) Budget {
	f := d.Fields(n, "budget", nil, []string{"max_tokens_per_turn", "max_tool_iterations", "max_usd"})
	var b Budget
	b.MaxTokensPerTurn = d.positiveInt(f["max_tokens_per_turn"], "budget.max_tokens_per_turn")
	b.MaxToolIterations = d.positiveInt(f["max_tool_iterations"], "budget.max_tool_iterations")
	if x, ok := d.Number(f["max_usd"], "budget.max_usd"); ok {
		if x <= 0 {
			d.Add(f["max_usd"], "budget.max_usd", "%v must be a positive number of US dollars", x)
		}
		b.MaxUSD = x
	}
	return b
}

func (d *taskDecoder) positiveInt(n *yaml.Node, path string) int {
	x, ok := d.Int(n, path)
	if ok && x <= 0 {
		d.Add(n, path, "%d must be a positive integer", x)
		return 0
	}
	return x
}

func (d *taskDecoder) reference(n *yaml.Node) []Step {
	items, ok := d.Seq(n, "reference")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.Add(n, "reference", "empty: the scripted solution needs at least one step")
		return nil
	}
	steps := make([]Step, 0, len(items))
	for i, c := range items {
		p := problem.Index("reference", i)
		f := d.Fields(c, p, []string{"tool"}, []string{"args", "target", "to"})
		s := Step{Tool: d.Text(f["tool"], p+".tool"), Args: json.RawMessage(`{}`)}
		if t := f["target"]; t != nil {
			s.Target = d.target(t, p+".target")
		}
		switch to := f["to"]; {
		case to != nil && s.Tool != "drag":
			d.Add(to, problem.Join(p, "to"), "only a drag step has a to (the element it drops onto), not a %s step", s.Tool)
		case to != nil:
			s.To = d.target(to, p+".to")
		case s.Tool == "drag":
			d.Add(c, problem.Join(p, "to"), "missing (a drag step names the element it drops onto by to: {role, name[, href]})")
		}
		if a := f["args"]; a != nil {
			if pairs, ok := d.Pairs(a, p+".args"); ok {
				for _, kv := range pairs {
					if kv.Key == "ref" {
						d.Add(kv.K, problem.Join(p+".args", "ref"), "a reference names its element by target (role and accessible name), never by a server's ref; `contractbench snapshot URL` shows the roles and names")
					}
				}
				if raw, err := nodeJSON(a); err != nil {
					d.Add(a, p+".args", "%v", err)
				} else {
					s.Args = raw
				}
			}
		}
		if s.Target == nil && slices.Contains(TargetTools, s.Tool) {
			d.Add(c, problem.Join(p, "target"), "missing (a %s step names its element by target: {role, name[, href]})", s.Tool)
		}
		steps = append(steps, s)
	}
	return steps
}

func (d *taskDecoder) target(n *yaml.Node, path string) *Target {
	f := d.Fields(n, path, []string{"role", "name"}, []string{"href"})
	t := &Target{Role: d.Text(f["role"], path+".role"), Name: d.Text(f["name"], path+".name")}
	t.Href = d.Text(f["href"], path+".href")
	if t.Role != "" && !slices.Contains(TargetRoles, t.Role) {
		d.Add(f["role"], path+".role", "%q must be one of %s", t.Role, strings.Join(TargetRoles, ", "))
	}
	return t
}

// nodeJSON converts a YAML mapping to JSON (encoding/json sorts map keys,
// so the result is canonical for mappings of scalars, lists and mappings).
func nodeJSON(n *yaml.Node) (json.RawMessage, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("cannot be expressed as JSON: %w", err)
	}
	return raw, nil
}

// Canonical returns the task spec as compact JSON with a fixed field order
// and the contract in its canonical form. Comments, key order and YAML
// style in the file do not change it; any change of meaning does.
// Transcripts carry the digest of AgentTask, the part of it the agent
// sees, not of the whole.
func (t *Task) Canonical() ([]byte, error) { return compactJSON(t) }

// Digests returns the SHA-256 digests ("sha256:" and hex) a result's
// provenance records of t: of its canonical spec (Canonical) and of its
// contract's canonical JSON. Editing any field changes the first; only a
// change of the contract's meaning changes the second.
func (t *Task) Digests() (spec, contract string, err error) {
	canon, err := t.Canonical()
	if err != nil {
		return "", "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	pc, err := t.Postconditions.MarshalJSON()
	if err != nil {
		return "", "", fmt.Errorf("task %s: contract: %w", t.ID, err)
	}
	return SHA256(canon), SHA256(pc), nil
}

// SHA256 is the digest of data as provenance records it: "sha256:" and
// the hex of its SHA-256.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// AgentTask returns, as compact JSON with a fixed field order, what the
// task asks of the agent: its id, instruction, start URL and the unsafe
// tools it offers. A transcript carries its digest (transcript.TaskDigest)
// and is replayed as long as these are unchanged. Everything else of the
// spec is the judge's or the reader's (postconditions, reference,
// timeout, budget, tags, rationale): editing it re-grades the recorded run
// instead of making its transcript stale.
func (t *Task) AgentTask() ([]byte, error) {
	v := struct {
		ID          string   `json:"id"`
		Instruction string   `json:"instruction"`
		StartURL    string   `json:"start_url,omitempty"`
		AllowUnsafe []string `json:"allow_unsafe,omitempty"`
	}{t.ID, t.Instruction, t.StartURL, t.AllowUnsafe}
	return compactJSON(v)
}

// compactJSON is v as compact JSON, in the field order of its type, with
// <, > and & as they are.
func compactJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
