package cli

import (
	"runtime/debug"
	"strings"
)

// Build is what a binary knows of where it came from, for --version and
// the User-Agent.
type Build struct {
	// Version is the release's version: the one the build was given
	// (-ldflags "-X main.version=v1.2.3", as releases do), else the module
	// version Go recorded (go install ...@v1.2.3, or the pseudo-version
	// go build derives from the checkout); "" when there is neither.
	Version string
	// Commit is the revision go build recorded from the checkout, and
	// Modified whether the tree had changes; "" when it recorded none
	// (go install of a module, a build outside a checkout).
	Commit   string
	Modified bool
}

// ReadBuild reads the build from the version the build was given (ldflag,
// "" when none) and the build information Go records in the binary (info,
// nil when there is none).
func ReadBuild(ldflag string, info *debug.BuildInfo) Build {
	b := Build{Version: ldflag}
	if info == nil {
		return b
	}
	if v := info.Main.Version; b.Version == "" && v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String is the version as --version prints it: "v1.2.3 (commit 0123abcd…,
// modified)", "dev" only when the build recorded nothing.
func (b Build) String() string {
	v := b.Version
	if v == "" {
		v = "dev"
	}
	if b.Commit == "" {
		return v
	}
	v += " (commit " + b.Commit
	if b.Modified {
		v += ", modified"
	}
	return v + ")"
}

// Release is the action's release this build is, by its major tag (v1 for
// v1.4.2), as a workflow names it; "" for any other build (a pre-release,
// a pseudo-version, dev). It reads the version by hand rather than with a
// package-level regexp, which every run would compile as it starts.
func (b Build) Release() string {
	parts := strings.Split(b.Version, ".")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], "v") {
		return ""
	}
	for _, n := range []string{parts[0][1:], parts[1], parts[2]} {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return ""
		}
	}
	return parts[0]
}
