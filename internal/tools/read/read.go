package read

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"reins/internal/filestate"
	"reins/internal/fsutil"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "Read"

// Limits.
const (
	DefaultLines  = 2000      // lines shown when no limit is given
	MaxLineChars  = 2000      // characters kept of a longer line
	MaxWholeBytes = 256 << 10 // largest file read without offset or limit
	MaxTokens     = 25_000    // largest result, estimated at 4 characters a token
	MaxPDFPages   = 20        // pages per call
	PDFPagesFree  = 10        // PDFs up to this many pages may omit pages
	// MaxImageBytes is the largest image sent as is; larger ones are
	// scaled down (the API takes at most 5 MB of base64).
	MaxImageBytes = 3_750_000
	// MaxImageSide is the most pixels an image sent may have on a side;
	// larger ones are scaled down, as Claude Code does (the API refuses
	// images over 8000 pixels, and over 2000 in requests with many).
	MaxImageSide = 2000
)

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Tool is the Read tool. Construct it with New; it is safe for concurrent
// use.
type Tool struct {
	tool.Defaults
	files *filestate.State
	// LookPath finds external programs (pdftotext); nil means
	// exec.LookPath. Tests replace it.
	LookPath func(name string) (string, error)

	maxImageBytes int   // MaxImageBytes; smaller in tests
	streamAbove   int64 // size past which ranged reads stream

	// desc is the description, decided at its first use: a session's
	// tools stay byte-identical from request to request (the prompt
	// cache), even if pdftotext is installed meanwhile.
	desc func() string
}

// New returns the Read tool recording reads into files, the session's
// file state (required).
func New(files *filestate.State) *Tool {
	if files == nil {
		panic("read.New: nil filestate")
	}
	t := &Tool{files: files, maxImageBytes: MaxImageBytes, streamAbove: 32 << 20}
	t.desc = sync.OnceValue(t.describe)
	return t
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool.
// The PDF line is there only when pdftotext is installed: a model told
// it can read PDFs would otherwise try, and fail, on each one.
func (t *Tool) Description() string { return t.desc() }

func (t *Tool) describe() string {
	d := strings.TrimSpace(description)
	if _, err := t.lookPath("pdftotext"); err != nil {
		var kept []string
		for _, l := range strings.Split(d, "\n") {
			if !strings.HasPrefix(l, "- PDF files") {
				kept = append(kept, l)
			}
		}
		d = strings.Join(kept, "\n")
	}
	return d
}

// InputSchema implements tool.Tool.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly implements tool.Tool.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe implements tool.Tool.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// MaxResultChars implements tool.Tool: Read limits itself, and its results
// are never written to disk (the model would only Read them again).
func (*Tool) MaxResultChars() int { return tool.NoLimit }

// Input is the tool's input.
type Input struct {
	FilePath string `json:"file_path"`
	Offset   *int   `json:"offset,omitempty"`
	Limit    *int   `json:"limit,omitempty"`
	Pages    string `json:"pages,omitempty"`
}

// TextFile is the file part of a text result, with Claude Code's names.
type TextFile struct {
	FilePath   string `json:"filePath"`
	Content    string `json:"content"`
	NumLines   int    `json:"numLines"`
	StartLine  int    `json:"startLine"`
	TotalLines int    `json:"totalLines"`
}

// TextData is the structured result of a text read ({type:"text"}).
type TextData struct {
	Type string   `json:"type"`
	File TextFile `json:"file"`
}

func parseInput(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("read input: %w", err)
	}
	return in, nil
}

// Validate implements tool.Tool: the path must be absolute and the range
// sensible; whether the file exists is checked when it is read.
func (*Tool) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	in, err := parseInput(raw)
	if err != nil {
		return err
	}
	return validate(in, c)
}

func validate(in Input, c *tool.Call) error {
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	if err := fsutil.RequireAbs("file_path", in.FilePath, cwd); err != nil {
		return err
	}
	if in.Offset != nil && *in.Offset < 0 {
		return fmt.Errorf("offset must be 0 or more (the first line is 1), got %d", *in.Offset)
	}
	if in.Limit != nil && *in.Limit <= 0 {
		return fmt.Errorf("limit must be at least 1, got %d", *in.Limit)
	}
	if in.Pages != "" {
		if !isPDF(in.FilePath) {
			return fmt.Errorf("pages applies only to PDF files; %s is not a PDF (use offset and limit for text)", in.FilePath)
		}
		if _, _, err := parsePages(in.Pages); err != nil {
			return err
		}
	}
	return nil
}

// Call implements tool.Tool.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := parseInput(raw)
	if err != nil {
		return nil, err
	}
	if err := validate(in, c); err != nil {
		return nil, err
	}
	real, info, err := fsutil.StatFile("file_path", in.FilePath)
	if err != nil {
		if errors.Is(err, errNotExist) {
			return nil, fmt.Errorf("%w%s", err, suggest(in.FilePath))
		}
		return nil, err
	}
	if imageType(real) != "" || isPDF(real) {
		if err := lfsPointer(in.FilePath, real, info); err != nil {
			return nil, err
		}
	}
	switch {
	case imageType(real) != "":
		return t.readImage(in, real, info)
	case isPDF(real):
		return t.readPDF(ctx, in, real, info)
	case strings.EqualFold(filepath.Ext(real), ".ipynb"):
		return t.readNotebook(in, real, info)
	}
	return t.readText(in, real, info)
}

// lfsPrefix starts a Git LFS pointer file, which a repository holds in
// place of a large file until "git lfs pull" fetches it.
const lfsPrefix = "version https://git-lfs.github.com/spec/"

// lfsPointer returns an error when an image or PDF file is a Git LFS
// pointer: a few lines of text that name the file, not the file.
func lfsPointer(display, real string, info fs.FileInfo) error {
	if info.Size() > 1024 {
		return nil
	}
	b, err := os.ReadFile(real)
	if err != nil || !bytes.HasPrefix(b, []byte(lfsPrefix)) {
		return nil
	}
	return fmt.Errorf("%s is a Git LFS pointer, not the file itself: the repository has not fetched its content. `git lfs pull` (through Bash, if git-lfs is installed) fetches it", display)
}
