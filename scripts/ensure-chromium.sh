#!/bin/sh
# Makes sure Debian's Chromium is installed: contractbench drives a real
# browser and never downloads one of its own. Two packages of the same
# build: chromium-headless-shell, which every launch uses by default, and
# chromium, the full browser (run --headless=new), which
# CONTRACTBENCH_CHROMIUM can name and which the judge's and the browser
# package's tests also run on (docs/decisions/0041-the-headless-shell.md).
# Installs what is missing with apt-get when running as root; otherwise
# says what to run.
set -eu

missing=""
[ -x /usr/bin/chromium-headless-shell ] || [ -x /usr/lib/chromium/chromium-headless-shell ] || missing="$missing chromium-headless-shell"
[ -x /usr/bin/chromium ] || [ -x /usr/lib/chromium/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "contractbench needs Debian's Chromium; missing:$missing." >&2
	echo "Install it with:  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi

echo "installing Debian's$missing with apt-get (one time)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # the package names are words on purpose
apt-get install -y -qq --no-install-recommends $missing fonts-dejavu-core >/dev/null
echo "installed:$missing ($(/usr/bin/chromium --version 2>/dev/null || echo chromium))" >&2
