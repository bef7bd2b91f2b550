package notebook

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"reins/internal/filestate"
	"reins/internal/fsutil"
	"reins/internal/llm"
	"reins/internal/tool"
	"reins/internal/tools/edit"
)

// Name is the tool's name.
const Name = "NotebookEdit"

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Tool is the NotebookEdit tool. Construct it with New.
type Tool struct {
	tool.Defaults
	files *filestate.State
	// NewID makes ids for inserted cells; nil means 8 random hex digits.
	NewID func() string
}

// New returns the NotebookEdit tool, which checks and updates files, the
// session's file state (required).
func New(files *filestate.State) *Tool {
	if files == nil {
		panic("notebook.New: nil filestate")
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
	NotebookPath string `json:"notebook_path"`
	CellID       string `json:"cell_id,omitempty"`
	NewSource    string `json:"new_source"`
	CellType     string `json:"cell_type,omitempty"`
	EditMode     string `json:"edit_mode,omitempty"`
}

// Data is the structured result, with Claude Code's field names.
type Data struct {
	NewSource    string `json:"new_source"`
	CellID       string `json:"cell_id,omitempty"`
	CellType     string `json:"cell_type"`
	Language     string `json:"language"`
	EditMode     string `json:"edit_mode"`
	Error        string `json:"error,omitempty"`
	NotebookPath string `json:"notebook_path"`
	OriginalFile string `json:"original_file"`
	UpdatedFile  string `json:"updated_file"`
}

func parse(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("notebook edit input: %w", err)
	}
	if in.EditMode == "" {
		in.EditMode = "replace"
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
	if err := fsutil.RequireAbs("notebook_path", in.NotebookPath, cwd); err != nil {
		return err
	}
	if !strings.EqualFold(filepath.Ext(in.NotebookPath), ".ipynb") {
		return fmt.Errorf("notebook_path must be a Jupyter notebook (.ipynb), got %s; use Edit for other files", in.NotebookPath)
	}
	switch in.EditMode {
	case "replace", "delete":
		if in.CellID == "" {
			return fmt.Errorf("cell_id is required when edit_mode is %s", in.EditMode)
		}
	case "insert":
		if in.CellType == "" {
			return fmt.Errorf("cell_type is required when edit_mode is insert (code or markdown)")
		}
	default:
		return fmt.Errorf("edit_mode must be replace, insert or delete, got %q", in.EditMode)
	}
	if in.CellType != "" && in.CellType != "code" && in.CellType != "markdown" {
		return fmt.Errorf("cell_type must be code or markdown, got %q", in.CellType)
	}
	return nil
}

// notebookDoc is a parsed notebook.
type notebookDoc struct {
	top      object
	cells    []object
	style    style
	language string
	withIDs  bool // new cells get ids (nbformat 4.5 and later)
}

func parseNotebook(text, display string) (*notebookDoc, error) {
	top, err := decodeObject([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("%s is not valid notebook JSON: %v", display, err)
	}
	rawCells, ok := top.get("cells")
	if !ok {
		return nil, fmt.Errorf("%s has no cells array; it is not a Jupyter notebook", display)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(rawCells, &list); err != nil {
		return nil, fmt.Errorf("%s: cells is not an array: %v", display, err)
	}
	d := &notebookDoc{top: top, style: detectStyle(text), language: "python"}
	d.style.listSource = true
	for i, raw := range list {
		c, err := decodeObject(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: cell %d is not an object: %v", display, i, err)
		}
		if i == 0 {
			if src, ok := c.get("source"); ok {
				d.style.listSource = strings.HasPrefix(strings.TrimSpace(string(src)), "[")
			}
		}
		if _, ok := c.get("id"); ok {
			d.withIDs = true
		}
		d.cells = append(d.cells, c)
	}
	var meta struct {
		NBFormatMinor int `json:"nbformat_minor"`
		Metadata      struct {
			LanguageInfo struct {
				Name string `json:"name"`
			} `json:"language_info"`
		} `json:"metadata"`
	}
	if json.Unmarshal([]byte(text), &meta) == nil {
		if meta.Metadata.LanguageInfo.Name != "" {
			d.language = meta.Metadata.LanguageInfo.Name
		}
		d.withIDs = d.withIDs || meta.NBFormatMinor >= 5
	}
	return d, nil
}

// cellID is the name a cell is known by (see read.CellID).
func cellID(c object, i int) string {
	if raw, ok := c.get("id"); ok {
		var id string
		if json.Unmarshal(raw, &id) == nil && id != "" {
			return id
		}
	}
	return "cell-" + strconv.Itoa(i)
}

// find returns the index of the cell named id; len(cells) is allowed for
// "cell-N" one past the end (a replace there becomes an insert).
func (d *notebookDoc) find(id, display string) (int, error) {
	for i, c := range d.cells {
		if cellID(c, i) == id {
			return i, nil
		}
	}
	if n, ok := strings.CutPrefix(id, "cell-"); ok {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i <= len(d.cells) {
			return i, nil
		}
	}
	var names []string
	for i, c := range d.cells {
		names = append(names, cellID(c, i))
		if len(names) == 20 {
			names = append(names, "…")
			break
		}
	}
	if len(names) == 0 {
		return 0, fmt.Errorf("cell_id %q does not match any cell: %s has no cells (insert one with edit_mode insert)", id, display)
	}
	return 0, fmt.Errorf("cell_id %q does not match any cell in %s; its cells are: %s", id, display, strings.Join(names, ", "))
}

func (t *Tool) newID() string {
	if t.NewID != nil {
		return t.NewID()
	}
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Call implements tool.Tool.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	if err := t.Validate(ctx, c, raw); err != nil {
		return nil, err
	}
	in, _ := parse(raw)
	f, err := edit.Load("notebook_path", in.NotebookPath)
	if err != nil {
		return nil, err
	}
	if !f.Exists {
		return nil, fmt.Errorf("notebook_path %s does not exist", in.NotebookPath)
	}
	if err := edit.CheckFresh(t.files, f); err != nil {
		return nil, err
	}
	if err := f.Decode(); err != nil {
		return nil, err
	}
	doc, err := parseNotebook(f.Text, in.NotebookPath)
	if err != nil {
		return nil, err
	}
	msg, cellType, id, err := t.apply(doc, &in)
	if err != nil {
		return nil, err
	}
	updated, err := doc.render()
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", in.NotebookPath, err)
	}
	if _, err := edit.Write(t.files, f, string(updated)); err != nil {
		return nil, err
	}
	data := &Data{NewSource: in.NewSource, CellID: id, CellType: cellType, Language: doc.language, EditMode: in.EditMode,
		NotebookPath: in.NotebookPath, OriginalFile: f.Text, UpdatedFile: string(updated)}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(msg)}, Data: data}, nil
}

