package bash

import (
	"fmt"
	"strings"
	"testing"
)

// A command that alternates between stdout and stderr (a build printing
// each step and its warnings) must come back in the order it wrote, or
// the model pairs errors with the wrong step.
func TestOutputKeepsTheOrderOfStdoutAndStderr(t *testing.T) {
	b := newTool(t, Config{})
	res, err := run(t, b, `for i in $(seq 1 200); do echo "out $i"; echo "err $i" >&2; done`)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 1; i <= 200; i++ {
		want = append(want, fmt.Sprintf("out %d", i), fmt.Sprintf("err %d", i))
	}
	if got := text(res); got != strings.Join(want, "\n") {
		t.Errorf("output out of order:\n%.300s", got)
	}
	if d := res.Data.(*Data); d.Stdout != strings.Join(want, "\n")+"\n" || d.Stderr != "" {
		t.Errorf("structured result stdout/stderr = %.100q / %.100q", d.Stdout, d.Stderr)
	}
}
