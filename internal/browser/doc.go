// Package browser owns the lifecycle of the Chromium that a task runs in:
// finding the binary, choosing its flags, giving it a fresh profile, learning
// its DevTools endpoint, noticing when it dies, and cleaning up after it.
//
// A Browser is either launched or attached:
//
//   - Launch starts Chromium in a new per-launch directory that holds the
//     profile and everything Chromium would otherwise scatter over the
//     machine (TMPDIR, HOME, XDG cache and config all point inside it). It
//     runs in its own process group, so Close can kill every process it
//     started, and Close removes the directory. If this process dies
//     first, the kernel kills Chromium with it, and the next Launch in the
//     same parent directory removes the directory left behind.
//   - Attach adopts a browser someone else started (a --browser-url). Close
//     then only stops watching it.
//
// Either way the result is a DevTools HTTP endpoint (URL) that the judge, the
// built-in tool server and peer MCP servers connect to on their own. This
// package holds no CDP session of its own: it speaks only the small HTTP part
// of the DevTools protocol (/json/version), so nothing here can disturb the
// pages a task works in.
//
// Every page of a launched headless browser has a 1280x800 viewport, and so a
// 1280x800 screenshot: the window size on the command line covers the first
// tab, tabs created over CDP, window.open and target=_blank alike, with no
// CDP session needed per page (see topChromeHeight for the arithmetic).
//
// The package never reads environment variables for configuration, prints,
// or exits. Chromium inherits the process environment, as any child process
// does, with the directory variables above overridden.
//
// It must not import the judge, the contract, the agent, the LLM adapters or
// the tool server: it sits below all of them.
package browser
