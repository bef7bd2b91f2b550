// Command tuistart measures how long an agent's terminal UI takes to show
// its first screen: it starts the agent on a pseudo-terminal (120×40) in
// an empty folder with an empty home, and times from the start to the
// first printable text the agent writes, escape sequences left aside. For
// reins that is the folder-trust question; with -trusted the folder is
// recorded as trusted the way Claude Code records it (its .claude.json),
// and the first screen is the UI itself. With -ref a second command is
// measured the same way, interleaved run by run, so that a drift in the
// machine's speed falls on both alike. Run it inside tmux, or with TMUX
// set, to include what agents do differently there.
//
//	go run ./bench/tuistart [-runs 21] [-trusted] [-ref "claude"] -- ./reins
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"reins/internal/e2etest"
)

func main() {
	runs := flag.Int("runs", 21, "starts of each agent (the median is shown)")
	ref := flag.String("ref", "", "a reference agent command, measured the same way")
	trusted := flag.Bool("trusted", false, "record the folder as trusted first")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: tuistart [-runs N] [-ref CMD] -- AGENT_CMD [ARGS...]")
		os.Exit(2)
	}
	agents := [][]string{flag.Args()}
	if *ref != "" {
		agents = append(agents, strings.Fields(*ref))
	}
	for i, a := range agents {
		if strings.Contains(a[0], "/") {
			if abs, err := filepath.Abs(a[0]); err == nil {
				agents[i][0] = abs
			}
		}
	}
	times := make([][]time.Duration, len(agents))
	for range *runs {
		for i, a := range agents {
			d, err := firstScreen(a, *trusted)
			if err != nil {
				fmt.Fprintf(os.Stderr, "tuistart: %s: %v\n", strings.Join(a, " "), err)
				os.Exit(1)
			}
			times[i] = append(times[i], d)
		}
	}
	what := "an untrusted folder"
	if *trusted {
		what = "a trusted folder"
	}
	fmt.Printf("time to the first screen on a 120x40 pseudo-terminal, in %s, %d runs each, interleaved\n", what, *runs)
	for i, a := range agents {
		ts := slices.Clone(times[i])
		slices.Sort(ts)
		fmt.Printf("  %-40s median %7.1f ms   min %7.1f   max %7.1f\n", strings.Join(a, " "),
			ms(ts[len(ts)/2]), ms(ts[0]), ms(ts[len(ts)-1]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// firstScreen starts agent on a new pseudo-terminal and returns the time
// until it writes printable text.
func firstScreen(agent []string, trusted bool) (time.Duration, error) {
	dir, err := os.MkdirTemp("", "tuistart-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	for _, d := range []string{home, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return 0, err
		}
	}
	if trusted {
		rec := fmt.Sprintf(`{"projects": {%q: {"hasTrustDialogAccepted": true}}}`, work)
		if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(rec), 0o600); err != nil {
			return 0, err
		}
	}
	master, slave, err := e2etest.OpenPTY(120, 40)
	if err != nil {
		return 0, err
	}
	defer master.Close()
	cmd := exec.Command(agent[0], agent[1:]...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+home, "REINS_CONFIG_DIR="+filepath.Join(home, ".reins"),
		"ANTHROPIC_API_KEY=sk-bench",
		"ANTHROPIC_BASE_URL=http://127.0.0.1:9", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return 0, err
	}
	slave.Close()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	master.SetReadDeadline(time.Now().Add(20 * time.Second))
	var s scanner
	buf := make([]byte, 64<<10)
	for {
		n, err := master.Read(buf)
		if s.printable(buf[:n]) {
			return time.Since(start), nil
		}
		if err != nil {
			return 0, fmt.Errorf("no printable output (%d bytes read): %w", s.total, err)
		}
	}
}

// scanner finds printable text in terminal output, skipping escape
// sequences (CSI, OSC, DCS and the like) and control bytes, across reads.
type scanner struct {
	state int // 0 text, 1 after ESC, 2 in CSI, 3 in a string sequence, 4 ESC inside a string
	total int
}

func (s *scanner) printable(b []byte) bool {
	s.total += len(b)
	for _, c := range b {
		switch s.state {
		case 0:
			switch {
			case c == 0x1b:
				s.state = 1
			case c > ' ' && c != 0x7f:
				return true
			}
		case 1:
			switch c {
			case '[':
				s.state = 2
			case ']', 'P', '_', '^', 'X':
				s.state = 3
			default:
				s.state = 0 // a two-byte sequence
			}
		case 2:
			if c >= 0x40 && c <= 0x7e {
				s.state = 0
			}
		case 3:
			switch c {
			case 0x07:
				s.state = 0
			case 0x1b:
				s.state = 4
			}
		case 4:
			if c == '\\' {
				s.state = 0
			} else {
				s.state = 3
			}
		}
	}
	return false
}
