package browser

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Viewport is the size, in CSS pixels, of every page of a launched headless
// browser. Contracts with screenshot classes depend on it, so it is fixed
// rather than left to the machine's defaults.
const (
	ViewportWidth  = 1280
	ViewportHeight = 800
)

// topChromeHeight is the height of the tab strip and toolbar that the full
// browser (chromium --headless=new) lays out above the page, invisible but
// real: a window of 1280x800 has a 1280x713 viewport. Its windows are made
// this much taller, and TestViewportOfEveryNewPage catches a Chromium whose
// toolbar changed. A headless shell has no toolbar: its window is its page.
//
// The alternative, Emulation.setDeviceMetricsOverride, holds only while the
// CDP session that set it stays attached, and only for that one page; it
// would make this package keep a session on every tab.
const topChromeHeight = 87

// windowHeight is the height of a window whose page viewport is
// ViewportHeight, in a headless shell or in the full browser.
func windowHeight(shell bool) int {
	if shell {
		return ViewportHeight
	}
	return ViewportHeight + topChromeHeight
}

// isHeadlessShell reports whether execPath is a headless shell
// (chromium-headless-shell, chrome-headless-shell): Chromium's pages,
// network and DevTools without the browser's own user interface, headless
// by construction. It is told by its name, as the binary's own launcher
// scripts and its packages name it, because the flags it takes are chosen
// before it runs.
func isHeadlessShell(execPath string) bool {
	return strings.Contains(filepath.Base(execPath), "headless-shell")
}

// isShellProduct reports whether a running browser's product, as
// /json/version's "Browser" gives it, is a headless shell's: the shell calls
// itself HeadlessChrome, the full browser Chrome even when headless.
func isShellProduct(product string) bool {
	return strings.HasPrefix(product, "HeadlessChrome/")
}

// disabledFeatures are Chromium features that reach out to Google services
// or pop up UI on their own. On a closed network they only produce failed
// requests that would pollute the judge's network log, and timing noise.
var disabledFeatures = []string{
	"AutofillServerCommunication",
	"CertificateTransparencyComponentUpdater",
	"DialMediaRouteProvider",
	"InterestFeedContentSuggestions",
	"MediaRouter",
	"OptimizationGuideModelDownloading",
	"OptimizationHints",
	"OptimizationHintsFetching",
	"PrivacySandboxSettings4",
	"Translate",
	// Every window (and each task's browser context opens one) loads the
	// address bar's suggestion popup, which headless never shows, as web
	// pages of its own in a renderer of its own
	// (chrome://omnibox-popup.top-chrome/, a "browser_ui" target): some
	// 400 requests for its scripts and styles per window. Without them the
	// seed's ten tasks take about a third less CPU time
	// (docs/benchmarks/webvoyager.md, "Speed"). TestNoBrowserUIPages
	// catches a Chromium that loads it under another name.
	"WebUIOmniboxAimPopup",
	"WebUIOmniboxPopup",
}

// baseFlags returns the flags every launch gets, before the caller's own;
// shell says whether the binary is a headless shell.
func baseFlags(opts Options, shell bool, userDataDir string) []string {
	flags := []string{
		"--remote-debugging-port=0",
		"--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + userDataDir,
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-quic",
		"--disable-default-apps",
		"--disable-extensions",
		"--disable-breakpad",
		"--disable-client-side-phishing-detection",
		"--disable-domain-reliability",
		"--no-pings",
		"--mute-audio",
		"--hide-scrollbars",
		"--metrics-recording-only",
		"--password-store=basic",
		"--use-mock-keychain",
		// A task may switch tabs; a background tab must keep running its
		// timers and rendering so the agent and the judge see the page as
		// it would be in front.
		"--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		"--disable-renderer-backgrounding",
		"--disable-gpu",
		// Chromium shows an "unsupported command-line flag" bar for
		// --no-sandbox and the replay server's certificate flags, and the
		// bar takes 56 pixels from the page. --test-type is the switch that
		// suppresses it.
		"--test-type",
		fmt.Sprintf("--window-size=%d,%d", ViewportWidth, windowHeight(shell)),
	}
	if !opts.Headful && !shell {
		flags = append(flags,
			"--headless=new",
			// The default headless screen is 800x600, smaller than the
			// window; pages that size themselves by screen.width would
			// lay out as on a small device.
			fmt.Sprintf("--screen-info={%dx%d}", ViewportWidth, windowHeight(shell)),
		)
	}
	if opts.NoSandbox {
		flags = append(flags, "--no-sandbox")
	}
	return flags
}

// commandLine joins the base flags and the caller's flags. Chromium keeps
// only the last --disable-features switch, so a caller's list is merged into
// ours instead of replacing it.
func commandLine(opts Options, shell bool, userDataDir string) []string {
	features := append([]string(nil), disabledFeatures...)
	args := baseFlags(opts, shell, userDataDir)
	for _, f := range opts.Flags {
		if v, ok := strings.CutPrefix(f, "--disable-features="); ok {
			for name := range strings.SplitSeq(v, ",") {
				if name != "" {
					features = append(features, name)
				}
			}
			continue
		}
		args = append(args, f)
	}
	args = append(args, "--disable-features="+strings.Join(features, ","))
	// Start on a blank page: the first tab must not fetch anything before
	// the judge is attached.
	return append(args, "about:blank")
}
