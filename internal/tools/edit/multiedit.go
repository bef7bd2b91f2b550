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

var (
	//go:embed multiedit_description.md
	multiDescription string
	//go:embed multiedit_schema.json
	multiSchema []byte
)

// MultiEdit is the MultiEdit tool. Construct it with NewMulti.
type MultiEdit struct {
	tool.Defaults
	files *filestate.State
}

// NewMulti returns the MultiEdit tool over the session's file state
// (required).
func NewMulti(files *filestate.State) *MultiEdit {
	if files == nil {
		panic("edit.NewMulti: nil filestate")
	}
	return &MultiEdit{files: files}
}

// Name implements tool.Tool.
func (*MultiEdit) Name() string { return MultiEditName }

// Description implements tool.Tool.
func (*MultiEdit) Description() string { return strings.TrimSpace(multiDescription) }

// InputSchema implements tool.Tool.
func (*MultiEdit) InputSchema() json.RawMessage { return multiSchema }

// EditSpec is one entry of MultiEdit's edits.
type EditSpec struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// MultiInput is MultiEdit's input.
type MultiInput struct {
	FilePath string     `json:"file_path"`
	Edits    []EditSpec `json:"edits"`
}

// MultiData is MultiEdit's structured result.
type MultiData struct {
	FilePath        string     `json:"filePath"`
	Edits           []EditSpec `json:"edits"`
	OriginalFile    string     `json:"originalFile"`
	StructuredPatch []Hunk     `json:"structuredPatch"`
	UserModified    bool       `json:"userModified"`
}

func parseMulti(raw json.RawMessage) (MultiInput, error) {
	var in MultiInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("multiedit input: %w", err)
	}
	return in, nil
}

// Validate implements tool.Tool. As Edit's, it also checks that the edits
// apply to the file as it is now, so one that cannot apply fails before
// anyone is asked to approve it.
func (t *MultiEdit) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	in, err := checkMulti(c, raw)
	if err != nil {
		return err
	}
	_, _, _, _, _, err = t.apply(in)
	return err
}

// checkMulti reads and checks the input itself, before the file is looked
// at.
func checkMulti(c *tool.Call, raw json.RawMessage) (MultiInput, error) {
	in, err := parseMulti(raw)
	if err != nil {
		return in, err
	}
	if err := fsutil.RequireAbs("file_path", in.FilePath, cwdOf(c)); err != nil {
		return in, err
	}
	if err := refuseNotebook("file_path", in.FilePath); err != nil {
		return in, err
	}
	if len(in.Edits) == 0 {
		return in, fmt.Errorf("edits is empty; give at least one edit")
	}
	for i, e := range in.Edits {
		if e.OldString == e.NewString {
			return in, fmt.Errorf("edits[%d]: old_string and new_string are identical; there is nothing to change", i)
		}
		if e.OldString == "" && i > 0 {
			return in, fmt.Errorf("edits[%d].old_string is empty; only the first edit may have an empty old_string (to create the file)", i)
		}
	}
	return in, nil
}

// apply works the edits out on the file as it is now, without writing
// it: the file, its text before and after, and the changed lines.
func (t *MultiEdit) apply(in MultiInput) (f *File, before, text string, first, last int, err error) {
	f, before, err = open(t.files, in.FilePath, in.Edits[0].OldString == "")
	if err != nil {
		return nil, "", "", 0, 0, err
	}
	text = before
	var inserted []string
	for i, e := range in.Edits {
		field := fmt.Sprintf("edits[%d].old_string", i)
		if e.OldString == "" {
			if text != "" {
				return nil, "", "", 0, 0, fmt.Errorf("%s is empty, but %s already has content; give the text to replace", field, in.FilePath)
			}
			text, first, last = e.NewString, 1, strings.Count(e.NewString, "\n")+1
			inserted = append(inserted, e.NewString)
			continue
		}
		for j, ins := range inserted {
			if strings.Contains(ins, e.OldString) {
				return nil, "", "", 0, 0, fmt.Errorf("%s is found in the new_string of edits[%d]; an edit may not change text an earlier edit inserted. Combine the two edits into one", field, j)
			}
		}
		ch, err := replace(text, e.OldString, e.NewString, e.ReplaceAll, field, in.FilePath)
		if err != nil {
			return nil, "", "", 0, 0, fmt.Errorf("%w. No edit was applied", err)
		}
		text = ch.text
		if first == 0 || ch.first < first {
			first = ch.first
		}
		last = max(last, ch.last)
		inserted = append(inserted, e.NewString)
	}
	return f, before, text, first, last, nil
}

// Call implements tool.Tool.
func (t *MultiEdit) Call(_ context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := checkMulti(c, raw)
	if err != nil {
		return nil, err
	}
	f, before, text, first, last, err := t.apply(in)
	if err != nil {
		return nil, err
	}
	if _, err := Write(t.files, f, text); err != nil {
		return nil, err
	}
	edits := fmt.Sprintf("%d edits", len(in.Edits))
	if len(in.Edits) == 1 {
		edits = "1 edit"
	}
	head := fmt.Sprintf("Applied %s to %s.", edits, in.FilePath)
	if !f.Exists {
		head = fmt.Sprintf("Created %s with %s.", in.FilePath, edits)
	}
	body := head
	if text != "" {
		body += " The changed lines, numbered as Read shows them:\n" + Snippet(text, first, max(first, last), snippetContext, snippetLines*2)
	}
	data := &MultiData{FilePath: in.FilePath, Edits: in.Edits, OriginalFile: before, StructuredPatch: StructuredPatch(before, text)}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(body)}, Data: data}, nil
}
