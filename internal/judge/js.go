package judge

import _ "embed"

// The JavaScript the judge runs, always in its own isolated world. Each
// file's header says what it returns.
var (
	//go:embed js/page_state.js
	pageStateJS string
	//go:embed js/query.js
	queryJS string
	//go:embed js/watch.js
	watchJS string
)
