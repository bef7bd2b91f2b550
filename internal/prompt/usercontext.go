package prompt

import (
	"strings"
)

// describe says what a memory file is, for the model.
func describe(f File) string {
	var d string
	switch f.Kind {
	case KindManaged:
		d = "managed instructions, set for this machine by an administrator"
	case KindUser:
		d = "the user's own instructions for all projects"
	case KindProject:
		d = "project instructions, shared with everyone working on the project"
	case KindLocal:
		d = "the user's own instructions for this project"
	case KindAdditional:
		d = "instructions from an additional working folder"
	default:
		d = string(f.Kind) + " instructions"
	}
	if len(f.Paths) > 0 {
		d += "; they apply to files matching " + strings.Join(f.Paths, ", ")
	}
	if f.ImportedBy != "" {
		d += "; imported by " + f.ImportedBy
	}
	return d
}

// writeFiles writes each file with a line naming its path and kind.
func writeFiles(b *strings.Builder, files []File) {
	for i, f := range files {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Contents of " + f.Path + " (" + describe(f) + "):\n\n")
		b.WriteString(f.Content)
	}
}

// UserContext renders the memory files loaded at start and the session
// date as the <system-reminder> text engine.Config.UserContext takes. It
// returns "" only when there are no files and no date.
func (m *Memory) UserContext(date string) string {
	var files []File
	if m != nil {
		files = m.Files()
	}
	return UserContext(files, date)
}

// UserContext renders memory files and the date as a <system-reminder>
// text; see Memory.UserContext.
func UserContext(files []File, date string) string {
	var nonEmpty []File
	for _, f := range files {
		if strings.TrimSpace(f.Content) != "" {
			nonEmpty = append(nonEmpty, f)
		}
	}
	if len(nonEmpty) == 0 && date == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\n")
	b.WriteString(mustText("memory-intro.md"))
	if len(nonEmpty) > 0 {
		b.WriteString("\n\n")
		b.WriteString(mustText("memory-files.md"))
		b.WriteString("\n\n")
		writeFiles(&b, nonEmpty)
	}
	if date != "" {
		b.WriteString("\n\n# Date\n\nToday's date is " + date + ".")
	}
	b.WriteString("\n</system-reminder>")
	return b.String()
}

// nestedReminder renders memory loaded by Touch.
func nestedReminder(path string, files []File) string {
	var b strings.Builder
	b.WriteString("<system-reminder>\n")
	b.WriteString(strings.Replace(mustText("memory-nested.md"), "{{path}}", path, 1))
	b.WriteString("\n\n")
	writeFiles(&b, files)
	b.WriteString("\n</system-reminder>")
	return b.String()
}
