package permission

import "testing"

func TestFilesInsideAClaudeWorktreeAreNotProtectedByItsFolder(t *testing.T) {
	for path, want := range map[string]bool{
		"/repo/.claude/worktrees/agent-a1/src/main.go":           false,
		"/repo/.claude/worktrees/feature/README.md":              false,
		"/repo/.claude/worktrees/agent-a1/.claude/settings.json": true, // protected inside the worktree too
		"/repo/.claude/worktrees/agent-a1/.git/config":           true,
		"/repo/.claude/worktrees/agent-a1/.bashrc":               true,
		"/repo/.claude/worktrees/agent-a1":                       true, // the worktree itself
		"/repo/.claude/worktrees/../settings.json":               true,
		"/repo/.claude/settings.json":                            true,
		"/repo/.claude/agents/x.md":                              true,
	} {
		if got, why := protectedPath(path); got != want {
			t.Errorf("protectedPath(%s) = %v (%s), want %v", path, got, why, want)
		}
	}
}

func TestFilesInASubagentMemoryFolderAreNotProtectedByItsFolder(t *testing.T) {
	for path, want := range map[string]bool{
		"/repo/.claude/agent-memory/reviewer/MEMORY.md":      false,
		"/repo/.claude/agent-memory-local/reviewer/topic.md": false,
		"/home/u/.claude/agent-memory/reviewer/MEMORY.md":    false,
		"/repo/.claude/agent-memory/reviewer":                true, // the folder itself
		"/repo/.claude/agent-memory/../settings.json":        true,
		"/repo/.claude/agent-memory/reviewer/.claude/x.json": true, // protected inside it too
		"/repo/.claude/agent-memory/reviewer/.bashrc":        true,
		"/repo/.claude/agent-memory.md":                      true,
		"/repo/.claude/agent-memoryx/reviewer/MEMORY.md":     true,
	} {
		if got, why := protectedPath(path); got != want {
			t.Errorf("protectedPath(%s) = %v (%s), want %v", path, got, why, want)
		}
	}
}
