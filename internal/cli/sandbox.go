package cli

import (
	"net/http"
	"net/url"
	"slices"

	"contractbench/internal/runner"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
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

// refuseSandboxLive refuses --web live and --web record for tasks that
// start on a sandbox site: those sites exist only in this repository, so
// there is nothing on the network to use or to record.
func refuseSandboxLive(web runner.Web, tasks []*suite.Task) error {
	if web == runner.WebReplay {
		return nil
	}
	for _, t := range tasks {
		u, err := url.Parse(t.StartURL)
		if err != nil || !sandbox.IsHost(u.Hostname()) {
			continue
		}
		return usagef("--web %s: %s starts on %s, a sandbox site that exists only in this repository (internal/sandbox), so there is nothing on the network to %s; run it with --web replay",
			web, t.ID, u.Hostname(), map[runner.Web]string{runner.WebLive: "use", runner.WebRecord: "record"}[web])
	}
	return nil
}
