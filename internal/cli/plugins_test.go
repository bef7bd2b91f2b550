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

// /doctor has a plugins line: what loaded, and a failing mark when some
// plugin did not load.
func TestDoctorReportsPlugins(t *testing.T) {
	srv, err := llmtest.Start(llmtest.Reply("ok"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	work := sandbox(t, srv)
	good := filepath.Join(work, "good")
	if err := os.MkdirAll(filepath.Join(good, "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := &Options{Print: true, PluginDirs: []string{good, filepath.Join(work, "missing")}}
	a, err := newApp(context.Background(), &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: os.Getenv}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	for _, c := range a.doctorChecks(context.Background()) {
		if c.Name != "plugins" {
			continue
		}
		if c.OK || c.Info != "1 loaded: good@inline; 1 error(s), see /plugin" {
			t.Errorf("plugins check = %+v", c)
		}
		return
	}
	t.Error("/doctor has no plugins line")
}
