package webreplay

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/problem"
)

// File names with a meaning inside an archive folder.
const (
	manifestFile = "archive.yaml"
	readmeFile   = "README.md"
	indexFile    = "index.yaml"
)

// Open loads the archive folder dir and validates it strictly: unknown
// fields, missing or unreadable body files, duplicate entries, bad
// statuses, paths, queries, headers and host folder names, and a missing or
// unsupported format_version are all errors. A validation failure is
// returned as a problem.List (wrapped with the folder name; use errors.As).
func Open(dir string) (*Archive, error) {
	// An os.Root keeps every read inside dir, even through symbolic links
	// in the fixture tree.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open archive: %w", err)
	}
	defer root.Close()

	var ps problem.List
	desc, ok := readManifest(root, &ps)
	if !ok {
		return nil, fmt.Errorf("archive %s: %w", dir, ps)
	}
	a := NewArchive(desc)

	dirents, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", dir, err)
	}
	for _, de := range dirents {
		name := de.Name()
		switch {
		case strings.HasPrefix(name, "."), name == manifestFile, name == readmeFile:
			// Dot files (.gitattributes and the like) belong to tools
			// around the archive, not to it.
		case !de.IsDir():
			ps = append(ps, problem.Problem{File: name, Msg: "unexpected file; an archive holds archive.yaml, README.md and one folder per host"})
		default:
			if msg := checkHost(name); msg != "" {
				ps = append(ps, problem.Problem{File: name + "/", Msg: "bad host folder name: " + msg})
				continue
			}
			loadHost(root, a, name, &ps)
		}
	}
	if len(ps) > 0 {
		return nil, fmt.Errorf("archive %s: %w", dir, ps)
	}
	return a, nil
}

// readManifest decodes archive.yaml and returns its description. It
// returns false when the rest of the folder must not be read: without a
// supported format_version, the host folders may mean something else.
func readManifest(root *os.Root, ps *problem.List) (string, bool) {
	d := &problem.Collector{File: manifestFile}
	defer func() { *ps = append(*ps, d.Result()...) }()
	data, err := root.ReadFile(manifestFile)
	if errors.Is(err, fs.ErrNotExist) {
		d.Add(nil, "", "missing; an archive folder starts with archive.yaml holding format_version: %d", formatVersion)
		return "", false
	}
	if err != nil {
		d.Add(nil, "", "%v", err)
		return "", false
	}
	top := d.Document(data)
	if top == nil {
		return "", false
	}
	m, ok := d.Mapping(top, "")
	if !ok {
		return "", false
	}
	v := m.Need("format_version")
	version, haveVersion := d.Int(v, "format_version")
	desc, _ := d.Str(m.Get("description"), "description")
	m.Done()
	switch {
	case !haveVersion:
		return "", false
	case version != formatVersion:
		d.Add(v, "format_version", "%d is not supported; this build reads format version %d", version, formatVersion)
		return "", false
	}
	return desc, true
}

// loadHost decodes host/index.yaml, reads the body files it names, and adds
// every valid entry to a.
func loadHost(root *os.Root, a *Archive, host string, ps *problem.List) {
	file := host + "/" + indexFile
	data, err := root.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		*ps = append(*ps, problem.Problem{File: file, Msg: "missing; every host folder needs an index.yaml"})
		return
	}
	if err != nil {
		*ps = append(*ps, problem.Problem{File: file, Msg: err.Error()})
		return
	}
	items, problems := decodeIndex(file, data)
	*ps = append(*ps, problems...)
	for _, it := range items {
		var body []byte
		if it.body != "" && it.bodyOK {
			b, err := root.ReadFile(host + "/" + it.body)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				*ps = append(*ps, it.problem(file, "body", fmt.Sprintf("%s: no such file in %s/", it.body, host)))
				continue
			case err != nil:
				*ps = append(*ps, it.problem(file, "body", err.Error()))
				continue
			}
			body = b
		}
		if !it.valid {
			continue
		}
		if _, err := a.add(host, it.entry, body, it.body); err != nil {
			// Unreachable when decodeIndex and Add agree on what is
			// valid; reported rather than dropped if they ever do not.
			*ps = append(*ps, it.problem(file, "", err.Error()))
		}
	}
}

