package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// LoadImages reads back the images WriteFiles wrote beside a report in dir
// (each result's screenshot, each call's thumbnail) into r, so that
// WriteHTML can embed them in a report read from JSON. An image whose file
// is missing is left out, and the HTML says so; a file name that is not a
// plain name in dir is an error naming where it is in the report, since
// the report may come from elsewhere.
func LoadImages(dir string, r *Run) error {
	read := func(where, name string) ([]byte, error) {
		if !SafeName(name) {
			return nil, fmt.Errorf("report images: %s: %q is not a plain file name", where, name)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("report images: %s: %w", where, err)
		}
		return b, nil
	}
	for i := range r.Results {
		res := &r.Results[i]
		if obs := res.Observation; obs != nil && obs.Screenshot.File != "" {
			b, err := read(fmt.Sprintf("results[%d].observation.screenshot.file", i), obs.Screenshot.File)
			if err != nil {
				return err
			}
			obs.Screenshot.PNG = b
		}
		for j := range res.Calls {
			th := res.Calls[j].Thumbnail
			if th == nil || th.File == "" {
				continue
			}
			b, err := read(fmt.Sprintf("results[%d].calls[%d].thumbnail.file", i, j), th.File)
			if err != nil {
				return err
			}
			th.JPEG = b
		}
	}
	return nil
}
