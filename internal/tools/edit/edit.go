package edit

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
)

// Tool names.
const (
	Name          = "Edit"
	MultiEditName = "MultiEdit"
)

// snippetContext and snippetLines shape the changed region shown.
const (
	snippetContext = 4
	snippetLines   = 60
)

var (
	//go:embed edit_description.md
	editDescription string
	//go:embed edit_schema.json
	editSchema []byte
)

// Tool is the Edit tool. Construct it with New.
type Tool struct {
	tool.Defaults
	files *filestate.State
}

// New returns the Edit tool, which checks and updates files, the
// session's file state (required).
func New(files *filestate.State) *Tool {
	if files == nil {
		panic("edit.New: nil filestate")
	}
	return &Tool{files: files}
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool.
func (*Tool) Description() string { return strings.TrimSpace(editDescription) }

// InputSchema implements tool.Tool.
func (*Tool) InputSchema() json.RawMessage { return editSchema }

// Input is Edit's input.
type Input struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// Data is Edit's structured result, with Claude Code's field names.
type Data struct {
	FilePath        string `json:"filePath"`
	OldString       string `json:"oldString"`
	NewString       string `json:"newString"`
	OriginalFile    string `json:"originalFile"`
	StructuredPatch []Hunk `json:"structuredPatch"`
	UserModified    bool   `json:"userModified"`
	ReplaceAll      bool   `json:"replaceAll"`
}

func parseEdit(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("edit input: %w", err)
	}
	return in, nil
}

// Validate implements tool.Tool. Besides the input's shape it checks,
// against the file as it is now, that the edit can be made (the file was
// read and is unchanged since, old_string is found once): an edit that
// cannot apply fails before anyone is asked to approve it. Call checks
// again, as the file may change while the question is open.
func (t *Tool) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	in, err := checkEdit(c, raw)
	if err != nil {
		return err
	}
	_, _, _, err = t.plan(in)
	return err
}

// checkEdit reads and checks the input itself, before the file is looked at.
func checkEdit(c *tool.Call, raw json.RawMessage) (Input, error) {
	in, err := parseEdit(raw)
	if err != nil {
		return in, err
	}
	if err := fsutil.RequireAbs("file_path", in.FilePath, cwdOf(c)); err != nil {
		return in, err
	}
	if err := refuseNotebook("file_path", in.FilePath); err != nil {
		return in, err
	}
	if in.OldString == in.NewString {
		return in, fmt.Errorf("old_string and new_string are identical; there is nothing to change")
	}
	return in, nil
}

// plan works the edit out on the file as it is now, without writing it.
func (t *Tool) plan(in Input) (*File, string, change, error) {
	f, before, err := open(t.files, in.FilePath, in.OldString == "")
	if err != nil {
		return nil, "", change{}, err
	}
	var ch change
	switch {
	case in.OldString == "" && (!f.Exists || before == ""):
		ch = change{text: in.NewString, first: 1, last: max(1, strings.Count(strings.TrimSuffix(in.NewString, "\n"), "\n")+1), count: 1}
	case in.OldString == "":
		return nil, "", change{}, fmt.Errorf("old_string is empty, but %s already has content; give the text to replace, or use Write to replace the whole file", in.FilePath)
	default:
		if ch, err = replace(before, in.OldString, in.NewString, in.ReplaceAll, "old_string", in.FilePath); err != nil {
			return nil, "", change{}, err
		}
	}
	return f, before, ch, nil
}

func cwdOf(c *tool.Call) string {
	if c == nil {
		return ""
	}
	return c.Cwd
}

// Call implements tool.Tool.
func (t *Tool) Call(_ context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := checkEdit(c, raw)
	if err != nil {
		return nil, err
	}
	f, before, ch, err := t.plan(in)
	if err != nil {
		return nil, err
	}
	if _, err := Write(t.files, f, ch.text); err != nil {
		return nil, err
	}
	data := &Data{FilePath: in.FilePath, OldString: in.OldString, NewString: in.NewString, OriginalFile: before,
		StructuredPatch: StructuredPatch(before, ch.text), ReplaceAll: in.ReplaceAll}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(summary(f, ch))}, Data: data}, nil
}

// open loads the file for an edit: an existing file must pass the
// read-before-write rule; a missing one is allowed only when creating.
func open(files *filestate.State, path string, creating bool) (*File, string, error) {
	f, err := Load("file_path", path)
	if err != nil {
		return nil, "", err
	}
	if !f.Exists {
		if !creating {
			return nil, "", fmt.Errorf("file_path %s does not exist. To create it, give an empty old_string and the content as new_string, or use Write", path)
		}
		return f, "", nil
	}
	if err := CheckFresh(files, f); err != nil {
		return nil, "", err
	}
	if err := f.Decode(); err != nil {
		return nil, "", err
	}
	return f, f.Text, nil
}

// summary is what the model sees after a successful edit.
func summary(f *File, ch change) string {
	var head string
	switch {
	case !f.Exists:
		head = fmt.Sprintf("Created %s.", f.Display)
	case ch.count > 1:
		head = fmt.Sprintf("Updated %s: replaced %d occurrences.", f.Display, ch.count)
	default:
		head = fmt.Sprintf("Updated %s.", f.Display)
	}
	if ch.text == "" {
		return head + " The file is now empty."
	}
	return head + " The changed lines, numbered as Read shows them:\n" + Snippet(ch.text, ch.first, ch.last, snippetContext, snippetLines)
}
