// Command grep-bench compares reins's Grep and Glob tools with ripgrep on
// the Go source tree, in the same run, and checks that both find exactly
// the same matches.
//
//	go run ./bench/grep [-root DIR] [-rounds N] [-strict]
//
// Each case runs ripgrep (as a process, the way an agent would run it)
// and the Grep tool (in process, the way reins runs it) alternately,
// rounds times after one warm-up run each, and reports the median wall
// times, their ratio and the target, and the median CPU times (user plus
// system), which a busy machine disturbs less. Match sets are compared as sets of
// paths (files_with_matches) or of path:line:text (content). A mismatch
// exits with status 1; a missed target exits with status 2 under -strict
// and is only reported otherwise.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"reins/internal/tool"
	"reins/internal/tools/glob"
	"reins/internal/tools/grep"
)

type grepCase struct {
	pattern    string
	ignoreCase bool
	target     float64 // largest acceptable ratio to ripgrep's time
}

var cases = []grepCase{
	{pattern: "ErrUnexpectedEOF", target: 1.5},
	{pattern: "content-length", ignoreCase: true, target: 1.5},
	{pattern: `func New[A-Z]\w*Reader`, target: 1.5},
	{pattern: `(Marshal|Unmarshal)JSON`, target: 2},
}

const globTarget = 150 * time.Millisecond

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "grep-bench:", err)
		var ec exitCode
		if errors.As(err, &ec) {
			os.Exit(int(ec))
		}
		os.Exit(1)
	}
}

type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func run() error {
	root := flag.String("root", "", "tree to search (default: $(go env GOROOT)/src)")
	rounds := flag.Int("rounds", 11, "timed runs of each side per case")
	strict := flag.Bool("strict", false, "exit with status 2 when a target is missed")
	flag.Parse()
	if *root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %w", err)
		}
		*root = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		return errors.New("ripgrep (rg) is not on PATH; install it, e.g. apt-get install -y ripgrep")
	}
	ver, _ := exec.Command(rg, "--version").Output()
	fmt.Printf("tree: %s\nripgrep: %s\nrounds: %d (median wall time; warm page cache)\n\n",
		*root, strings.SplitN(string(ver), "\n", 2)[0], *rounds)
	fmt.Printf("%-26s %-18s %9s %9s %6s %6s %9s %9s  %s\n", "pattern", "mode", "reins", "rg", "ratio", "target", "cpu reins", "cpu rg", "matches")

	mismatch, missed := false, []string{}
	for _, c := range cases {
		for _, mode := range []string{grep.ModeFiles, grep.ModeContent} {
			r, err := benchGrep(rg, *root, c, mode, *rounds)
			if err != nil {
				return err
			}
			status := "ok"
			if r.diff != "" {
				status = "MISMATCH: " + r.diff
				mismatch = true
			}
			ratio := float64(r.ours) / float64(r.theirs)
			flagMiss := ""
			if ratio > c.target {
				flagMiss = " MISSED"
				missed = append(missed, fmt.Sprintf("%s (%s): %.2fx > %.1fx", label(c), mode, ratio, c.target))
			}
			fmt.Printf("%-26s %-18s %9s %9s %5.2fx %5.1fx %9s %9s  %d %s%s\n", label(c), mode, ms(r.ours), ms(r.theirs), ratio, c.target,
				ms(r.oursCPU), ms(r.theirsCPU), r.n, status, flagMiss)
		}
	}
	g, err := benchGlob(rg, *root, *rounds)
	if err != nil {
		return err
	}
	status := "ok"
	if g.diff != "" {
		status = "MISMATCH: " + g.diff
		mismatch = true
	}
	flagMiss := ""
	if g.ours > globTarget {
		flagMiss = " MISSED"
		missed = append(missed, fmt.Sprintf("Glob **/*.go: %s > %s", ms(g.ours), ms(globTarget)))
	}
	fmt.Printf("%-26s %-18s %9s %9s %5.2fx %6s %9s %9s  %d %s%s\n", "Glob **/*.go", "(rg --files -g)", ms(g.ours), ms(g.theirs),
		float64(g.ours)/float64(g.theirs), "<"+fmt.Sprint(globTarget), ms(g.oursCPU), ms(g.theirsCPU), g.n, status, flagMiss)

	fmt.Println()
	if len(missed) == 0 {
		fmt.Println("all targets met")
	} else {
		fmt.Println("targets missed:")
		for _, m := range missed {
			fmt.Println("  " + m)
		}
	}
	switch {
	case mismatch:
		return exitCode(1)
	case len(missed) > 0 && *strict:
		return exitCode(2)
	}
	return nil
}

func label(c grepCase) string {
	if c.ignoreCase {
		return "-i " + c.pattern
	}
	return c.pattern
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/1e6) }

type result struct {
	ours, theirs       time.Duration // median wall time
	oursCPU, theirsCPU time.Duration // median CPU time (user + system)
	n                  int           // matches found (files or lines)
	diff               string        // empty when the match sets agree
}