// indexItem is one decoded entry of an index.yaml.
type indexItem struct {
	entry  Entry  // defaults filled in
	body   string // body file relative to the host folder, or ""
	bodyOK bool   // body is a well-formed file reference
	valid  bool   // the entry has no problems apart from its body file's content
	path   string // entries[i]
	line   int    // line of the entry's mapping
	lines  map[string]int
}

// problem locates msg at field of the item ("" for the whole entry).
func (it *indexItem) problem(file, field, msg string) problem.Problem {
	p := problem.Problem{File: file, Line: it.line, Path: it.path, Msg: msg}
	if field != "" {
		p.Path += "." + field
		if l, ok := it.lines[field]; ok {
			p.Line = l
		}
	}
	return p
}

// decodeIndex decodes and validates the index.yaml named file (for
// messages). It returns every entry it could decode, valid or not, so the
// caller can still check their body files, and every problem found. It
// touches no file system, which keeps it fuzzable.
func decodeIndex(file string, data []byte) ([]indexItem, problem.List) {
	d := &problem.Collector{File: file}
	items := decodeEntries(d, data)
	return items, d.Result()
}

func decodeEntries(d *problem.Collector, data []byte) []indexItem {
	top := d.Document(data)
	if top == nil {
		return nil
	}
	m, ok := d.Mapping(top, "")
	if !ok {
		return nil
	}
	list := m.Need("entries")
	m.Done()
	entries, ok := d.Seq(list, "entries")
	if !ok {
		return nil
	}
	if len(entries) == 0 {
		d.Add(list, "entries", "empty; a host folder needs at least one entry")
		return nil
	}

	items := make([]indexItem, 0, len(entries))
	first := make(map[entryKey]int)
	for i, n := range entries {
		it, ok := entry(d, n, problem.Index("entries", i))
		if !ok {
			continue
		}
		if it.valid {
			k := keyOf(it.entry)
			if j, dup := first[k]; dup {
				d.Add(n, it.path, "duplicate of entries[%d] (%s %s query %q)", j, k.method, it.entry.Path, k.query)
				it.valid = false
			} else {
				first[k] = i
			}
		}
		items = append(items, it)
	}
	return items
}

// entry decodes one element of entries. It returns false when the element
// is not even a mapping.
func entry(d *problem.Collector, n *yaml.Node, at string) (indexItem, bool) {
	it := indexItem{path: at, line: n.Line, lines: make(map[string]int)}
	m, ok := d.Mapping(n, at)
	if !ok {
		return it, false
	}
	before := len(d.List)
	// field returns a field's value and path, noting the value's line for
	// the problems checkEntry finds later.
	field := func(name string, required bool) (*yaml.Node, string) {
		var v *yaml.Node
		if required {
			v = m.Need(name)
		} else {
			v = m.Get(name)
		}
		if v != nil {
			it.lines[name] = v.Line
		}
		return v, problem.Join(at, name)
	}
	e := Entry{Method: "GET", Status: 200}
	var havePath bool
	e.Path, havePath = d.Str(field("path", true))
	e.Query, _ = d.Str(field("query", false))
	if method, ok := d.Str(field("method", false)); ok {
		e.Method = method
	}
	if status, ok := d.Int(field("status", false)); ok {
		e.Status = status
	}
	hn, hp := field("headers", false)
	e.Header = headers(d, hn, hp, it.lines)
	it.body, _ = d.Str(field("body", false))
	m.Done()
	if it.body != "" {
		if msg := checkBodyFile(it.body); msg != "" {
			d.List = append(d.List, it.problem(d.File, "body", msg))
		} else {
			it.bodyOK = true
		}
	}
	for _, is := range checkEntry(e, it.body != "") {
		if is.field == "path" && !havePath {
			continue // already reported as missing or of the wrong kind
		}
		d.List = append(d.List, it.problem(d.File, is.field, is.msg))
	}
	it.entry = e
	it.valid = len(d.List) == before
	return it, true
}

// headers decodes the headers mapping, recording the line of each value
// under "headers.<name>" in lines.
func headers(d *problem.Collector, n *yaml.Node, at string, lines map[string]int) map[string]string {
	pairs, _ := d.Pairs(n, at)
	h := make(map[string]string, len(pairs))
	for _, p := range pairs {
		lines["headers."+p.Key] = p.V.Line
		if v, ok := d.Str(p.V, problem.Join(at, p.Key)); ok {
			h[p.Key] = v
		}
	}
	if len(h) == 0 {
		return nil // "headers: {}" is no headers, like no headers: at all
	}
	return h
}
