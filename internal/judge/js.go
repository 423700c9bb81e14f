package judge

import _ "embed"

// The JavaScript the judge runs, always in its own isolated world. Each
// file's header says what it returns.
//
// query.js and paint.js are ES modules: each exports the function the
// judge calls, and imports the parts it is made of. js/lib holds the
// helpers both use, which need no page; js/query the parts of query's
// rules, each a function of what it reads (the page, and the parts it
// builds on) that returns what it computes. The judge sends
// js/bundle/query.js and js/bundle/paint.js, each a module and its
// imports bundled into one function declaration by esbuild; go generate
// writes them again and TestScriptBundles fails when they are stale.
// Every part is tested alone without a browser (jslib_test.go,
// jsquery_test.go), the scripts whole in Chromium.
//
//go:generate go test -run ^TestScriptBundles$ -update-bundles .
var (
	//go:embed js/page_state.js
	pageStateJS string
	//go:embed js/watch.js
	watchJS string
	//go:embed js/bundle/query.js
	queryJS string
	//go:embed js/bundle/paint.js
	paintJS string
)
