#!/bin/sh
# Installs the peer MCP browser servers that contractbench can benchmark
# against its built-in one (benchmarks/servers.yaml), at the exact versions
# pinned in package.json and package-lock.json, into ./node_modules:
#
#   @playwright/mcp      0.0.83  (with playwright and playwright-core)
#   chrome-devtools-mcp  1.11.0  (self-contained bundle)
#   @modelcontextprotocol/sdk 1.32.2 (the official MCP TypeScript SDK, for
#                        the example agent in examples/agents/)
#   playwright-core      the version @playwright/mcp locks, pinned directly
#                        for the CDP-native example agent in examples/agents/
#
# Only those npm packages are fetched. Both peers drive the runner's own
# Chromium over CDP, so no browser is downloaded: the skip variables below
# are set for any package that would honour them, and `npm ci
# --ignore-scripts` runs no package script, which is where a download would
# happen (none of the locked packages declares an install script
# today; the flag keeps it that way if one ever does).
#
# Needs Node.js 20.19 or newer (chrome-devtools-mcp's engines field). As
# root, a missing node or npm is installed with apt-get; otherwise the
# script says what to run. Safe to run again: it does nothing when the
# pinned versions are already installed.
set -eu
cd "$(dirname "$0")/.."

need_major=20
need_minor=19

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "the peer servers need Node.js >= $need_major.$need_minor and npm, which are not installed." >&2
		echo "Install them with:  sudo apt-get update && sudo apt-get install -y nodejs npm" >&2
		exit 1
	fi
	echo "installing Debian's nodejs and npm with apt-get (one time)..." >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

version=$(node -p 'process.versions.node')
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
if [ "$major" -lt "$need_major" ] || { [ "$major" -eq "$need_major" ] && [ "$minor" -lt "$need_minor" ]; }; then
	echo "node $version is too old: chrome-devtools-mcp needs >= $need_major.$need_minor (see https://nodejs.org for a newer build)" >&2
	exit 1
fi

# installed prints the version of package $1 in node_modules, or nothing.
installed() {
	node -p "try { require('./node_modules/$1/package.json').version } catch { '' }"
}

# pinned prints the version package.json pins for $1.
pinned() {
	node -p "require('./package.json').devDependencies['$1']"
}

up_to_date=yes
for pkg in @playwright/mcp chrome-devtools-mcp @modelcontextprotocol/sdk playwright-core; do
	if [ "$(installed "$pkg")" != "$(pinned "$pkg")" ]; then
		up_to_date=no
	fi
done
if [ "$up_to_date" = yes ]; then
	echo "peers already installed: @playwright/mcp $(installed @playwright/mcp), chrome-devtools-mcp $(installed chrome-devtools-mcp), @modelcontextprotocol/sdk $(installed @modelcontextprotocol/sdk), playwright-core $(installed playwright-core)" >&2
	exit 0
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PUPPETEER_SKIP_DOWNLOAD=1
export PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

for pkg in @playwright/mcp chrome-devtools-mcp @modelcontextprotocol/sdk playwright-core; do
	if [ "$(installed "$pkg")" != "$(pinned "$pkg")" ]; then
		echo "after npm ci, $pkg is $(installed "$pkg"), want $(pinned "$pkg")" >&2
		exit 1
	fi
done
echo "peers installed: @playwright/mcp $(installed @playwright/mcp), chrome-devtools-mcp $(installed chrome-devtools-mcp), @modelcontextprotocol/sdk $(installed @modelcontextprotocol/sdk), playwright-core $(installed playwright-core)" >&2
