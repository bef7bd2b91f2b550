package toolsearch

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"reins/internal/tool"
)

// Names of the two tools this package adds to the request.
const (
	SearchToolName  = "SearchExtraTools"
	ExecuteToolName = "ExecuteExtraTool"
)

// CoreTools are always sent with their schemas and never deferred: the
// file, shell, search, task, plan, agent and discovery tools (seed 000
// §3.1). Task is the older name of Agent.
var coreTools = map[string]bool{
	"Bash": true, "PowerShell": true, "Read": true, "Edit": true, "MultiEdit": true, "Write": true,
	"Glob": true, "Grep": true, "NotebookEdit": true,
	"Agent": true, "Task": true, "AskUserQuestion": true,
	"TaskOutput": true, "TaskStop": true, "TaskCreate": true, "TaskGet": true, "TaskList": true,
	"TaskUpdate": true, "TodoWrite": true, "KillShell": true, "BashOutput": true,
	"EnterPlanMode": true, "ExitPlanMode": true, "VerifyPlanExecution": true,
	"WebFetch": true, "WebSearch": true, "LSP": true, "Skill": true, "Sleep": true,
	SearchToolName: true, ExecuteToolName: true, "StructuredOutput": true, "SyntheticOutput": true,
}

// IsCore reports whether name is a core tool, always loaded.
func IsCore(name string) bool { return coreTools[name] }

// IsDeferred reports whether t is left out of the request until searched
// for: core tools never are; a tool.Deferrable decides for itself (an MCP
// tool with _meta "anthropic/alwaysLoad" says no); any other tool named
// mcp__… is; other built-ins are not.
func IsDeferred(t tool.Tool) bool {
	name := t.Name()
	if coreTools[name] {
		return false
	}
	if d, ok := t.(tool.Deferrable); ok {
		return d.ShouldDefer()
	}
	return strings.HasPrefix(name, "mcp__")
}

// catalog is one snapshot of the tool pool, split into the tools sent with
// their schemas and the deferred ones, with a search index over the
// latter. It is immutable and safe for concurrent use.
type catalog struct {
	loaded   map[string]tool.Tool
	deferred []tool.Tool
	byName   map[string]tool.Tool // deferred, by name
	ix       *index
}

func newCatalog(all []tool.Tool, defer_ bool, g glossary) *catalog {
	c := &catalog{loaded: map[string]tool.Tool{}, byName: map[string]tool.Tool{}}
	for _, t := range all {
		name := t.Name()
		if _, dup := c.loaded[name]; dup {
			continue
		}
		if _, dup := c.byName[name]; dup {
			continue
		}
		if defer_ && IsDeferred(t) {
			c.deferred = append(c.deferred, t)
			c.byName[name] = t
		} else {
			c.loaded[name] = t
		}
	}
	c.ix = buildIndex(c.deferred, g)
	return c
}

// deferredNames lists the deferred tools by name, sorted.
func (c *catalog) deferredNames() []string {
	names := make([]string, 0, len(c.deferred))
	for _, t := range c.deferred {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	return names
}

// findDeferred finds a deferred tool by name, exactly or ignoring case.
func (c *catalog) findDeferred(name string) (tool.Tool, bool) {
	if t, ok := c.byName[name]; ok {
		return t, true
	}
	for n, t := range c.byName {
		if strings.EqualFold(n, name) {
			return t, true
		}
	}
	return nil, false
}

// findLoaded finds a tool sent with its schema, exactly or ignoring case.
func (c *catalog) findLoaded(name string) (string, bool) {
	if _, ok := c.loaded[name]; ok {
		return name, true
	}
	for n := range c.loaded {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	if coreTools[name] {
		return name, true
	}
	return "", false
}

// searchResult is what a query found.
type searchResult struct {
	matches []tool.Tool
	loaded  []string // tools named in the query that are already loaded
	missing []string // select names that match nothing
}

// search answers a parsed query with at most limit tools.
func (c *catalog) search(q query, limit int, w Weights) searchResult {
	var r searchResult
	switch q.kind {
	case kindSelect:
		for _, n := range q.names {
			if len(r.matches) == MaxMaxResults {
				break
			}
			if t, ok := c.findDeferred(n); ok {
				r.matches = append(r.matches, t)
			} else if ln, ok := c.findLoaded(n); ok {
				r.loaded = append(r.loaded, ln)
			} else {
				r.missing = append(r.missing, n)
			}
		}
		return r
	case kindKeyword:
		text := strings.TrimSpace(q.text)
		if t, ok := c.findDeferred(text); ok {
			r.matches = []tool.Tool{t}
			return r
		}
		if ln, ok := c.findLoaded(text); ok {
			r.loaded = []string{ln}
			return r
		}
		if strings.HasPrefix(strings.ToLower(text), "mcp__") && !strings.ContainsAny(text, " \t") {
			prefix := strings.ToLower(strings.TrimSuffix(text, "__"))
			for _, t := range c.deferred {
				n := strings.ToLower(t.Name())
				if strings.HasPrefix(n, prefix+"__") || strings.HasPrefix(n, prefix) {
					r.matches = append(r.matches, t)
				}
			}
			if len(r.matches) > 0 {
				sort.Slice(r.matches, func(i, j int) bool { return r.matches[i].Name() < r.matches[j].Name() })
				if len(r.matches) > limit {
					r.matches = r.matches[:limit]
				}
				return r
			}
		}
	}
	for _, m := range c.ix.rank(q.terms, q.required, w, true, nil) {
		if len(r.matches) >= limit {
			break
		}
		r.matches = append(r.matches, m.e.tool)
	}
	return r
}

// schemaText is a tool's input schema as compact JSON.
func schemaText(t tool.Tool) string {
	s := t.InputSchema()
	var v any
	if json.Unmarshal(s, &v) != nil {
		return string(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(s)
	}
	return string(b)
}

// describe renders a tool for the model: name, description and schema.
func describe(t tool.Tool) string {
	return fmt.Sprintf("<tool name=%q>\n%s\nInput schema: %s\n</tool>", t.Name(), strings.TrimSpace(t.Description()), schemaText(t))
}
