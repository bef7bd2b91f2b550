package gitinfo

import (
	"fmt"
	"strings"
)

// Text renders the snapshot for the model, or "" when it is not a
// repository. The wording is fixed so the text is byte-stable for a given
// snapshot.
func (s Snapshot) Text() string {
	if !s.IsRepo {
		return ""
	}
	var b strings.Builder
	b.WriteString("This is the state of the git repository when the session started. It is not updated as you work; run git yourself for current facts.\n")
	switch {
	case s.Branch != "":
		b.WriteString("Current branch: " + s.Branch + "\n")
	case s.Detached != "":
		b.WriteString("Current branch: none (HEAD detached at " + s.Detached + ")\n")
	}
	if s.MainBranch != "" {
		b.WriteString("Main branch (the usual target of pull requests): " + s.MainBranch + "\n")
	}
	b.WriteString("\nStatus:\n")
	switch {
	case s.statusFailed:
		b.WriteString("(unknown: git status failed)\n")
	case s.Status == "":
		b.WriteString("(clean)\n")
	default:
		b.WriteString(s.Status + "\n")
		if s.StatusTruncated {
			fmt.Fprintf(&b, "... (the list was cut at %d characters; run `git status` to see all of it)\n", StatusLimit)
		}
	}
	if len(s.Commits) > 0 {
		b.WriteString("\nRecent commits:\n")
		for _, c := range s.Commits {
			b.WriteString(c + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
