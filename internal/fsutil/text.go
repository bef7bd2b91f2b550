package fsutil

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding is a text file's character encoding.
type Encoding uint8

// Encodings recognised by DecodeText. UTF-16 is recognised only by its
// byte-order mark.
const (
	UTF8    Encoding = iota // UTF-8 (or anything else) without a mark
	UTF8BOM                 // UTF-8 with a byte-order mark
	UTF16LE                 // UTF-16 little-endian with a mark
	UTF16BE                 // UTF-16 big-endian with a mark
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF8BOM:
		return "utf-8-bom"
	case UTF16LE:
		return "utf-16le"
	case UTF16BE:
		return "utf-16be"
	}
	return fmt.Sprintf("Encoding(%d)", e)
}

// LineEnding is how a text file ends its lines.
type LineEnding uint8

// Line endings. A file with mixed endings is LF: its text keeps the \r
// characters as they are.
const (
	LF   LineEnding = iota // \n
	CRLF                   // \r\n on every line
)

func (l LineEnding) String() string {
	if l == CRLF {
		return "crlf"
	}
	return "lf"
}

// Format is what DecodeText found and EncodeText restores.
type Format struct {
	Encoding   Encoding
	LineEnding LineEnding
}

// Byte-order marks.
const (
	bomUTF8    = "\xEF\xBB\xBF"
	bomUTF16LE = "\xFF\xFE"
	bomUTF16BE = "\xFE\xFF"
)

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// DetectFormat reports the encoding and line ending of b.
func DetectFormat(b []byte) Format {
	var f Format
	switch {
	case hasPrefix(b, bomUTF8):
		f.Encoding = UTF8BOM
	case hasPrefix(b, bomUTF16LE):
		f.Encoding = UTF16LE
	case hasPrefix(b, bomUTF16BE):
		f.Encoding = UTF16BE
	}
	return f
}

// DecodeText turns file bytes into text: the byte-order mark is removed,
// UTF-16 is decoded, and when every line ends with \r\n the text gets \n
// endings (Format.LineEnding = CRLF). Bytes that are not valid UTF-8 in
// an unmarked file are kept as they are, so EncodeText gives them back.
func DecodeText(b []byte) (string, Format, error) {
	f := DetectFormat(b)
	var s string
	switch f.Encoding {
	case UTF8:
		s = string(b)
	case UTF8BOM:
		s = string(b[len(bomUTF8):])
	case UTF16LE, UTF16BE:
		body := b[2:]
		if len(body)%2 != 0 {
			return "", f, fmt.Errorf("decode %s text: odd number of bytes (%d)", f.Encoding, len(b))
		}
		units := make([]uint16, len(body)/2)
		for i := range units {
			if f.Encoding == UTF16LE {
				units[i] = binary.LittleEndian.Uint16(body[2*i:])
			} else {
				units[i] = binary.BigEndian.Uint16(body[2*i:])
			}
		}
		s = string(utf16.Decode(units))
	}
	if allCRLF(s) {
		f.LineEnding = CRLF
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s, f, nil
}

// allCRLF reports whether s has line breaks and every one is \r\n.
func allCRLF(s string) bool {
	n := strings.Count(s, "\n")
	return n > 0 && strings.Count(s, "\r\n") == n
}

// EncodeText turns text back into file bytes in format f: every \n
// becomes \r\n for CRLF files, and the encoding and byte-order mark are
// restored. EncodeText(DecodeText(b)) == b for every b DecodeText
// accepts; text from elsewhere should have its \r\n turned into \n
// (NormalizeNewlines) before it is encoded as CRLF.
func EncodeText(s string, f Format) []byte {
	if f.LineEnding == CRLF {
		s = toCRLF(s)
	}
	switch f.Encoding {
	case UTF8BOM:
		return append(append([]byte{}, bomUTF8...), s...)
	case UTF16LE, UTF16BE:
		units := utf16.Encode([]rune(validUTF8(s)))
		out := make([]byte, 2+2*len(units))
		if f.Encoding == UTF16LE {
			copy(out, bomUTF16LE)
		} else {
			copy(out, bomUTF16BE)
		}
		for i, u := range units {
			if f.Encoding == UTF16LE {
				binary.LittleEndian.PutUint16(out[2+2*i:], u)
			} else {
				binary.BigEndian.PutUint16(out[2+2*i:], u)
			}
		}
		return out
	}
	return []byte(s)
}

func toCRLF(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			sb.WriteByte('\r')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// NormalizeNewlines turns \r\n into \n.
func NormalizeNewlines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
