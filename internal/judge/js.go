package judge

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
)

// The JavaScript the judge runs, always in its own isolated world. Each
// file's header says what it returns. query.js and paint.js are single
// functions, put together from parts: each line "//include: a.js b.js" is
// replaced by those files of js/, in that order. js/lib holds the helpers
// both share, which need no page; js/query the parts of query.js. Both
// are tested without a browser where they can be (jslib_test.go,
// jsquery_test.go).
var (
	//go:embed js/page_state.js
	pageStateJS string
	//go:embed js/watch.js
	watchJS string
	//go:embed js/query.js js/paint.js js/lib/*.js js/query/*.js
	jsFS embed.FS

	queryJS = assemble("query.js")
	paintJS = assemble("paint.js")
)

// includeLine is a line of a script that assemble replaces.
var includeLine = regexp.MustCompile(`(?m)^[ \t]*//include: (.*)\n`)

// assemble returns the script js/name with its include lines replaced.
// It panics on a file that is missing: the scripts are part of the binary.
func assemble(name string) string {
	src, err := jsFS.ReadFile("js/" + name)
	if err != nil {
		panic(err)
	}
	return includeLine.ReplaceAllStringFunc(string(src), func(line string) string {
		var b strings.Builder
		for _, part := range strings.Fields(includeLine.FindStringSubmatch(line)[1]) {
			b.WriteString(jsFile(part))
			b.WriteString("\n")
		}
		return b.String()
	})
}

// jsFile is the text of js/name.
func jsFile(name string) string {
	b, err := jsFS.ReadFile("js/" + name)
	if err != nil {
		panic(fmt.Sprintf("judge: %s includes a missing file: %v", name, err))
	}
	return string(b)
}
