package cli

import (
	"runtime/debug"
	"time"
)

// stamped is the version `make build` stamps in (scripts/version.sh).
var stamped string

// buildVersion is the version this binary was built from: the one `make build`
// stamped in, else the module version when it was built from a tagged
// module, and otherwise a Go pseudo-version
// made of the VCS commit time and revision the toolchain recorded
// (v0.0.0-20261123145000-0377d11c9a2b), with "+dirty" when the work tree
// had changes. A binary built without VCS information says "unknown".
func buildVersion() string {
	if stamped != "" {
		return stamped
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				at = t.UTC().Format("20060102150405")
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	v := "v0.0.0-" + at + "-" + rev[:min(12, len(rev))]
	if at == "" {
		v = "v0.0.0-" + rev[:min(12, len(rev))]
	}
	if dirty {
		v += "+dirty"
	}
	return v
}
