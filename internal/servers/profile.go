package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Set is the servers of one servers.yaml, in file order.
type Set struct {
	file     string
	profiles []*Profile
}

// Get returns the profile named name.
func (s *Set) Get(name string) (*Profile, error) {
	for _, p := range s.profiles {
		if p.name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s: no server %q (known: %s)", s.file, name, strings.Join(s.Names(), ", "))
}

// Names lists the servers in file order.
func (s *Set) Names() []string {
	names := make([]string, len(s.profiles))
	for i, p := range s.profiles {
		names[i] = p.name
	}
	return names
}

// Format is how a server's snapshot reads, and so how the reference driver
// finds a target in it.
type Format string

const (
	// FormatBuiltin marks the built-in server: reference steps are its own
	// calls, and the driver finds a target with its find tool.
	FormatBuiltin Format = "builtin"
	// FormatPlaywright is @playwright/mcp's ARIA snapshot: YAML list items
	// `role "name" [ref=e12]`, with a link's URL in a `/url:` child.
	FormatPlaywright Format = "playwright"
	// FormatChromeDevtools is chrome-devtools-mcp's accessibility tree: one
	// node per line, `uid=3_14 role "name" url="..."`.
	FormatChromeDevtools Format = "chrome-devtools"
)

var formats = []Format{FormatBuiltin, FormatPlaywright, FormatChromeDevtools}

// Action is an abstract browser action the reference driver plays.
type Action string

// The actions every profile maps onto its tools.
const (
	ActNavigate Action = "navigate"
	ActRead     Action = "read"
	ActClick    Action = "click"
	ActType     Action = "type"
	ActPressKey Action = "press_key"
	ActBack     Action = "back"
	// ActSelect chooses an option of a drop-down list. A profile may leave
	// it out; a reference with a select_option step then cannot play.
	ActSelect Action = "select"
	// ActDrag drags one element ({ref}) onto another ({to}). Optional.
	ActDrag Action = "drag"
	// ActUpload chooses files for a file input: {files} are their names,
	// {paths} the same files as paths relative to the server's working
	// directory ({work_dir}/uploads/NAME, see Spawn.Uploads). Without
	// {ref} the action uploads into the file chooser that a click on the
	// input opened, and the driver clicks the input first. Optional.
	ActUpload Action = "upload"
	// ActListTabs lists the tabs. Optional: when mapped, the driver lists
	// the tabs before a select_tab until the list shows the tab, for a
	// server that may not know yet of a tab a click just opened.
	ActListTabs Action = "list_tabs"
	// ActReadAll is a snapshot that leaves nothing out, for a target the
	// read action's snapshot omits (chrome-devtools-mcp leaves the options
	// of a listbox out of its default snapshot). Optional: without it the
	// driver looks with the read action.
	ActReadAll Action = "read_all"
	// ActSelectTab makes another tab the current one: {index} is its
	// number counting from 1 in the order the tabs opened, {index0} the
	// same counting from 0. Optional.
	ActSelectTab Action = "select_tab"
)

// allActions lists every action, in the order servers.yaml documents them.
var allActions = []Action{ActNavigate, ActRead, ActClick, ActType, ActPressKey, ActBack, ActSelect, ActDrag, ActUpload, ActSelectTab, ActListTabs, ActReadAll}

// optionalActions are the actions a profile may leave unmapped.
var optionalActions = []Action{ActSelect, ActDrag, ActUpload, ActSelectTab, ActListTabs, ActReadAll}

// uploadsFolder is the name of the task's copy of the suite's uploads
// folder in the server's working directory.
const uploadsFolder = "uploads"

// Package is an npm package a peer runs from.
type Package struct {
	Name    string
	Version string
}

// Profile is one server of servers.yaml. It is immutable once loaded.
type Profile struct {
	name     string
	pkg      *Package
	command  []string
	env      map[string]string
	passEnv  []string
	format   Format
	allow    []string
	unsafe   map[string]string
	excluded map[string]string
	page     []string
	actions  map[Action]template
}

// template is one action's tool call, with placeholders in its args.
type template struct {
	tool string
	// args is the decoded YAML mapping: strings, numbers, booleans, lists
	// and maps, any string possibly a whole placeholder.
	args map[string]any
}

// Name is the server's name, as --server gives it.
func (p *Profile) Name() string { return p.name }

// Confined reports whether the server can be confined to one browser
// context of a shared browser: its command takes {browser_context}. A
// server that cannot is given a browser of its own per task instead.
func (p *Profile) Confined() bool {
	return slices.ContainsFunc(p.command, func(a string) bool { return strings.Contains(a, "{browser_context}") })
}

// Package is the npm package the server runs from, or nil for the built-in
// server.
func (p *Profile) Package() *Package {
	if p.pkg == nil {
		return nil
	}
	c := *p.pkg
	return &c
}

// Format says how the server's snapshot reads.
func (p *Profile) Format() Format { return p.format }

// Allow returns the tools offered to agents.
func (p *Profile) Allow() []string { return slices.Clone(p.allow) }

// Unsafe reports whether tool is classed unsafe, and why.
func (p *Profile) Unsafe(tool string) (reason string, ok bool) {
	reason, ok = p.unsafe[tool]
	return reason, ok
}

// UnsafeTools returns every unsafe tool with its reason, as the runner's
// Config.Unsafe wants it.
func (p *Profile) UnsafeTools() map[string]string { return maps.Clone(p.unsafe) }

// Excluded reports whether tool is never offered, and why.
func (p *Profile) Excluded(tool string) (reason string, ok bool) {
	reason, ok = p.excluded[tool]
	return reason, ok
}

// Classified reports whether servers.yaml puts tool in any class (allowed,
// unsafe or excluded). A tool the server lists that is not classified is
// a tool nobody has reviewed.
func (p *Profile) Classified(tool string) bool {
	_, unsafe := p.unsafe[tool]
	_, excluded := p.excluded[tool]
	return unsafe || excluded || slices.Contains(p.allow, tool)
}

// PageTool reports whether tool's replies are page snapshots.
func (p *Profile) PageTool(tool string) bool { return slices.Contains(p.page, tool) }

// PageTools lists the tools whose replies are page snapshots.
func (p *Profile) PageTools() []string { return slices.Clone(p.page) }

// Tool returns the tool an action maps to.
func (p *Profile) Tool(a Action) string { return p.actions[a].tool }

// Spawn is what starting a server for one task needs.
type Spawn struct {
	// Root is the folder whose node_modules holds the peers (the
	// repository root); it fills {root}.
	Root string
	// Self is this program's executable; it fills {self}.
	Self string
	// CDPURL is the browser's DevTools endpoint; it fills {cdp_url}.
	CDPURL string
	// BrowserContext is the task's browser context in that browser; it
	// fills {browser_context}, which may be empty (the browser's default
	// context: a task with a browser of its own).
	BrowserContext string
	// WorkDir is the server's working directory and fills {work_dir}.
	// Peers write files there (Playwright's snapshots, any file name an
	// agent passes a tool), so it should be a scratch folder of the task's
	// own, never the repository. Empty keeps the caller's directory, which
	// only a server without {work_dir} accepts.
	WorkDir string
	// Environ is the environment to start from, as os.Environ gives it.
	Environ []string
	// Abort, when it ends, kills the server's processes at once instead of
	// letting them exit gracefully (a second Ctrl-C). Nil never aborts.
	Abort context.Context
	// Uploads is the suite's folder of files a task may upload (its
	// uploads/ folder). Transport copies its files into WorkDir/uploads,
	// the folder {uploads} names: the peers take files only from their
	// working directory, and the built-in server only from the folder it
	// is given. Empty, or a folder that does not exist, offers no files
	// and leaves {uploads} empty.
	Uploads string
}

// uploadsDir is the folder {uploads} names: the task's copy of s.Uploads,
// or "" when there is none to make.
func (s Spawn) uploadsDir() string {
	if s.Uploads == "" || s.WorkDir == "" {
		return ""
	}
	if info, err := os.Stat(s.Uploads); err != nil || !info.IsDir() {
		return ""
	}
	return filepath.Join(s.WorkDir, uploadsFolder)
}

// copyUploads copies the regular files of s.Uploads into the folder
// uploadsDir names. Nothing else is copied: no sub-folders, no links to
// elsewhere.
func (s Spawn) copyUploads() error {
	dst := s.uploadsDir()
	if dst == "" {
		return nil
	}
	entries, err := os.ReadDir(s.Uploads)
	if err != nil {
		return fmt.Errorf("reading the uploads folder: %w", err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.Uploads, e.Name()))
		if err != nil {
			return fmt.Errorf("reading an upload: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return fmt.Errorf("copying an upload: %w", err)
		}
	}
	return nil
}

// Command returns the server's process for one task: placeholders
// replaced, and an environment of its own: the variables of s.Environ that
// ChildEnv allows and the profile's pass_env names, plus the profile's env.
// Nothing else of the caller's environment (API keys, cloud credentials,
// database passwords) reaches a tool server, whose process is not ours to
// trust with them. The caller starts it, usually through Transport.
func (p *Profile) Command(s Spawn) (*exec.Cmd, error) {
	values := []struct{ ph, val string }{
		{"{self}", s.Self}, {"{cdp_url}", s.CDPURL}, {"{browser_context}", s.BrowserContext}, {"{root}", s.Root}, {"{work_dir}", s.WorkDir},
		{"{uploads}", s.uploadsDir()},
	}
	fill := func(v string) (string, error) {
		for _, x := range values {
			if !strings.Contains(v, x.ph) {
				continue
			}
			if x.val == "" && x.ph != "{browser_context}" && x.ph != "{uploads}" {
				return "", fmt.Errorf("server %s: %s is used but not given", p.name, x.ph)
			}
			v = strings.ReplaceAll(v, x.ph, x.val)
		}
		return v, nil
	}
	argv := make([]string, len(p.command))
	for i, a := range p.command {
		v, err := fill(a)
		if err != nil {
			return nil, err
		}
		argv[i] = v
	}
	env := make([]string, 0, len(s.Environ)+len(p.env))
	for _, kv := range ChildEnv(s.Environ, p.passEnv...) {
		name, _, _ := strings.Cut(kv, "=")
		if _, override := p.env[name]; override {
			continue
		}
		env = append(env, kv)
	}
	for _, name := range slices.Sorted(maps.Keys(p.env)) {
		v, err := fill(p.env[name])
		if err != nil {
			return nil, err
		}
		env = append(env, name+"="+v)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = s.WorkDir
	return cmd, nil
}

// terminateGrace is how long a server has to exit after its stdin closes
// before it is killed. Node servers need a moment to detach from the
// browser; they must never take the browser down with them.
const terminateGrace = 2 * time.Second

// Transport returns an MCP transport that starts the server's process on
// Connect, in a process group of its own, and stops it on Close: stdin
// closed, terminateGrace to exit, then killed; and then whatever else is
// left in its group (a shell's children, node's workers) is killed too.
// When s.Abort ends, the whole group is killed at once. The server's
// stderr is discarded: peers print banners there, and what the agent sees
// goes over MCP.
func (p *Profile) Transport(s Spawn) (mcp.Transport, error) {
	cmd, err := p.Command(s)
	if err != nil {
		return nil, err
	}
	if err := s.copyUploads(); err != nil {
		return nil, fmt.Errorf("server %s: %w", p.name, err)
	}
	inGroup(cmd)
	return &groupTransport{cmd: cmd, abort: s.Abort,
		inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateGrace}}, nil
}

// groupTransport is a CommandTransport whose process group goes with it.
type groupTransport struct {
	cmd   *exec.Cmd
	inner *mcp.CommandTransport
	abort context.Context
}

func (t *groupTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		killGroup(t.cmd)
		return nil, err
	}
	c := &groupConn{Connection: conn, cmd: t.cmd}
	if t.abort != nil {
		c.unwatch = context.AfterFunc(t.abort, func() { killGroup(t.cmd) })
	}
	return c, nil
}

