package agent

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the package when goroutines started by its tests are
// still running after them (DESIGN invariant 9).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := leakedGoroutines(); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines leaked by the tests:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func leakedGoroutines() string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
		var bad []string
		for _, s := range stacks {
			if strings.Contains(s, "reins/internal/") && !strings.Contains(s, "TestMain") && !strings.Contains(s, "leakedGoroutines") {
				bad = append(bad, s)
			}
		}
		if len(bad) == 0 || time.Now().After(deadline) {
			return strings.Join(bad, "\n\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
