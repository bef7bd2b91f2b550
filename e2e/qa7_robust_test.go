package e2e

import (
	"os"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A 100 MB file in .claude/commands (a log left there) is not read whole
// at every start: it is left out with a warning that gives its size and
// the limit, and the other commands still run.
func TestPrintModeLeavesOutAHugeCommandFileWithAWarning(t *testing.T) {
	srv := server(t, llmtest.Turn{Match: func(r *llmtest.Request) bool {
		return strings.Contains(r.LastUserText(), "Say hi.")
	}, Blocks: []llmtest.Block{llmtest.Text("hi")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/hello.md", "Say hi.\n")
	huge := sb.Write(t, ".claude/commands/dump.md", "")
	if err := os.Truncate(huge, 100<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "/hello")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "hi" {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	want := "reins: warning: load " + huge + ": " + huge + " is too large (100.0 MB; the limit is 4.0 MB); the command is left out"
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
	}
}
