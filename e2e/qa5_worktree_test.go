package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// `-w feature/x -p hello` names the worktree feature/x: a name it cannot
// take is refused with the rule, not sent to the model as the start of
// the prompt while the session runs in a worktree with a made-up name.
func TestWorktreeFlagWithANameItCannotTakeIsAnError(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	for name, args := range map[string][]string{
		"feature/x": {"-w", "feature/x", "-p", "hello"},
		"../up":     {"-p", "hello", "--worktree", "../up"},
	} {
		r := sb.Run(t, "", args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, `reins: --worktree: worktree name "`+name+`": `) {
			t.Errorf("%v: code %d, stderr %q; want a usage error about the name %q", args, r.Code, r.Stderr, name)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
	if out := gitOut(t, sb.Dir, "worktree", "list"); strings.Contains(out, "\n") {
		t.Errorf("worktrees were made:\n%s", out)
	}
}
