package bash

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"reins/internal/tool"
)

// BenchmarkCall times one Bash tool call of a trivial command beside the
// reference of starting bash for it directly: the difference is what the
// tool adds (state file, process group, environment capture).
func BenchmarkCall(b *testing.B) {
	dir := b.TempDir()
	t := New(Config{Cwd: dir, StateDir: b.TempDir(),
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C"}})
	for _, c := range []struct{ name, command string }{
		{"tool", "true"},
		// A command that may change the folder runs under the state trap.
		{"tool-saving-state", "cd ."},
	} {
		in, _ := json.Marshal(map[string]any{"command": c.command})
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := t.Call(context.Background(), &tool.Call{ID: "t"}, in, nil)
				if err != nil || res.IsError {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
		})
	}
	b.Run("bash-c-reference", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("bash", "-c", "true")
			cmd.Dir = dir
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