// cpuTime returns the CPU time this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func processCPU(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func benchGrep(rg, root string, c grepCase, mode string, rounds int) (result, error) {
	in := map[string]any{"pattern": c.pattern, "output_mode": mode, "head_limit": 0}
	args := []string{"--no-heading", "--with-filename", "--color=never"}
	if mode == grep.ModeFiles {
		args = append(args, "-l")
	} else {
		args = append(args, "-n")
	}
	if c.ignoreCase {
		in["-i"] = true
		args = append(args, "-i")
	}
	args = append(args, "-e", c.pattern)
	raw, _ := json.Marshal(in)
	g := grep.New()
	call := &tool.Call{ID: "bench", Name: grep.Name, Cwd: root}

	var oursT, theirsT, oursC, theirsC []time.Duration
	var ours, theirs []string
	for i := 0; i <= rounds; i++ {
		c0 := cpuTime()
		t0 := time.Now()
		res, err := g.Call(context.Background(), call, raw, nil)
		d := time.Since(t0)
		dc := cpuTime() - c0
		if err != nil {
			return result{}, fmt.Errorf("Grep %s: %w", c.pattern, err)
		}
		out := res.Data.(*grep.Output)
		if mode == grep.ModeFiles {
			ours = out.Filenames
		} else {
			ours = strings.Split(out.Content, "\n")
		}

		cmd := exec.Command(rg, args...)
		cmd.Dir = root
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		t1 := time.Now()
		err = cmd.Run()
		d2 := time.Since(t1)
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			return result{}, fmt.Errorf("rg %s: %w", strings.Join(args, " "), err)
		}
		theirs = strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if i > 0 { // the first round warms up both sides
			oursT, oursC = append(oursT, d), append(oursC, dc)
			theirsT, theirsC = append(theirsT, d2), append(theirsC, processCPU(cmd))
		}
	}
	return result{ours: median(oursT), theirs: median(theirsT), oursCPU: median(oursC), theirsCPU: median(theirsC),
		n: len(ours), diff: compare(ours, theirs, mode == grep.ModeContent)}, nil
}

func benchGlob(rg, root string, rounds int) (result, error) {
	g := glob.New()
	call := &tool.Call{ID: "bench", Name: glob.Name, Cwd: root}
	raw := json.RawMessage(`{"pattern":"**/*.go"}`)
	var oursT, theirsT, oursC, theirsC []time.Duration
	var ours, theirs []string
	for i := 0; i <= rounds; i++ {
		c0 := cpuTime()
		t0 := time.Now()
		res, err := g.Call(context.Background(), call, raw, nil)
		d := time.Since(t0)
		dc := cpuTime() - c0
		if err != nil {
			return result{}, fmt.Errorf("Glob: %w", err)
		}
		ours = res.Data.(*glob.Output).Filenames

		cmd := exec.Command(rg, "--files", "--sort=modified", "-g", "**/*.go")
		cmd.Dir = root
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		t1 := time.Now()
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("rg --files: %w", err)
		}
		d2 := time.Since(t1)
		theirs = strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if i > 0 {
			oursT, oursC = append(oursT, d), append(oursC, dc)
			theirsT, theirsC = append(theirsT, d2), append(theirsC, processCPU(cmd))
		}
	}
	// Glob returns the 100 newest; they must all be among ripgrep's files.
	set := map[string]bool{}
	for _, f := range theirs {
		set[f] = true
	}
	diff := ""
	for _, f := range ours {
		if !set[f] {
			diff = "not listed by rg: " + f
			break
		}
	}
	if len(ours) != min(100, len(theirs)) {
		diff = fmt.Sprintf("%d files, want %d", len(ours), min(100, len(theirs)))
	}
	return result{ours: median(oursT), theirs: median(theirsT), oursCPU: median(oursC), theirsCPU: median(theirsC),
		n: len(theirs), diff: diff}, nil
}

// compare reports the first differences between two match lists as sets.
// In content mode Grep cuts lines longer than grep.MaxLineChars, so such
// lines are compared up to the cut.
func compare(ours, theirs []string, content bool) string {
	key := func(s string) string {
		if content && len(s) > grep.MaxLineChars {
			if i := strings.Index(s, " … [line cut: "); i >= 0 {
				return s[:i]
			}
		}
		return s
	}
	a, b := map[string]bool{}, map[string]bool{}
	for _, s := range ours {
		if strings.HasSuffix(s, ": binary data follows; the rest of this file was not searched") {
			continue // Grep's note where ripgrep prints a warning
		}
		a[key(s)] = true
	}
	for _, s := range theirs {
		if strings.Contains(s, ": WARNING: stopped searching binary file") {
			continue
		}
		k := s
		if content {
			// Cut like Grep does: keep path:line: and MaxLineChars bytes of text.
			if parts := strings.SplitN(s, ":", 3); len(parts) == 3 && len(parts[2]) > grep.MaxLineChars {
				cut := grep.MaxLineChars
				for cut > 0 && parts[2][cut]&0xC0 == 0x80 {
					cut--
				}
				k = parts[0] + ":" + parts[1] + ":" + parts[2][:cut]
			}
		}
		b[k] = true
	}
	var onlyOurs, onlyTheirs []string
	for k := range a {
		if !b[k] {
			onlyOurs = append(onlyOurs, k)
		}
	}
	for k := range b {
		if !a[k] {
			onlyTheirs = append(onlyTheirs, k)
		}
	}
	if len(onlyOurs) == 0 && len(onlyTheirs) == 0 {
		return ""
	}
	slices.Sort(onlyOurs)
	slices.Sort(onlyTheirs)
	return fmt.Sprintf("%d only in reins %q, %d only in rg %q",
		len(onlyOurs), onlyOurs[:min(3, len(onlyOurs))], len(onlyTheirs), onlyTheirs[:min(3, len(onlyTheirs))])
}
