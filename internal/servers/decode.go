package servers

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/problem"
)

// formatVersion is the servers.yaml format this package reads. A file of
// another version is refused rather than half understood.
const formatVersion = 1

// Load reads and validates a servers.yaml. Every problem found is returned
// together, as a problem.List located by line and path
// ("servers.yaml:40: servers[1].allow[3]: ...").
func Load(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("servers: %w", err)
	}
	return parse(path, data)
}

// parse decodes the file's content; file names it in problems.
func parse(file string, data []byte) (*Set, error) {
	d := &decoder{problem.Collector{File: file}}
	root := d.Document(data)
	if root == nil {
		return nil, d.List
	}
	set := d.set(root)
	if ps := d.Result(); ps != nil {
		return nil, ps
	}
	return set, nil
}

// The command placeholders, filled by Profile.Command.
var commandPlaceholders = []string{"{self}", "{cdp_url}", "{browser_context}", "{root}", "{work_dir}", "{uploads}"}

// actionPlaceholders lists, per action, the placeholders its args may use;
// the required ones are those the action cannot do without.
var actionPlaceholders = map[Action]struct{ allowed, required []string }{
	ActNavigate: {[]string{"{url}"}, []string{"{url}"}},
	ActRead:     {},
	ActClick:    {[]string{"{ref}"}, []string{"{ref}"}},
	ActType:     {[]string{"{ref}", "{text}", "{submit}"}, []string{"{ref}", "{text}"}},
	ActPressKey: {[]string{"{key}"}, []string{"{key}"}},
	ActBack:     {},
	ActSelect:   {[]string{"{ref}", "{value}"}, []string{"{ref}", "{value}"}},
	ActDrag:     {[]string{"{ref}", "{to}"}, []string{"{ref}", "{to}"}},
	// An upload needs {files} or {paths}; action checks that.
	ActUpload:    {[]string{"{ref}", "{files}", "{paths}"}, nil},
	ActSelectTab: {[]string{"{index}", "{index0}"}, nil},
	ActReadAll:   {},
	ActListTabs:  {},
}

var (
	namePattern        = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	envNamePattern     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	versionPattern     = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	placeholderPattern = regexp.MustCompile(`\{[a-z_][a-z0-9_]*\}`)
)

// decoder walks a servers file's YAML tree with the problem package's
// decoding kit, collecting its problems.
type decoder struct {
	problem.Collector
}

func (d *decoder) set(n *yaml.Node) *Set {
	f := d.Fields(n, "", []string{"format_version", "servers"}, nil)
	if v, ok := d.Int(f["format_version"], "format_version"); ok && v != formatVersion {
		d.Add(f["format_version"], "format_version", "%d is not supported; this build reads format version %d", v, formatVersion)
	}
	set := &Set{file: d.File}
	v := f["servers"]
	if v == nil {
		return set
	}
	items, ok := d.Seq(v, "servers")
	if !ok {
		return set
	}
	if len(items) == 0 {
		d.Add(v, "servers", "empty: list at least one server")
		return set
	}
	seen := map[string]int{}
	for i, c := range items {
		path := problem.Index("servers", i)
		p := d.profile(c, path)
		if p.name != "" {
			if line, dup := seen[p.name]; dup {
				d.Add(c, path+".name", "%q is also the name of the server on line %d", p.name, line)
			}
			seen[p.name] = c.Line
		}
		set.profiles = append(set.profiles, p)
	}
	return set
}

