package webreplay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Write stores the archive in the folder dir, in the format Open reads.
// The output depends only on the archive's content: hosts and entries are
// sorted, YAML is emitted the same way every time, and body file names are
// derived from the entries (see bodyFileNames), so re-recording an
// unchanged site gives an empty diff.
//
// The archive is written to a temporary folder next to dir and renamed into
// place, so a failure leaves dir as it was. An existing dir is replaced only
// if it is empty or holds an archive.yaml; its README.md is carried over.
func (a *Archive) Write(dir string) error {
	a.mu.RLock()
	desc := a.description
	hosts := slices.Sorted(maps.Keys(a.hosts))
	recs := make([][]*record, len(hosts))
	for i, h := range hosts {
		// Records are never modified after creation, so the snapshot
		// stays valid after the lock is released.
		recs[i] = sortedRecords(a.hosts[h])
	}
	a.mu.RUnlock()

	exists, err := replaceable(dir)
	if err != nil {
		return fmt.Errorf("write archive %s: %w", dir, err)
	}
	work, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".write-*")
	if err != nil {
		return fmt.Errorf("write archive %s: %w", dir, err)
	}
	defer os.RemoveAll(work)

	staged := filepath.Join(work, "new")
	if err := writeTree(staged, desc, hosts, recs); err != nil {
		return fmt.Errorf("write archive %s: %w", dir, err)
	}
	if exists {
		if err := carryReadme(dir, staged); err != nil {
			return fmt.Errorf("write archive %s: %w", dir, err)
		}
		old := filepath.Join(work, "old")
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("write archive %s: %w", dir, err)
		}
		if err := os.Rename(staged, dir); err != nil {
			if rerr := os.Rename(old, dir); rerr != nil {
				return fmt.Errorf("write archive %s: %w (the previous archive is kept in %s: %v)", dir, err, old, rerr)
			}
			return fmt.Errorf("write archive %s: %w", dir, err)
		}
		return nil
	}
	if err := os.Rename(staged, dir); err != nil {
		return fmt.Errorf("write archive %s: %w", dir, err)
	}
	return nil
}

