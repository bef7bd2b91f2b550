package cli

import (
	"context"
	"fmt"
	"strings"

	"reins/internal/agent"
	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/mcp"
	"reins/internal/prompt"
)

// contextUse is what fills a session's context window, by category, for
// /context and the SDK's get_context_usage. The categories in use add up
// to Used; with the free space and the autocompact buffer they add up to
// Window.
type contextUse struct {
	Model  string
	Window int
	// Used is the context in use: the last response's usage plus an
	// estimate of what came after it, or an estimate of everything
	// before the first response.
	Used int
	// Parts are the categories in use, then "Free space" and, when
	// autocompaction is on, "Autocompact buffer".
	Parts []contextPart
	// Memory are the memory files loaded at start, with their size.
	Memory []memoryUse
	// Auto says autocompaction is on; Threshold is where it starts.
	Auto      bool
	Threshold int
	// MCPTools are the MCP tools the model may call, with the estimated
	// size of their schemas.
	MCPTools []mcpToolUse
	// Agents are the custom (not built-in) agent types the Agent tool can
	// start, with the estimated size of their line in the agent listing.
	Agents []agentUse
}

// mcpToolUse is one MCP tool of contextUse.
type mcpToolUse struct {
	Name   string // as the model calls it: mcp__<server>__<tool>
	Server string // normalised, as in Name
	Tokens int
	// Loaded says the schema is sent; a deferred tool's is not until a
	// tool search loads it.
	Loaded bool
}

// agentUse is one agent type of contextUse.
type agentUse struct {
	Type   string
	Source string // Claude Code's name of where it was defined
	Path   string
	Tokens int
}

// agentSourceName is Claude Code's name for where an agent type was
// defined (agents given by --agents or an SDK client are flagSettings).
func agentSourceName(s agent.Source) string {
	switch s {
	case agent.SourceUser:
		return "userSettings"
	case agent.SourceProject:
		return "projectSettings"
	case agent.SourceManaged:
		return "policySettings"
	case agent.SourceFlag, agent.SourceSDK:
		return "flagSettings"
	}
	return string(s)
}

// contextPart is one category of contextUse.
type contextPart struct {
	Name   string
	Tokens int
}

// memoryUse is one memory file of contextUse.
type memoryUse struct {
	Path   string
	Type   string // Claude Code's name of its kind: Managed, User, Project, Local
	Tokens int
}

// memoryTypeName is Claude Code's name of a memory kind (a switch, not a
// package map: a map would be built at every start).
func memoryTypeName(k prompt.Kind) string {
	switch k {
	case prompt.KindManaged:
		return "Managed"
	case prompt.KindUser:
		return "User"
	case prompt.KindProject, prompt.KindAdditional:
		return "Project"
	case prompt.KindLocal:
		return "Local"
	}
	return ""
}

