package settings

import (
	"encoding/json"
	"strings"
	"testing"
)

// A negative cleanupPeriodDays is refused with a warning; 0 (keep every
// transcript) and positive numbers are accepted.
func TestCleanupPeriodDaysNegativeIsRefusedZeroAccepted(t *testing.T) {
	err := CheckOverlay(map[string]json.RawMessage{"cleanupPeriodDays": json.RawMessage("-2")})
	if err == nil || !strings.Contains(err.Error(), "cleanupPeriodDays") || !strings.Contains(err.Error(), "0 keeps every transcript") {
		t.Errorf("cleanupPeriodDays -2: %v, want it refused with a hint", err)
	}
	for _, v := range []string{"0", "1"} {
		if err := CheckOverlay(map[string]json.RawMessage{"cleanupPeriodDays": json.RawMessage(v)}); err != nil {
			t.Errorf("cleanupPeriodDays %s: %v", v, err)
		}
	}
}