// apply makes the edit on doc and returns the message for the model, the
// cell's type and id.
func (t *Tool) apply(doc *notebookDoc, in *Input) (string, string, string, error) {
	display := in.NotebookPath
	idx := 0
	if in.CellID != "" {
		i, err := doc.find(in.CellID, display)
		if err != nil {
			return "", "", "", err
		}
		idx = i
	}
	atEnd := false
	if in.EditMode == "replace" && idx == len(doc.cells) {
		// "cell-N" just past the last cell: add a cell there.
		if in.CellType == "" {
			in.CellType = "code"
		}
		in.EditMode, atEnd = "insert", true
		idx--
	}
	switch in.EditMode {
	case "delete":
		typ := cellType(doc.cells[idx])
		doc.cells = slices.Delete(doc.cells, idx, idx+1)
		return fmt.Sprintf("Deleted cell %s from %s.", in.CellID, display), typ, in.CellID, nil
	case "insert":
		pos := 0
		if in.CellID != "" {
			pos = idx + 1
		}
		cell, id, err := t.newCell(doc, in.CellType, in.NewSource)
		if err != nil {
			return "", "", "", err
		}
		doc.cells = slices.Insert(doc.cells, pos, cell)
		if id == "" {
			id = "cell-" + strconv.Itoa(pos)
		}
		switch {
		case atEnd:
			return fmt.Sprintf("Inserted a new %s cell (%s) at the end of %s.", in.CellType, id, display), in.CellType, id, nil
		case in.CellID == "":
			return fmt.Sprintf("Inserted a new %s cell (%s) at the top of %s.", in.CellType, id, display), in.CellType, id, nil
		}
		return fmt.Sprintf("Inserted a new %s cell (%s) after cell %s in %s.", in.CellType, id, in.CellID, display), in.CellType, id, nil
	}
	cell := doc.cells[idx]
	typ := cellType(cell)
	if in.CellType != "" && in.CellType != typ {
		typ = in.CellType
		v, _ := doc.style.encode(typ)
		cell = cell.set("cell_type", v)
		if typ == "markdown" {
			cell = cell.del("outputs").del("execution_count")
		}
	}
	src, err := doc.style.sourceValue(in.NewSource, doc.sourceIsList(cell))
	if err != nil {
		return "", "", "", err
	}
	cell = cell.set("source", src)
	if typ == "code" {
		cell = cell.set("execution_count", json.RawMessage("null")).set("outputs", json.RawMessage("[]"))
	}
	doc.cells[idx] = cell
	return fmt.Sprintf("Updated cell %s of %s.", in.CellID, display), typ, in.CellID, nil
}

func cellType(c object) string {
	var s string
	if raw, ok := c.get("cell_type"); ok {
		json.Unmarshal(raw, &s)
	}
	return s
}

func (d *notebookDoc) sourceIsList(c object) bool {
	if raw, ok := c.get("source"); ok {
		return strings.HasPrefix(strings.TrimSpace(string(raw)), "[")
	}
	return d.style.listSource
}

// newCell builds a cell with nbformat's sorted keys.
func (t *Tool) newCell(doc *notebookDoc, typ, source string) (object, string, error) {
	src, err := doc.style.sourceValue(source, doc.style.listSource)
	if err != nil {
		return nil, "", err
	}
	tv, _ := doc.style.encode(typ)
	cell := object{{"cell_type", tv}}
	if typ == "code" {
		cell = append(cell, member{"execution_count", json.RawMessage("null")})
	}
	id := ""
	if doc.withIDs {
		id = t.newID()
		iv, _ := doc.style.encode(id)
		cell = append(cell, member{"id", iv})
	}
	cell = append(cell, member{"metadata", json.RawMessage("{}")})
	if typ == "code" {
		cell = append(cell, member{"outputs", json.RawMessage("[]")})
	}
	cell = append(cell, member{"source", src})
	return cell, id, nil
}

// render writes the notebook back in its own style.
func (d *notebookDoc) render() ([]byte, error) {
	var cells strings.Builder
	cells.WriteByte('[')
	for i, c := range d.cells {
		if i > 0 {
			cells.WriteByte(',')
		}
		b, err := c.compact()
		if err != nil {
			return nil, err
		}
		cells.Write(b)
	}
	cells.WriteByte(']')
	top := d.top.set("cells", json.RawMessage(cells.String()))
	compact, err := top.compact()
	if err != nil {
		return nil, err
	}
	return d.style.format(compact)
}
