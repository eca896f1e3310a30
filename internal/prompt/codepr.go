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

// Change is what a code pull request's prompt tells of its change.
type Change struct {
	// Files are the changed files to tell of.
	Files []*ghclient.File
	// Again says why a follow-up holds the pull request's whole change as
	// it is now rather than a push's own; Pushed for a push's own.
	Again Again
	// Cut says GitHub listed only the first of the changed files (its
	// listing stops at a cap): the agent reads the rest in the repository.
	Cut bool
	// FromBase says the push merged the base branch: what that brought is
	// left out, and each file's change is the pull request's own as it is
	// now.
	FromBase bool
}

// Again is why a follow-up tells the pull request's whole change.
type Again int

// The follow-ups of a code pull request's docs job.
const (
	// Pushed is a push's own change.
	Pushed Again = iota
	// Rewritten is the whole change after a force push.
	Rewritten
	// Retargeted is the whole change after the pull request was moved to
	// another base branch.
	Retargeted
	// TooManyToCompare is the whole change after a push that changed more
	// files than GitHub lists in a comparison of two commits.
	TooManyToCompare
	// TooLargeToCompare is the whole change after a push whose comparison
	// of two commits is longer than a run reads (its diffs are too big).
	TooLargeToCompare
)

// CodePRPrompt builds the prompt that starts the docs job of a code pull
// request: the instruction (the workflow's prompt, or
// DefaultCodeInstruction), then the pull request (number, repository,
// title, link), its description as a reader sees it, fenced as the
// author's text rather than instructions, and the changes (see changes).
func CodePRPrompt(instruction string, pr CodePR, c Change) string {
	if strings.TrimSpace(instruction) == "" {
		instruction = DefaultCodeInstruction
	}
	parts := []string{strings.TrimSpace(instruction), "---\nThe code pull request: " + describe(pr) + "."}
	if body := fence("text", visible.Shown(pr.Body)); body != "" {
		parts = append(parts, "Its description, as its author wrote it:\n"+body)
	}
	parts = append(parts, changes("The files it changes", c))
	return strings.Join(parts, "\n\n")
}

// CodePushPrompt builds the follow-up a push to a code pull request sends
// to its docs job: what the push changed, or the pull request's whole
// change again, saying why (c.Again).
func CodePushPrompt(pr CodePR, c Change) string {
	head := "New commits were pushed to the code pull request " + describe(pr) + ". Update the documentation for what they change."
	what := "The files the push changes"
	if c.FromBase {
		head += " The push merged the base branch into it: what that brought is not the pull request's change and is left out; for each file below, the change shown is the pull request's own, as it is now."
	}
	whole := " Bring the documentation in line with its whole change, as it is now."
	switch c.Again {
	case Rewritten:
		head = "The branch of the code pull request " + describe(pr) + " was rewritten (a force push): what earlier messages showed of its changes may no longer hold." + whole
	case Retargeted:
		head = "The code pull request " + describe(pr) + " was moved to another base branch: its change is now measured against that branch, so what earlier messages showed may no longer hold." + whole
	case TooManyToCompare:
		head = "New commits were pushed to the code pull request " + describe(pr) + ", changing more files than GitHub lists in a comparison of two commits, so they cannot be told apart." + whole
	case TooLargeToCompare:
		head = "New commits were pushed to the code pull request " + describe(pr) + ", whose comparison with what you last heard is too large to read, so they cannot be told apart." + whole
	}
	if c.Again != Pushed {
		what = "The files the pull request now changes"
	}
	return head + "\n\n" + changes(what, c)
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

// changes lists c's files, under the heading what, saying when GitHub's
// listing was cut: every name, with its status and size, then the patches that fit in MaxPatchBytes, whole and
// fenced, then the names of those left out. Names are quoted: they are
// someone's free text and must stay on one line each.
func changes(what string, c Change) string {
	files := c.Files
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
	if c.Cut {
		out = fmt.Sprintf("%s (%d; GitHub listed only the first files the pull request changes, so more may be relevant: read the rest in the repository):\n%s", what, len(files), strings.Join(list, "\n"))
	}
	if len(patches) > 0 {
		out += "\n\nTheir diffs:\n\n" + strings.Join(patches, "\n\n")
	}
	if len(left) > 0 {
		out += fmt.Sprintf("\n\nNot shown, over the %d KB this prompt gives diffs (read them in the repository): %s.", MaxPatchBytes>>10, strings.Join(left, ", "))
	}
	return out
}
