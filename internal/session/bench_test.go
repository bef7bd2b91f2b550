//go:build unix

package session

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkResume10k loads a 10,000-message transcript (target: under
// 300 ms), decoding on one core ("sequential") and on all cores
// ("parallel", what Load does for files over 1 MiB). Beside the load time
// it reports the CPU time and, as the reference measured in the same run,
// the time to merely scan the file's lines and check each is valid JSON.
func BenchmarkResume10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "long.jsonl")
	size := writeLongSession(b, path, 10_000)

	ref := measure(b, 3, func() {
		f, _ := os.Open(path)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				b.Fatal("invalid line")
			}
		}
		f.Close()
	})
	for _, mode := range []struct {
		name     string
		parallel bool
	}{{"sequential", false}, {"parallel", true}} {
		b.Run(mode.name, func(b *testing.B) {
			var tr *Transcript
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				tr, err = read(f, mode.parallel)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			cpu := (cpuTime() - cpu0) / time.Duration(b.N)
			if len(tr.Items) < 10_000 {
				b.Fatalf("loaded %d items", len(tr.Items))
			}
			perLoad := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(perLoad.Microseconds())/1000, "ms/load")
			b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/load")
			b.ReportMetric(float64(ref.Microseconds())/1000, "ms/ref-scan")
			b.Logf("resume of 10,000 messages (%.1f MiB, %s): %v per load (%v CPU, GC included); reference line scan + JSON check: %v (%.1fx); target 300ms",
				float64(size)/(1<<20), mode.name, perLoad.Round(time.Millisecond), cpu.Round(time.Millisecond), ref.Round(time.Millisecond), float64(perLoad)/float64(ref))
		})
	}
}

// cpuTime is the process's user and system CPU time so far: a figure a
// busy machine disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func measure(b *testing.B, runs int, fn func()) time.Duration {
	best := time.Duration(1 << 62)
	for range runs {
		start := time.Now()
		fn()
		if d := time.Since(start); d < best {
			best = d
		}
	}
	return best
}
