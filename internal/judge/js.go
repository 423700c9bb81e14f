package judge

import (
	"embed"
	"strings"
)

// The JavaScript the judge runs, always in its own isolated world. Each
// file's header says what it returns. query.js and paint.js are single
// functions; the helpers they share, and those worth testing without a
// browser, are in js/lib, put in place of the //lib line of each.
var (
	//go:embed js/page_state.js
	pageStateJS string
	//go:embed js/watch.js
	watchJS string
	//go:embed js/query.js
	queryJS string
	//go:embed js/paint.js
	paintJS string
	//go:embed js/lib/*.js
	libFS embed.FS
)

// libFiles are js/lib's files, in the order they are put in.
var libFiles = []string{"tree.js", "colour.js", "shapes.js", "text.js"}

// libMarker is the line of a function that js/lib replaces.
const libMarker = "  //lib: the helpers of js/lib, put here by js.go.\n"

func init() {
	var lib strings.Builder
	for _, name := range libFiles {
		b, err := libFS.ReadFile("js/lib/" + name)
		if err != nil {
			panic(err)
		}
		lib.Write(b)
		lib.WriteString("\n")
	}
	for _, fn := range []*string{&queryJS, &paintJS} {
		if strings.Count(*fn, libMarker) != 1 {
			panic("judge: a script lacks the line js/lib replaces")
		}
		*fn = strings.Replace(*fn, libMarker, lib.String(), 1)
	}
}
