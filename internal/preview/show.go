package preview

import (
	"fmt"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Shown is how asking for a job's preview went, as the comment and the
// job summary show it (Markdown, the one rendering of both).
type Shown struct {
	// URL is the preview's address as the API gave it; untrusted.
	URL string
	// Image is the screenshot's address; untrusted, "" for none.
	Image string
	// State is the build's last state: Success, Failure, or another when
	// the run stopped waiting first.
	State string
	// Summary is the API's own word on a failed build; untrusted.
	Summary string
}

// Markdown renders s: a line that links the preview (only an https URL is
// linked, and only it is shown) and says how its build went, then the
// screenshot as an image when the build succeeded and gave an https one.
// It is "" when there is nothing to show.
func (s Shown) Markdown() string {
	link := escape.URL(s.URL)
	if link == "" {
		return ""
	}
	out := ""
	switch s.State {
	case Success:
		out = fmt.Sprintf("🔎 **Preview:** %s\n", link)
		if img := escape.URL(s.Image); img != "" {
			out += fmt.Sprintf("\n![Screenshot of the preview](%s)\n", img)
		}
	case Failure:
		out = fmt.Sprintf("🔎 **Preview:** the build of %s failed", link)
		if s.Summary != "" {
			out += ": " + escape.Markdown(s.Summary)
		}
		out += "\n"
	default:
		out = fmt.Sprintf("🔎 **Preview:** %s (still building when this run stopped waiting)\n", link)
	}
	return out
}
