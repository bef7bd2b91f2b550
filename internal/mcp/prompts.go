package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
)

// Prompt is a server prompt offered as a slash command
// /mcp__<server>__<prompt>. The command registry lists it and calls Get
// with the user's arguments to expand it.
type Prompt struct {
	Name        string // mcp__<server>__<prompt>
	Server      string
	RemoteName  string
	Description string
	Arguments   []PromptArgument
	srv         *server
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

func newPrompt(srv *server, p *sdk.Prompt) Prompt {
	out := Prompt{Name: ToolName(srv.name, p.Name), Server: srv.name, RemoteName: p.Name, Description: p.Description, srv: srv}
	for _, a := range p.Arguments {
		if a != nil {
			out.Arguments = append(out.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
	}
	return out
}

// ArgumentNames maps positional words to the prompt's arguments in
// order: the first word to the first argument, and so on; the last
// argument takes the rest of the words.
func (p Prompt) ArgumentNames(words []string) map[string]string {
	args := map[string]string{}
	for i, a := range p.Arguments {
		if i >= len(words) {
			break
		}
		if i == len(p.Arguments)-1 {
			rest := words[i]
			for _, w := range words[i+1:] {
				rest += " " + w
			}
			args[a.Name] = rest
			break
		}
		args[a.Name] = words[i]
	}
	return args
}

// Get asks the server to expand the prompt with args and returns its
// messages. A missing required argument is an error naming it.
func (p Prompt) Get(ctx context.Context, args map[string]string) ([]*llm.Message, error) {
	for _, a := range p.Arguments {
		if a.Required && args[a.Name] == "" {
			return nil, fmt.Errorf("/%s needs the argument %q", p.Name, a.Name)
		}
	}
	if p.srv == nil {
		return nil, fmt.Errorf("/%s: no server", p.Name)
	}
	cs, err := p.srv.session()
	if err != nil {
		return nil, err
	}
	var res *sdk.GetPromptResult
	err = p.srv.bounded(ctx, "prompt "+p.RemoteName, func(ctx context.Context) (err error) {
		res, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: p.RemoteName, Arguments: args})
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []*llm.Message
	for _, m := range res.Messages {
		if m == nil || m.Content == nil {
			continue
		}
		role := llm.RoleUser
		if m.Role == "assistant" {
			role = llm.RoleAssistant
		}
		out = append(out, &llm.Message{Role: role, Content: mapContent([]sdk.Content{m.Content})})
	}
	return out, nil
}
