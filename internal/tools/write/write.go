package write

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"reins/internal/filestate"
	"reins/internal/fsutil"
	"reins/internal/llm"
	"reins/internal/tool"
	"reins/internal/tools/edit"
)

// Name is the tool's name.
const Name = "Write"

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Tool is the Write tool. Construct it with New.
type Tool struct {
	tool.Defaults
	files *filestate.State
}

// New returns the Write tool, which checks and updates files, the
// session's file state (required).
func New(files *filestate.State) *Tool {
	if files == nil {
		panic("write.New: nil filestate")
	}
	return &Tool{files: files}
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool.
func (*Tool) Description() string { return strings.TrimSpace(description) }

// InputSchema implements tool.Tool.
func (*Tool) InputSchema() json.RawMessage { return schema }

// Input is the tool's input.
type Input struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// Data is the structured result, with Claude Code's field names. Type is
// "create" or "update"; OriginalFile is null for a new file.
type Data struct {
	Type            string      `json:"type"`
	FilePath        string      `json:"filePath"`
	Content         string      `json:"content"`
	StructuredPatch []edit.Hunk `json:"structuredPatch"`
	OriginalFile    *string     `json:"originalFile"`
}

func parse(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("write input: %w", err)
	}
	return in, nil
}

// Validate implements tool.Tool.
func (*Tool) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	in, err := parse(raw)
	if err != nil {
		return err
	}
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	return fsutil.RequireAbs("file_path", in.FilePath, cwd)
}

// Call implements tool.Tool.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	if err := t.Validate(ctx, c, raw); err != nil {
		return nil, err
	}
	in, _ := parse(raw)
	f, err := edit.Load("file_path", in.FilePath)
	if err != nil {
		return nil, err
	}
	data := &Data{Type: "create", FilePath: in.FilePath, Content: in.Content}
	before := ""
	if f.Exists {
		if err := edit.CheckFresh(t.files, f); err != nil {
			return nil, err
		}
		if err := f.Decode(); err != nil {
			return nil, err
		}
		before = f.Text
		data.Type, data.OriginalFile = "update", &before
	}
	content, latin1 := in.Content, false
	if f.Exists {
		content, latin1 = edit.InLatin1(before, in.Content)
	}
	if _, err := edit.Write(t.files, f, content); err != nil {
		return nil, err
	}
	data.StructuredPatch = edit.StructuredPatch(before, in.Content)
	lines := strings.Count(in.Content, "\n")
	if in.Content != "" && !strings.HasSuffix(in.Content, "\n") {
		lines++
	}
	count := fmt.Sprintf("%d lines", lines)
	if lines == 1 {
		count = "1 line"
	}
	msg := fmt.Sprintf("Created %s (%s).", in.FilePath, count)
	if f.Exists {
		msg = fmt.Sprintf("Replaced the content of %s (%s).", in.FilePath, count)
		if latin1 {
			msg += " Kept its Latin-1 encoding."
		} else if f.Format != (fsutil.Format{}) {
			msg += fmt.Sprintf(" Kept its %s encoding and %s line endings.", f.Format.Encoding, strings.ToUpper(f.Format.LineEnding.String()))
		}
	}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(msg)}, Data: data}, nil
}
