#!/bin/sh
# Makes sure Debian's Chromium is installed: contractbench drives a real
# browser and never downloads one of its own. Installs it with apt-get when
# running as root; otherwise says what to run.
set -eu

for c in "${CONTRACTBENCH_CHROMIUM:-}" /usr/bin/chromium /usr/lib/chromium/chromium; do
	if [ -n "$c" ] && [ -x "$c" ]; then
		exit 0
	fi
done

if [ "$(id -u)" -ne 0 ]; then
	echo "contractbench needs Debian's Chromium, which is not installed." >&2
	echo "Install it with:  sudo apt-get update && sudo apt-get install -y chromium" >&2
	exit 1
fi

echo "installing Debian's chromium with apt-get (one time)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)" >&2