func (d *decoder) profile(n *yaml.Node, path string) *Profile {
	f := d.Fields(n, path,
		[]string{"name", "command", "snapshot_format", "allow", "page_tools", "actions"},
		[]string{"package", "env", "pass_env", "unsafe", "excluded"})
	p := &Profile{}
	if v := f["name"]; v != nil {
		p.name = d.Text(v, path+".name")
		if p.name != "" && !namePattern.MatchString(p.name) {
			d.Add(v, path+".name", "%q must be lower-case letters, digits and dashes", p.name)
		}
	}
	if v := f["package"]; v != nil {
		p.pkg = d.pkg(v, path+".package")
	}
	if v := f["command"]; v != nil {
		p.command = d.command(v, path+".command", p.pkg != nil)
	}
	if v := f["env"]; v != nil {
		p.env = d.env(v, path+".env")
	}
	if v := f["pass_env"]; v != nil {
		p.passEnv = d.tools(v, path+".pass_env")
		for i, name := range p.passEnv {
			if name != "" && !envNamePattern.MatchString(name) {
				d.Add(v.Content[i], fmt.Sprintf("%s.pass_env[%d]", path, i), "%q is not an environment variable name", name)
			}
		}
	}
	if v := f["snapshot_format"]; v != nil {
		p.format = Format(d.Text(v, path+".snapshot_format"))
		if p.format != "" && !slices.Contains(formats, p.format) {
			d.Add(v, path+".snapshot_format", "%q must be one of %s", p.format, joinFormats())
		}
	}
	if v := f["unsafe"]; v != nil {
		p.unsafe = d.reasons(v, path+".unsafe")
	}
	if v := f["excluded"]; v != nil {
		p.excluded = d.reasons(v, path+".excluded")
		for tool := range p.excluded {
			if _, both := p.unsafe[tool]; both {
				d.Add(v, path+".excluded."+tool, "%q is also classed unsafe: a tool is in one class only", tool)
			}
		}
	}
	if v := f["allow"]; v != nil {
		p.allow = d.allow(v, path+".allow", p)
	}
	if v := f["page_tools"]; v != nil {
		p.page = d.tools(v, path+".page_tools")
		for i, tool := range p.page {
			if tool != "" && !slices.Contains(p.allow, tool) {
				d.Add(v.Content[i], problem.Index(path+".page_tools", i), "%q is not in allow", tool)
			}
		}
	}
	if v := f["actions"]; v != nil {
		p.actions = d.actions(v, path+".actions", p)
	}
	return p
}

func (d *decoder) pkg(n *yaml.Node, path string) *Package {
	f := d.Fields(n, path, []string{"name", "version"}, nil)
	pkg := &Package{}
	if v := f["name"]; v != nil {
		pkg.Name = d.Text(v, path+".name")
	}
	if v := f["version"]; v != nil {
		pkg.Version = d.Text(v, path+".version")
		if pkg.Version != "" && !versionPattern.MatchString(pkg.Version) {
			d.Add(v, path+".version", "%q must be an exact version (1.2.3), never a range: the benchmark pins what it measures", pkg.Version)
		}
	}
	return pkg
}

// command checks the argv: strings, known placeholders, the browser's
// endpoint passed, and {root} only where a package says what is there.
func (d *decoder) command(n *yaml.Node, path string, hasPackage bool) []string {
	items, ok := d.Seq(n, path)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.Add(n, path, "empty: the command is the server's argv")
		return nil
	}
	argv := make([]string, len(items))
	usesCDP := false
	for i, c := range items {
		p := problem.Index(path, i)
		argv[i] = d.Text(c, p)
		for _, ph := range placeholderPattern.FindAllString(argv[i], -1) {
			switch {
			case !slices.Contains(commandPlaceholders, ph):
				d.Add(c, p, "unknown placeholder %q (known: %s)", ph, strings.Join(commandPlaceholders, ", "))
			case ph == "{cdp_url}":
				usesCDP = true
			case ph == "{root}" && !hasPackage:
				d.Add(c, p, "uses {root} but the server names no package to install there")
			}
		}
	}
	if !usesCDP {
		d.Add(n, path, "never passes {cdp_url}: the server would drive a browser of its own, which the judge does not watch")
	}
	return argv
}

func (d *decoder) env(n *yaml.Node, path string) map[string]string {
	env := map[string]string{}
	pairs, _ := d.Pairs(n, path)
	for _, kv := range pairs {
		p := problem.Join(path, kv.Key)
		if !envNamePattern.MatchString(kv.Key) {
			d.Add(kv.K, p, "%q is not a variable name", kv.Key)
		}
		v, ok := d.Str(kv.V, p)
		if !ok {
			continue
		}
		for _, ph := range placeholderPattern.FindAllString(v, -1) {
			if !slices.Contains(commandPlaceholders, ph) {
				d.Add(kv.V, p, "unknown placeholder %q (known: %s)", ph, strings.Join(commandPlaceholders, ", "))
			}
		}
		env[kv.Key] = v
	}
	return env
}

// reasons decodes a tool -> reason mapping.
func (d *decoder) reasons(n *yaml.Node, path string) map[string]string {
	out := map[string]string{}
	pairs, _ := d.Pairs(n, path)
	for _, kv := range pairs {
		out[kv.Key] = d.Text(kv.V, problem.Join(path, kv.Key))
	}
	return out
}

