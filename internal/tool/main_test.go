package tool_test

import (
	"testing"

	"reins/internal/leaktest"
)

// TestMain fails the package when goroutines started by its tests are
// still running after them (DESIGN invariant 9).
func TestMain(m *testing.M) { leaktest.Main(m) }
