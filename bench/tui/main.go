// Command tui-bench measures the terminal UI over a long session: it runs
// the real UI (tui.Run) on a pipe and a recording writer, against the
// fake model server, and types prompts until the conversation holds
// -messages messages (a prompt and a reply per turn). It reports, with
// the same figures for the empty session measured first in the same run
// as the reference:
//
//   - keypress-to-screen: from a key written to the UI's input to the
//     first output that shows it (median and 95th percentile; target
//     under 50 ms);
//
//   - idle CPU: process CPU time while nothing happens for a few seconds
//     (target: near zero);
//
//   - heap after GC at several sizes, and the growth per message over the
//     first and the second half (linear growth keeps the two close).
//
//     go run ./bench/tui [-messages 5000] [-keys 60] [-idle 3s] [-strict]
//
// With -strict a missed target exits with status 2.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tui"
)

func main() {
	messages := flag.Int("messages", 5000, "messages in the session (two per turn)")
	keys := flag.Int("keys", 60, "keypresses measured at each size")
	idle := flag.Duration("idle", 3*time.Second, "how long idle CPU is measured")
	strict := flag.Bool("strict", false, "exit 2 when a target is missed")
	flag.Parse()
	code, err := run(*messages/2, *keys, *idle, *strict)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tui-bench:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// screen records what the UI writes and wakes waiters.
type screen struct {
	mu    sync.Mutex
	buf   bytes.Buffer // output since the last mark
	wrote chan struct{}
}

func newScreen() *screen { return &screen{wrote: make(chan struct{}, 1)} }

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.buf.Write(p)
	if s.buf.Len() > 1<<20 {
		keep := append([]byte(nil), s.buf.Bytes()[s.buf.Len()-(64<<10):]...)
		s.buf.Reset()
		s.buf.Write(keep)
	}
	s.mu.Unlock()
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (s *screen) mark() {
	s.mu.Lock()
	s.buf.Reset()
	s.mu.Unlock()
}

// waitFor waits until the output since the last mark contains want.
func (s *screen) waitFor(want string, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		ok := bytes.Contains(s.buf.Bytes(), []byte(want))
		s.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-s.wrote:
		case <-deadline:
			return fmt.Errorf("timed out waiting for %q on screen", want)
		}
	}
}

// sizeFigures are the measurements at one session size.
type sizeFigures struct {
	label          string
	med, p95       time.Duration
	cpu            time.Duration
	idle           time.Duration
	heap, messages int
}

type bench struct {
	sess *engine.Session
	in   io.Writer
	scr  *screen
}

func run(turns, keys int, idle time.Duration, strict bool) (int, error) {
	// The model is an in-process fake provider: a fake server would keep
	// every request (each holding the whole history) and grow the heap
	// quadratically, which is not the UI's memory.
	sess := engine.New(engine.Config{
		Provider: &replies{},
		Models:   llm.NewModels(func(string) string { return "" }),
		Model:    "claude-opus-4-5",
		Cwd:      os.TempDir(),
	})
	inR, inW := io.Pipe()
	b := &bench{sess: sess, in: inW, scr: newScreen()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := tui.Run(ctx, tui.Options{Session: sess, Input: inR, Output: b.scr, Width: 100, Height: 40,
			Notify: "none", Cwd: os.TempDir(), Version: "bench"})
		done <- err
	}()
	if err := b.scr.waitFor("for commands", 10*time.Second); err != nil {
		return 1, err
	}

	measure := func(label string, msgs int) (sizeFigures, error) {
		f := sizeFigures{label: label, messages: msgs}
		lat, err := b.keypresses(keys)
		if err != nil {
			return f, err
		}
		f.med, f.p95 = percentile(lat, 50), percentile(lat, 95)
		f.cpu, f.idle = idleCPU(idle), idle
		f.heap = heap()
		return f, nil
	}
	ref, err := measure("empty session", 0)
	if err != nil {
		return 1, err
	}
	heaps := map[int]int{0: ref.heap}
	checkpoints := map[int]bool{turns / 5: true, turns / 2: true}
	start := time.Now()
	for i := 0; i < turns; i++ {
		if err := b.turn(i); err != nil {
			return 1, fmt.Errorf("turn %d: %w", i, err)
		}
		if checkpoints[i+1] {
			heaps[2*(i+1)] = heap()
		}
	}
	fill := time.Since(start)
	full, err := measure(fmt.Sprintf("%d messages", 2*turns), 2*turns)
	if err != nil {
		return 1, err
	}
	heaps[2*turns] = full.heap

	io.WriteString(inW, "\x03\x03")
	select {
	case err := <-done:
		if err != nil {
			return 1, err
		}
	case <-time.After(10 * time.Second):
		return 1, fmt.Errorf("the UI did not exit")
	}

	if report(turns, fill, ref, full, heaps) && strict {
		return 2, nil
	}
	return 0, nil
}

