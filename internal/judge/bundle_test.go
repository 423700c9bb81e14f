package judge

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

var updateBundles = flag.Bool("update-bundles", false,
	"write js/bundle/*.js again from the modules of js/ (go generate does this)")

// pageScripts are the scripts the judge calls, by the module of js/ that
// exports each and the name of its export.
var pageScripts = []struct{ module, export string }{
	{"query.js", "query"},
	{"paint.js", "paint"},
}

// bundle is js/module and the modules it imports as one script (esbuild,
// scope-hoisted, syntax kept as written): an expression that runs them
// and gives module's exports as global's properties.
func bundle(t testing.TB, module, global string, minify bool) string {
	t.Helper()
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join("js", module)},
		Bundle:            true,
		Format:            api.FormatIIFE,
		GlobalName:        global,
		Target:            api.ESNext,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone,
		MinifyWhitespace:  minify,
		MinifySyntax:      minify,
		MinifyIdentifiers: minify,
		Write:             false,
	})
	for _, m := range res.Errors {
		where := ""
		if m.Location != nil {
			where = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
		}
		t.Errorf("bundling js/%s: %s%s", module, where, m.Text)
	}
	if len(res.Errors) > 0 || len(res.OutputFiles) != 1 {
		t.FailNow()
	}
	return string(res.OutputFiles[0].Contents)
}

// pageScript is what js/bundle/module holds: module's export, with what
// it imports, as the function declaration the judge sends
// Runtime.callFunctionOn. The modules run again at each call, so nothing
// a call computes outlives it but what it keeps in the world's globals.
func pageScript(t testing.TB, module, export string) string {
	return "// Made from js/" + module + " and the modules it imports by go generate" +
		" (TestScriptBundles): do not edit.\nfunction (...args) {\n" +
		bundle(t, module, "bundled", true) + "return bundled." + export + "(...args);\n}\n"
}

// TestScriptBundles: the scripts the judge sends are those its modules
// make (go generate writes them again).
func TestScriptBundles(t *testing.T) {
	embedded := map[string]string{"query.js": queryJS, "paint.js": paintJS}
	for _, s := range pageScripts {
		want := pageScript(t, s.module, s.export)
		path := filepath.Join("js", "bundle", s.module)
		if *updateBundles {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if embedded[s.module] != want {
			t.Errorf("%s is stale: run go generate ./internal/judge", path)
		}
		if _, err := goja.Compile(s.module, "("+want+")", true); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := goja.Compile("page state", watchJS+";\n"+pageStateJS, true); err != nil {
		t.Errorf("watch.js and page_state.js: %v", err)
	}
}
