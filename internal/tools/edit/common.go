package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"reins/internal/filestate"
	"reins/internal/fsutil"
)

// Hunk is one hunk of a structured patch, with Claude Code's field
// names. Lines start with " " (context), "-" (removed) or "+" (added) and
// carry no line ending.
type Hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// StructuredPatch returns the hunks that turn oldText into newText, with
// three lines of context.
func StructuredPatch(oldText, newText string) []Hunk {
	edits := udiff.Lines(oldText, newText)
	u, err := udiff.ToUnifiedDiff("a", "b", oldText, edits, 3)
	if err != nil {
		return nil
	}
	hunks := make([]Hunk, 0, len(u.Hunks))
	for _, h := range u.Hunks {
		out := Hunk{OldStart: h.FromLine, NewStart: h.ToLine}
		for _, l := range h.Lines {
			content := strings.TrimSuffix(strings.TrimSuffix(l.Content, "\n"), "\r")
			switch l.Kind {
			case udiff.Delete:
				out.OldLines++
				out.Lines = append(out.Lines, "-"+content)
			case udiff.Insert:
				out.NewLines++
				out.Lines = append(out.Lines, "+"+content)
			default:
				out.OldLines++
				out.NewLines++
				out.Lines = append(out.Lines, " "+content)
			}
		}
		hunks = append(hunks, out)
	}
	return hunks
}

// refuseNotebook rejects a Jupyter notebook: its cells live in JSON
// strings (escaped newlines and quotes), so a text replacement either
// misses or breaks the file; NotebookEdit changes cells by id.
func refuseNotebook(field, path string) error {
	if strings.EqualFold(filepath.Ext(path), ".ipynb") {
		return fmt.Errorf("%s %s is a Jupyter notebook; change its cells with the NotebookEdit tool (by cell_id) instead", field, path)
	}
	return nil
}

// File is a text file loaded for changing.
type File struct {
	Path    string // resolved path
	Exists  bool
	Info    fs.FileInfo
	Raw     []byte
	Text    string // decoded, \n line endings when the file is all CRLF
	Format  fsutil.Format
	Display string // the path as the model gave it
}

// Load resolves display (an absolute path from the field named field),
// and reads the file if it exists. A missing file is not an error
// (File.Exists is false); a folder, a special file or an unreadable file
// is.
func Load(field, display string) (*File, error) {
	real, err := fsutil.Resolve(display)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", field, display, err)
	}
	f := &File{Path: real, Display: display}
	info, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		_, _, serr := fsutil.StatFile(field, display)
		if serr == nil {
			serr = err
		}
		return nil, serr
	case info.IsDir():
		return nil, fmt.Errorf("%s %s is a directory, not a file", field, display)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s %s is not a regular file (%s)", field, display, info.Mode().Type())
	}
	raw, err := os.ReadFile(real)
	if err != nil {
		_, _, serr := fsutil.StatFile(field, display)
		if serr == nil {
			serr = fmt.Errorf("%s %s: %w", field, display, err)
		}
		return nil, serr
	}
	f.Exists, f.Info, f.Raw = true, info, raw
	return f, nil
}

// Decode fills Text and Format; binary content is an error.
func (f *File) Decode() error {
	if fsutil.IsBinary(f.Raw) {
		return fmt.Errorf("%s is a binary file; it cannot be edited as text", f.Display)
	}
	text, format, err := fsutil.DecodeText(f.Raw)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Display, err)
	}
	f.Text, f.Format = text, format
	return nil
}

// CheckFresh applies the read-before-write rule to an existing file: it
// must have been read in this session and be unchanged on disk since.
// The error tells the model what to do.
func CheckFresh(files *filestate.State, f *File) error {
	err := files.Check(f.Path, f.Info, f.Raw)
	var mod *filestate.ModifiedError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, filestate.ErrNotRead):
		if fsutil.IsBinary(f.Raw) {
			return fmt.Errorf("%s is a binary file that has not been read in this session; it cannot be changed with this tool (remove it with Bash first if you mean to replace it)", f.Display)
		}
		return fmt.Errorf("%s has not been read in this session. Read it first (with the Read tool), then make the change", f.Display)
	case errors.As(err, &mod):
		return fmt.Errorf("%s has changed on disk since you last read it (by the user, a formatter or another program). Read it again to see its current content, then make the change", f.Display)
	}
	return err
}

// Write replaces the file with text in its own format (new files get
// UTF-8 and the text's own line endings, and their missing parent
// folders are created), atomically and keeping the mode, and records the
// result in files.
func Write(files *filestate.State, f *File, text string) ([]byte, error) {
	var data []byte
	if f.Exists {
		if f.Format.LineEnding == fsutil.CRLF {
			text = fsutil.NormalizeNewlines(text)
		}
		data = fsutil.EncodeText(text, f.Format)
	} else {
		data = []byte(text)
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return nil, fmt.Errorf("create the folder for %s: %w", f.Display, err)
		}
	}
	if err := fsutil.WriteFile(f.Path, data, 0o644); err != nil {
		return nil, err
	}
	if info, err := os.Stat(f.Path); err == nil {
		files.Record(filestate.EntryFor(f.Path, data, info))
	}
	return data, nil
}

// Snippet returns lines first..last (1-based) of text with context lines
// around them, numbered as Read numbers them; at most maxLines lines.
func Snippet(text string, first, last, context, maxLines int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	from := max(1, first-context)
	to := min(len(lines), last+context)
	cut := false
	if to-from+1 > maxLines {
		to, cut = from+maxLines-1, true
	}
	var sb strings.Builder
	for n := from; n <= to; n++ {
		s := strconv.Itoa(n)
		sb.WriteString(strings.Repeat(" ", max(0, 6-len(s))))
		sb.WriteString(s)
		sb.WriteByte('\t')
		sb.WriteString(strings.TrimSuffix(lines[n-1], "\r"))
		if n < to {
			sb.WriteByte('\n')
		}
	}
	if cut {
		fmt.Fprintf(&sb, "\n… (%d more changed lines not shown)", last+context-to)
	}
	return sb.String()
}

// lineOf returns the 1-based line of byte offset off in text.
func lineOf(text string, off int) int { return strings.Count(text[:off], "\n") + 1 }