// report prints the figures and reports whether a target was missed.
func report(turns int, fill time.Duration, ref, full sizeFigures, heaps map[int]int) (missed bool) {
	fmt.Printf("session built: %d turns (%d messages) in %s, %.2f ms per turn through the engine and the UI\n",
		turns, 2*turns, fill.Round(time.Millisecond), float64(fill.Microseconds())/1000/float64(turns))
	fmt.Printf("%-16s %12s %12s %14s %12s\n", "", "key→screen", "p95", "idle CPU", "heap")
	for _, f := range []sizeFigures{ref, full} {
		fmt.Printf("%-16s %10.1fms %10.1fms %8.2f%% of 1 core %9.1f MB\n", f.label,
			ms(f.med), ms(f.p95), 100*f.cpu.Seconds()/f.idle.Seconds(), float64(f.heap)/(1<<20))
	}
	sizes := make([]int, 0, len(heaps))
	for n := range heaps {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	var parts []string
	for _, n := range sizes {
		parts = append(parts, fmt.Sprintf("%d msgs %.1f MB", n, float64(heaps[n])/(1<<20)))
	}
	fmt.Println("heap after GC:", strings.Join(parts, ", "))
	half := sizes[len(sizes)/2]
	first := float64(heaps[half]-heaps[0]) / float64(max(1, half))
	second := float64(heaps[2*turns]-heaps[half]) / float64(max(1, 2*turns-half))
	fmt.Printf("growth per message: %.2f KB up to %d messages, %.2f KB after (linear when close)\n", first/1024, half, second/1024)
	ratio := ms(full.med) / max(ms(ref.med), 0.001)
	fmt.Printf("key→screen at %d messages is %.2f× the empty session's (target: under 50 ms)\n", 2*turns, ratio)

	// Targets: key→screen under 50 ms; idle CPU no more than the empty
	// session's (Bubble Tea's frame ticker) plus a point, under 3%; heap
	// growth per message not rising in the second half.
	idleFull, idleRef := full.cpu.Seconds()/full.idle.Seconds(), ref.cpu.Seconds()/ref.idle.Seconds()
	missed = full.p95 > 50*time.Millisecond || idleFull > 0.03 || idleFull > idleRef+0.01 || second > 1.5*first+512
	if missed {
		fmt.Println("TARGET MISSED")
	}
	return missed
}

// turn sends prompt i and waits for its reply on screen.
func (b *bench) turn(i int) error {
	b.scr.mark()
	if _, err := fmt.Fprintf(b.in, "prompt %d\r", i); err != nil {
		return err
	}
	if err := b.scr.waitFor(fmt.Sprintf("Reply %d:", i), 10*time.Second); err != nil {
		return err
	}
	// The reply is printed; wait for the turn to end.
	for b.sess.Running() {
		time.Sleep(200 * time.Microsecond)
	}
	time.Sleep(2 * time.Millisecond)
	return nil
}

// keypresses types n letters, timing each from the write to the first
// output showing it, then clears the input.
func (b *bench) keypresses(n int) ([]time.Duration, error) {
	var lat []time.Duration
	typed := ""
	for i := 0; i < n; i++ {
		c := string(rune('a' + i%26))
		typed += c
		want := typed
		if len(want) > 6 {
			want = want[len(want)-6:]
		}
		b.scr.mark()
		t0 := time.Now()
		if _, err := io.WriteString(b.in, c); err != nil {
			return nil, err
		}
		if err := b.scr.waitFor(c, 5*time.Second); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t0))
		if len(typed) >= 40 {
			io.WriteString(b.in, "\x15") // ctrl+u
			typed = ""
			time.Sleep(20 * time.Millisecond)
		}
	}
	io.WriteString(b.in, "\x15")
	time.Sleep(50 * time.Millisecond)
	return lat, nil
}

func percentile(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := min(len(s)-1, len(s)*p/100)
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// idleCPU is the CPU time the process uses over d while nothing happens.
func idleCPU(d time.Duration) time.Duration {
	if p := os.Getenv("TUI_BENCH_PROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	before := cpuTime()
	time.Sleep(d)
	return cpuTime() - before
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heap() int {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int(ms.HeapAlloc)
}

// replies is a provider answering request n with "Reply n: …", streamed
// in small pieces like a real response.
type replies struct {
	mu sync.Mutex
	n  int
}

func (r *replies) Stream(ctx context.Context, req *llm.Request) (llm.Stream, error) {
	r.mu.Lock()
	n := r.n
	r.n++
	r.mu.Unlock()
	text := fmt.Sprintf("Reply %d: done, see `main.go` and **note** the change.", n)
	evs := []llm.Event{{Type: llm.EventMessageStart, Message: &llm.Message{Role: llm.RoleAssistant, ID: fmt.Sprintf("msg_%d", n), Model: req.Model,
		Usage: &llm.Usage{InputTokens: 100 + 20*n}}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &llm.ContentBlock{Type: llm.BlockText}}}
	for i := 0; i < len(text); i += 12 {
		evs = append(evs, llm.Event{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaText, Delta: text[i:min(len(text), i+12)]})
	}
	evs = append(evs, llm.Event{Type: llm.EventContentBlockStop, Index: 0},
		llm.Event{Type: llm.EventMessageDelta, StopReason: "end_turn", Usage: &llm.Usage{OutputTokens: 20}},
		llm.Event{Type: llm.EventMessageStop})
	return &replyStream{ctx: ctx, evs: evs}, nil
}

type replyStream struct {
	ctx context.Context
	evs []llm.Event
}

func (s *replyStream) Next() (llm.Event, error) {
	if err := s.ctx.Err(); err != nil {
		return llm.Event{}, err
	}
	if len(s.evs) == 0 {
		return llm.Event{}, io.EOF
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, nil
}

func (s *replyStream) Close() error { return nil }
