package cli

import (
	"runtime/debug"
	"testing"
)

// TestReadBuild: the version given at build time wins; else the module
// version Go recorded; the commit comes from the build information; "dev"
// only when there is nothing.
func TestReadBuild(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "16a6034aa5b1"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name   string
		ldflag string
		info   *debug.BuildInfo
		want   string
	}{
		{"a release", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v1.2.3"},
		{"a release from a checkout", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126-16a6034aa5b1"}, Settings: vcs}, "v1.2.3 (commit 16a6034aa5b1, modified)"},
		{"go install module@version", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"go build in a checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126062003-16a6034aa5b1+dirty"}, Settings: vcs},
			"v0.0.0-20261126062003-16a6034aa5b1+dirty (commit 16a6034aa5b1, modified)"},
		{"go build, no version, a clean commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "dev (commit abc)"},
		{"go build outside a checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build information", "", nil, "dev"},
	}
	for _, tt := range tests {
		if got := ReadBuild(tt.ldflag, tt.info).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRelease: a release's version names its major tag, which init pins;
// any other version names none.
func TestRelease(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ version, want string }{
		{"v1.2.3", "v1"},
		{"v12.0.40", "v12"},
		{"v1.2", ""},
		{"v1.2.3.4", ""},
		{"1.2.3", ""},
		{"v.2.3", ""},
		{"v1..3", ""},
		{"v1.2.3-rc.1", ""},
		{"v1.2.3+dirty", ""},
		{"v0.0.0-20261126062003-16a6034aa5b1", ""},
		{"vx.2.3", ""},
		{"dev", ""},
		{"", ""},
	} {
		if got := (Build{Version: tt.version}).Release(); got != tt.want {
			t.Errorf("Release of %q = %q, want %q", tt.version, got, tt.want)
		}
	}
}
