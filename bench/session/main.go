// Command session measures an agent CLI as a whole process against the
// fake model server: `--version` time, time from start to the first model
// request, and a scripted six-turn tool session (wall time, peak RSS, CPU
// time, requests and bytes sent to the model), each printed beside its
// target, in a git workspace holding a copy of Go's net/http sources.
//
//	go run ./bench/session [-runs N] [-ref "claude"] -- ./reins
//
// The agent command must accept Claude Code's print-mode flags and
// ANTHROPIC_BASE_URL. With -ref, a second command runs the same
// measurements for comparison, interleaved with the first run by run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"reins/internal/llm/llmtest"
)

func main() {
	runs := flag.Int("runs", 5, "repetitions of each measurement (the median is shown)")
	ref := flag.String("ref", "", "a reference agent command to run the same session")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: session [-runs N] [-ref CMD] -- AGENT_CMD [ARGS...]")
		os.Exit(2)
	}
	ws, err := workspace()
	if err != nil {
		fmt.Fprintln(os.Stderr, "session:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(ws)
	fmt.Printf("workspace: %s (copy of net/http, git repo); %d runs each, medians; %d CPUs\n", ws, *runs, runtime.NumCPU())
	fmt.Printf("machine reference: starting /bin/true %s, a minimal static Go program %s, bash -c true %s, git status --short in the workspace %s\n\n",
		timeCmd(ws, *runs*4, "/bin/true"), timeGoHello(ws, *runs*4), timeCmd(ws, *runs*4, "bash", "-c", "true"),
		timeCmd(ws, *runs*2, "git", "--no-optional-locks", "status", "--short"))
	agents := [][]string{flag.Args()}
	if *ref != "" {
		agents = append(agents, strings.Fields(*ref))
	}
	rs := collect(agents, ws, *runs)
	missed := report(rs[0], true)
	for _, r := range rs[1:] {
		fmt.Println()
		report(r, false)
	}
	if len(missed) > 0 {
		fmt.Printf("\nmissed targets: %s\n", strings.Join(missed, ", "))
	} else {
		fmt.Println("\nall targets met")
	}
}

// timeGoHello builds a Go program that only prints a line, statically
// as reins is built, and times it: the floor for any Go binary's
// --version on this machine.
func timeGoHello(ws string, n int) string {
	dir, err := os.MkdirTemp("", "reins-bench-hello-")
	if err != nil {
		return "n/a"
	}
	defer os.RemoveAll(dir)
	src := "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"0.0.0 (hello)\\n\") }\n"
	if os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644) != nil ||
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n"), 0o644) != nil {
		return "n/a"
	}
	bin := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Sprintf("n/a (%v: %.100s)", err, out)
	}
	return timeCmd(ws, n, bin).Round(10 * time.Microsecond).String()
}

// timeCmd is the median wall time of a command, as a reference for how
// fast this machine starts processes.
func timeCmd(dir string, n int, name string, args ...string) time.Duration {
	var ts []time.Duration
	for i := 0; i < n; i++ {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		start := time.Now()
		if cmd.Run() != nil {
			return 0
		}
		ts = append(ts, time.Since(start))
	}
	return median(ts).Round(10 * time.Microsecond)
}

// workspace copies $GOROOT/src/net/http into a new git repository.
func workspace() (string, error) {
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	src := filepath.Join(goroot, "src", "net", "http")
	dir, err := os.MkdirTemp("", "reins-bench-")
	if err != nil {
		return "", err
	}
	dir, _ = filepath.EvalSymlinks(dir)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("copy net/http: %w", err)
	}
	// The index is refreshed a second after the commit, as in a working
	// repository: files changed in the same second as the index is written
	// are "racily clean" and git would re-read every one of them on each
	// status that may not rewrite the index (reins runs status without
	// optional locks).
	steps := [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=b@x", "-c", "user.name=b", "commit", "-qm", "net/http"}, {"sleep"}, {"status", "--short"}}
	for _, args := range steps {
		if args[0] == "sleep" {
			time.Sleep(1100 * time.Millisecond)
			continue
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("git %v: %v %s", args, err, out)
		}
	}
	return dir, nil
}

// script is the six-turn tool session.
func script(ws string) []llmtest.Turn {
	p := func(f string) string { return filepath.Join(ws, f) }
	return []llmtest.Turn{
		llmtest.Calls(llmtest.Text("Reading the client and server."),
			llmtest.ToolUse("toolu_1a", "Read", map[string]any{"file_path": p("client.go"), "limit": 200}),
			llmtest.ToolUse("toolu_1b", "Read", map[string]any{"file_path": p("server.go"), "limit": 200}),
			llmtest.ToolUse("toolu_1c", "Read", map[string]any{"file_path": p("request.go"), "limit": 200})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Grep", map[string]any{"pattern": "func \\(c \\*Client\\) Do", "path": ws, "output_mode": "content", "-n": true})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Glob", map[string]any{"pattern": "**/*_test.go", "path": ws})),
		llmtest.Calls(llmtest.ToolUse("toolu_4", "Bash", map[string]any{"command": "git status --short && git log --oneline -1", "description": "repo state"})),
		llmtest.Calls(llmtest.ToolUse("toolu_5", "Bash", map[string]any{"command": "grep -c 'func ' client.go", "description": "count functions"})),
		llmtest.Reply("The client sends requests through Client.Do, which the server answers via Handler."),
	}
}

