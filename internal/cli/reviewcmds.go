package cli

import (
	"context"
	_ "embed"
	"strings"

	"reins/internal/command"
)

//go:embed prompts/review.md
var reviewPrompt string

//go:embed prompts/security-review.md
var securityReviewPrompt string

// reviewBuiltins are the built-in commands that only send the model a
// request, in every mode: /review (a pull request by number or URL, or
// the current branch) and /security-review (the current branch's pending
// changes). A custom command of the same name replaces them.
func reviewBuiltins() []*command.Command {
	prompt := func(name, desc, hint, text, whole, given string) *command.Command {
		return &command.Command{Name: name, Description: desc, HasDescription: true, ArgumentHint: hint,
			Kind: command.Prompt, Source: command.SourceBuiltin,
			Prompt: func(_ context.Context, args string) (string, error) {
				target := whole
				if args = strings.TrimSpace(args); args != "" {
					target = strings.ReplaceAll(given, "ARGS", args)
				}
				return strings.TrimSpace(strings.ReplaceAll(text, "{{TARGET}}", target)), nil
			}}
	}
	return []*command.Command{
		prompt("review", "Review a pull request, or the current branch's changes", "[PR number or URL]", reviewPrompt,
			"the current branch's changes (no pull request was named)",
			"pull request ARGS"),
		prompt("security-review", "Review the current branch's pending changes for security vulnerabilities", "[focus]", securityReviewPrompt,
			"",
			"Pay particular attention to: ARGS"),
	}
}
