package engine

// Granter is implemented by a Gate that can allow extra permission rules
// for a while: the allowed-tools of a custom command, for its turn.
type Granter interface {
	// Grant adds allow rules until revoke is called; rules that do not
	// parse are skipped and named in err.
	Grant(rules []string) (revoke func(), err error)
}

// Grant implements Granter with the session's permission checker.
func (g *PermissionGate) Grant(rules []string) (func(), error) {
	return g.cfg.Permissions.Grant(rules)
}

// forTurn applies an input's turn-only model and allowed tools, and
// returns the function that undoes them when the turn ends.
func (t *turn) forTurn(in Input) (undo func()) {
	s := t.s
	var undos []func()
	if in.Model != "" {
		s.mu.Lock()
		prev, prevFallback := s.model, s.fallback
		s.model, s.fallback = s.cfg.Models.Resolve(in.Model), false
		turnModel := s.model
		s.mu.Unlock()
		undos = append(undos, func() {
			s.mu.Lock()
			// A model chosen during the turn (set_model, /model, a
			// fallback) stays; only the command's own model is undone.
			if s.model == turnModel && !s.fallback {
				s.model, s.fallback = prev, prevFallback
			}
			s.mu.Unlock()
		})
	}
	if len(in.AllowedTools) > 0 {
		if g, ok := s.cfg.Gate.(Granter); ok {
			revoke, err := g.Grant(in.AllowedTools)
			if err != nil {
				t.emit(&Notice{Level: "warning", Text: "Some allowed-tools rules were ignored: " + err.Error()})
			}
			undos = append(undos, revoke)
		}
	}
	return func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
}
