package cli

import (
	"context"
	"fmt"
	"strings"

	"reins/internal/command"
	"reins/internal/mcp"
)

// viewMCP shows the MCP servers (/mcp), reconnects one ("/mcp reconnect
// NAME") or authorizes one with OAuth ("/mcp login NAME").
func (a *app) viewMCP(_ context.Context, args string) (string, error) {
	if a.mcp == nil {
		return "No MCP servers are configured. Add one with: reins mcp add NAME -- COMMAND [ARGS...]", nil
	}
	if f := strings.Fields(args); len(f) == 2 && f[0] == "reconnect" {
		if !a.mcp.Reconnect(f[1]) {
			return "", fmt.Errorf("no MCP server named %q", f[1])
		}
		return fmt.Sprintf("Reconnecting %s…", f[1]), nil
	}
	if f := strings.Fields(args); len(f) == 2 && f[0] == "login" {
		// The flow waits for the browser: it runs in the background and
		// reports through notices (the address first).
		name := f[1]
		go func() {
			err := a.mcp.Login(context.Background(), name, mcp.LoginOptions{Open: a.browserOpener(),
				Address: func(u string) {
					a.notify("info", fmt.Sprintf("Open this address to authorize reins for %s: %s", name, u))
				}})
			if err != nil {
				a.notify("warning", err.Error())
				return
			}
			a.notify("info", fmt.Sprintf("Logged in to %s.", name))
		}()
		return fmt.Sprintf("Authorizing %s: a browser opens on its sign-in page; the address also appears below.", name), nil
	}
	var b strings.Builder
	for _, s := range a.mcp.Status() {
		fmt.Fprintf(&b, "%s (%s, %s scope): %s", s.Name, s.Transport, s.Scope, s.State)
		if s.Err != "" {
			fmt.Fprintf(&b, " — %s", s.Err)
		}
		b.WriteByte('\n')
		if len(s.Tools) > 0 {
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(s.Tools, ", "))
		}
		if len(s.Prompts) > 0 {
			fmt.Fprintf(&b, "  prompts: %s\n", strings.Join(s.Prompts, ", "))
		}
	}
	b.WriteString("Reconnect a server with /mcp reconnect NAME; authorize one that needs authentication with /mcp login NAME.")
	return b.String(), nil
}

// syncMCPPrompts makes the connected servers' prompts slash commands
// (/mcp__server__prompt), replacing those of an earlier snapshot.
func (a *app) syncMCPPrompts() {
	if a.mcp == nil || a.commands == nil {
		return
	}
	prompts := a.mcp.Snapshot().Prompts
	a.commands.Remove(func(c *command.Command) bool { return c.Source == command.SourceMCP })
	for _, p := range prompts {
		p := p
		hint := ""
		for _, arg := range p.Arguments {
			hint += " <" + arg.Name + ">"
		}
		a.commands.Add(&command.Command{
			Name: p.Name, Description: firstNonEmpty(p.Description, "MCP prompt from "+p.Server),
			ArgumentHint: strings.TrimSpace(hint), Kind: command.Prompt, Source: command.SourceMCP,
			Prompt: func(ctx context.Context, args string) (string, error) { return mcpPromptText(ctx, p, args) },
		})
	}
}

// mcpPromptText expands a server prompt into text for the model.
func mcpPromptText(ctx context.Context, p mcp.Prompt, args string) (string, error) {
	msgs, err := p.Get(ctx, p.ArgumentNames(command.SplitArgs(args)))
	if err != nil {
		return "", err
	}
	var parts []string
	for _, m := range msgs {
		if t := strings.TrimSpace(m.Text()); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
