package runner

import (
	"context"
	"net/http"
	"slices"

	"contractbench/internal/browser"
	"contractbench/internal/sandbox"
	"contractbench/internal/webreplay"
)

// Sites returns how to build the sandbox's sites for a run on archive
// (Spec.Sites), or nil when the archive holds none of their hosts: a
// suite serves the sites by keeping their static files in its archive
// (benchmarks/sandbox/web).
func Sites(archive *webreplay.Archive) func(http.Handler) http.Handler {
	if !slices.ContainsFunc(archive.Hosts(), sandbox.IsHost) {
		return nil
	}
	return func(fallback http.Handler) http.Handler { return sandbox.New(fallback) }
}

// ReplayHandler is what answers the browser in replay mode outside a run
// (web serve, mcp, snapshot): the archive, behind the sandbox's sites
// when it has them. One state serves the whole session.
func ReplayHandler(archive *webreplay.Archive, replay *webreplay.Replayer) http.Handler {
	if sites := Sites(archive); sites != nil {
		return sites(replay)
	}
	return replay
}

// LaunchOnWeb launches a browser with opts on archive's fixture web (its
// sandbox sites included) through a replay server, or on the live web when
// archive is nil. The returned function closes both.
func LaunchOnWeb(ctx context.Context, opts browser.Options, archive *webreplay.Archive) (*browser.Browser, func(), error) {
	var srv *webreplay.Server
	if archive != nil {
		var err error
		if srv, err = webreplay.NewServer(ReplayHandler(archive, webreplay.Replay(archive)), webreplay.ServerOptions{Hosts: archive.Hosts()}); err != nil {
			return nil, nil, err
		}
		opts.Flags = append(slices.Clip(opts.Flags), srv.ChromiumFlags()...)
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
