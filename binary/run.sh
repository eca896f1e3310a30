#!/usr/bin/env bash
# Runs the action without Docker. On a release, it downloads the
# agent-job-action binary that this copy of the action was released with,
# for the runner's OS and architecture, checks its SHA-256 against SHA256SUMS
# beside this script, and runs it in place of this script. At a commit or a
# branch (no release), it builds the binary from this copy of the action's
# own source with the runner's Go, and runs that. Either way the binary gets
# this script's environment (the INPUT_* variables, GITHUB_OUTPUT, ...) and
# arguments unchanged.
#
# binary/action.yml runs it. The release workflow writes AGENT_JOB_ACTION_TAG
# into that file and SHA256SUMS beside this one, on the commit the release
# tags point at; on a branch neither names a release, so there is nothing to
# download and nothing to check a download against: the binary is built
# from the source beside this script, as the release builds it
# (.github/workflows/release.yml).
#
# Environment:
#   RUNNER_OS, RUNNER_ARCH          which binary (set by the runner)
#   AGENT_JOB_ACTION_TAG            the release, such as v1.2.3; empty: build
#   AGENT_JOB_ACTION_DOWNLOAD_URL   where releases are, as <url>/<tag>/<asset>;
#                                   default GitHub's release downloads of
#                                   this repository
#   RUNNER_TEMP                     where the binary goes (else TMPDIR, /tmp)
#
# Written for bash 3.2 too (macOS's /bin/bash): no ${x,,}, no mapfile.
set -euo pipefail

fail() {
	# ::error:: makes an annotation in Actions; elsewhere it is a plain line.
	echo "::error title=agent-job-action binary::$*" >&2
	exit 1
}

