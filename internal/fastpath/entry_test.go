package fastpath

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEntryLinksAndAnswersOnEachArchitecture builds a small program with
// the entry point for every architecture that has one, and runs it where
// it can: natively, or under qemu user emulation when installed. A version
// question must be answered by the entry, anything else must reach main.
func TestEntryLinksAndAnswersOnEachArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the entry point exists on Linux only")
	}
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "probe")
			build := exec.Command("go", "build", "-ldflags=-E="+EntrySymbol, "-o", bin, "./testdata/entryprobe")
			build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("link with the entry point: %v\n%s", err, out)
			}
			var run func(args ...string) *exec.Cmd
			switch {
			case arch == runtime.GOARCH:
				run = func(args ...string) *exec.Cmd { return exec.Command(bin, args...) }
			default:
				qemu, err := exec.LookPath("qemu-" + map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[arch] + "-static")
				if err != nil {
					t.Logf("linked for %s; not run (no qemu user emulation here)", arch)
					return
				}
				run = func(args ...string) *exec.Cmd { return exec.Command(qemu, append([]string{bin}, args...)...) }
			}
			for _, tc := range []struct {
				args []string
				want string
			}{
				{[]string{"--version"}, VersionLine + "\n"},
				{[]string{"x", "-v"}, SDKVersionLine + "\n"},
				{[]string{"--versionx", "--version"}, VersionLine + "\n"},
				{[]string{"--", "--version"}, "runtime started\n"},
				{[]string{"-vv", "--versio"}, "runtime started\n"},
				{nil, "runtime started\n"},
			} {
				// Under inittrace the runtime reports each package it
				// initialises on stderr: an answer from the entry has none.
				cmd := run(tc.args...)
				cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil || string(out) != tc.want {
					t.Errorf("%q: %q (%v), want %q", tc.args, out, err, tc.want)
				}
				if answered := tc.want != "runtime started\n"; answered == (stderr.Len() > 0) {
					t.Errorf("%q: answered %v, but the runtime's init trace was %q", tc.args, answered, stderr.String())
				}
			}
		})
	}
}
