package command

import "testing"

func TestResetReplacesEveryCommandAndRestoresAnOverriddenBuiltin(t *testing.T) {
	builtin := &Command{Name: "review", Source: SourceBuiltin}
	r := NewRegistry(builtin, &Command{Name: "old", Source: SourceUser})
	r.Add(&Command{Name: "review", Source: SourceProject}) // a custom command overrides the builtin
	r.Reset(builtin, &Command{Name: "new", Source: SourceUser})
	if _, ok := r.Lookup("old"); ok {
		t.Error("a command gone from disk is still there")
	}
	if c, ok := r.Lookup("review"); !ok || c.Source != SourceBuiltin {
		t.Errorf("review = %+v, want the builtin back", c)
	}
	if _, ok := r.Lookup("new"); !ok {
		t.Error("the new command is missing")
	}
}
