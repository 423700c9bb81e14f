package cli

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"

	"contractbench/internal/browser"
	"contractbench/internal/sandbox"
	"contractbench/internal/servers"
	"contractbench/internal/webreplay"
)

// sandboxSites returns how to build the sandbox's sites for a run on
// archive, or nil when the archive holds none of their hosts: a suite
// serves the sites by keeping their static files in its archive
// (benchmarks/sandbox/web).
func sandboxSites(archive *webreplay.Archive) func(http.Handler) http.Handler {
	if !slices.ContainsFunc(archive.Hosts(), sandbox.IsHost) {
		return nil
	}
	return func(fallback http.Handler) http.Handler { return sandbox.New(fallback) }
}

// replayHandler is what answers the browser in replay mode outside a run
// (web serve, mcp): the archive, behind the sandbox's sites when it has
// them. One state serves the whole session.
func replayHandler(archive *webreplay.Archive, replay *webreplay.Replayer) http.Handler {
	if sites := sandboxSites(archive); sites != nil {
		return sites(replay)
	}
	return replay
}

// launchOnWeb launches a browser on the suite's web for command cmd: the
// live web, or the suite's fixture web ("replay", its sandbox sites
// included) through a replay server. The returned function closes both.
func launchOnWeb(ctx context.Context, st *State, cmd, suiteDir, web string) (*browser.Browser, func(), error) {
	opts := browser.Options{ExecPath: st.Getenv("CONTRACTBENCH_CHROMIUM"), NoSandbox: st.Root, Env: servers.ChildEnv(st.Environ())}
	var srv *webreplay.Server
	switch web {
	case "live":
	case "replay":
		archive, err := webreplay.Open(filepath.Join(suiteDir, "web"))
		if err != nil {
			return nil, nil, asUsage(err)
		}
		if srv, err = webreplay.NewServer(replayHandler(archive, webreplay.Replay(archive)), webreplay.ServerOptions{Hosts: archive.Hosts()}); err != nil {
			return nil, nil, err
		}
		opts.Flags = srv.ChromiumFlags()
	default:
		return nil, nil, usagef("%s: --web %q: want replay or live", cmd, web)
	}
	b, err := browser.Launch(ctx, opts)
	if err != nil {
		if srv != nil {
			srv.Close()
		}
		return nil, nil, err
	}
	return b, func() {
		b.Close()
		if srv != nil {
			srv.Close()
		}
	}, nil
}
