package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/suite"
)

// Timeout is every generated task's timeout: the sandbox suite's.
const Timeout = 180 * time.Second

// Source says where a generated suite's shared parts are: the sandbox's
// fixture web and its folder of files to upload.
type Source struct {
	WebDir, UploadsDir string
}

// Manifest is generated.json: how a generated suite was drawn, and for
// each instance its template, parameters and controls with the clause
// each must fail on.
type Manifest struct {
	Seed      uint64             `json:"seed"`
	Count     int                `json:"count"`
	Prefix    string             `json:"template_prefix,omitempty"`
	Instances []ManifestInstance `json:"instances"`
}

// ManifestInstance is one instance of a Manifest.
type ManifestInstance struct {
	ID       string            `json:"id"`
	Template string            `json:"template"`
	App      string            `json:"app"`
	Kind     Kind              `json:"kind"`
	Widgets  []Widget          `json:"widgets,omitempty"`
	Params   map[string]string `json:"params"`
	Controls []ManifestControl `json:"controls,omitempty"`
	// Alternates are the instance's alternates, which must pass.
	Alternates []ManifestAlternate `json:"alternates,omitempty"`
}

// ManifestAlternate is one alternate of an instance: its task id.
type ManifestAlternate struct {
	ID string `json:"id"`
}

// ManifestControl is one control of an instance: its task id and the
// index of the clause that must fail.
type ManifestControl struct {
	ID      string `json:"id"`
	FailsOn int    `json:"fails_on"`
}

// ManifestFile is the manifest's name in a generated suite.
const ManifestFile = "generated.json"

// WriteSuite writes drawn as a suite folder at dir, which must not exist
// or be empty: tasks/, controls/tasks/ (a task per control, with web and
// uploads links), alternates/tasks/ (a task per alternate, likewise), links web and uploads to src's folders, baseline.json
// (every task passes) and generated.json. It writes into a folder beside
// dir and renames it into place, so a failure leaves nothing behind.
func WriteSuite(dir string, drawn []Drawn, m Manifest, src Source) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s: exists and is not empty; generate writes a new suite folder", dir)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := writeSuite(tmp, dir, drawn, m, src); err != nil {
		return err
	}
	os.Remove(dir) // an empty folder, or none
	return os.Rename(tmp, dir)
}

func writeSuite(tmp, dir string, drawn []Drawn, m Manifest, src Source) error {
	for _, sub := range []string{"tasks", "controls/tasks", "alternates/tasks"} {
		if err := os.MkdirAll(filepath.Join(tmp, sub), 0o755); err != nil {
			return err
		}
	}
	if err := linkShared(tmp, dir, src); err != nil {
		return err
	}
	var ids []string
	for _, d := range drawn {
		mi := ManifestInstance{ID: d.ID, Template: d.Template.ID, App: d.Template.App, Kind: d.Template.Kind, Widgets: d.Template.Widgets, Params: d.Params}
		if err := writeTask(filepath.Join(tmp, "tasks"), d, d.ID, d.Reference, d.Tags()); err != nil {
			return err
		}
		// A control and an alternate are both named after their instance;
		// one name for two episodes would make one id mean two tasks.
		names := map[string]bool{}
		variant := func(kind, name string, ref []suite.Step) (string, error) {
			if names[name] {
				return "", fmt.Errorf("template %s: %s has two controls or alternates named %q", d.Template.ID, d.ID, name)
			}
			names[name] = true
			id := d.ID + "--" + name
			return id, writeTask(filepath.Join(tmp, kind+"s", "tasks"), d, id, ref, append(d.Tags(), kind))
		}
		for _, c := range d.Controls {
			id, err := variant("control", c.Name, c.Reference)
			if err != nil {
				return err
			}
			mi.Controls = append(mi.Controls, ManifestControl{ID: id, FailsOn: c.FailsOn})
		}
		for _, a := range d.Alternates {
			id, err := variant("alternate", a.Name, a.Reference)
			if err != nil {
				return err
			}
			mi.Alternates = append(mi.Alternates, ManifestAlternate{ID: id})
		}
		m.Instances = append(m.Instances, mi)
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	baseline := map[string]any{
		"expected_pass_count": len(ids),
		"tasks":               ids,
		"note":                "Every generated task's reference passes. Raise this, never lower it.",
	}
	if err := writeJSON(filepath.Join(tmp, "baseline.json"), baseline); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "README.md"), readme(m, len(drawn)), 0o644); err != nil {
		return err
	}
	return writeJSON(filepath.Join(tmp, ManifestFile), m)
}

