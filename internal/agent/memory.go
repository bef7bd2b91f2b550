package agent

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Memory scopes of an agent's persistent memory folder (the "memory"
// field), laid out as Claude Code lays them out so that memories written
// by either carry over.
const (
	// MemoryUser keeps the notes in the user's config folder
	// (~/.claude/agent-memory/<agent>), for every project.
	MemoryUser = "user"
	// MemoryProject keeps them in the project (.claude/agent-memory/<agent>),
	// to be committed and shared.
	MemoryProject = "project"
	// MemoryLocal keeps them in the project but out of version control
	// (.claude/agent-memory-local/<agent>).
	MemoryLocal = "local"
)

// MemoryFile is the memory folder's index, the part loaded at each start.
const MemoryFile = "MEMORY.md"

// Bounds of what of MemoryFile goes into the agent's system prompt: its
// first MemoryMaxLines lines, and no more than MemoryMaxBytes.
const (
	MemoryMaxLines = 200
	MemoryMaxBytes = 25 << 10
)

// parseMemory checks a memory scope; "none" and "" mean no memory.
func parseMemory(v string) (string, error) {
	switch v = strings.ToLower(strings.TrimSpace(v)); v {
	case "", "none":
		return "", nil
	case MemoryUser, MemoryProject, MemoryLocal:
		return v, nil
	}
	return "", fmt.Errorf("%q is not one of %s, %s, %s", v, MemoryUser, MemoryProject, MemoryLocal)
}

// MemoryDir is the folder of d's persistent memory, or "" when d has
// none. claudeDir is the user's Claude config folder (~/.claude, or
// CLAUDE_CONFIG_DIR); projectDir is the project's root.
func (d *Definition) MemoryDir(claudeDir, projectDir string) string {
	name := memoryFolderName(d.Name)
	switch d.Memory {
	case MemoryUser:
		if claudeDir != "" {
			return filepath.Join(claudeDir, "agent-memory", name)
		}
	case MemoryProject:
		if projectDir != "" {
			return filepath.Join(projectDir, ".claude", "agent-memory", name)
		}
	case MemoryLocal:
		if projectDir != "" {
			return filepath.Join(projectDir, ".claude", "agent-memory-local", name)
		}
	}
	return ""
}

// memoryFolderName makes an agent name safe as one path element: a
// plugin's "plugin:agent" becomes "plugin-agent", and separators or dots
// cannot lead out of the memory root.
func memoryFolderName(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		s = "agent"
	}
	return s
}

// MemoryPrompt prepares d's memory folder dir (creating it) and returns
// the part of the agent's system prompt that describes it: where it is,
// how to keep it, and the start of its MemoryFile. An error means the
// folder could not be made; the agent then runs without memory.
func MemoryPrompt(d *Definition, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("agent %s: memory folder: %w", d.Name, err)
	}
	index := filepath.Join(dir, MemoryFile)
	notes, cut, err := readMemoryIndex(index)
	if err != nil {
		return "", fmt.Errorf("agent %s: read %s: %w", d.Name, index, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Your persistent memory\n\nYou have a memory folder that outlives this run: %s (scope: %s). ", dir, d.Memory)
	b.WriteString("Whatever you write there is available the next time you are started, in any session")
	if d.Memory == MemoryUser {
		b.WriteString(" and any project")
	}
	b.WriteString(". You may read, create and edit files in it without asking.\n\n")
	fmt.Fprintf(&b, "- %s is the index: its first %d lines are loaded into this prompt at every start, so keep it short — one line per note or topic, pointing to a topic file (for example debugging.md) for the details.\n", MemoryFile, MemoryMaxLines)
	b.WriteString("- Before you begin, consider what your notes already say about this task. Before you finish, record what you learned that would help next time: conventions, recurring problems and their fixes, decisions and why. Update or remove notes that turned out wrong rather than adding contradicting ones.\n")
	b.WriteString("- Do not store secrets, credentials or anything copied verbatim from the user's private files.\n\n")
	if strings.TrimSpace(notes) == "" {
		fmt.Fprintf(&b, "%s is empty so far.", MemoryFile)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "Contents of %s:\n\n%s", index, strings.TrimRight(notes, "\n"))
	if cut {
		fmt.Fprintf(&b, "\n\n(%s goes on beyond this; only its start is loaded. Move details into topic files to keep the index within %d lines.)", MemoryFile, MemoryMaxLines)
	}
	return b.String(), nil
}

// readMemoryIndex reads the loaded part of a memory index: its first
// MemoryMaxLines lines within MemoryMaxBytes, cut at a line end. cut
// reports that the file has more. A missing file reads as empty.
func readMemoryIndex(path string) (text string, cut bool, err error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	buf := make([]byte, MemoryMaxBytes+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", false, err
	}
	data := buf[:n]
	if n > MemoryMaxBytes {
		cut = true
		data = data[:MemoryMaxBytes]
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	lines := 0
	for i, c := range data {
		if c != '\n' {
			continue
		}
		if lines++; lines == MemoryMaxLines {
			if i+1 < len(data) {
				cut = true
			}
			data = data[:i+1]
			break
		}
	}
	return string(bytes.ToValidUTF8(data, []byte("\uFFFD"))), cut, nil
}
