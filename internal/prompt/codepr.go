package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/visible"
)

// DefaultCodeInstruction is what the docs job of a code pull request is
// asked when the workflow gives no prompt.
const DefaultCodeInstruction = "Update the documentation for this change."

// MaxPatchBytes is the most diff text a code pull request's prompt holds:
// the patches of the changed files, in GitHub's order, as long as they fit
// whole; the files whose patch does not fit are named, so the agent can
// read them in the repository.
const MaxPatchBytes = 60 << 10

// CodePR is the code pull request a docs job is about.
type CodePR struct {
	Owner, Repo string
	Number      int
	Title       string
	Body        string // as its author wrote it; what a reader sees is kept
	URL         string // html_url
}

// CodePRPrompt builds the prompt that starts the docs job of a code pull
// request: the instruction (the workflow's prompt, or
// DefaultCodeInstruction), then the pull request (number, repository,
// title, link), its description as a reader sees it, fenced as the
// author's text rather than instructions, and the changes (see changes).
func CodePRPrompt(instruction string, pr CodePR, files []*ghclient.File) string {
	if strings.TrimSpace(instruction) == "" {
		instruction = DefaultCodeInstruction
	}
	parts := []string{strings.TrimSpace(instruction), "---\nThe code pull request: " + describe(pr) + "."}
	if body := fence("text", visible.Shown(pr.Body)); body != "" {
		parts = append(parts, "Its description, as its author wrote it:\n"+body)
	}
	parts = append(parts, changes("The files it changes", files))
	return strings.Join(parts, "\n\n")
}

// CodePushPrompt builds the follow-up a push to a code pull request sends
// to its docs job: what the push changed, or, when the branch was
// rewritten (a force push), the pull request's whole change again.
func CodePushPrompt(pr CodePR, files []*ghclient.File, rewritten bool) string {
	head := "New commits were pushed to the code pull request " + describe(pr) + ". Update the documentation for what they change."
	what := "The files the push changes"
	if rewritten {
		head = "The branch of the code pull request " + describe(pr) + " was rewritten (a force push): what earlier messages showed of its changes may no longer hold. Bring the documentation in line with its whole change, as it is now."
		what = "The files the pull request now changes"
	}
	return head + "\n\n" + changes(what, files)
}

// describe names a pull request on one line: number, repository, title
// (someone's free text, quoted on one line so that it cannot pose as
// instructions) and link.
func describe(pr CodePR) string {
	s := fmt.Sprintf("#%d in %s/%s", pr.Number, pr.Owner, pr.Repo)
	if title := strings.TrimSpace(escape.Line(pr.Title)); title != "" {
		s += " " + strconv.Quote(title)
	}
	if u := escape.URL(pr.URL); u != "" {
		s += " (" + u + ")"
	}
	return s
}

// changes lists files, under the heading what: every name, with its
// status and size, then the patches that fit in MaxPatchBytes, whole and
// fenced, then the names of those left out. Names are quoted: they are
// someone's free text and must stay on one line each.
func changes(what string, files []*ghclient.File) string {
	var list, patches, left []string
	budget := MaxPatchBytes
	for _, f := range files {
		item := "- " + quoted(f.Name) + " (" + f.Status
		if f.Previous != "" {
			item += ", from " + quoted(f.Previous)
		}
		item += fmt.Sprintf(", +%d -%d", f.Additions, f.Deletions)
		switch {
		case strings.TrimSpace(f.Patch) == "":
			// A rename alone has none; a binary file or a diff too
			// large for GitHub has none either.
			item += ", no diff from GitHub"
		case len(f.Patch) <= budget:
			budget -= len(f.Patch)
			patches = append(patches, quoted(f.Name)+":\n"+fence("diff", f.Patch))
		default:
			left = append(left, quoted(f.Name))
		}
		list = append(list, item+")")
	}
	out := fmt.Sprintf("%s (%d):\n%s", what, len(files), strings.Join(list, "\n"))
	if len(patches) > 0 {
		out += "\n\nTheir diffs:\n\n" + strings.Join(patches, "\n\n")
	}
	if len(left) > 0 {
		out += fmt.Sprintf("\n\nNot shown, over the %d KB this prompt gives diffs (read them in the repository): %s.", MaxPatchBytes>>10, strings.Join(left, ", "))
	}
	return out
}
