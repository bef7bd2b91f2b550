package prompt_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Lookup("update")

// golden compares got with testdata/name, or rewrites it under -update
// (the flag is defined by the package's internal tests).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update != nil && update.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s", name, got)
	}
}
