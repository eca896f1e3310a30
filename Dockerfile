# The runner builds this image on every workflow run that uses the action.

FROM golang:1.26-alpine AS build
WORKDIR /src
# Modules first, so this layer stays cached while only the source changes.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /agent-job-action .

FROM scratch
# scratch has no CA bundle; the API client needs one for https.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /agent-job-action /agent-job-action
# No USER: the runner mounts /github/file_commands owned by root, and a
# non-root process could not write GITHUB_OUTPUT.
ENTRYPOINT ["/agent-job-action"]
