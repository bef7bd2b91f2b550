package cli

import (
	"context"
	"strings"
	"time"

	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/tui"
)

// mentioned reads the files and folders (@path) and the MCP resources
// (@server:uri) a prompt mentions into blocks sent after it, in every
// mode, as Claude Code attaches them. Those the expansion of a custom
// command already includes (its body mentioned them) are not read twice.
func (a *app) mentioned(ctx context.Context, text, expanded string) []llm.ContentBlock {
	var out []llm.ContentBlock
	if a.expander != nil {
		included := func(p string) bool {
			return strings.Contains(expanded, `<file path="`+p+`">`) || strings.Contains(expanded, `<folder path="`+p+`">`)
		}
		for _, b := range a.expander.Attachments(text, included) {
			out = append(out, llm.TextBlock(b))
		}
	}
	return append(out, a.mentionedResources(ctx, text, expanded)...)
}

// mentionedResources reads the MCP resources a prompt mentions
// (@server:uri) into blocks sent after it, as Claude Code attaches them.
// Mentions whose block the expanded text already holds (a custom
// command's body mentioned them too) are not read twice.
func (a *app) mentionedResources(ctx context.Context, text, expanded string) []llm.ContentBlock {
	var todo []mcp.ResourceMention
	for _, r := range mcp.ResourceMentions(text) {
		if !strings.Contains(expanded, r.Tag()) {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return a.mcpm().AttachResources(ctx, todo)
}

// commandResource includes an MCP resource a custom command or skill
// mentions (Expander.Resource).
func (a *app) commandResource(ctx context.Context, mention string) (string, bool) {
	r, ok := mcp.ParseResourceMention(mention)
	if !ok {
		return "", false
	}
	return a.mcpm().AttachResource(ctx, r)
}

// mentionableResourcesWait bounds listing resources for @ completion
// (waiting for servers still connecting included).
const mentionableResourcesWait = 5 * time.Second

// mentionableResources lists the connected servers' resources for @
// completion in the terminal UI.
func (a *app) mentionableResources(ctx context.Context) []tui.Resource {
	if a.mcpm() == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, mentionableResourcesWait)
	defer cancel()
	a.mcpm().Wait(ctx) // servers still connecting after start-up are worth the wait
	var out []tui.Resource
	for _, r := range a.mcpm().Resources(ctx) {
		out = append(out, tui.Resource{Server: r.Server, URI: r.URI, Name: r.Name})
	}
	return out
}
