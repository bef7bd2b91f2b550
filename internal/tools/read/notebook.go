package read

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"sync"

	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/tool"
)

// maxOutputChars caps the text shown of one cell output.
const maxOutputChars = 10_000

// NotebookData is the structured result of a notebook read
// ({type:"notebook"}).
type NotebookData struct {
	Type string       `json:"type"`
	File NotebookFile `json:"file"`
}

// NotebookFile holds a notebook's cells.
type NotebookFile struct {
	FilePath string         `json:"filePath"`
	Cells    []NotebookCell `json:"cells"`
}

// NotebookCell is one cell as shown.
type NotebookCell struct {
	CellID         string           `json:"cell_id"`
	CellType       string           `json:"cellType"`
	Source         string           `json:"source"`
	Language       string           `json:"language,omitempty"`
	ExecutionCount *int             `json:"execution_count,omitempty"`
	Outputs        []NotebookOutput `json:"outputs,omitempty"`
}

// NotebookOutput is one cell output as shown.
type NotebookOutput struct {
	OutputType string `json:"output_type"`
	Text       string `json:"text,omitempty"`
	Image      string `json:"image,omitempty"` // media type of an image output
}

// multiline is nbformat's text: a string or a list of strings.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("want a string or a list of strings: %w", err)
	}
	*m = multiline(strings.Join(list, ""))
	return nil
}

type nbFile struct {
	Cells    []nbCell `json:"cells"`
	Metadata struct {
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
}

type nbCell struct {
	CellType       string     `json:"cell_type"`
	ID             string     `json:"id"`
	Source         multiline  `json:"source"`
	ExecutionCount *int       `json:"execution_count"`
	Outputs        []nbOutput `json:"outputs"`
}

type nbOutput struct {
	OutputType string                     `json:"output_type"`
	Text       multiline                  `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	Ename      string                     `json:"ename"`
	Evalue     string                     `json:"evalue"`
	Traceback  []string                   `json:"traceback"`
}

var ansiEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`) })

// CellID returns the id a notebook cell is known by: its own id, or
// "cell-N" (N counting from 0) for notebooks without cell ids.
func CellID(id string, index int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("cell-%d", index)
}

func (t *Tool) readNotebook(in Input, real string, info fs.FileInfo) (*tool.Result, error) {
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.FilePath, err)
	}
	var nb nbFile
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s is not a valid Jupyter notebook (JSON error: %v); read it with offset and limit to see the raw text", in.FilePath, err)
	}
	lang := nb.Metadata.LanguageInfo.Name
	if lang == "" {
		lang = "python"
	}
	data := &NotebookData{Type: "notebook", File: NotebookFile{FilePath: in.FilePath}}
	var blocks []llm.ContentBlock
	var sb strings.Builder
	flush := func() {
		if sb.Len() > 0 {
			blocks = append(blocks, llm.TextBlock(strings.TrimRight(sb.String(), "\n")))
			sb.Reset()
		}
	}
	for i, c := range nb.Cells {
		id := CellID(c.ID, i)
		cell := NotebookCell{CellID: id, CellType: c.CellType, Source: string(c.Source), ExecutionCount: c.ExecutionCount}
		if c.CellType == "code" {
			cell.Language = lang
		}
		fmt.Fprintf(&sb, "<cell id=%q cell_type=%q>\n%s\n</cell>\n", id, c.CellType, strings.TrimRight(string(c.Source), "\n"))
		for _, o := range c.Outputs {
			out, img, imgType := renderOutput(o)
			cell.Outputs = append(cell.Outputs, NotebookOutput{OutputType: o.OutputType, Text: out, Image: imgType})
			if out != "" {
				fmt.Fprintf(&sb, "<output cell=%q type=%q>\n%s\n</output>\n", id, o.OutputType, strings.TrimRight(out, "\n"))
			}
			if img != "" {
				if img, imgType, err = fitImage(img, imgType, t.maxImageBytes); err != nil {
					fmt.Fprintf(&sb, "<output cell=%q type=%q>\n[%v; not shown]\n</output>\n", id, o.OutputType, err)
					continue
				}
				flush()
				blocks = append(blocks, llm.ContentBlock{Type: llm.BlockImage, Source: &llm.Source{Type: "base64", MediaType: imgType, Data: img}})
			}
		}
		data.File.Cells = append(data.File.Cells, cell)
	}
	if len(nb.Cells) == 0 {
		sb.WriteString("The notebook has no cells.")
	}
	flush()
	size := 0
	for _, bl := range blocks {
		size += len(bl.Text)
	}
	if size/4 > MaxTokens {
		return nil, fmt.Errorf("the notebook %s is about %d tokens, more than the %d allowed in one read. Look at parts of it with Bash and jq, e.g. jq '.cells[0:5]' %s",
			in.FilePath, size/4, MaxTokens, shellQuote(in.FilePath))
	}
	t.files.Record(filestate.EntryFor(real, b, info))
	return &tool.Result{Content: blocks, Data: data}, nil
}

// renderOutput returns an output's text and, for an image output, its
// base64 data and media type.
func renderOutput(o nbOutput) (text, img, imgType string) {
	switch o.OutputType {
	case "stream":
		text = string(o.Text)
	case "error":
		tb := ansiEscape().ReplaceAllString(strings.Join(o.Traceback, "\n"), "")
		text = fmt.Sprintf("%s: %s\n%s", o.Ename, o.Evalue, tb)
	case "execute_result", "display_data":
		for _, mt := range []string{"image/png", "image/jpeg"} {
			if raw, ok := o.Data[mt]; ok {
				var m multiline
				if json.Unmarshal(raw, &m) == nil {
					img, imgType = strings.ReplaceAll(string(m), "\n", ""), mt
					break
				}
			}
		}
		if raw, ok := o.Data["text/plain"]; ok {
			var m multiline
			if json.Unmarshal(raw, &m) == nil {
				text = string(m)
			}
		}
	}
	if len(text) > maxOutputChars {
		text = text[:maxOutputChars] + fmt.Sprintf("\n… [output cut at %d characters]", maxOutputChars)
	}
	return strings.ToValidUTF8(text, "\uFFFD"), img, imgType
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
