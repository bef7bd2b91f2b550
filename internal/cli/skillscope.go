package cli

import (
	"strings"
	"sync"

	"reins/internal/command"
)

// skillScope is the Agent SDK's skills option (initialize's skills): the
// skills the model is shown and may load with the Skill tool. It narrows
// what the model sees, not what the user may type.
type skillScope struct {
	mu      sync.Mutex
	allowed map[string]bool // lower-cased names; nil allows every skill
}

// set limits the model to the named skills.
func (s *skillScope) set(names []string) {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(strings.TrimPrefix(strings.TrimSpace(n), "/"))] = true
	}
	s.mu.Lock()
	s.allowed = m
	s.mu.Unlock()
}

// allows reports whether the model may see and load the skill name.
func (s *skillScope) allows(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allowed == nil || s.allowed[strings.ToLower(name)]
}

// scopedSkills is the session's commands as the Skill tool finds them: a
// skill outside the scope is not found (built-in commands are, so the
// tool can say they are the user's to run).
type scopedSkills struct{ a *app }

// Lookup implements skill.Commands.
func (s scopedSkills) Lookup(name string) (*command.Command, bool) {
	c, ok := s.a.commands.Lookup(name)
	if !ok {
		return nil, false
	}
	if c.Kind == command.Prompt && c.Source != command.SourceBuiltin && !s.a.skills.allows(c.Name) {
		return nil, false
	}
	return c, true
}

// modelSkills are the commands the model may call through the Skill tool
// and is shown in the skill listing.
func (a *app) modelSkills() []*command.Command {
	var out []*command.Command
	for _, c := range a.commands.ModelInvocable() {
		if a.skills.allows(c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// scopeSkills applies initialize's skills (nil: the option was not
// given) and reports the names that match no skill the model could load.
func (a *app) scopeSkills(names []string) {
	if names == nil {
		return
	}
	a.skills.set(names)
	known := map[string]bool{}
	for _, c := range a.commands.ModelInvocable() {
		known[strings.ToLower(c.Name)] = true
	}
	for _, n := range names {
		if !known[strings.ToLower(strings.TrimPrefix(strings.TrimSpace(n), "/"))] {
			a.warn("initialize skills: no skill named " + n + " (the model can load only skills that exist and may be invoked by it)")
		}
	}
}
