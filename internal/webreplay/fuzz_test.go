package webreplay

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzDecodeIndex feeds arbitrary bytes to the index.yaml decoder. It must
// never panic, must locate every problem in the file it was given, and
// whatever it accepts must be valid and survive being written and decoded
// again unchanged.
func FuzzDecodeIndex(f *testing.F) {
	for _, listing := range []string{validArchive} {
		for _, file := range txtar.Parse([]byte(listing)).Files {
			if strings.HasSuffix(file.Name, indexFile) {
				f.Add(file.Data)
			}
		}
	}
	for _, seed := range []string{
		"",
		"entries: []\n",
		"entries:\n  - path: /\n    status: 999\n  - path: /\n",
		"entries:\n  - &a {path: /}\n  - *a\n",
		"entries:\n  - path: /s\n    query: b=2&a=1\n    method: POST\n    headers: {Location: x, content-length: 1}\n",
		"entries:\n  - path: /\n---\n",
		"entries:\n  - path: /%zz\n    query: 'a=%zz'\n    body: ../x\n",
	} {
		f.Add([]byte(seed))
	}

	const file = "example.com/index.yaml"
	f.Fuzz(func(t *testing.T, data []byte) {
		items, ps := decodeIndex(file, data)
		for _, p := range ps {
			if p.File != file || p.Msg == "" || p.Line < 0 {
				t.Fatalf("badly located problem %+v", p)
			}
		}
		if len(ps) > 0 {
			return
		}
		idx := indexYAML{Entries: make([]entryYAML, len(items))}
		for i, it := range items {
			if !it.valid || (it.body != "" && !it.bodyOK) {
				t.Fatalf("item %d is invalid but no problem was reported: %+v", i, it)
			}
			if issues := checkEntry(it.entry, it.body != ""); len(issues) > 0 {
				t.Fatalf("accepted entry %+v has issues %v", it.entry, issues)
			}
			e := it.entry
			idx.Entries[i] = entryYAML{Path: e.Path, Query: e.Query, Method: e.Method, Status: e.Status, Headers: e.Header, Body: it.body}
		}
		out, err := encodeYAML(idx)
		if err != nil {
			t.Fatalf("encoding accepted entries: %v", err)
		}
		again, ps := decodeIndex(file, out)
		if len(ps) > 0 {
			t.Fatalf("re-encoded index has problems %v:\n%s", ps, out)
		}
		if len(again) != len(items) {
			t.Fatalf("re-encoded index has %d entries, want %d", len(again), len(items))
		}
		for i := range items {
			if !reflect.DeepEqual(items[i].entry, again[i].entry) || items[i].body != again[i].body {
				t.Fatalf("entry %d changed in a round trip:\n%+v %q\n%+v %q", i, items[i].entry, items[i].body, again[i].entry, again[i].body)
			}
		}
	})
}
