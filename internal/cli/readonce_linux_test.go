package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"contractbench/internal/webreplay"
)

// A run reads each of its inputs once: the suite's files (tasks, fixture
// web, baseline, tool servers file, transcripts, screenshot classes) when
// it validates the suite, and none of them again, so what it uses is what
// was validated. The test copies a suite of two tasks into a folder of its
// own, watches every folder of the copy with inotify, runs one task with
// the replay agent under its alias and the gate, and counts the opens of
// every file: exactly one of each input, at most one of any other, and of
// the fixture web's files what one opening of the archive reads.
func TestARunReadsEachInputOnce(t *testing.T) {
	t.Parallel()
	const task02 = "task-02-mdn-fetch-syntax"
	root := t.TempDir()
	s := filepath.Join(root, "suite")
	src := func(rel string) string { return filepath.Join(suiteDir, rel) }
	for _, rel := range []string{"web", "screenshot-classes"} {
		copyTree(t, src(rel), filepath.Join(s, rel))
	}
	for _, rel := range []string{
		filepath.Join("tasks", task01+".yaml"), filepath.Join("tasks", task02+".yaml"),
		filepath.Join("transcripts", "builtin", task01+".jsonl"), filepath.Join("transcripts", "builtin", task02+".jsonl"),
		filepath.Join("transcripts", "playwright", task01+".jsonl"),
	} {
		copyTree(t, src(rel), filepath.Join(s, rel))
	}
	copyTree(t, filepath.Join(suiteDir, "..", "servers.yaml"), filepath.Join(root, "servers.yaml"))
	writeFileT(t, filepath.Join(s, "baseline.json"), `{"expected_pass_count": 1, "tasks": ["`+task01+`"]}`)

	opens := watchOpens(t, root)
	// Opening the archive reads a body file once per entry that names it:
	// the run must read the fixture web as one opening does.
	if _, err := webreplay.Open(filepath.Join(s, "web")); err != nil {
		t.Fatal(err)
	}
	archive := opens()
	out := t.TempDir()
	r := runE2E(t, nil, "run", "--suite", s, "--task", task01, "--agent", "mock", "--gate", "--out", out)
	if r.code != exitOK {
		t.Fatalf("run: %v", r)
	}
	counts := opens()

	inputs := []string{
		filepath.Join(root, "servers.yaml"), filepath.Join(s, "baseline.json"),
		filepath.Join(s, "web", "archive.yaml"), filepath.Join(s, "web", "example.com", "index.yaml"),
		filepath.Join(s, "screenshot-classes", "blank-page", "about-blank.png"),
	}
	err := filepath.WalkDir(s, func(path string, d fs.DirEntry, err error) error {
		if ext := filepath.Ext(path); err == nil && (ext == ".yaml" && strings.Contains(path, "tasks") || ext == ".jsonl") {
			inputs = append(inputs, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if counts[in] != 1 {
			t.Errorf("%s was opened %d times during the run, want once", in, counts[in])
		}
		delete(counts, in)
	}
	for path, n := range counts {
		if _, web := archive[path]; web && n != archive[path] {
			t.Errorf("%s was opened %d times during the run, want %d, as opening the archive does", path, n, archive[path])
		} else if !web && n > 1 {
			t.Errorf("%s was opened %d times during the run, want at most once", path, n)
		}
	}

	// What the report says was replayed is the file as read, under the
	// agent's one name.
	rep := readReport(t, out)
	data, err := os.ReadFile(filepath.Join(s, "transcripts", "builtin", task01+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	res := onlyResult(t, rep)
	if rep.Settings.Agent != "replay" || res.Provenance == nil || res.Provenance.Transcript != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("settings.agent %q, provenance %+v; want replay and the digest of %s's transcript", rep.Settings.Agent, res.Provenance, task01)
	}
}

// watchOpens watches every folder under root with inotify, and returns
// what tells, once the watched work is done, how many times each file
// under root was opened. Closes are watched too: inotify merges an event
// with the one before it when they are alike, and an open then a close
// then an open are not.
func watchOpens(t *testing.T, root string) func() map[string]int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Fatalf("inotify: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	dirs := map[int32]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		wd, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN|syscall.IN_CLOSE_WRITE|syscall.IN_CLOSE_NOWRITE)
		dirs[int32(wd)] = path
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() map[string]int {
		t.Helper()
		counts := map[string]int{}
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if errors.Is(err, syscall.EAGAIN) {
				return counts
			}
			if err != nil {
				t.Fatalf("reading inotify events: %v", err)
			}
			for off := 0; off < n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
				off += syscall.SizeofInotifyEvent + int(ev.Len)
				switch {
				case ev.Mask&syscall.IN_Q_OVERFLOW != 0:
					t.Fatal("inotify dropped events: the counts would be wrong")
				case ev.Mask&syscall.IN_OPEN != 0 && ev.Mask&syscall.IN_ISDIR == 0 && name != "":
					counts[filepath.Join(dirs[ev.Wd], name)]++
				}
			}
		}
	}
}
