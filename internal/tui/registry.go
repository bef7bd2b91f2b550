package tui

import (
	"context"
	"os"

	"reins/internal/command"
	"reins/internal/llm"
)

// registryCommands adapts a command registry (custom commands, skills,
// MCP prompts) to Commands.
type registryCommands struct {
	reg *command.Registry
	exp *command.Expander
	// attach, when set, gives the blocks of what a command line
	// mentions (typed is the line, expanded the command's text).
	attach func(ctx context.Context, typed, expanded string) []llm.ContentBlock
	// expand, when set, checks a command that expanded into a prompt
	// (UserPromptExpansion hooks): a refusal stops it, and extra goes
	// with its prompt.
	expand func(ctx context.Context, out *command.Outcome, typed string) (refusal string, extra []llm.ContentBlock)
}

// CommandRegistry returns the Commands of reg, expanded with exp (nil: a
// zero Expander).
func CommandRegistry(reg *command.Registry, exp *command.Expander) Commands {
	return registryCommands{reg: reg, exp: exp}
}

// CommandRegistryAttaching is CommandRegistry whose commands that expand
// into a prompt also send what attach gives for the line typed (the files
// and MCP resources its arguments mention), as a prompt typed in other
// modes does.
func CommandRegistryAttaching(reg *command.Registry, exp *command.Expander,
	attach func(ctx context.Context, typed, expanded string) []llm.ContentBlock) Commands {
	return registryCommands{reg: reg, exp: exp, attach: attach}
}

// CommandRegistryChecked is CommandRegistryAttaching whose commands that
// expand into a prompt are first given to expand, which may refuse them
// (its refusal is shown as the command's error) or add blocks to their
// prompt.
func CommandRegistryChecked(reg *command.Registry, exp *command.Expander,
	attach func(ctx context.Context, typed, expanded string) []llm.ContentBlock,
	expand func(ctx context.Context, out *command.Outcome, typed string) (string, []llm.ContentBlock)) Commands {
	return registryCommands{reg: reg, exp: exp, attach: attach, expand: expand}
}

// Complete lists matching user-invocable commands.
func (r registryCommands) Complete(prefix string) []CommandInfo {
	var out []CommandInfo
	for _, c := range r.reg.Complete(prefix) {
		out = append(out, CommandInfo{Name: c.Command.Name, Description: c.Command.DisplayDescription(), ArgumentHint: c.Command.ArgumentHint})
	}
	return out
}

// Overrides reports a command that is not a builtin, which takes the
// place of the UI's builtin of the same name.
func (r registryCommands) Overrides(name string) bool {
	c, ok := r.reg.Lookup(name)
	return ok && c.Source != command.SourceBuiltin
}

// Run dispatches input through the registry.
func (r registryCommands) Run(ctx context.Context, input string) (CommandResult, error) {
	out, err := r.reg.Snapshot().Dispatch(ctx, input, command.DispatchOptions{
		Mode:     command.Interactive,
		Expander: r.exp,
		IsPath: func(p string) bool {
			_, err := os.Stat(p)
			return err == nil
		},
	})
	if err != nil {
		return CommandResult{}, err
	}
	switch out.Action {
	case command.NotCommand:
		return CommandResult{}, nil
	case command.Query:
		res := CommandResult{Handled: true, Content: out.Expansion.Content(), Model: out.Expansion.Model, AllowedTools: out.Expansion.AllowedTools}
		var extra []llm.ContentBlock
		if r.expand != nil {
			refusal, more := r.expand(ctx, out, input)
			if refusal != "" {
				return CommandResult{Handled: true, IsError: true, Text: refusal}, nil
			}
			extra = more
		}
		if r.attach != nil {
			res.Content = append(res.Content, r.attach(ctx, input, out.Expansion.Prompt)...)
		}
		res.Content = append(res.Content, extra...)
		return res, nil
	case command.OpenUI:
		return CommandResult{Handled: true, IsError: true, Text: "/" + out.Name + " has no screen in this build of reins."}, nil
	}
	return CommandResult{Handled: true, Text: out.Text, IsError: out.IsError}, nil
}
