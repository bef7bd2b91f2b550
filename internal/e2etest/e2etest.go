// Package e2etest builds the reins binary once per test process and runs
// it against a fake model server in an isolated home, for end-to-end tests
// in any package.
package e2etest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// builder holds the binary built for this test process.
type builder struct {
	once sync.Once
	path string
	err  error
}

var built builder // one build per test binary; read-only after once

// Binary returns the path of a reins binary built from this checkout.
func Binary(t testing.TB) string {
	t.Helper()
	path, err := Build()
	if err != nil {
		t.Fatalf("build reins: %v", err)
	}
	return path
}

// Build builds the reins binary for this test process, once, and returns
// its path. A package's TestMain calls it before its tests run, so that
// the build (about a minute with a cold build cache) does not count
// against the time limit of whichever test happens to run reins first.
func Build() (string, error) {
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "reins-e2e-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "reins")
		// The README's build, so the tests run what users run (a static
		// binary with the entry point that answers --version).
		cmd := exec.Command("bash", filepath.Join(moduleRoot(), "scripts", "build.sh"), "-o", built.path)
		cmd.Dir = moduleRoot()
		out, err := cmd.CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("scripts/build.sh: %v\n%s", err, out)
		}
	})
	return built.path, built.err
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Sandbox is an isolated home and working folder for one run.
type Sandbox struct {
	Home      string // HOME
	ConfigDir string // REINS_CONFIG_DIR
	Dir       string // working folder
	BaseURL   string // fake model server
	Env       []string
}

// NewSandbox makes a sandbox whose runs talk to baseURL.
func NewSandbox(t testing.TB, baseURL string) *Sandbox {
	t.Helper()
	root := t.TempDir()
	s := &Sandbox{Home: filepath.Join(root, "home"), Dir: filepath.Join(root, "work"), BaseURL: baseURL}
	s.ConfigDir = filepath.Join(s.Home, ".reins")
	for _, d := range []string{s.Home, s.Dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if real, err := filepath.EvalSymlinks(s.Dir); err == nil {
		s.Dir = real
	}
	s.Env = []string{
		"HOME=" + s.Home,
		"PATH=" + os.Getenv("PATH"),
		"REINS_CONFIG_DIR=" + s.ConfigDir,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(s.Home, ".claude"),
		"ANTHROPIC_BASE_URL=" + baseURL,
		"ANTHROPIC_API_KEY=sk-test",
		"REINS_RETRY_BASE_MS=5",
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
	}
	return s
}

// Write creates a file under the working folder.
func (s *Sandbox) Write(t testing.TB, rel, content string) string {
	t.Helper()
	p := filepath.Join(s.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Result is a finished run.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Lines splits stdout into lines.
func (r Result) Lines() []string {
	return strings.Split(strings.TrimRight(r.Stdout, "\n"), "\n")
}

// Run runs reins with args in the sandbox and waits (at most 60 s).
func (s *Sandbox) Run(t testing.TB, stdin string, args ...string) Result {
	t.Helper()
	// The first run of a test binary may build reins (see Build); that
	// must not count against the run's own limit.
	Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := s.Command(t, ctx, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run reins: %v", err)
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// Command returns an unstarted command for reins in the sandbox.
func (s *Sandbox) Command(t testing.TB, ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, Binary(t), args...)
	cmd.Dir = s.Dir
	cmd.Env = append([]string(nil), s.Env...)
	return cmd
}

// Transcripts returns the transcript files written in the sandbox.
func (s *Sandbox) Transcripts(t testing.TB) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(s.ConfigDir, "projects", "*", "*.jsonl"))
	return m
}
