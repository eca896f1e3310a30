# The source of the action's image. Used from a branch, the action is built
# from this file on every run; release tags instead point action.yml at the
# image that .github/workflows/release.yml built from it.

# The build stage runs on the builder's own platform and cross-compiles, so a
# multi-arch build needs no emulation. Outside buildx TARGETOS and TARGETARCH
# are empty, and go builds for the machine it runs on.
#
# The base image is pinned by its digest (the multi-arch index), so that a
# moved tag cannot change what builds the action; the tag says which image
# that is, and Dependabot (.github/dependabot.yml) proposes new digests.
FROM --platform=$BUILDPLATFORM golang:1.26.8-alpine3.24@sha256:8ac98ca534ac3f51e1f420a1dd2c15e74c75cfa0f23f3ad27eb5d7236c349a0c AS build
WORKDIR /src
# Modules first, so this layer stays cached while only the source changes.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The release sets VERSION; without it --version says what Go recorded.
ARG VERSION=
# -tags nodemo: the image carries the action alone, without the demo and the
# fakes it runs against (nodemo.go).
ARG TARGETOS
ARG TARGETARCH
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -tags nodemo -ldflags "-s -w -X main.version=${VERSION}" -o /agent-job-action .

FROM scratch
# scratch has no CA bundle; the API client needs one for https. It goes to
# /etc/ssl/cert.pem, a file crypto/x509 reads, and not to
# /etc/ssl/certs/ca-certificates.crt: crypto/x509 also parses every file in
# /etc/ssl/certs, so there the bundle would be parsed twice on the first https
# request (about 2 ms and 1.2 MiB more, docs/performance.md).
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/cert.pem
COPY --from=build /agent-job-action /agent-job-action
# No USER: the runner mounts /github/file_commands owned by root, and a
# non-root process could not write GITHUB_OUTPUT.
ENTRYPOINT ["/agent-job-action"]
