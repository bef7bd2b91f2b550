package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"reins/internal/llm"
)

// Catalog is the resolved set of agent definitions: one per name, the
// highest precedence winning. It does not change after construction; With
// returns a new one.
type Catalog struct {
	defs map[string]*Definition
}

// NewCatalog resolves defs (see With).
func NewCatalog(defs ...*Definition) *Catalog {
	return (&Catalog{}).With(defs...)
}

// With returns a catalog holding c's definitions and defs. For one name the
// definition from the higher source wins (built-in < plugin < user <
// project < flag, sdk < managed); at the same level the later one wins.
func (c *Catalog) With(defs ...*Definition) *Catalog {
	n := &Catalog{defs: make(map[string]*Definition, len(c.defs)+len(defs))}
	for k, v := range c.defs {
		n.defs[k] = v
	}
	for _, d := range defs {
		if d == nil || d.Name == "" {
			continue
		}
		if cur, ok := n.defs[d.Name]; ok && cur.Source.rank() > d.Source.rank() {
			continue
		}
		n.defs[d.Name] = d
	}
	return n
}

// Lookup finds a definition by name, then by name ignoring case.
func (c *Catalog) Lookup(name string) (*Definition, bool) {
	if d, ok := c.defs[name]; ok {
		return d, true
	}
	for _, d := range c.All() {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return nil, false
}

// All returns the definitions sorted by name, ignoring case.
func (c *Catalog) All() []*Definition {
	out := make([]*Definition, 0, len(c.defs))
	for _, d := range c.defs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name)
		if a != b {
			return a < b
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Names returns the agent names in All's order (the SDK init message's
// agents).
func (c *Catalog) Names() []string {
	var out []string
	for _, d := range c.All() {
		out = append(out, d.Name)
	}
	return out
}

// Info is an agent as the SDK initialize response lists it.
type Info struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Model       string `json:"model,omitempty"`
}

// Infos returns the agents for the SDK initialize response.
func (c *Catalog) Infos() []Info {
	var out []Info
	for _, d := range c.All() {
		out = append(out, Info{Name: d.Name, Description: d.Description, Model: d.Model})
	}
	return out
}

// listingHead opens every agent listing; Reminder finds earlier listings
// in the history by it, so it must not change.
const listingHead = "<system-reminder>\nAgent types you can start with the Agent tool (give the name as subagent_type):\n\n"

// Reminder returns the agent listing for the engine's reminder hook: the
// text of Listing when it differs from the last agent listing in history,
// and "" when the model already has it.
func (c *Catalog) Reminder(history []*llm.Message, allowed func(name string) bool) string {
	text, _ := c.Listing(allowed)
	if text == "" {
		return ""
	}
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if m == nil || m.Role != llm.RoleUser {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if b := m.Content[j]; b.Type == llm.BlockText && strings.HasPrefix(b.Text, listingHead) {
				if b.Text == text {
					return ""
				}
				return text
			}
		}
	}
	return text
}

// Listing returns the <system-reminder> naming the agent types the model
// may pass to the Agent tool, one line each ("- name: description (Tools:
// ...)"), and a key that changes exactly when the text does. allowed, when
// set, leaves out types it rejects (those denied by an Agent(type) rule).
// No agents give "" and "".
func (c *Catalog) Listing(allowed func(name string) bool) (text, key string) {
	var lines []string
	for _, d := range c.All() {
		if allowed != nil && !allowed(d.Name) {
			continue
		}
		lines = append(lines, "- "+d.Name+": "+strings.Join(strings.Fields(d.Description), " ")+" (Tools: "+d.ToolsDescription()+")")
	}
	if len(lines) == 0 {
		return "", ""
	}
	text = listingHead + strings.Join(lines, "\n") + "\n</system-reminder>"
	sum := sha256.Sum256([]byte(text))
	return text, hex.EncodeToString(sum[:8])
}
