package e2e

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/fastpath"
)

// TestVersionIsAnsweredBeforeTheRuntimeStarts runs the built binary with
// GODEBUG=inittrace=1, under which the Go runtime reports each package it
// initialises on stderr. Where the platform has the entry point
// (fastpath.HasEntry), a version answer must come with an empty stderr:
// nothing of Go ran. Every other argument vector must reach the runtime.
// The answers must be fastpath.Answer's, for fixed and generated vectors.
func TestVersionIsAnsweredBeforeTheRuntimeStarts(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	sb.Env = append(sb.Env, "GODEBUG=inittrace=1")
	cases := [][]string{
		{"--version"},
		{"-v"},
		{"-p", "hi", "--version"},
		{"mcp", "-v"},
		{"--model", "opus", "-v", "--version"},
		{"--version", "--"},
		{"--verbose"},
		{"-vv"},
		{"--versio"},
		{"--versionx"},
		{"--", "--version"},
		{"-", "--v", ""},
		{},
	}
	tokens := []string{"--version", "-v", "--", "-", "--v", "-vv", "--versio", "--versionx", "-V", "version", "", "x", "-p"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		args := make([]string, rng.IntN(5))
		for i := range args {
			args[i] = tokens[rng.IntN(len(tokens))]
		}
		cases = append(cases, args)
	}
	for _, args := range cases {
		want := fastpath.Answer(args)
		if want == "" {
			// Not a version question: --help first makes the run short,
			// and changes nothing the entry point looks at.
			r := sb.Run(t, "", append([]string{"--help"}, args...)...)
			if strings.HasPrefix(r.Stdout, fastpath.ProtocolVersion) || strings.HasPrefix(r.Stdout, fastpath.Version) {
				t.Errorf("%q printed a version: %q", args, r.Stdout)
			}
			if !strings.Contains(r.Stderr, "init runtime") {
				t.Errorf("%q did not start the Go runtime; stderr %q", args, r.Stderr)
			}
			continue
		}
		r := sb.Run(t, "", args...)
		if r.Code != 0 || r.Stdout != want+"\n" {
			t.Errorf("%q: stdout %q code %d, want %q", args, r.Stdout, r.Code, want)
		}
		if fastpath.HasEntry && r.Stderr != "" {
			t.Errorf("%q: the Go runtime started before the answer; stderr %q", args, r.Stderr)
		}
	}
}

// TestVersionWriteFailureExitsNonZero checks that a version answer that
// cannot be written (standard output is a full device) is not reported as
// a success.
func TestVersionWriteFailureExitsNonZero(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	for _, flag := range []string{"--version", "-v"} {
		cmd := sb.Command(t, t.Context(), flag)
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			if runtime.GOOS != "linux" {
				t.Skipf("no /dev/full here: %v", err)
			}
			t.Fatal(err)
		}
		cmd.Stdout = full
		err = cmd.Run()
		full.Close()
		if err == nil {
			t.Errorf("%s into /dev/full exited 0", flag)
		}
	}
}

// TestFastpathInitialisesBeforeTheHeavyPackages checks the order the
// runtime initialises packages in (GODEBUG=inittrace=1): fastpath, which
// prepares the heap and starts the git snapshot, must come before the
// packages whose initialisers allocate or work the most, or its head
// start is lost. The runtime initialises, of the packages whose imports
// are done, the first by import path, so an import added to fastpath or
// hugeheap that sorts late (runtime/debug, say) moves it behind them.
func TestFastpathInitialisesBeforeTheHeavyPackages(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	sb.Env = append(sb.Env, "GODEBUG=inittrace=1")
	r := sb.Run(t, "", "--help")
	order := map[string]int{}
	for i, line := range strings.Split(r.Stderr, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			if _, seen := order[f[1]]; !seen {
				order[f[1]] = i
			}
		}
	}
	at, ok := order["reins/internal/fastpath"]
	if !ok {
		t.Fatalf("no init line for reins/internal/fastpath in:\n%s", r.Stderr)
	}
	for _, heavy := range []string{"encoding/gob", "github.com/google/jsonschema-go/jsonschema", "go.yaml.in/yaml/v3", "net/http", "github.com/modelcontextprotocol/go-sdk/mcp"} {
		if i, ok := order[heavy]; !ok {
			t.Errorf("no init line for %s", heavy)
		} else if i < at {
			t.Errorf("%s initialises before reins/internal/fastpath", heavy)
		}
	}
}
