package sdk_test

import (
	"os"
	"testing"

	"reins/internal/e2etest"
)

// TestMain builds reins before any test runs (see e2etest.Build); a
// failed build is reported by the first test that needs the binary.
func TestMain(m *testing.M) {
	e2etest.Build()
	os.Exit(m.Run())
}
