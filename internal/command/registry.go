package command

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// Registry holds the commands of a session. It is safe for concurrent use:
// MCP prompts may arrive while a turn runs. Take a Snapshot at turn start
// (DESIGN invariant 3).
type Registry struct {
	mu   sync.RWMutex
	cmds []*Command // in registration order; guarded by mu
}

// NewRegistry returns a registry holding cmds (see Add).
func NewRegistry(cmds ...*Command) *Registry {
	r := &Registry{}
	r.Add(cmds...)
	return r
}

// Add registers commands. A command whose name is already taken replaces
// the earlier one in place, so register builtins first and then custom
// commands, which override them as in Claude Code. A command without a
// name is a programming error and panics.
func (r *Registry) Add(cmds ...*Command) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range cmds {
		if c == nil || c.Name == "" {
			panic("command: Add of a command without a name")
		}
		if i := r.indexLocked(c.Name); i >= 0 {
			r.cmds[i] = c
			continue
		}
		r.cmds = append(r.cmds, c)
	}
}

// Reset replaces every command with cmds, at once, as Add would register
// them in an empty registry (commands read again from disk).
func (r *Registry) Reset(cmds ...*Command) {
	fresh := NewRegistry(cmds...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmds = fresh.cmds
}

// Remove drops every command for which drop returns true and reports how
// many it dropped (MCP prompts of a server that reconnects, for example).
func (r *Registry) Remove(drop func(*Command) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.cmds)
	r.cmds = slices.DeleteFunc(r.cmds, drop)
	return n - len(r.cmds)
}

func (r *Registry) indexLocked(name string) int {
	for i, c := range r.cmds {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Snapshot returns an independent copy holding the same commands.
func (r *Registry) Snapshot() *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return &Registry{cmds: slices.Clone(r.cmds)}
}

// All returns the commands in registration order.
func (r *Registry) All() []*Command {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.cmds)
}

// Lookup finds a command by name, then by alias, then by name ignoring
// case. A leading slash is ignored.
func (r *Registry) Lookup(name string) (*Command, bool) {
	name = strings.TrimPrefix(name, "/")
	if name == "" {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, c := range r.cmds {
		if c.Name == name {
			return c, true
		}
	}
	for _, c := range r.cmds {
		if slices.Contains(c.Aliases, name) {
			return c, true
		}
	}
	for _, c := range r.cmds {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return nil, false
}

// ModelInvocable returns the commands the model may call through the Skill
// tool, in registration order.
func (r *Registry) ModelInvocable() []*Command {
	var out []*Command
	for _, c := range r.All() {
		if c.ModelInvocable() {
			out = append(out, c)
		}
	}
	return out
}

// Names returns the names users may type, in registration order: the SDK
// init message's slash_commands.
func (r *Registry) Names() []string {
	var out []string
	for _, c := range r.All() {
		if c.UserInvocable() {
			out = append(out, c.Name)
		}
	}
	return out
}

// TerminalOnly returns the names of UI commands (the SDK init message's
// terminal_slash_commands).
func (r *Registry) TerminalOnly() []string {
	var out []string
	for _, c := range r.All() {
		if c.Kind == UI && c.UserInvocable() {
			out = append(out, c.Name)
		}
	}
	return out
}

// SkillNames returns the names of skills (the SDK init message's skills).
func (r *Registry) SkillNames() []string {
	var out []string
	for _, c := range r.All() {
		if c.Skill {
			out = append(out, c.Name)
		}
	}
	return out
}

// Info is a command as the SDK initialize response lists it.
type Info struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	ArgumentHint string   `json:"argumentHint"`
	Aliases      []string `json:"aliases,omitempty"`
	Builtin      bool     `json:"builtin,omitempty"`
}

// Infos returns the user-invocable commands for the SDK initialize
// response, in registration order.
func (r *Registry) Infos() []Info {
	var out []Info
	for _, c := range r.All() {
		if !c.UserInvocable() {
			continue
		}
		out = append(out, Info{
			Name:         c.Name,
			Description:  c.Description,
			ArgumentHint: c.ArgumentHint,
			Aliases:      slices.Clone(c.Aliases),
			Builtin:      c.Source == SourceBuiltin || c.Source == SourceBundled,
		})
	}
	return out
}

// Candidate is one completion for a partly typed command.
type Candidate struct {
	Command *Command
	// Alias is the alias that matched, when the match was by alias.
	Alias string
}

// Complete returns the user-invocable commands matching a partly typed
// name (with or without the slash), best first: names starting with it,
// then aliases starting with it, then names containing it; each group in
// name order, each command once. Case is ignored. An empty prefix lists
// every command by name.
func (r *Registry) Complete(prefix string) []Candidate {
	p := strings.ToLower(strings.TrimPrefix(prefix, "/"))
	cmds := r.All()
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	var out []Candidate
	seen := map[*Command]bool{}
	add := func(c *Command, alias string) {
		if !seen[c] {
			seen[c] = true
			out = append(out, Candidate{Command: c, Alias: alias})
		}
	}
	for _, c := range cmds {
		if c.UserInvocable() && strings.HasPrefix(strings.ToLower(c.Name), p) {
			add(c, "")
		}
	}
	for _, c := range cmds {
		if !c.UserInvocable() {
			continue
		}
		for _, a := range c.Aliases {
			if strings.HasPrefix(strings.ToLower(a), p) {
				add(c, a)
				break
			}
		}
	}
	for _, c := range cmds {
		if c.UserInvocable() && strings.Contains(strings.ToLower(c.Name), p) {
			add(c, "")
		}
	}
	return out
}
