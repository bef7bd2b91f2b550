package tui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Pasting an image from the clipboard (Ctrl+V, Alt+V on Windows).
//
// A terminal pastes text only, so Claude Code reads the clipboard itself
// when Ctrl+V is pressed and inserts an "[Image #N]" placeholder for the
// image, which goes with the prompt. reins does the same with the
// platform's clipboard tools: wl-paste under Wayland, xclip under X11,
// osascript on macOS. Text in the clipboard is left to the terminal's own
// paste.

// clipboardTimeout bounds the clipboard tool.
const clipboardTimeout = 5 * time.Second

// errNoClipboardImage: the clipboard holds no image, or no tool could
// read it.
var errNoClipboardImage = errors.New("no image found in the clipboard")

// clipboardImageMsg carries the image read from the clipboard.
type clipboardImageMsg struct {
	img pastedImage
	err error
}

// readClipboardImage reads an image from the clipboard in the
// background.
func (m *Model) readClipboardImage() tea.Cmd {
	ctx, getenv := m.ctx, m.o.Getenv
	return func() tea.Msg {
		img, err := clipboardImage(ctx, runtime.GOOS, getenv)
		return clipboardImageMsg{img: img, err: err}
	}
}

// onClipboardImage puts the image read into the input.
func (m *Model) onClipboardImage(msg clipboardImageMsg) {
	if msg.err != nil {
		m.setHint(clipboardHint(msg.err), 4*time.Second)
		return
	}
	if m.dialog != nil || m.transcript != nil || m.ed.search != nil {
		return // the input is not on screen any more
	}
	m.ed.pushUndo(editState{string(m.ed.buf), m.ed.pos})
	m.ed.typing, m.ed.yank = false, nil
	m.ed.pasteImages([]pastedImage{msg.img})
	m.comp = nil
}

// clipboardHint says why no image was pasted.
func clipboardHint(err error) string {
	if errors.Is(err, errNoClipboardImage) {
		return "No image found in the clipboard (copy a screenshot or an image first)"
	}
	return "Could not paste the image: " + err.Error()
}

// clipboardImage reads a PNG, JPEG, GIF or WebP image from the clipboard
// of the platform goos.
func clipboardImage(ctx context.Context, goos string, getenv func(string) string) (pastedImage, error) {
	ctx, cancel := context.WithTimeout(ctx, clipboardTimeout)
	defer cancel()
	var data []byte
	switch goos {
	case "darwin":
		d, err := macClipboardImage(ctx)
		if err != nil {
			return pastedImage{}, err
		}
		data = d
	default:
		var tries [][]string
		if getenv("WAYLAND_DISPLAY") != "" {
			tries = append(tries, []string{"wl-paste", "--no-newline", "--type", "image/png"})
		}
		tries = append(tries, []string{"xclip", "-selection", "clipboard", "-target", "image/png", "-out"})
		for _, argv := range tries {
			if _, err := exec.LookPath(argv[0]); err != nil {
				continue
			}
			out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
			if err == nil && len(out) > 0 {
				data = out
				break
			}
		}
	}
	if len(data) == 0 {
		return pastedImage{}, errNoClipboardImage
	}
	if len(data) > maxPastedImage {
		return pastedImage{}, fmt.Errorf("the image in the clipboard is %d KB; at most %d KB can be attached", len(data)>>10, maxPastedImage>>10)
	}
	media := http.DetectContentType(data)
	switch media {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return pastedImage{}, errNoClipboardImage
	}
	return pastedImage{media: media, data: data}, nil
}

// macClipboardImage has osascript write the clipboard's PNG to a
// temporary file and reads it.
func macClipboardImage(ctx context.Context) ([]byte, error) {
	dir, err := os.MkdirTemp("", "reins-clipboard-")
	if err != nil {
		return nil, fmt.Errorf("clipboard image: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "clipboard.png")
	script := []string{
		"-e", "set png to (the clipboard as «class PNGf»)",
		"-e", `set f to open for access POSIX file "` + path + `" with write permission`,
		"-e", "write png to f",
		"-e", "close access f",
	}
	if exec.CommandContext(ctx, "osascript", script...).Run() != nil {
		return nil, errNoClipboardImage
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errNoClipboardImage
	}
	return data, nil
}
