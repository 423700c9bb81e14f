package phash

import (
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// classPNG is an encoded example screenshot and its hash.
type classPNG struct {
	data []byte
	hash Hash
}

func newClassPNG(t *testing.T, img image.Image) classPNG {
	t.Helper()
	data := encodePNG(t, img, png.BestSpeed)
	h, err := FromPNG(data)
	if err != nil {
		t.Fatalf("FromPNG: %v", err)
	}
	return classPNG{data, h}
}

func TestLoadClasses(t *testing.T) {
	t.Parallel()
	article := newClassPNG(t, page(160, 100))
	search := newClassPNG(t, searchPage(160, 100))
	icon := newClassPNG(t, darkIcon(160, 100))
	white := newClassPNG(t, blank(160, 100, color.White))
	file := func(p classPNG) *fstest.MapFile { return &fstest.MapFile{Data: p.data} }
	dir := &fstest.MapFile{Mode: fs.ModeDir | 0o755}

	tests := []struct {
		name    string
		fsys    fstest.MapFS
		want    Classes
		wantErr []string // substrings of the error; nil means success
	}{
		{
			name: "good",
			fsys: fstest.MapFS{
				"README.md":                 {Data: []byte("screenshot classes")},
				"article/b-dark.png":        file(icon),
				"article/a-light.png":       file(article),
				"article/notes.txt":         {Data: []byte("not an example")},
				"article/old/ignored.png":   {Data: []byte("deeper folders are not read")},
				"search_results-2/page.png": file(search),
				"blank/about-blank.png":     file(white),
			},
			// Examples in file name order.
			want: Classes{
				"article":          {article.hash, icon.hash},
				"search_results-2": {search.hash},
				"blank":            {white.hash},
			},
		},
		{
			name: "no-classes",
			fsys: fstest.MapFS{"README.md": {Data: []byte("nothing yet")}},
			want: Classes{},
		},
		{
			name:    "empty-folder",
			fsys:    fstest.MapFS{"article/a.png": file(article), "checkout": dir},
			wantErr: []string{`"checkout"`, "no .png"},
		},
		{
			name:    "folder-without-png",
			fsys:    fstest.MapFS{"checkout/readme.txt": {Data: []byte("todo")}, "checkout/shot.PNG": file(article)},
			wantErr: []string{`"checkout"`, "no .png"},
		},
		{
			name:    "bad-png",
			fsys:    fstest.MapFS{"checkout/good.png": file(article), "checkout/broken.png": {Data: []byte("\x89PNG\r\n\x1a\nnope")}},
			wantErr: []string{"checkout/broken.png", "decode PNG"},
		},
		{
			name:    "truncated-png",
			fsys:    fstest.MapFS{"checkout/cut.png": {Data: article.data[:len(article.data)/2]}},
			wantErr: []string{"checkout/cut.png", "decode PNG"},
		},
		{
			name:    "upper-case-id",
			fsys:    fstest.MapFS{"Checkout/a.png": file(article)},
			wantErr: []string{`"Checkout"`, "must match"},
		},
		{
			name:    "id-with-space",
			fsys:    fstest.MapFS{"check out/a.png": file(article)},
			wantErr: []string{`"check out"`, "must match"},
		},
		{
			name:    "id-starting-with-dash",
			fsys:    fstest.MapFS{"-checkout/a.png": file(article)},
			wantErr: []string{`"-checkout"`, "must match"},
		},
		{
			name:    "hidden-folder",
			fsys:    fstest.MapFS{".git/x.png": file(article)},
			wantErr: []string{`".git"`, "must match"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := LoadClasses(tt.fsys)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("LoadClasses = %v, want an error containing %q", got, tt.wantErr)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("LoadClasses error = %q, want it to contain %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadClasses: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Errorf("LoadClasses: classes %v, want %v", got.IDs(), tt.want.IDs())
			}
			for id, want := range tt.want {
				if !slices.Equal(got[id], want) {
					t.Errorf("class %q: examples %v, want %v", id, got[id], want)
				}
			}
		})
	}
}

func TestClassesDistance(t *testing.T) {
	t.Parallel()
	classes := Classes{
		"article": {0xffff000000000000, 0x00000000000000ff, 0x0f0f0f0f0f0f0f0f},
		"blank":   {0x8000000000000000},
		"empty":   {},
	}
	tests := []struct {
		name   string
		class  string
		hash   uint64
		want   int
		wantOK bool
	}{
		{"exact-example", "blank", 0x8000000000000000, 0, true},
		{"nearest-is-first", "article", 0xfffe000000000000, 1, true},
		{"nearest-is-last", "article", 0x0f0f0f0f0f0f0f0e, 1, true},
		// 20 from the first, 4 from the second, 36 from the third.
		{"nearest-is-second", "article", 0x00000000000000f0, 4, true},
		{"far-from-all", "blank", 0x7fffffffffffffff, 64, true},
		{"unknown-class", "checkout", 0x8000000000000000, 0, false},
		{"class-without-examples", "empty", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := classes.Distance(tt.class, tt.hash)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Distance(%q, %016x) = %d, %t; want %d, %t", tt.class, tt.hash, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestClassesIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		classes Classes
		want    []string
	}{
		{"nil", nil, []string{}},
		{"sorted", Classes{"search": nil, "article": nil, "blank-2": nil, "blank": nil}, []string{"article", "blank", "blank-2", "search"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.classes.IDs(); !slices.Equal(got, tt.want) {
				t.Errorf("IDs() = %q, want %q", got, tt.want)
			}
		})
	}
}
