package fsutil

import (
	"bytes"
	"path/filepath"
	"strings"
)

// sniffLen is how much of a file IsBinary looks at.
const sniffLen = 8000

// IsBinary reports whether b, the start of a file, looks like binary data
// rather than text: it holds a NUL byte (unless it starts with a UTF-16
// byte-order mark), or more than a tenth of its bytes are control
// characters that text does not use.
func IsBinary(b []byte) bool {
	if len(b) > sniffLen {
		b = b[:sniffLen]
	}
	if len(b) == 0 {
		return false
	}
	if hasPrefix(b, bomUTF16LE) || hasPrefix(b, bomUTF16BE) {
		return false
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	odd := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1b {
			odd++
		}
	}
	return odd*10 > len(b)
}

// BinaryExtension reports whether the file name's extension is one of a
// binary format (archives, executables, media, office documents, compiled
// code). Images and PDF are included; callers that can show them check
// for them first.
func BinaryExtension(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".obj", ".bin", ".class", ".jar",
		".war", ".pyc", ".pyo", ".wasm", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z",
		".rar", ".tar", ".iso", ".dmg", ".deb", ".rpm", ".png", ".jpg", ".jpeg", ".gif",
		".webp", ".bmp", ".ico", ".tif", ".tiff", ".mp3", ".mp4", ".m4a", ".wav", ".flac",
		".ogg", ".avi", ".mov", ".mkv", ".webm", ".pdf", ".doc", ".docx", ".xls", ".xlsx",
		".ppt", ".pptx", ".odt", ".ods", ".sqlite", ".db", ".ttf", ".otf", ".woff", ".woff2",
		".psd", ".pdb", ".node":
		return true
	}
	return false
}
