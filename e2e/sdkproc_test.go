package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"testing"
	"time"

	"reins/internal/e2etest"
)

// sdkProc is reins running in the Agent SDK's stream-json mode, driven
// line by line by a test.
type sdkProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	lines  *bufio.Scanner
}

// startSDK starts reins in sb with --input-format and --output-format
// stream-json, --verbose and args. It is stopped when the test ends.
func startSDK(t *testing.T, sb *e2etest.Sandbox, args ...string) *sdkProc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := sb.Command(t, ctx, append([]string{"--input-format", "stream-json", "--output-format", "stream-json", "--verbose"}, args...)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	return &sdkProc{t: t, cmd: cmd, stdin: stdin, stdout: stdout, lines: lines}
}

// send writes one input line (a newline is added when it has none).
func (p *sdkProc) send(line string) {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line += "\n"
	}
	io.WriteString(p.stdin, line)
}

// next reads output lines until one of type typ, and returns it.
func (p *sdkProc) next(typ string) map[string]any {
	p.t.Helper()
	for p.lines.Scan() {
		var l map[string]any
		if json.Unmarshal(p.lines.Bytes(), &l) == nil && l["type"] == typ {
			return l
		}
	}
	p.t.Fatalf("output ended before a %s line", typ)
	return nil
}

// finish closes the input, reads the rest of the output and fails the
// test unless reins exits cleanly.
func (p *sdkProc) finish() {
	p.t.Helper()
	p.stdin.Close()
	io.Copy(io.Discard, p.stdout)
	if err := p.cmd.Wait(); err != nil {
		p.t.Fatalf("reins: %v", err)
	}
}

// runGit runs git in dir with a fixed author and no signing, and fails the
// test when git fails (git is a peer the test command installs).
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}
