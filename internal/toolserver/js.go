package toolserver

import _ "embed"

// The scripts the tool server runs in its isolated world. Each file starts
// with a comment saying what it returns. None of them takes JavaScript from
// the agent: their arguments are refs, strings to compare and CSS
// selectors, passed as JSON values.
var (
	//go:embed js/install.js
	installJS string
	//go:embed js/snapshot.js
	snapshotJS string
	//go:embed js/resolve.js
	resolveJS string
	//go:embed js/activity.js
	activityJS string
	//go:embed js/describe.js
	describeJS string
	//go:embed js/editable.js
	editableJS string
	//go:embed js/value.js
	valueJS string
	//go:embed js/select.js
	selectJS string
	//go:embed js/scroll.js
	scrollJS string
	//go:embed js/waitfor.js
	waitforJS string
)