// readme says what a generated suite is and how it was made.
func readme(m Manifest, n int) []byte {
	cmd := fmt.Sprintf("contractbench generate --seed %d --count %d", m.Seed, m.Count)
	if m.Prefix != "" {
		cmd += " --template " + m.Prefix
	}
	return []byte(fmt.Sprintf(`# A generated suite

%d tasks drawn from the task templates over the sandbox's five hand-made
applications (internal/generate, docs/benchmarks/generated.md) by

    %s

Nothing here is written by hand: the same command writes the same files.
Each task is an instance of a template (its tags name the application,
template, kind and widgets; %s has its parameters), with the
template's near-miss controls in controls/tasks, which must fail on the
clause %s names, and its alternates in alternates/tasks (other
reasonable ways to the asked outcome), which must pass. web and uploads link to the sandbox suite's
hand-made sites and files (benchmarks/sandbox).
`, n, cmd, ManifestFile, ManifestFile))
}

// linkShared links web and uploads (in the suite, its controls and its
// alternates) to
// src's folders, by paths relative to the suite's final place.
func linkShared(tmp, dir string, src Source) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for name, target := range map[string]string{"web": src.WebDir, "uploads": src.UploadsDir} {
		t, err := filepath.Abs(target)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(t); err != nil || !fi.IsDir() {
			return fmt.Errorf("%s: not a folder (the generated suite links its %s to it)", target, name)
		}
		rel, err := filepath.Rel(abs, t)
		if err != nil {
			return err
		}
		if err := os.Symlink(rel, filepath.Join(tmp, name)); err != nil {
			return err
		}
		for _, variants := range []string{"controls", "alternates"} {
			if err := os.Symlink(filepath.Join("..", name), filepath.Join(tmp, variants, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTask writes d as the task id with reference steps ref, and checks
// that the file reads back as a valid task.
func writeTask(dir string, d Drawn, id string, ref []suite.Step, tags []string) error {
	data, err := TaskYAML(d.Task(id, ref, tags))
	if err != nil {
		return fmt.Errorf("%s: %w", id, err)
	}
	file := filepath.Join(dir, id+".yaml")
	if _, err := suite.ParseTask(file, data); err != nil {
		return fmt.Errorf("template %s made an invalid task: %w", d.Template.ID, err)
	}
	return os.WriteFile(file, data, 0o644)
}

// Task is the task of d with id, reference steps ref (the instance's or
// a control's) and tags.
func (d *Drawn) Task(id string, ref []suite.Step, tags []string) *suite.Task {
	return &suite.Task{
		ID: id, Instruction: d.Instruction, StartURL: d.StartURL, Timeout: Timeout, Tags: tags,
		Postconditions: d.Contract, Reference: ref, Rationale: rationale(*d),
	}
}

func rationale(d Drawn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Generated from template %s (%s): %s.", d.Template.ID, d.Template.Kind, d.Template.Summary)
	if d.Rationale != "" {
		b.WriteString(" " + d.Rationale)
	}
	return b.String()
}

// TaskYAML renders t as a task file in the suite's format: the fields in
// the order authoring.md lists them, block style, the timeout as a
// duration.
func TaskYAML(t *suite.Task) ([]byte, error) {
	pc, err := json.Marshal(t.Postconditions)
	if err != nil {
		return nil, err
	}
	ref, err := json.Marshal(t.Reference)
	if err != nil {
		return nil, err
	}
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	add("id", str(t.ID))
	add("instruction", str(t.Instruction))
	if t.StartURL != "" {
		add("start_url", str(t.StartURL))
	}
	add("timeout", str(fmt.Sprintf("%gs", t.Timeout.Seconds())))
	tags := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, tag := range t.Tags {
		tags.Content = append(tags.Content, str(tag))
	}
	add("tags", tags)
	for _, f := range []struct {
		key  string
		json []byte
	}{{"postconditions", pc}, {"reference", ref}} {
		var n yaml.Node
		if err := yaml.Unmarshal(f.json, &n); err != nil {
			return nil, err
		}
		block(n.Content[0])
		add(f.key, n.Content[0])
	}
	add("rationale", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t.Rationale, Style: yaml.FoldedStyle})
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// block turns the flow style that JSON parses into block style, keeping
// short mappings of scalars (a target, a form) on one line.
func block(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		// A step with no arguments encodes them as null: leave them out.
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i+1].Tag != "!!null" {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		block(c)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" {
			n.Style = 0
			if strings.ContainsAny(n.Value, "\\'\"") || n.Value == "" {
				n.Style = yaml.SingleQuotedStyle
			}
		}
	case yaml.MappingNode, yaml.SequenceNode:
		n.Style = 0
		if len(n.Content) <= 6 && allScalars(n.Content) && (n.Kind == yaml.SequenceNode || n.Content[0].Value != "kind") {
			n.Style = yaml.FlowStyle
		}
	}
}

func allScalars(ns []*yaml.Node) bool {
	for _, n := range ns {
		if n.Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

func writeJSON(file string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
