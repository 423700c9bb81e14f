package phash

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Classes maps a screenshot class id to the hashes of its example
// screenshots. A screenshot belongs to a class when it is close to any one
// example, so a class can cover a page's variants (logged in or out, a
// banner shown or not) with one example each.
type Classes map[string][]Hash

// classID is the form of a class id: it names a folder and appears in
// contracts, so it is kept to characters that are safe in both.
var classID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// LoadClasses reads a screenshot-classes folder: every subfolder of the
// root of fsys is a class named by the folder, and every file directly
// inside it whose name ends in ".png" (lower case) is an example. Other
// files (a README, say) and deeper folders are ignored. A class folder with a bad name, without a PNG, or
// with a PNG that does not decode is an error naming the file.
func LoadClasses(fsys fs.FS) (Classes, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("phash: load screenshot classes: %w", err)
	}
	classes := make(Classes)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		id := e.Name()
		if !classID.MatchString(id) {
			return nil, fmt.Errorf("phash: screenshot class folder %q: name must match %s", id, classID)
		}
		hashes, err := loadClass(fsys, id)
		if err != nil {
			return nil, fmt.Errorf("phash: screenshot class %q: %w", id, err)
		}
		classes[id] = hashes
	}
	return classes, nil
}

// loadClass hashes the PNGs of one class folder, in file name order.
func loadClass(fsys fs.FS, id string) ([]Hash, error) {
	entries, err := fs.ReadDir(fsys, id)
	if err != nil {
		return nil, err
	}
	var hashes []Hash
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".png") {
			continue
		}
		name := path.Join(id, e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err // fs errors already name the file
		}
		h, err := hashPNG(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		hashes = append(hashes, h)
	}
	if len(hashes) == 0 {
		return nil, errors.New("folder has no .png example")
	}
	return hashes, nil
}

// Distance returns the smallest Hamming distance between hash and the
// examples of class classID. It returns false when the class is unknown or
// has no examples, so a caller never mistakes a missing class for a match.
func (c Classes) Distance(classID string, hash uint64) (int, bool) {
	examples := c[classID]
	if len(examples) == 0 {
		return 0, false
	}
	best := 64
	for _, ex := range examples {
		best = min(best, Distance(Hash(hash), ex))
	}
	return best, true
}

// IDs returns the class ids in sorted order.
func (c Classes) IDs() []string {
	return slices.Sorted(maps.Keys(c))
}
