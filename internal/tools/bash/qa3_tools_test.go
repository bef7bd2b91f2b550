package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that alternates between stdout and stderr (a build printing
// each step and its warnings) must come back in the order it wrote, or
// the model pairs errors with the wrong step.
func TestOutputKeepsTheOrderOfStdoutAndStderr(t *testing.T) {
	b := newTool(t, Config{})
	res, err := run(t, b, `for i in $(seq 1 200); do echo "out $i"; echo "err $i" >&2; done`)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 1; i <= 200; i++ {
		want = append(want, fmt.Sprintf("out %d", i), fmt.Sprintf("err %d", i))
	}
	if got := text(res); got != strings.Join(want, "\n") {
		t.Errorf("output out of order:\n%.300s", got)
	}
	if d := res.Data.(*Data); d.Stdout != strings.Join(want, "\n")+"\n" || d.Stderr != "" {
		t.Errorf("structured result stdout/stderr = %.100q / %.100q", d.Stdout, d.Stderr)
	}
}

// As in Claude Code, a cd out of the working folders lasts for that
// command only: the shell goes back to the launch folder and the result
// says "Shell cwd was reset to ...". A cd within them (a subfolder, an
// added folder) carries over.
func TestCdOutsideTheWorkingFoldersIsReset(t *testing.T) {
	project, added, outside := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := newTool(t, Config{Cwd: project, WorkDirs: func() []string { return []string{project, added} }})
	steps := []struct{ cmd, want string }{
		{"cd " + outside + " && pwd", outside + "\nShell cwd was reset to " + project},
		{"pwd", project},
		{"cd sub", ""},
		{"pwd", filepath.Join(project, "sub")},
		{"cd " + added, ""},
		{"pwd", added},
		{"cd " + outside, "Shell cwd was reset to " + project},
		{"pwd", project},
	}
	for _, s := range steps {
		res, err := run(t, b, s.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(res); got != s.want {
			t.Errorf("%s: %q, want %q", s.cmd, got, s.want)
		}
	}
}
