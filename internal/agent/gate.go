package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"reins/internal/permission"
	"reins/internal/tool"
)

// Gate narrows a gate for a sub-agent (DESIGN invariant 5). Before the
// inner gate decides, it refuses what the definition rules out:
//
//   - every call that is not read-only, when the definition is ReadOnly
//     (the built-in Explore and Plan);
//   - calls of a tool that Tools lists only with specifiers
//     ("Bash(git:*)") which none of those entries allows.
//
// What passes goes to the inner gate (the parent's rules, mode, hooks and
// asker, cloned and narrowed further by the caller), so the Gate can only
// take permissions away. It is safe for concurrent use.
type Gate struct {
	inner    tool.Gate
	name     string
	readOnly bool
	// only maps a tool to a policy holding just the entries that limit
	// it; a call must be allowed by one of those rules.
	only map[string]*permission.Policy
	home string
}

var _ tool.Gate = (*Gate)(nil)

// NewGate wraps inner with d's restrictions. cwd and home resolve the
// paths in specifiers. An entry that does not parse is reported and
// restricts its tool to nothing, never to everything.
func NewGate(inner tool.Gate, d *Definition, cwd, home string) (*Gate, error) {
	if inner == nil || d == nil {
		panic("agent.NewGate: nil gate or definition")
	}
	g := &Gate{inner: inner, name: d.Name, readOnly: d.ReadOnly, home: home}
	bare := map[string]bool{}
	limited := map[string][]string{}
	for _, e := range d.Tools {
		name, _, has := splitEntry(e)
		switch {
		case name == "Agent" || name == "*":
		case has:
			limited[name] = append(limited[name], strings.TrimSpace(e))
		default:
			bare[name] = true
		}
	}
	var errs []string
	for name, entries := range limited {
		if bare[name] {
			continue
		}
		p, warns, err := permission.NewPolicy(permission.Config{AllowedTools: entries, Cwd: cwd, Home: home})
		if err != nil {
			return nil, fmt.Errorf("agent %s: tools %s: %w", d.Name, strings.Join(entries, ", "), err)
		}
		for _, w := range warns {
			errs = append(errs, w.Message)
		}
		if g.only == nil {
			g.only = map[string]*permission.Policy{}
		}
		g.only[name] = p
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return g, fmt.Errorf("agent %s: %s", d.Name, strings.Join(errs, "; "))
	}
	return g, nil
}

// Before refuses what the definition rules out, then asks the inner gate.
func (g *Gate) Before(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	name := canonicalTool(t.Name())
	if g.readOnly && !isReadOnly(t, input) {
		return tool.Verdict{Denied: true, Reason: fmt.Sprintf(
			"The %s agent is read-only, and this %s call would change things, so it was refused. Report what should be changed instead.", g.name, t.Name()),
			Permission: &tool.PermissionDecision{Decision: tool.DecisionReject, Source: "config", ReasonType: "mode"}}
	}
	if p, ok := g.only[name]; ok {
		dir := p.Cwd
		if d, ok := t.(interface{ Cwd() string }); ok && d.Cwd() != "" {
			dir = d.Cwd()
		}
		r := permission.NewRequest(name, input, isReadOnly(t, input), dir, g.home)
		r.Resolve(dir, g.home)
		if d := permission.Decide(p, r); d.Behavior != permission.Allow || d.Rule == nil {
			return tool.Verdict{Denied: true, Reason: fmt.Sprintf(
				"The %s agent may use %s only as its definition lists (%s); this call is outside that, so it was refused.", g.name, t.Name(), describeRules(p)),
				Permission: &tool.PermissionDecision{Decision: tool.DecisionReject, Source: "config", ReasonType: "rule"}}
		}
	}
	return g.inner.Before(ctx, c, t, input)
}

// After passes the result to the inner gate.
func (g *Gate) After(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage, res *tool.Result) {
	g.inner.After(ctx, c, t, input, res)
}

func describeRules(p *permission.Policy) string {
	var out []string
	for _, r := range p.Rules {
		out = append(out, r.String())
	}
	return strings.Join(out, ", ")
}

// isReadOnly asks the tool, treating a panic as "changes things".
func isReadOnly(t tool.Tool, input json.RawMessage) (ro bool) {
	defer func() {
		if recover() != nil {
			ro = false
		}
	}()
	return t.IsReadOnly(input)
}
