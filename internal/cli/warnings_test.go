package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// Start-up problems found at the same time by the concurrent start-up work
// (memory files, agent files) and by the main path (.mcp.json) are all
// kept; under -race this also checks they are recorded without a data race.
func TestStartupWarningsFromConcurrentLoadersAreAllKept(t *testing.T) {
	srv, err := llmtest.Start(llmtest.Reply("ok"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	work := sandbox(t, srv)
	// A CLAUDE.md importing a file that does not exist (a memory warning).
	if err := os.WriteFile(filepath.Join(work, "CLAUDE.md"), []byte("See @missing-notes.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An agent file without its required fields (an agent warning).
	if err := os.MkdirAll(filepath.Join(work, ".claude", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".claude", "agents", "broken.md"), []byte("---\nname: [unclosed\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A project .mcp.json that is not JSON (a warning on the main path).
	if err := os.WriteFile(filepath.Join(work, ".mcp.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := newApp(context.Background(), &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: os.Getenv}, &Options{Print: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	all := strings.Join(a.startupWarnings(), "\n")
	for _, want := range []string{"missing-notes.md", "broken.md", ".mcp.json"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %s:\n%s", want, all)
		}
	}
}
