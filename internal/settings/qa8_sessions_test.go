package settings

import (
	"encoding/json"
	"strings"
	"testing"
)

// cleanupPeriodDays 0 is refused with a warning, as Claude Code refuses it,
// rather than taken silently as the default 30 days by a user who meant
// "never clean up".
func TestCleanupPeriodDaysZeroIsRefused(t *testing.T) {
	for _, v := range []string{"0", "-2"} {
		err := CheckOverlay(map[string]json.RawMessage{"cleanupPeriodDays": json.RawMessage(v)})
		if err == nil || !strings.Contains(err.Error(), "cleanupPeriodDays") || !strings.Contains(err.Error(), "3650") {
			t.Errorf("cleanupPeriodDays %s: %v, want it refused with a hint", v, err)
		}
	}
	if err := CheckOverlay(map[string]json.RawMessage{"cleanupPeriodDays": json.RawMessage("1")}); err != nil {
		t.Errorf("cleanupPeriodDays 1: %v", err)
	}
}