type groupConn struct {
	mcp.Connection
	cmd     *exec.Cmd
	unwatch func() bool
}

func (c *groupConn) Close() error {
	err := c.Connection.Close()
	// The leader has exited or been killed; the rest of its group goes.
	killGroup(c.cmd)
	if c.unwatch != nil {
		c.unwatch()
	}
	return err
}

// childEnvNames are the variables a child process (Chromium, a tool
// server) is given from the caller's environment: where programs and
// libraries are, the locale, the display, and Node's own settings. Any
// other variable stays behind, however harmless its name looks: a
// deny-list of secret-looking names (*_API_KEY, *_TOKEN) misses
// AWS_SECRET_ACCESS_KEY, DB_PASSWORD and every name nobody thought of.
var childEnvNames = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "TERM",
	"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
	"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
	"DBUS_SESSION_BUS_ADDRESS", "FONTCONFIG_PATH", "FONTCONFIG_FILE",
	"NODE_PATH", "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
}

// ChildEnv returns the variables of env that a child process may have:
// those of the allow-list above and those named in extra, in env's order.
func ChildEnv(env []string, extra ...string) []string {
	out := make([]string, 0, len(childEnvNames))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(childEnvNames, name) || slices.Contains(extra, name) {
			out = append(out, kv)
		}
	}
	return out
}

