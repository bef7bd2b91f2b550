package engine

// Granter is implemented by a Gate that can allow extra permission rules
// for a while: the allowed-tools of a custom command or skill, for its
// turn.
type Granter interface {
	// Grant adds allow rules until revoke is called; rules that do not
	// parse are skipped and named in err.
	Grant(rules []string) (revoke func(), err error)
}

// Grant implements Granter with the session's permission checker.
func (g *PermissionGate) Grant(rules []string) (func(), error) {
	return g.cfg.Permissions.Grant(rules)
}

// TurnScoped is implemented by a tool result's Data that asks for a model
// and allowed tools for the rest of the turn (a skill the model loaded).
type TurnScoped interface {
	TurnScope() (model string, allowedTools []string)
}

// scope applies a model and allowed tools until the turn ends (undoScopes).
func (t *turn) scope(model string, allowed []string) {
	s := t.s
	if model != "" {
		s.mu.Lock()
		prev, prevFallback := s.model, s.fallback
		s.model, s.fallback = s.cfg.Models.Resolve(model), false
		turnModel := s.model
		s.mu.Unlock()
		t.undos = append(t.undos, func() {
			s.mu.Lock()
			// A model chosen during the turn (set_model, /model, a
			// fallback) stays; only the turn's own model is undone.
			if s.model == turnModel && !s.fallback {
				s.model, s.fallback = prev, prevFallback
			}
			s.mu.Unlock()
		})
	}
	if len(allowed) > 0 {
		if g, ok := s.cfg.Gate.(Granter); ok {
			revoke, err := g.Grant(allowed)
			if err != nil {
				t.emit(&Notice{Level: "warning", Text: "Some allowed-tools rules were ignored: " + err.Error()})
			}
			t.undos = append(t.undos, revoke)
		}
	}
}

// undoScopes undoes every scope of the turn, newest first.
func (t *turn) undoScopes() {
	for i := len(t.undos) - 1; i >= 0; i-- {
		t.undos[i]()
	}
	t.undos = nil
}
