package prompt

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// OverrideDateEnv fixes the session date (for tests and reproducible
// runs); Claude Code's name for it is honoured too.
const OverrideDateEnv = "REINS_OVERRIDE_DATE"

// SessionDate returns the local date of now as YYYY-MM-DD, or the value of
// REINS_OVERRIDE_DATE / CLAUDE_CODE_OVERRIDE_DATE verbatim when set. Call
// it once at session start and keep the result: the prompt must not change
// at midnight. getenv nil means no environment.
func SessionDate(now time.Time, getenv func(string) string) string {
	if getenv != nil {
		for _, k := range []string{OverrideDateEnv, "CLAUDE_CODE_OVERRIDE_DATE"} {
			if v := getenv(k); v != "" {
				return v
			}
		}
	}
	return now.Format("2006-01-02")
}

// Host returns the platform (runtime.GOOS) and a short OS version such as
// "Linux 6.8.0-45-generic" or "Darwin 24.1.0", "" when it cannot be found
// quickly.
func Host(ctx context.Context) (platform, version string) {
	platform = runtime.GOOS
	if runtime.GOOS == "linux" {
		typ, err1 := os.ReadFile("/proc/sys/kernel/ostype")
		rel, err2 := os.ReadFile("/proc/sys/kernel/osrelease")
		if err1 == nil && err2 == nil {
			return platform, strings.TrimSpace(string(typ)) + " " + strings.TrimSpace(string(rel))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	out, err := exec.CommandContext(ctx, "uname", "-sr").Output()
	if err != nil {
		return platform, ""
	}
	return platform, strings.TrimSpace(string(out))
}

// cutoffs maps model-name fragments to training cutoffs, most specific
// first (seed004 Ch.7).
var cutoffs = []struct{ fragment, cutoff string }{
	{"claude-sonnet-4-6", "August 2025"},
	{"claude-opus-4-6", "May 2025"},
	{"claude-opus-4-5", "May 2025"},
	{"claude-haiku-4", "February 2025"},
	{"claude-opus-4", "January 2025"},
	{"claude-sonnet-4", "January 2025"},
}

// KnowledgeCutoff returns the training cutoff of a model id, "" when
// unknown.
func KnowledgeCutoff(model string) string {
	m := strings.ToLower(model)
	for _, c := range cutoffs {
		if strings.Contains(m, c.fragment) {
			return c.cutoff
		}
	}
	return ""
}