// Installed checks that the server can start from root: for a peer, that
// node is on PATH and root/node_modules holds its package at the pinned
// version. The error says what is missing and how to install it. The
// built-in server is always installed.
func (p *Profile) Installed(root string) error {
	if p.pkg == nil {
		return nil
	}
	var missing []string
	// A bare program name (node) is looked up on PATH when the process
	// starts; look now, so the error comes before the run does.
	if prog := p.command[0]; !strings.ContainsAny(prog, "/{") {
		if _, err := exec.LookPath(prog); err != nil {
			missing = append(missing, fmt.Sprintf("%s is not on PATH (for node: apt-get install nodejs npm)", prog))
		}
	}
	manifest := filepath.Join(root, "node_modules", filepath.FromSlash(p.pkg.Name), "package.json")
	switch data, err := os.ReadFile(manifest); {
	case errors.Is(err, fs.ErrNotExist):
		missing = append(missing, fmt.Sprintf("%s is not installed (no %s)", p.pkg.Name, manifest))
	case err != nil:
		missing = append(missing, fmt.Sprintf("%s: %v", manifest, err))
	default:
		var m struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			missing = append(missing, fmt.Sprintf("%s: %v", manifest, err))
		} else if m.Version != p.pkg.Version {
			missing = append(missing, fmt.Sprintf("%s %s is installed, want %s", p.pkg.Name, m.Version, p.pkg.Version))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("server %s is not ready: %s; install %s@%s into %s (the nearest folder above the servers file with a package.json): `npm install --prefix %s --ignore-scripts %s@%s`, or in the contractbench repository run `make peers` and pass --servers <repository>/benchmarks/servers.yaml",
		p.name, strings.Join(missing, "; "), p.pkg.Name, p.pkg.Version, root, root, p.pkg.Name, p.pkg.Version)
}