// tools decodes a list of distinct tool names.
func (d *decoder) tools(n *yaml.Node, path string) []string {
	out := d.Strings(n, path)
	for i, tool := range out {
		if tool != "" && slices.Contains(out[:i], tool) {
			d.Add(n.Content[i], problem.Index(path, i), "%q is listed twice", tool)
		}
	}
	return out
}

// allow decodes the allow-list; a tool classed unsafe or excluded may not
// be in it.
func (d *decoder) allow(n *yaml.Node, path string, p *Profile) []string {
	tools := d.tools(n, path)
	if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		d.Add(n, path, "must offer at least one tool")
	}
	for i, tool := range tools {
		at := problem.Index(path, i)
		if why, ok := p.unsafe[tool]; ok {
			d.Add(n.Content[i], at, "%q is classed unsafe (%s): unsafe tools are offered only to a task that allows them, never in allow", tool, why)
		}
		if why, ok := p.excluded[tool]; ok {
			d.Add(n.Content[i], at, "%q is excluded (%s)", tool, why)
		}
	}
	return tools
}

func (d *decoder) actions(n *yaml.Node, path string, p *Profile) map[Action]template {
	var names, optional []string
	for _, a := range allActions {
		if slices.Contains(optionalActions, a) {
			optional = append(optional, string(a))
		} else {
			names = append(names, string(a))
		}
	}
	f := d.Fields(n, path, names, optional)
	out := map[Action]template{}
	for _, a := range allActions {
		if v := f[string(a)]; v != nil {
			out[a] = d.action(v, problem.Join(path, string(a)), a, p)
		}
	}
	return out
}

func (d *decoder) action(n *yaml.Node, path string, a Action, p *Profile) template {
	f := d.Fields(n, path, []string{"tool"}, []string{"args"})
	var t template
	if v := f["tool"]; v != nil {
		t.tool = d.Text(v, path+".tool")
		if t.tool != "" && p.allow != nil && !slices.Contains(p.allow, t.tool) {
			d.Add(v, path+".tool", "%q is not in allow: the reference driver plays only tools agents are offered", t.tool)
		}
	}
	rules := actionPlaceholders[a]
	used := map[string]bool{}
	if v := f["args"]; v != nil {
		if _, ok := d.Pairs(v, path+".args"); ok {
			d.placeholders(v, path+".args", a, rules.allowed, used)
			if err := v.Decode(&t.args); err != nil {
				d.Add(v, path+".args", "%v", err)
			}
		}
	}
	for _, ph := range rules.required {
		if !used[ph] {
			d.Add(n, path+".args", "never uses %s: %s cannot be played without it", ph, a)
		}
	}
	switch {
	case a == ActUpload && !used["{files}"] && !used["{paths}"]:
		d.Add(n, path+".args", "never uses {files} or {paths}: %s cannot be played without the files", a)
	case a == ActSelectTab && !used["{index}"] && !used["{index0}"]:
		d.Add(n, path+".args", "never uses {index} or {index0}: %s cannot be played without the tab", a)
	}
	return t
}

// placeholders checks every string under n: one that mentions a
// placeholder must be exactly one the action allows.
func (d *decoder) placeholders(n *yaml.Node, path string, a Action, allowed []string, used map[string]bool) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			d.placeholders(n.Content[i+1], problem.Join(path, n.Content[i].Value), a, allowed, used)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			d.placeholders(c, problem.Index(path, i), a, allowed, used)
		}
	case yaml.ScalarNode:
		if !strings.ContainsAny(n.Value, "{}") {
			return
		}
		if !slices.Contains(allowed, n.Value) {
			// Count the placeholders it mentions as used: this problem
			// is the one to fix, not a second "never uses" one.
			for _, ph := range placeholderPattern.FindAllString(n.Value, -1) {
				used[ph] = true
			}
			known := "none"
			if len(allowed) > 0 {
				known = strings.Join(allowed, ", ")
			}
			d.Add(n, path, "%q is not a placeholder of %s (a value is exactly one of: %s)", n.Value, a, known)
			return
		}
		used[n.Value] = true
	}
}

func joinFormats() string {
	s := make([]string, len(formats))
	for i, f := range formats {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}
