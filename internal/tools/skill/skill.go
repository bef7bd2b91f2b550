package skill

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"reins/internal/command"
	"reins/internal/llm"
	"reins/internal/tool"
)

//go:embed description.md
var description string

// Name is the tool's name.
const Name = "Skill"

var schema = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` +
	`"skill":{"type":"string","description":"The name of the skill to load, as listed (for example \"changelog\")"},` +
	`"args":{"type":"string","description":"Optional text passed to the skill as its arguments"}},` +
	`"required":["skill"],"additionalProperties":false}`)

// Commands finds a command by name; *command.Registry implements it.
type Commands interface {
	Lookup(name string) (*command.Command, bool)
}

// Tool is the Skill tool. Construct it with New.
type Tool struct {
	tool.Defaults
	cmds Commands
	exp  *command.Expander
}

// New returns the Skill tool over cmds, expanding with exp (which holds
// the working folder, the shell runner and the check for !`cmd` lines).
// Both are required.
func New(cmds Commands, exp *command.Expander) *Tool {
	if cmds == nil || exp == nil {
		panic("skill.New: nil Commands or Expander")
	}
	return &Tool{cmds: cmds, exp: exp}
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool.
func (*Tool) Description() string { return strings.TrimSpace(description) }

// InputSchema implements tool.Tool.
func (*Tool) InputSchema() json.RawMessage { return schema }

// Input is the tool's input.
type Input struct {
	Skill string `json:"skill"`
	Args  string `json:"args,omitempty"`
}

// Data is the structured result, with Claude Code's field names.
type Data struct {
	Success      bool     `json:"success"`
	CommandName  string   `json:"commandName"`
	AllowedTools []string `json:"allowedTools,omitempty"`
	Model        string   `json:"model,omitempty"`
}

// TurnScope returns the skill's model and allowed tools, which hold for
// the rest of the turn that loaded it (the engine's TurnScoped).
func (d Data) TurnScope() (model string, allowedTools []string) {
	return d.Model, d.AllowedTools
}

// IsReadOnly reports whether loading the named skill only reads: true
// unless its template runs shell commands (!`cmd`).
func (t *Tool) IsReadOnly(input json.RawMessage) bool {
	var in Input
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	c, ok := t.cmds.Lookup(name(in.Skill))
	return ok && c.Prompt == nil && !strings.Contains(c.Body, "!`")
}

// IsConcurrencySafe is IsReadOnly.
func (t *Tool) IsConcurrencySafe(input json.RawMessage) bool { return t.IsReadOnly(input) }

// Validate checks that the skill exists and the model may load it, before
// any permission question is asked.
func (t *Tool) Validate(_ context.Context, _ *tool.Call, input json.RawMessage) error {
	var in Input
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("Skill input: %w", err)
	}
	_, err := t.find(in.Skill)
	return err
}

func name(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "/") }

// find returns the command the model asked for, or an error it can act on.
func (t *Tool) find(skill string) (*command.Command, error) {
	n := name(skill)
	if n == "" {
		return nil, fmt.Errorf("skill is empty: give the name of a listed skill")
	}
	c, ok := t.cmds.Lookup(n)
	switch {
	case !ok:
		return nil, fmt.Errorf("Unknown skill: %s. Use a name from the skill listing", n)
	case c.Kind != command.Prompt || c.Source == command.SourceBuiltin:
		return nil, fmt.Errorf("/%s is a built-in command, not a skill; only the user can run it", c.Name)
	case c.DisableModelInvocation:
		return nil, fmt.Errorf("skill %s can only be run by the user (it sets disable-model-invocation)", c.Name)
	}
	return c, nil
}

// Call implements tool.Tool: the result says the skill is loaded, and its
// Messages carry the invocation header and the expanded instructions.
func (t *Tool) Call(ctx context.Context, _ *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in Input
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("Skill input: %w", err)
	}
	c, err := t.find(in.Skill)
	if err != nil {
		return nil, err
	}
	x, err := t.exp.Expand(ctx, c, in.Args)
	if err != nil {
		return nil, err
	}
	res := tool.Text(fmt.Sprintf("Loaded skill %s. Its instructions follow; carry them out.", c.Name))
	res.Messages = []llm.ContentBlock{llm.TextBlock(x.Header), llm.TextBlock(x.Prompt)}
	res.Data = Data{Success: true, CommandName: c.Name, AllowedTools: x.AllowedTools, Model: x.Model}
	return res, nil
}
