#!/bin/sh
# Prints the version `make build` stamps into the binary: the tag on HEAD
# if there is one, otherwise a Go pseudo-version of the commit
# (v0.0.0-<commit time, UTC>-<12-digit revision>), "+dirty" when the work
# tree has changes. The toolchain's own VCS stamping is not relied on: it
# is off wherever GOFLAGS has -buildvcs=false.
set -eu
cd "$(dirname "$0")/.."
if ! rev=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	echo unknown
	exit 0
fi
if tag=$(git describe --tags --exact-match 2>/dev/null); then
	v=$tag
else
	at=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S)
	v="v0.0.0-$at-$rev"
fi
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	v="$v+dirty"
fi
echo "$v"
