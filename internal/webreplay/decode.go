package webreplay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
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
	d := fileDecoder{file: manifestFile, ps: ps}
	data, err := root.ReadFile(manifestFile)
	if errors.Is(err, fs.ErrNotExist) {
		d.problem(0, "", "missing; an archive folder starts with archive.yaml holding format_version: %d", FormatVersion)
		return "", false
	}
	if err != nil {
		d.problem(0, "", "%v", err)
		return "", false
	}
	top := d.parse(data)
	if top == nil {
		return "", false
	}
	pairs, ok := d.mapping(top, "")
	if !ok {
		return "", false
	}
	var (
		version     int
		haveVersion bool
		desc        string
	)
	for _, p := range pairs {
		switch p.key {
		case "format_version":
			version, haveVersion = d.integer(p.v, p.key)
			if !haveVersion {
				return "", false
			}
		case "description":
			desc, _ = d.str(p.v, p.key)
		default:
			d.problem(p.k.Line, p.key, "unknown field; want format_version or description")
		}
	}
	switch {
	case !haveVersion:
		d.problem(top.Line, "format_version", "missing; want format_version: %d", FormatVersion)
		return "", false
	case version != FormatVersion:
		d.problem(top.Line, "format_version", "%d is not supported; this build reads format version %d", version, FormatVersion)
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

var indexFields = []string{"path", "query", "method", "status", "headers", "body"}

// decodeIndex decodes and validates the index.yaml named file (for
// messages). It returns every entry it could decode, valid or not, so the
// caller can still check their body files, and every problem found. It
// touches no file system, which keeps it fuzzable.
func decodeIndex(file string, data []byte) ([]indexItem, problem.List) {
	var ps problem.List
	d := fileDecoder{file: file, ps: &ps}
	top := d.parse(data)
	if top == nil {
		return nil, ps
	}
	pairs, ok := d.mapping(top, "")
	if !ok {
		return nil, ps
	}
	var list *yaml.Node
	for _, p := range pairs {
		if p.key == "entries" {
			list = p.v
			continue
		}
		d.problem(p.k.Line, p.key, "unknown field; want entries")
	}
	switch {
	case list == nil:
		d.problem(top.Line, "entries", "missing")
		return nil, ps
	case list.Kind == yaml.AliasNode:
		d.problem(list.Line, "entries", "aliases are not supported")
		return nil, ps
	case list.Kind != yaml.SequenceNode:
		d.problem(list.Line, "entries", "want a list of entries, found %s", problem.Describe(list))
		return nil, ps
	case len(list.Content) == 0:
		d.problem(list.Line, "entries", "empty; a host folder needs at least one entry")
		return nil, ps
	}

	items := make([]indexItem, 0, len(list.Content))
	first := make(map[entryKey]int)
	for i, n := range list.Content {
		it, ok := d.entry(n, fmt.Sprintf("entries[%d]", i))
		if !ok {
			continue
		}
		if it.valid {
			k := keyOf(it.entry)
			if j, dup := first[k]; dup {
				d.problem(it.line, it.path, "duplicate of entries[%d] (%s %s query %q)", j, k.method, it.entry.Path, k.query)
				it.valid = false
			} else {
				first[k] = i
			}
		}
		items = append(items, it)
	}
	return items, ps
}

// entry decodes one element of entries. It returns false when the element
// is not even a mapping.
func (d *fileDecoder) entry(n *yaml.Node, at string) (indexItem, bool) {
	it := indexItem{path: at, line: n.Line, lines: make(map[string]int)}
	pairs, ok := d.mapping(n, at)
	if !ok {
		return it, false
	}
	before := len(*d.ps)
	e := Entry{Method: "GET", Status: 200}
	var pathNode *yaml.Node
	havePath := false
	for _, p := range pairs {
		field := problem.Join(at, p.key)
		it.lines[p.key] = p.v.Line
		switch p.key {
		case "path":
			pathNode = p.v
			e.Path, havePath = d.str(p.v, field)
		case "query":
			e.Query, _ = d.str(p.v, field)
		case "method":
			if m, ok := d.str(p.v, field); ok {
				e.Method = m
			}
		case "status":
			if s, ok := d.integer(p.v, field); ok {
				e.Status = s
			}
		case "headers":
			e.Header = d.headers(p.v, field, it.lines)
		case "body":
			it.body, _ = d.str(p.v, field)
		default:
			d.problem(p.k.Line, field, "unknown field; want one of %s", strings.Join(indexFields, ", "))
		}
	}
	if pathNode == nil || isNull(pathNode) {
		d.problem(it.line, problem.Join(at, "path"), "missing")
	}
	if it.body != "" {
		if msg := checkBodyFile(it.body); msg != "" {
			*d.ps = append(*d.ps, it.problem(d.file, "body", msg))
		} else {
			it.bodyOK = true
		}
	}
	for _, is := range checkEntry(e, it.body != "") {
		if is.field == "path" && !havePath {
			continue // already reported as missing or of the wrong kind
		}
		*d.ps = append(*d.ps, it.problem(d.file, is.field, is.msg))
	}
	it.entry = e
	it.valid = len(*d.ps) == before
	return it, true
}

// headers decodes the headers mapping, recording the line of each value
// under "headers.<name>" in lines.
func (d *fileDecoder) headers(n *yaml.Node, at string, lines map[string]int) map[string]string {
	if isNull(n) {
		return nil
	}
	pairs, ok := d.mapping(n, at)
	if !ok {
		return nil
	}
	h := make(map[string]string, len(pairs))
	for _, p := range pairs {
		lines["headers."+p.key] = p.v.Line
		if v, ok := d.str(p.v, problem.Join(at, p.key)); ok {
			h[p.key] = v
		}
	}
	if len(h) == 0 {
		return nil // "headers: {}" is no headers, like no headers: at all
	}
	return h
}

// fileDecoder walks the yaml.Node tree of one file, appending located
// problems to ps. Decoding into nodes instead of structs is what gives every
// problem a line and lets decoding go on after the first one.
type fileDecoder struct {
	file string
	ps   *problem.List
}

func (d *fileDecoder) problem(line int, path, format string, args ...any) {
	*d.ps = append(*d.ps, problem.Problem{File: d.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse returns the top node of the single YAML document in data, or nil
// after reporting why there is none.
func (d *fileDecoder) parse(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.problem(0, "", "empty; want a mapping")
			return nil
		}
		d.syntaxProblem(err)
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			d.syntaxProblem(err)
		} else {
			d.problem(extra.Line, "", "more than one YAML document; want one")
		}
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		d.problem(0, "", "empty; want a mapping")
		return nil
	}
	return doc.Content[0]
}

func (d *fileDecoder) syntaxProblem(err error) {
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		d.problem(line, "", "%s", m[2])
		return
	}
	d.problem(0, "", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
}

type pair struct {
	key  string
	k, v *yaml.Node
}

// mapping returns the key/value pairs of a mapping node in source order,
// reporting a node that is not a mapping, keys that are not strings and
// repeated keys (which yaml.Node decoding accepts silently).
func (d *fileDecoder) mapping(n *yaml.Node, at string) ([]pair, bool) {
	switch n.Kind {
	case yaml.MappingNode:
	case yaml.AliasNode:
		d.problem(n.Line, at, "aliases are not supported")
		return nil, false
	default:
		d.problem(n.Line, at, "want a mapping, found %s", problem.Describe(n))
		return nil, false
	}
	pairs := make([]pair, 0, len(n.Content)/2)
	seen := make(map[string]int)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
			d.problem(k.Line, at, "keys must be plain strings, found %s", problem.Describe(k))
			continue
		}
		if line, dup := seen[k.Value]; dup {
			d.problem(k.Line, problem.Join(at, k.Value), "repeated; first set on line %d", line)
			continue
		}
		seen[k.Value] = k.Line
		pairs = append(pairs, pair{key: k.Value, k: k, v: v})
	}
	return pairs, true
}

// str returns the text of a scalar. Any scalar is accepted as written
// (query: 1 is the string "1"); null means absent and returns false.
func (d *fileDecoder) str(n *yaml.Node, at string) (string, bool) {
	switch {
	case n.Kind == yaml.AliasNode:
		d.problem(n.Line, at, "aliases are not supported")
		return "", false
	case n.Kind != yaml.ScalarNode:
		d.problem(n.Line, at, "want a string, found %s", problem.Describe(n))
		return "", false
	case isNull(n):
		return "", false
	}
	return n.Value, true
}

// integer returns the value of an integer scalar; null means absent.
func (d *fileDecoder) integer(n *yaml.Node, at string) (int, bool) {
	if n.Kind == yaml.AliasNode {
		d.problem(n.Line, at, "aliases are not supported")
		return 0, false
	}
	if isNull(n) {
		return 0, false
	}
	var i int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&i) != nil {
		d.problem(n.Line, at, "want an integer, found %s", problem.Describe(n))
		return 0, false
	}
	return i, true
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}
