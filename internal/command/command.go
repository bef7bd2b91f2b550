package command

import (
	"context"
	"encoding/json"
	"strings"
)

// Kind says how a command runs.
type Kind int

const (
	// Prompt commands expand to text sent to the model.
	Prompt Kind = iota
	// Local commands run in-process and return text; no model call.
	Local
	// UI commands need the terminal UI; other modes refuse them.
	UI
)

func (k Kind) String() string {
	switch k {
	case Prompt:
		return "prompt"
	case Local:
		return "local"
	case UI:
		return "ui"
	}
	return "unknown"
}

// Source says where a command came from.
type Source string

// Command sources. Builtin commands are registered by the front ends;
// bundled ones are prompt commands shipped with reins that the model may
// use; the rest are loaded from files or servers.
const (
	SourceBuiltin Source = "builtin"
	SourceBundled Source = "bundled"
	SourceUser    Source = "user"
	SourceProject Source = "project"
	SourceManaged Source = "managed"
	SourcePlugin  Source = "plugin"
	SourceMCP     Source = "mcp"
)

// Command is one slash command. Builtin commands set Run (Local, UI) or
// Prompt (Prompt); commands loaded from Markdown set Body.
type Command struct {
	// Name is what follows the slash ("review", "frontend:component").
	Name string
	// Aliases are other names that find the command.
	Aliases []string
	// Description is one line for menus and the model's skill listing.
	Description string
	// HasDescription reports that Description was written by the author
	// (not taken from the body's first line).
	HasDescription bool
	// ArgumentHint shows the expected arguments, e.g. "[file] [line]".
	ArgumentHint string
	// WhenToUse tells the model when to load the command by itself.
	WhenToUse string
	// ArgumentNames name the arguments by position (frontmatter
	// arguments:): "$name" in the body is the word at that position.
	ArgumentNames []string

	Kind   Kind
	Source Source

	// AllowedTools are permission rules (e.g. "Bash(git add:*)") granted
	// while the command runs; they also decide which !`cmd` lines run.
	AllowedTools []string
	// Model overrides the model for the turn ("" keeps the session's).
	Model string
	// DisableModelInvocation keeps the model from calling the command
	// through the Skill tool.
	DisableModelInvocation bool
	// ModelOnly hides the command from users (user-invocable: false); only
	// the model may call it.
	ModelOnly bool

	// Skill marks a command loaded from a SKILL.md folder.
	Skill bool
	// Fork asks for the command to run in a sub-agent (context: fork), of
	// type Agent when set.
	Fork  bool
	Agent string
	// Hooks are the skill's hooks in settings form (JSON, from the
	// frontmatter's hooks:), registered for the rest of the session when
	// it is invoked; nil for none.
	Hooks json.RawMessage
	// Path is the file the command was loaded from; Dir is a skill's folder.
	Path string
	Dir  string
	// Body is the Markdown template of a loaded prompt command.
	Body string

	// Prompt builds the text of a builtin Prompt command from its
	// arguments.
	Prompt func(ctx context.Context, args string) (string, error)
	// Run executes a Local or UI command and returns text for the user.
	Run func(ctx context.Context, args string) (string, error)
}

// UserInvocable reports whether users may type the command.
func (c *Command) UserInvocable() bool { return !c.ModelOnly }

// ModelInvocable reports whether the model may call the command through
// the Skill tool: a prompt command that is not builtin and does not
// disable model invocation.
func (c *Command) ModelInvocable() bool {
	return c.Kind == Prompt && !c.DisableModelInvocation && c.Source != SourceBuiltin
}

// DisplayDescription is the description with where the command came from,
// as menus show it: "Review a diff (project)".
func (c *Command) DisplayDescription() string {
	tag := ""
	switch c.Source {
	case SourceUser, SourceProject, SourceManaged, SourcePlugin, SourceMCP:
		tag = string(c.Source)
	}
	switch {
	case tag == "":
		return c.Description
	case c.Description == "":
		return "(" + tag + ")"
	}
	return c.Description + " (" + tag + ")"
}

// ValidName reports whether name can be typed as a command: letters,
// digits, '-', '_' and ':' (namespaces).
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_:", r)) {
			return false
		}
	}
	return true
}