// contextUse measures s. The system prompt, tools and memory are
// estimated from their text; once the API has reported a usage, the
// messages are what remains of the used total (the estimates scaled down
// should they exceed it), so that the parts add up to it.
func (a *app) contextUse(ctx context.Context, s *engine.Session) contextUse {
	cfg := s.Config()
	u := contextUse{Model: s.Model(), Window: cfg.Models.Info(s.Model()).ContextWindow}
	var system, tools, mcpTools int
	for _, b := range cfg.System {
		system += compact.EstimateText(b.Text)
	}
	memory := compact.EstimateText(cfg.UserContext)
	if cfg.Tools != nil {
		ts := cfg.Tools(ctx)
		specs := ts.Specs
		if specs == nil {
			for _, t := range ts.Tools {
				n := compact.EstimateText(t.Name() + t.Description() + string(t.InputSchema()))
				if strings.HasPrefix(t.Name(), "mcp__") {
					mcpTools += n
				} else {
					tools += n
				}
			}
		}
		sent := map[string]bool{}
		for _, sp := range specs {
			n := compact.EstimateText(sp.Name + sp.Description + string(sp.InputSchema) + string(sp.Raw))
			sent[sp.Name] = true
			if strings.HasPrefix(sp.Name, "mcp__") {
				mcpTools += n
			} else {
				tools += n
			}
		}
		for _, t := range ts.Tools {
			name := t.Name()
			if !strings.HasPrefix(name, "mcp__") {
				continue
			}
			server, _, _ := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__")
			if st, ok := t.(interface{ Server() string }); ok {
				server = mcp.NormalizeName(st.Server())
			}
			u.MCPTools = append(u.MCPTools, mcpToolUse{Name: name, Server: server,
				Tokens: compact.EstimateText(name + t.Description() + string(t.InputSchema())), Loaded: specs == nil || sent[name]})
		}
	}
	if cat := a.agentCatalog(); cat != nil {
		for _, d := range cat.All() {
			if d.Source == agent.SourceBuiltin || !a.agentTypeVisible(d.Name) {
				continue
			}
			line := d.Name + ": " + strings.Join(strings.Fields(d.Description), " ")
			u.Agents = append(u.Agents, agentUse{Type: d.Name, Source: agentSourceName(d.Source), Path: d.Path, Tokens: compact.EstimateText(line)})
		}
	}
	fixed := system + tools + mcpTools + memory
	messages := compact.EstimateMessages(s.Messages())
	if a.compactor != nil {
		st := a.compactor.Status(s)
		u.Auto, u.Threshold = st.Auto, st.Threshold
		if st.Window > 0 {
			u.Window = st.Window
		}
		if lu := s.LastUsage(); lu.InputTokens+lu.CacheReadInputTokens+lu.CacheCreationInputTokens > 0 {
			// The API's count is the total; the estimates share it.
			if fixed > st.Used {
				scale := func(n int) int { return n * st.Used / fixed }
				system, tools, mcpTools, memory = scale(system), scale(tools), scale(mcpTools), scale(memory)
				fixed = system + tools + mcpTools + memory
			}
			messages = st.Used - fixed
		}
	}
	u.Used = fixed + messages
	u.Parts = []contextPart{{"System prompt", system}, {"System tools", tools}}
	if mcpTools > 0 {
		u.Parts = append(u.Parts, contextPart{"MCP tools", mcpTools})
	}
	u.Parts = append(u.Parts, contextPart{"Memory files", memory}, contextPart{"Messages", messages})
	buffer := 0
	if u.Auto && u.Threshold > 0 && u.Threshold < u.Window {
		buffer = u.Window - u.Threshold
	}
	u.Parts = append(u.Parts, contextPart{"Free space", max(0, u.Window-u.Used-buffer)})
	if buffer > 0 {
		u.Parts = append(u.Parts, contextPart{"Autocompact buffer", buffer})
	}
	if m := a.memoryShown.Load(); m != nil {
		for _, f := range m.Files() {
			if f.Content == "" {
				continue
			}
			u.Memory = append(u.Memory, memoryUse{Path: f.Path, Type: memoryTypeName(f.Kind), Tokens: compact.EstimateText(f.Content)})
		}
	}
	return u
}

// cmdContext is /context in print and SDK modes: the context window's
// use by category, and the memory files, as text.
func (a *app) cmdContext(ctx context.Context, _ string) (string, error) {
	u := a.contextUse(ctx, a.current())
	var b strings.Builder
	fmt.Fprintf(&b, "Context usage: %s · %s of %s tokens (%s)\n\n", u.Model, tokenCount(u.Used), tokenCount(u.Window), percentOf(u.Used, u.Window))
	b.WriteString("| Category | Tokens | Percentage |\n|---|---|---|\n")
	for _, p := range u.Parts {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", p.Name, tokenCount(p.Tokens), percentOf(p.Tokens, u.Window))
	}
	if len(u.Memory) > 0 {
		b.WriteString("\nMemory files\n\n| Type | Path | Tokens |\n|---|---|---|\n")
		for _, m := range u.Memory {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", m.Type, m.Path, tokenCount(m.Tokens))
		}
	}
	if u.Auto {
		fmt.Fprintf(&b, "\nAutocompaction starts at %s tokens.", tokenCount(u.Threshold))
	} else {
		b.WriteString("\nAutocompaction is off.")
	}
	return b.String(), nil
}

// tokenCount renders n as 12,345.
func tokenCount(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// percentOf renders n as a share of of, to one decimal.
func percentOf(n, of int) string {
	if of <= 0 {
		return "0%"
	}
	return fmt.Sprintf("%.1f%%", float64(n)*100/float64(of))
}