type sample struct {
	wall, cpu, firstReq time.Duration
	arrivals            []time.Duration // each request's arrival after start
	rss                 int64
	requests            int
	bytes               int64
	ok                  bool
	errText             string
}

func run(agent []string, ws string, turns []llmtest.Turn, args ...string) sample {
	srv, err := llmtest.Start(turns...)
	if err != nil {
		return sample{errText: err.Error()}
	}
	defer srv.Close()
	home, _ := os.MkdirTemp("", "reins-bench-home-")
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, agent[0], append(agent[1:], args...)...)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+home, "REINS_CONFIG_DIR="+filepath.Join(home, ".reins"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=sk-bench", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	s := sample{wall: wall, requests: len(srv.Requests()), bytes: srv.BytesReceived(), ok: err == nil}
	if err != nil {
		s.errText = fmt.Sprintf("%v: %.300s", err, out)
	}
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			s.rss = ru.Maxrss * 1024
		}
	}
	if reqs := srv.Requests(); len(reqs) > 0 {
		s.firstReq = reqs[0].Arrived.Sub(start)
		for _, r := range reqs {
			s.arrivals = append(s.arrivals, r.Arrived.Sub(start))
		}
	}
	return s
}

func median(xs []time.Duration) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs[len(xs)/2]
}

// results are one agent's samples.
type results struct {
	agent        []string
	vers, firsts []time.Duration
	walls, cpus  []time.Duration
	rss          []int64
	last         sample
	failed       string // why the agent's runs stopped, if they did
}

// collect runs every measurement for each agent, interleaved run by run
// (A B A B ...), so that a drift in the machine's speed, which on small
// virtual machines is often larger than the difference measured, falls
// on every agent alike.
func collect(agents [][]string, ws string, runs int) []*results {
	var rs []*results
	for _, agent := range agents {
		// The session runs in the workspace, so a relative path to the
		// agent ("./reins") is made absolute first.
		if strings.Contains(agent[0], "/") {
			if abs, err := filepath.Abs(agent[0]); err == nil {
				agent = append([]string{abs}, agent[1:]...)
			}
		}
		rs = append(rs, &results{agent: agent})
	}
	flags := []string{"-p", "Explain how net/http sends a request.", "--output-format", "json", "--permission-mode", "bypassPermissions"}
	for i := 0; i < runs; i++ {
		for _, r := range rs {
			if r.failed != "" {
				continue
			}
			for range 4 {
				start := time.Now()
				cmd := exec.Command(r.agent[0], append(r.agent[1:], "--version")...)
				if err := cmd.Run(); err != nil {
					r.failed = fmt.Sprintf("--version failed: %v", err)
					break
				}
				r.vers = append(r.vers, time.Since(start))
			}
			s := run(r.agent, ws, []llmtest.Turn{llmtest.Reply("hi")}, "-p", "hello")
			if !s.ok {
				r.failed = "single turn failed: " + s.errText
				continue
			}
			r.firsts = append(r.firsts, s.firstReq)
			s = run(r.agent, ws, script(ws), flags...)
			if !s.ok || s.requests != 6 {
				r.failed = fmt.Sprintf("session failed (%d requests): %s", s.requests, s.errText)
				continue
			}
			r.walls, r.cpus, r.rss, r.last = append(r.walls, s.wall), append(r.cpus, s.cpu), append(r.rss, s.rss), s
		}
	}
	return rs
}

// report prints one agent's medians, with the targets when asked, and
// returns the targets missed.
func report(r *results, targets bool) []string {
	fmt.Printf("agent: %s\n", strings.Join(r.agent, " "))
	if r.failed != "" {
		fmt.Printf("  %s\n", r.failed)
		return []string{"session"}
	}
	var missed []string
	line := func(name string, got, target time.Duration) {
		mark := ""
		if targets && target > 0 {
			if got <= target {
				mark = fmt.Sprintf("  target < %s: met", target)
			} else {
				mark = fmt.Sprintf("  target < %s: MISSED", target)
				missed = append(missed, name)
			}
		}
		fmt.Printf("  %-28s %10s%s\n", name, got.Round(10*time.Microsecond), mark)
	}
	line("--version", median(r.vers), 5*time.Millisecond)
	line("start to first request", median(r.firsts), 15*time.Millisecond)
	line("6-turn session wall", median(r.walls), 100*time.Millisecond)
	line("6-turn session CPU", median(r.cpus), 0)
	rss := append([]int64(nil), r.rss...)
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	peak := rss[len(rss)/2]
	mark := ""
	if targets {
		if peak <= 40<<20 {
			mark = "  target < 40 MB: met"
		} else {
			mark = "  target < 40 MB: MISSED"
			missed = append(missed, "peak RSS")
		}
	}
	fmt.Printf("  %-28s %8.1f MB%s\n", "6-turn session peak RSS", float64(peak)/(1<<20), mark)
	var arr []string
	for _, a := range r.last.arrivals {
		arr = append(arr, a.Round(time.Millisecond).String())
	}
	fmt.Printf("  %-28s %s\n", "requests arrived at", strings.Join(arr, " "))
	fmt.Printf("  %-28s %10d\n", "requests to the model", r.last.requests)
	fmt.Printf("  %-28s %10d\n", "bytes sent to the model", r.last.bytes)
	return missed
}
