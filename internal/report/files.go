package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Paths are the files WriteFiles wrote.
type Paths struct {
	JSON        string
	Markdown    string
	JUnit       string
	HTML        string
	Screenshots []string
	Thumbnails  []string
}

// JUnitFile is the name of the JUnit report inside a report directory. It
// is fixed, not derived from the base name, so CI configuration can name it.
const JUnitFile = "junit.xml"

// WriteFiles writes the report of r into dir: <base>.json, <base>.md,
// <base>.html, junit.xml, for every result whose observation holds a
// screenshot <base>-<task>.png (<base>-<task>-<attempt>.png when tasks
// were repeated), and for every thumbnail taken after a tool call
// <base>-<task>[-<attempt>]-step<seq>.jpg. The JSON and Markdown refer to
// each image by that file name; the HTML embeds them all. r itself is not
// modified.
//
// dir is created if needed. Every file is first written to a temporary file
// in dir and renamed into place only after all of them were written, so a
// reader never sees a half-written file. If anything fails, WriteFiles
// removes every file it wrote in this call (and the directories it
// created) before returning the error. A rename that fails after others
// succeeded can still leave an earlier report under the same names
// replaced and then removed; that needs the file system to fail between
// two renames in one directory.
func WriteFiles(dir, base string, r *Run) (paths Paths, err error) {
	if base == "" || !SafeName(base) {
		return Paths{}, fmt.Errorf("report files: base name %q: must be a plain file name of letters, digits, '.', '-' and '_'", base)
	}
	view, pngs, err := withScreenshotFiles(base, r)
	if err != nil {
		return Paths{}, err
	}
	view, jpgs := withThumbnailFiles(base, view)

	var files []pendingFile
	for _, v := range []struct {
		name   string
		render func(io.Writer, *Run) error
	}{
		{base + ".json", WriteJSON},
		{base + ".md", WriteMarkdown},
		{JUnitFile, writeJUnit},
		{base + ".html", WriteHTML},
	} {
		var b bytes.Buffer
		if err := v.render(&b, view); err != nil {
			return Paths{}, fmt.Errorf("report files: %s: %w", v.name, err)
		}
		files = append(files, pendingFile{name: v.name, data: b.Bytes()})
	}
	files = append(files, pngs...)
	files = append(files, jpgs...)

	created, err := mkdirAll(dir)
	if err != nil {
		return Paths{}, fmt.Errorf("report files: %w", err)
	}
	var temps, written []string
	defer func() {
		if err == nil {
			return
		}
		for _, p := range append(temps, written...) {
			if p != "" {
				os.Remove(p)
			}
		}
		// Innermost first; a directory that is not empty stays.
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i])
		}
		paths = Paths{}
	}()

	for i := range files {
		tmp, err := writeTemp(dir, files[i].name, files[i].data)
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return Paths{}, fmt.Errorf("report files: %w", err)
		}
		files[i].temp = tmp
	}
	for i, f := range files {
		final := filepath.Join(dir, f.name)
		if err := os.Rename(f.temp, final); err != nil {
			return Paths{}, fmt.Errorf("report files: %w", err)
		}
		temps[i] = "" // moved: from here on it is in written
		written = append(written, final)
	}

	paths = Paths{
		JSON:        written[0],
		Markdown:    written[1],
		JUnit:       written[2],
		HTML:        written[3],
		Screenshots: written[4 : 4+len(pngs)],
		Thumbnails:  written[4+len(pngs):],
	}
	return paths, nil
}

// pendingFile is one file of a report before it is in place.
type pendingFile struct {
	name string // final name inside the report directory
	data []byte
	temp string // path of the temporary copy, once written
}

