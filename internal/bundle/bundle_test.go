package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/bundle/bundletest"
	"contractbench/internal/suite"
)

func pack1(t *testing.T, f Format) []byte {
	t.Helper()
	rep, suiteDir := bundletest.Run(t)
	var b bytes.Buffer
	if _, err := Write(&b, f, Inputs{Report: rep, Suite: suiteDir, Bundler: "test"}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestBundleVerifies(t *testing.T) {
	for _, f := range []Format{TarGz, Zip} {
		t.Run(string(f), func(t *testing.T) {
			data := pack1(t, f)
			v, err := Verify(data)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Agrees() || v.Regraded != 2 || v.Recomputed.Passed != 1 || v.Recomputed.Total != 2 {
				t.Fatalf("verified %+v, recomputed %d / %d", v.Changed, v.Recomputed.Passed, v.Recomputed.Total)
			}
			var names []string
			for _, fl := range v.Manifest.Files {
				names = append(names, fl.Path)
			}
			for _, want := range []string{"report/run.json", "report/run.md", "report/run.html", "report/run-t-01-title-1.png", "tasks/t-01-title.yaml"} {
				if !strings.Contains(strings.Join(names, " "), want) {
					t.Errorf("manifest lacks %s: %v", want, names)
				}
			}
		})
	}
}

func TestBundleIsReproducible(t *testing.T) {
	rep, suiteDir := bundletest.Run(t)
	var a, b bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if _, err := Write(w, TarGz, Inputs{Report: rep, Suite: suiteDir}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same run packed twice gave different bytes")
	}
}

// repack unpacks data, lets edit change its files, and packs it again.
func repack(t *testing.T, data []byte, edit func(files map[string][]byte)) []byte {
	t.Helper()
	entries, err := unpack(data)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		files[e.name] = e.data
	}
	edit(files)
	var out []entry
	for _, e := range entries {
		out = append(out, entry{e.name, files[e.name]})
	}
	var b bytes.Buffer
	if err := pack(&b, TarGz, out, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// relist rewrites the manifest's entry of name to match its new bytes,
// as someone covering an edit would.
func relist(t *testing.T, files map[string][]byte, name string) {
	t.Helper()
	var m Manifest
	if err := json.Unmarshal(files[manifestFile], &m); err != nil {
		t.Fatal(err)
	}
	for i := range m.Files {
		if m.Files[i].Path == name {
			m.Files[i].SHA256, m.Files[i].Bytes = suite.SHA256(files[name]), len(files[name])
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	files[manifestFile] = b
}

func TestVerifyRefuses(t *testing.T) {
	data := pack1(t, TarGz)
	for _, tc := range []struct {
		name     string
		bundle   func() []byte
		file     string // the file the refusal must name
		contains string
	}{
		{"a changed screenshot byte", func() []byte {
			return repack(t, data, func(f map[string][]byte) { f["report/run-t-01-title-1.png"][20] ^= 1 })
		}, "report/run-t-01-title-1.png", "SHA-256"},
		{"a contract edited after the run, manifest covered", func() []byte {
			return repack(t, data, func(f map[string][]byte) {
				f["tasks/t-01-title.yaml"] = bytes.Replace(f["tasks/t-01-title.yaml"], []byte(`/done$`), []byte(`/(done)?$`), 1)
				relist(t, f, "tasks/t-01-title.yaml")
			})
		}, "tasks/t-01-title.yaml", "contract was edited"},
		{"a rationale edited after the run, manifest covered", func() []byte {
			return repack(t, data, func(f map[string][]byte) {
				f["tasks/t-01-title.yaml"] = bytes.Replace(f["tasks/t-01-title.yaml"], []byte("alone"), []byte("only"), 1)
				relist(t, f, "tasks/t-01-title.yaml")
			})
		}, "tasks/t-01-title.yaml", "task was edited"},
		{"a file added", func() []byte {
			b := repack(t, data, func(map[string][]byte) {})
			entries, _ := unpack(b)
			var out bytes.Buffer
			if err := pack(&out, TarGz, append(entries, entry{"report/extra.txt", []byte("x")}), time.Unix(0, 0)); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}, "report/extra.txt", "not in the manifest"},
		{"a truncated archive", func() []byte { return data[:len(data)*2/3] }, "", "truncated or corrupt"},
		{"a truncated zip", func() []byte { z := pack1(t, Zip); return z[:len(z)*2/3] }, "", "central directory (its end): truncated or corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(tc.bundle())
			var e *refusal
			if !errors.As(err, &e) {
				t.Fatalf("Verify = %v, want a refusal", err)
			}
			if tc.file != "" && e.File != tc.file {
				t.Errorf("refusal names %q, want %q: %v", e.File, tc.file, e)
			}
			if !strings.Contains(e.Error(), tc.contains) {
				t.Errorf("refusal %q does not say %q", e, tc.contains)
			}
		})
	}
}

// verifyForgedOutcome verifies a bundle whose report says a failed
// attempt passed, with the report's manifest entry covered.
func verifyForgedOutcome(t *testing.T) *Verified {
	t.Helper()
	data := pack1(t, TarGz)
	forged := repack(t, data, func(f map[string][]byte) {
		f["report/run.json"] = bytes.Replace(f["report/run.json"], []byte(`"outcome": "failed"`), []byte(`"outcome": "passed"`), 1)
		relist(t, f, "report/run.json")
	})
	v, err := Verify(forged)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A report whose outcome was rewritten, with its manifest entry covered,
// verifies its digests but not its score.
func TestVerifyRegradesTheReport(t *testing.T) {
	v := verifyForgedOutcome(t)
	if v.Agrees() || len(v.Changed) != 1 || !strings.Contains(v.Changed[0], "attempt 2: passed in the report, failed re-graded") {
		t.Fatalf("agrees %v, changed %q", v.Agrees(), v.Changed)
	}
}

// The summary of a verified bundle names the digest that pins it, each
// outcome re-grading changed, and both scores.
func TestVerifiedSummary(t *testing.T) {
	v := verifyForgedOutcome(t)
	var out strings.Builder
	if err := v.WriteSummary(&out, "b.tar.gz"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		fmt.Sprintf("b.tar.gz: %d files, 1 tasks, every digest holds", len(v.Manifest.Files)+1),
		"manifest " + v.ManifestDigest,
		fmt.Sprintf("suite %s, digest %s; contractbench %s; tool server %s", v.Manifest.Suite, v.Manifest.SuiteDigest[:12], v.Manifest.Contractbench, v.Manifest.ToolServer),
		"changed: " + v.Changed[0],
		"re-graded 2 results: score 1 / 2 (50.0%); the report gives 1 / 2 (50.0%)", // its summary was not forged
	}
	if !slices.Equal(lines, want) {
		t.Errorf("summary:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
}

func TestWriteRefusesAnEditedTask(t *testing.T) {
	rep, suiteDir := bundletest.Run(t)
	file := filepath.Join(suiteDir, "tasks", "t-01-title.yaml")
	spec, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, bytes.Replace(spec, []byte(`/done$`), []byte(`/(done)?$`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Write(&bytes.Buffer{}, TarGz, Inputs{Report: rep, Suite: suiteDir})
	if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "edited after the run") {
		t.Fatalf("Write = %v, want a refusal naming %s", err, file)
	}
}

func TestWriteRefusesMixedInputs(t *testing.T) {
	rep, suiteDir := bundletest.Run(t)
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	// The second attempt says it was graded by another contract.
	key := []byte(`"contract": "sha256:`)
	at := bytes.LastIndex(data, key) + len(key)
	data[at] ^= 1
	if err := os.WriteFile(rep, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Write(&bytes.Buffer{}, TarGz, Inputs{Report: rep, Suite: suiteDir})
	if err == nil || !strings.Contains(err.Error(), "attempt 2 recorded other inputs") {
		t.Fatalf("Write = %v, want a refusal of the mixed attempts", err)
	}
}
