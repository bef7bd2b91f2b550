// Package leaktest fails a test binary whose tests leave goroutines of
// reins running behind them (DESIGN invariant 9). Use it from TestMain:
//
//	func TestMain(m *testing.M) { leaktest.Main(m) }
package leaktest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Main runs the tests, then fails the binary when goroutines started from
// reins's packages are still running five seconds after they ended.
func Main(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := Leaked(5 * time.Second); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines leaked by the tests:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

// Leaked waits up to wait for goroutines running reins code (other than
// the test driver) to end, and returns the stacks of those still running.
func Leaked(wait time.Duration) string {
	deadline := time.Now().Add(wait)
	for {
		buf := make([]byte, 1<<20)
		stacks := strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
		var bad []string
		for _, s := range stacks {
			if strings.Contains(s, "reins/internal/") && !strings.Contains(s, "TestMain") && !strings.Contains(s, "leaktest.") {
				bad = append(bad, s)
			}
		}
		if len(bad) == 0 || time.Now().After(deadline) {
			return strings.Join(bad, "\n\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
