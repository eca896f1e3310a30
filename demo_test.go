//go:build !nodemo

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"demo"}, Env{}, &out); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	for _, want := range []string{"created job job_0001", "active -> completed", "pr-link=https://github.com/acme/docs/pull/101",
		"maintainer has write permission", "answering in #12", "✅ **Done.** Job `job_0001` completed and opened a pull request", "comment-url=https://"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
}