// replaceable reports whether dir exists, and refuses a dir that Write
// must not replace: a file, or a non-empty folder that is not an archive
// (a mistyped path must not wipe someone's work).
func replaceable(dir string) (bool, error) {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !info.IsDir() {
		return false, fmt.Errorf("%s exists and is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, manifestFile)); err == nil {
		return true, nil
	}
	dirents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	if len(dirents) > 0 {
		return false, fmt.Errorf("refusing to replace %s: it is not empty and has no %s", dir, manifestFile)
	}
	return true, nil
}

// carryReadme copies the human notes of the archive being replaced.
func carryReadme(dir, staged string) error {
	data, err := os.ReadFile(filepath.Join(dir, readmeFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("keep %s: %w", readmeFile, err)
	}
	return os.WriteFile(filepath.Join(staged, readmeFile), data, 0o644)
}

type manifestYAML struct {
	FormatVersion int    `yaml:"format_version"`
	Description   string `yaml:"description,omitempty"`
}

type indexYAML struct {
	Entries []entryYAML `yaml:"entries"`
}

// entryYAML fixes the field order of a written entry. Defaults (GET, no
// query) are left out; status is always written because it is the first
// thing a reader looks for.
type entryYAML struct {
	Path    string            `yaml:"path"`
	Query   string            `yaml:"query,omitempty"`
	Method  string            `yaml:"method,omitempty"`
	Status  int               `yaml:"status"`
	Headers map[string]string `yaml:"headers,omitempty"`
	Body    string            `yaml:"body,omitempty"`
}

func writeTree(staged, desc string, hosts []string, recs [][]*record) error {
	if err := os.Mkdir(staged, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(staged)
	if err != nil {
		return err
	}
	defer root.Close()

	manifest, err := encodeYAML(manifestYAML{FormatVersion: formatVersion, Description: desc})
	if err != nil {
		return fmt.Errorf("%s: %w", manifestFile, err)
	}
	if err := root.WriteFile(manifestFile, manifest, 0o644); err != nil {
		return err
	}
	for i, host := range hosts {
		if err := writeHost(root, host, recs[i]); err != nil {
			return fmt.Errorf("host %s: %w", host, err)
		}
	}
	return nil
}

func writeHost(root *os.Root, host string, recs []*record) error {
	if err := root.Mkdir(host, 0o755); err != nil {
		return err
	}
	names, err := bodyFileNames(recs)
	if err != nil {
		return err
	}
	idx := indexYAML{Entries: make([]entryYAML, len(recs))}
	for i, r := range recs {
		e := r.entry
		ey := entryYAML{Path: e.Path, Query: e.Query, Status: e.Status, Headers: e.Header, Body: names[i]}
		if e.Method != http.MethodGet {
			ey.Method = e.Method
		}
		idx.Entries[i] = ey
		if names[i] == "" {
			continue
		}
		file := host + "/" + names[i]
		if d := path.Dir(file); d != host {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(file, r.body, 0o644); err != nil {
			return err
		}
	}
	data, err := encodeYAML(idx)
	if err != nil {
		return fmt.Errorf("%s: %w", indexFile, err)
	}
	return root.WriteFile(host+"/"+indexFile, data, 0o644)
}

func encodeYAML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bodyFileNames names the body file of each record of one host ("" for a
// record without a body), in the order given. A name follows the path, so
// a reviewer finds /wiki/Eiffel_Tower in wiki/Eiffel_Tower.html, with an
// extension that matches the content type. A method other than GET or a
// query adds "~" and a hash of them, so query variants of one page sit side
// by side. Names that would clash (after replacing unsafe characters, on a
// case-insensitive file system, or a file where another entry needs a
// folder) get a hash of the whole entry key instead.
func bodyFileNames(recs []*record) ([]string, error) {
	names := make([]string, len(recs))
	files := map[string]bool{indexFile: true} // lower case
	dirs := map[string]bool{}                 // lower case
	free := func(name string) bool {
		lc := strings.ToLower(name)
		if files[lc] || dirs[lc] {
			return false
		}
		for d := path.Dir(lc); d != "."; d = path.Dir(d) {
			if files[d] {
				return false
			}
		}
		return true
	}
	for i, r := range recs {
		if len(r.body) == 0 {
			continue
		}
		e := r.entry
		stem, ext := nameParts(e)
		var candidates []string
		if e.Method == http.MethodGet && e.Query == "" {
			candidates = append(candidates, stem+ext)
		} else {
			candidates = append(candidates, stem+"~"+shortHash(8, e.Method, e.Query)+ext)
		}
		// Fallbacks: a hash of the whole key in the same folder, then
		// flat at the top of the host folder, out of the way of a file
		// that took the place of one of the folders.
		flat := strings.ReplaceAll(stem, "/", "_")
		if len(flat) > 80 {
			flat = flat[:80]
		}
		candidates = append(candidates,
			stem+"~"+shortHash(8, e.Method, e.Path, e.Query)+ext,
			flat+"~"+shortHash(8, e.Method, e.Path, e.Query)+ext,
			flat+"~"+shortHash(16, e.Method, e.Path, e.Query)+ext)
		for _, c := range candidates {
			if free(c) {
				names[i] = c
				break
			}
		}
		if names[i] == "" {
			return nil, fmt.Errorf("no free body file name for %s %s query %q", e.Method, e.Path, e.Query)
		}
		lc := strings.ToLower(names[i])
		files[lc] = true
		for d := path.Dir(lc); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	return names, nil
}

// nameParts derives the body file name of an entry from its path, as a
// stem and an extension: /wiki/Eiffel_Tower -> wiki/Eiffel_Tower + .html,
// / -> index + .html, /static/app.js -> static/app + .js.
func nameParts(e Entry) (stem, ext string) {
	p := strings.TrimPrefix(matchPath(e.Path), "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index"
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = safeSegment(s)
	}
	name := strings.Join(segs, "/")

	want := mediaType(e.Header["content-type"])
	if x := path.Ext(segs[len(segs)-1]); x != "" && mediaType(inferType(x)) == want {
		return strings.TrimSuffix(name, x), x
	}
	if x, ok := extByType[want]; ok {
		return name, x
	}
	return name, ".bin"
}

// safeSegment makes one path segment a portable file name: ASCII letters,
// digits, "-", "_" and "." only ("~" is kept for the hash suffix), never
// "." or "..", and at most 80 bytes.
func safeSegment(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	s = string(b)
	if len(s) > 80 {
		s = s[:80]
	}
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

func shortHash(n int, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])[:n]
}
