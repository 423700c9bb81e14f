package cli

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"contractbench/internal/bundle"
	"contractbench/internal/report"
)

const bundleHelp = `
Packs the run of REPORT.json into one archive (.tar.gz, .tgz or .zip, by the
name given to -o): the JSON, Markdown and HTML reports, every final
screenshot and step thumbnail they name, the spec file of every task, the
transcripts a replay agent played, the screenshot classes the contracts
name, and manifest.json: the versions of contractbench and of the tool
server, the suite digest, each task's spec and contract digest, and the
SHA-256 of every file. contractbench verify checks it.

Every task file and transcript must be the one the run recorded (by its
digest): one edited since the run is refused, naming it. The archive is
written to a temporary file and renamed into place; packing the same files
again gives the same bytes.

Exit codes: 0 written; 2 bad usage, or a report, task file or transcript
that cannot be bundled.
`

func runBundle(st *State, args []string) error {
	fs := newFlags(st, "contractbench bundle [--suite DIR] [--transcripts DIR] -o FILE REPORT.json", bundleHelp)
	out := fs.String("o", "", "archive to write: NAME.tar.gz, NAME.tgz or NAME.zip")
	suiteDir := fs.String("suite", "", "suite the run read its tasks from (default: the one the report names)")
	transcripts := fs.String("transcripts", "", "folder of the transcripts a replay agent played (default <suite>/transcripts/<server>)")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(paths) != 1 || *out == "" {
		return usagef("bundle: want -o FILE and one REPORT.json (run contractbench bundle --help)")
	}
	format, ok := bundle.FormatOf(*out)
	if !ok {
		return usagef("bundle: -o %s: the name must end in .tar.gz, .tgz or .zip", *out)
	}
	dest, err := filepath.Abs(*out)
	if err != nil {
		return usagef("bundle: -o %s: %v", *out, err)
	}
	if !report.SafeName(filepath.Base(dest)) {
		return usagef("bundle: -o %s: the file name must be letters, digits, '.', '-' and '_'", *out)
	}
	r, err := readRunReport(paths[0], false)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	m, err := bundle.Write(&b, format, bundle.Inputs{
		Report: paths[0], Suite: cmp.Or(*suiteDir, r.Settings.Suite, defaultSuite),
		Transcripts: *transcripts, Bundler: buildVersion(),
	})
	if err != nil {
		return usagef("bundle: %v", err)
	}
	written, err := report.WriteFile(filepath.Dir(dest), filepath.Base(dest), b.Bytes())
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	fmt.Fprintf(st.Stdout, "%s: %d files, %d tasks, suite digest %s\n", written, len(m.Files)+1, len(m.Tasks), m.SuiteDigest[:12])
	return nil
}

// readBundle verifies the bundle at path, every refusal a usage error
// naming the bundle and the file inside it.
func readBundle(path string) (*bundle.Verified, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	v, err := bundle.Verify(data)
	if err != nil {
		return nil, usagef("%s: refused: %v", path, err)
	}
	return v, nil
}