// withScreenshotFiles returns a copy of r whose observations name their
// screenshot files, and those files. r is left as it was: results and
// observations that change are copied.
func withScreenshotFiles(base string, r *Run) (*Run, []pendingFile, error) {
	view := *r
	view.Results = append([]TaskResult(nil), r.Results...)
	rep := Repeated(r)
	var pngs []pendingFile
	names := map[string]bool{}
	for i := range view.Results {
		res := &view.Results[i]
		if res.Observation == nil || len(res.Observation.Screenshot.PNG) == 0 {
			continue
		}
		if !SafeName(res.Task) {
			return nil, nil, fmt.Errorf("report files: screenshot of task %q: the task name is not a plain file name", res.Task)
		}
		name := imageStem(base, res, rep) + ".png"
		if names[name] {
			return nil, nil, fmt.Errorf("report files: screenshot of task %q attempt %d: file name %s is used twice", res.Task, res.Attempt, name)
		}
		names[name] = true
		obs := *res.Observation
		obs.Screenshot.File = name
		res.Observation = &obs
		pngs = append(pngs, pendingFile{name: name, data: obs.Screenshot.PNG})
	}
	return &view, pngs, nil
}

// withThumbnailFiles returns a copy of r (itself a copy made by
// withScreenshotFiles, whose results may be changed) whose calls name
// their thumbnail files, and those files. Task names were checked by
// withScreenshotFiles.
func withThumbnailFiles(base string, r *Run) (*Run, []pendingFile) {
	rep := Repeated(r)
	var jpgs []pendingFile
	for i := range r.Results {
		res := &r.Results[i]
		copied := false
		for j, c := range res.Calls {
			if c.Thumbnail == nil || len(c.Thumbnail.JPEG) == 0 {
				continue
			}
			if !copied {
				res.Calls = append([]Call(nil), res.Calls...)
				copied = true
			}
			name := imageStem(base, res, rep) + "-step" + strconv.Itoa(c.Seq) + ".jpg"
			th := *c.Thumbnail
			th.File = name
			res.Calls[j].Thumbnail = &th
			jpgs = append(jpgs, pendingFile{name: name, data: th.JPEG})
		}
	}
	return r, jpgs
}

// imageStem is how the names of a result's image files begin:
// <base>-<task>, and -<attempt> when tasks were repeated.
func imageStem(base string, res *TaskResult, rep bool) string {
	if rep {
		return base + "-" + res.Task + "-" + strconv.Itoa(res.Attempt)
	}
	return base + "-" + res.Task
}

// SafeName reports whether s can be used inside a file name as is: letters,
// digits, '.', '-' and '_', and neither "." nor "..", so no path
// separator and nothing a shell or URL would mangle.
func SafeName(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// writeTemp writes data to a new temporary file in dir named after final
// and returns its path, also when writing failed, so the caller can remove
// it.
func writeTemp(dir, final string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, "."+final+".tmp-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		// Readable like any file the user writes; CreateTemp makes 0600.
		err = f.Chmod(0o644)
	}
	if err == nil {
		// Flushed before the rename, so a crash cannot leave a complete
		// name over incomplete contents.
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return f.Name(), fmt.Errorf("%s: %w", filepath.Join(dir, final), err)
	}
	return f.Name(), nil
}

// mkdirAll creates dir and its missing parents and returns the directories
// it created, outermost first, so they can be removed again.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		_, err := os.Stat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("report directory %s: %w", dir, err)
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report directory %s: %w", dir, err)
	}
	slices.Reverse(missing)
	return missing, nil
}

// CheckDir reports whether a report can be written into dir: it creates
// dir if needed and writes and removes a small file there. A run checks
// this before its first task, so an output path that is a file or not
// writable fails at once rather than after every task ran. A folder it
// created is left in place for the report.
func CheckDir(dir string) error {
	if _, err := mkdirAll(dir); err != nil {
		return err
	}
	probe, err := writeTemp(dir, "probe", []byte("contractbench checks that it can write its report here\n"))
	if probe != "" {
		os.Remove(probe)
	}
	if err != nil {
		return fmt.Errorf("report directory %s: not writable: %w", dir, err)
	}
	return nil
}
