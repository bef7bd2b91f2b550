package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"reins/internal/tool"
)

// simpleGate is the permission gate used until settings-driven permissions
// are wired: read-only calls run, other tools need --allowedTools naming
// them or bypassPermissions; disallowed tools are refused.
type simpleGate struct {
	mode    string
	allowed map[string]bool
	denied  map[string]bool
}

func newSimpleGate(mode string, allow, deny []string) *simpleGate {
	g := &simpleGate{mode: mode, allowed: map[string]bool{}, denied: map[string]bool{}}
	for _, r := range allow {
		g.allowed[ruleTool(r)] = true
	}
	for _, r := range deny {
		g.denied[ruleTool(r)] = true
	}
	return g
}

func ruleTool(rule string) string {
	name, _, _ := strings.Cut(rule, "(")
	return strings.TrimSpace(name)
}

func (g *simpleGate) Before(_ context.Context, c *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	name := t.Name()
	switch {
	case g.denied[name]:
		return tool.Verdict{Denied: true, Reason: fmt.Sprintf("Permission to use %s has been denied by the user's settings.", name)}
	case g.mode == "bypassPermissions", g.allowed[name]:
		return tool.Verdict{Allow: true}
	case g.mode != "plan" && t.IsReadOnly(input):
		return tool.Verdict{Allow: true}
	case g.mode == "plan" && t.IsReadOnly(input):
		return tool.Verdict{Allow: true}
	}
	return tool.Verdict{Denied: true, Reason: fmt.Sprintf("Permission to use %s was denied: it needs approval and nobody can be asked in this mode. Allow it with --allowedTools %s.", name, name)}
}

func (g *simpleGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}

// filterDenied removes tools denied outright by name (DESIGN invariant 7).
func filterDenied(tools []tool.Tool, deny []string) []tool.Tool {
	if len(deny) == 0 {
		return tools
	}
	bare := map[string]bool{}
	for _, r := range deny {
		if !strings.Contains(r, "(") {
			bare[strings.TrimSpace(r)] = true
		}
	}
	var out []tool.Tool
	for _, t := range tools {
		if !bare[t.Name()] {
			out = append(out, t)
		}
	}
	return out
}
