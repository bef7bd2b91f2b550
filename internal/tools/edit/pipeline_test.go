package edit_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/filestate"
	"reins/internal/tool"
	"reins/internal/tools/edit"
	"reins/internal/tools/read"
	"reins/internal/tools/write"
)

// TestReadThenEditThroughThePipeline runs the file tools as the executor
// does (schema validation, Validate, gate, Call) and checks the guard
// chain: Edit refuses until Read ran, then works, and Write after Edit
// needs no new Read.
func TestReadThenEditThroughThePipeline(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	p := filepath.Join(dir, "main.go")
	os.WriteFile(p, []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"), 0o644)
	files := filestate.New()
	tools := map[string]tool.Tool{"Read": read.New(files), "Edit": edit.New(files), "Write": write.New(files)}
	pipe := &tool.Pipeline{Schemas: &tool.Schemas{}}
	run := func(name string, in map[string]any) *tool.Outcome {
		raw, _ := json.Marshal(in)
		return pipe.Run(context.Background(), &tool.Call{ID: "id", Name: name, Cwd: dir}, tools[name], raw)
	}
	editIn := map[string]any{"file_path": p, "old_string": `println("hi")`, "new_string": `println("hello")`}

	if o := run("Edit", editIn); !o.IsError || !strings.Contains(o.Block.ResultText(), "has not been read in this session") {
		t.Fatalf("Edit before Read: %+v", o.Block)
	}
	if o := run("Read", map[string]any{"file_path": p}); o.IsError {
		t.Fatalf("Read: %s", o.Block.ResultText())
	}
	o := run("Edit", editIn)
	if o.IsError {
		t.Fatalf("Edit after Read: %s", o.Block.ResultText())
	}
	if want := "     4\t\tprintln(\"hello\")"; !strings.Contains(o.Block.ResultText(), want) {
		t.Errorf("Edit result lacks the numbered changed line %q:\n%s", want, o.Block.ResultText())
	}
	js, _ := json.Marshal(o.Data)
	for _, f := range []string{`"filePath"`, `"oldString"`, `"newString"`, `"originalFile"`, `"structuredPatch":[{"oldStart":1`, `"userModified":false`, `"replaceAll":false`} {
		if !strings.Contains(string(js), f) {
			t.Errorf("Edit data lacks %s: %s", f, js)
		}
	}
	if o := run("Write", map[string]any{"file_path": p, "content": "package main\n"}); o.IsError {
		t.Fatalf("Write after Edit: %s", o.Block.ResultText())
	}
	if o := run("Edit", map[string]any{"file_path": p, "old_string": "x", "new_string": "y", "extra": 1}); !o.IsError || !strings.Contains(o.Block.ResultText(), "InputValidationError") {
		t.Errorf("unknown field accepted: %s", o.Block.ResultText())
	}
}