# The script's own folder, with Windows backslashes made forward slashes,
# which both Git Bash's tools and Windows programs accept.
here=${BASH_SOURCE[0]//\\//}
case $here in
*/*) here=${here%/*} ;;
*) here=. ;;
esac
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
tmp=${tmp//\\//}

# run execs the binary: it takes this process's place, so the runner's
# cancel signal reaches it, and its exit status is the step's.
run() {
	if [[ $1 == *.exe ]]; then
		# Git Bash rewrites arguments and environment values that look like
		# POSIX paths (/docs becomes C:/Program Files/Git/docs) when it
		# starts a Windows program; inputs must reach the binary as written.
		export MSYS_NO_PATHCONV=1 MSYS2_ARG_CONV_EXCL='*' MSYS2_ENV_CONV_EXCL='*'
	fi
	exec "$@"
}

tag=${AGENT_JOB_ACTION_TAG:-}
if [[ -z $tag ]]; then
	# No release: build this copy of the action, whose Go module is the
	# folder above this one, as the release workflow builds its binaries.
	# What runs is what the source here says, so there is no checksum to
	# check and none is claimed.
	root="$here/.."
	if [[ ! -f $root/go.mod ]]; then
		fail "this copy of the action is not a release, and $root holds no go.mod to build it from. Use a release tag (uses: agentjob/agent-job-action/binary@v1). Nothing was run."
	fi
	if ! command -v go >/dev/null 2>&1; then
		fail "this copy of the action is not a release, so it builds from source with Go, and the runner has no go: add actions/setup-go before this step, or use a release tag (uses: agentjob/agent-job-action/binary@v1). Nothing was run."
	fi
	if ! goenv=$(cd "$root" && go env GOVERSION GOOS GOARCH GOEXE GOCACHE GOMODCACHE); then
		fail "go cannot run in $root (its reason is above). Nothing was run."
	fi
	# One value a line, GOEXE's empty but on Windows; no CR kept.
	goenv=${goenv//$'\r'/}
	{
		read -r goversion
		read -r goos
		read -r goarch
		read -r goexe
		read -r gocache
		read -r gomodcache
	} <<<"$goenv"
	# go keeps its caches under HOME; a runner without HOME (a self-hosted
	# runner as a service, a container) gets them in RUNNER_TEMP, which the
	# runner empties after the job.
	if [[ -z $gocache || $gocache == off ]]; then
		export GOCACHE="${tmp%/}/agent-job-action-go-build"
	fi
	if [[ -z $gomodcache ]]; then
		export GOMODCACHE="${tmp%/}/agent-job-action-go-mod" GOFLAGS="${GOFLAGS:-} -modcacherw"
	fi
	dir=$(mktemp -d "${tmp%/}/agent-job-action.XXXXXX")
	bin="$dir/agent-job-action$goexe"
	echo "agent-job-action: no release pinned here, so building $goos/$goarch from the action's source with $goversion (a minute or two with a cold build cache)" >&2
	start=$(date +%s)
	if ! (cd "$root" && CGO_ENABLED=0 go build -trimpath -tags nodemo -ldflags "-s -w" -o "$bin" .); then
		rm -rf "$dir"
		fail "could not build the action from its source with $goversion (go's reason is above). Use a release tag (uses: agentjob/agent-job-action/binary@v1). Nothing was run."
	fi
	echo "agent-job-action built from source in $(($(date +%s) - start))s; no checksum applies, as no release was downloaded" >&2
	run "$bin" "$@"
fi

case ${RUNNER_OS:-} in
Linux) os=linux ;;
macOS) os=darwin ;;
Windows) os=windows ;;
*) fail "no binary for the runner OS '${RUNNER_OS:-}': releases have Linux, macOS and Windows binaries (RUNNER_OS Linux, macOS, Windows). Nothing was run." ;;
esac
case ${RUNNER_ARCH:-} in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) fail "no binary for the runner architecture '${RUNNER_ARCH:-}': releases have X64 and ARM64 binaries. Nothing was run." ;;
esac
ext=
if [[ $os == windows ]]; then
	ext=.exe
fi
asset="agent-job-action_${os}_${arch}${ext}"

tag_re='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
if ! [[ $tag =~ $tag_re ]]; then
	fail "AGENT_JOB_ACTION_TAG '$tag' is not a release tag such as v1.2.3. Nothing was run."
fi

sums="$here/SHA256SUMS"
if [[ ! -f $sums ]]; then
	fail "no SHA256SUMS beside $here/run.sh: this copy of the action pins no checksums. Use a release tag. Nothing was run."
fi

# Regular expressions sit in variables: bash 3.2 and 5 then read them alike.
# sha256sum's format: 64 hex digits, two spaces (or a space and * for binary
# mode), the file name.
sum_re='^([0-9a-fA-F]{64}) [ *](.+)$'
want=
while IFS= read -r line || [[ -n $line ]]; do
	line=${line%$'\r'}
	if [[ $line =~ $sum_re ]] && [[ ${BASH_REMATCH[2]} == "$asset" ]]; then
		if [[ -n $want ]]; then
			fail "SHA256SUMS names $asset twice. Nothing was run."
		fi
		want=$(printf '%s' "${BASH_REMATCH[1]}" | tr 'A-F' 'a-f')
	fi
done <"$sums"
if [[ -z $want ]]; then
	fail "SHA256SUMS of $tag has no checksum for $asset, so it cannot be checked: this release has no binary for $RUNNER_OS $RUNNER_ARCH. Nothing was run."
fi

base=${AGENT_JOB_ACTION_DOWNLOAD_URL:-https://github.com/agentjob/agent-job-action/releases/download}
base=${base%/}
# https; or a mirror on this machine: http to a loopback address, or file:///
# (file:///D:/mirror on Windows). The checksum decides what runs either way;
# this keeps the download from being read or cut short on the way.
https_re='^https://'
loopback_re='^http://(127\.0\.0\.1|localhost|\[::1\])(:[0-9]+)?(/[^@]*)?$'
file_re='^file:///'
if ! [[ $base =~ $https_re || $base =~ $loopback_re || $base =~ $file_re ]]; then
	fail "AGENT_JOB_ACTION_DOWNLOAD_URL must start with https:// (or be http:// to 127.0.0.1, localhost or [::1], or file:///). Nothing was run."
fi
# Errors print the URL, so it must hold no password or token.
if [[ $base == *@* ]]; then
	fail "AGENT_JOB_ACTION_DOWNLOAD_URL must not hold credentials (user@ or user:password@). Nothing was run."
fi
url="$base/$tag/$asset"

dir=$(mktemp -d "${tmp%/}/agent-job-action.XXXXXX")
bin="$dir/$asset"
# --proto-redir: GitHub answers with a redirect to its file storage; never
# follow one to plain http.
if ! curl --fail --silent --show-error --location \
	--proto '=https,http,file' --proto-redir '=https' \
	--connect-timeout 30 --max-time 300 --retry 3 \
	--output "$bin" "$url"; then
	rm -rf "$dir"
	fail "could not download $url (curl's reason is above). Check that release $tag exists and has $asset. Nothing was run."
fi

if command -v sha256sum >/dev/null 2>&1; then
	got=$(sha256sum <"$bin")
elif command -v shasum >/dev/null 2>&1; then
	got=$(shasum -a 256 <"$bin")
elif command -v openssl >/dev/null 2>&1; then
	got=$(openssl dgst -sha256 -r <"$bin")
else
	rm -rf "$dir"
	fail "found none of sha256sum, shasum, openssl to check the download with: install one. Nothing was run."
fi
got=$(printf '%s' "${got%% *}" | tr 'A-F' 'a-f')
if [[ $got != "$want" ]]; then
	rm -rf "$dir"
	fail "checksum mismatch for $asset from $url: SHA-256 $got, but the action pins $want. The file was deleted and not run; report this at https://github.com/agentjob/agent-job-action/security."
fi
chmod +x "$bin"

echo "agent-job-action $tag $os/$arch, SHA-256 $want verified" >&2
run "$bin" "$@"
