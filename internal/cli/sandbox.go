package cli

import (
	"context"
	"path/filepath"

	"contractbench/internal/browser"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/webreplay"
)

// launchOnWeb launches a browser on the suite's web for command cmd: the
// live web, or the suite's fixture web ("replay", its sandbox sites
// included) through a replay server (runner.LaunchOnWeb). The returned
// function closes both.
func launchOnWeb(ctx context.Context, st *State, cmd, suiteDir, web string) (*browser.Browser, func(), error) {
	opts := browser.Options{ExecPath: st.Getenv("CONTRACTBENCH_CHROMIUM"), NoSandbox: st.Root, Env: servers.ChildEnv(st.Environ())}
	var archive *webreplay.Archive
	switch web {
	case "live":
	case "replay":
		var err error
		if archive, err = webreplay.Open(filepath.Join(suiteDir, "web")); err != nil {
			return nil, nil, asUsage(err)
		}
	default:
		return nil, nil, usagef("%s: --web %q: want replay or live", cmd, web)
	}
	return runner.LaunchOnWeb(ctx, opts, archive)
}
