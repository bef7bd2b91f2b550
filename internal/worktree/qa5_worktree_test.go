package worktree

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A --worktree session's isolated sub-agent makes its worktree inside the
// session's; the session's own status does not show it (the worktrees
// folder is excluded), and removing the session's folder would delete the
// sub-agent's uncommitted work.
func TestFinishKeepsAWorktreeThatHoldsAnotherWorktree(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	outer, err := Create(ctx, dir, "session-1")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := Create(ctx, outer.Path, "agent-1")
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(inner.Path, "a.txt")
	if err := os.WriteFile(work, []byte("the agent's work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kept, err := outer.Finish(ctx)
	if err != nil || !kept {
		t.Errorf("Finish of the outer worktree = kept %v, %v; want it kept", kept, err)
	}
	if data, err := os.ReadFile(work); err != nil || string(data) != "the agent's work\n" {
		t.Fatalf("the inner worktree's uncommitted work is gone: %q %v", data, err)
	}
	// Once the inner worktree is finished with, the outer one goes.
	if err := inner.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if kept, err := outer.Finish(ctx); err != nil || kept {
		t.Errorf("Finish after the inner worktree went = kept %v, %v; want it removed", kept, err)
	}
}
