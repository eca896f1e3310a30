package yamlscalar

import (
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in, want string
		err      bool
	}{
		{"", "", false},
		{"plain value # comment", "plain value", false},
		{`"double \"quoted\"" # c`, `double "quoted"`, false},
		{"'single ''quoted'''", "single 'quoted'", false},
		{`"unterminated`, "", true},
		{"'unterminated", "", true},
		{"| block", "", true},
		{"[flow]", "", true},
		{"a: b", "", true},
		{`"x" y`, "", true},
	} {
		got, err := Parse(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("Parse(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
