package preview

import (
	"fmt"
	"net/url"

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
	// Summary is the API's own word on a failed build; untrusted. Whoever
	// sets it redacts it first: Markdown cuts it (see MaxSummary), and a
	// secret cut in two is no longer one a redactor can find.
	Summary string
}

// MaxSummary is how many characters of a failed build's summary Markdown
// shows. Escaped, each character takes at most 12 (":" is "&#58;&#8288;"),
// so the summary stays within 12,000 of the 65,536 characters GitHub takes
// in a comment, whatever the API sends, and leaves the rest of the comment
// its room.
const MaxSummary = 1000

// Markdown renders s: a line that links the preview (only an https URL
// with a host is linked, and only it is shown) and says how its build went,
// then the screenshot as an image when the build succeeded and gave an
// https one. It is "" when there is nothing to show.
//
// The preview is a Markdown link whose text is its host, never bare text:
// the API gives the address, and GitHub reads bare text for mentions
// (@team), references (#12, owner/repo#1) and formatting, while it reads
// nothing in a link's destination.
func (s Shown) Markdown() string {
	link := linked(s.URL)
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
			out += ": " + escape.Markdown(escape.Cut(s.Summary, MaxSummary))
		}
		out += "\n"
	default:
		out = fmt.Sprintf("🔎 **Preview:** %s (still building when this run stopped waiting)\n", link)
	}
	return out
}

// linked is the Markdown link to the preview at address, its host as its
// text, or "" when address is no https URL with a host.
func linked(address string) string {
	dest := escape.URL(address)
	if dest == "" {
		return ""
	}
	u, err := url.Parse(dest)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return fmt.Sprintf("[%s](%s)", escape.Markdown(u.Hostname()), dest)
}
