package read

import (
	"bytes"
	"image"
)

// ShrinkImage scales a PNG, JPEG or GIF image down and re-encodes it as
// JPEG until it fits limit bytes, as Read does for large image files. It
// is for other sources of images sent to the model (MCP tool results).
func ShrinkImage(b []byte, limit int) ([]byte, error) {
	small, _, _, _, err := shrink(b, "", limit)
	return small, err
}

// FitImage returns b as it is when it fits limit bytes and MaxImageSide
// pixels a side, and otherwise scaled down as Read scales image files (a
// PNG stays a PNG when that fits), with its media type. An image whose
// pixels cannot be read (WebP) is scaled only for its bytes, and fails
// when it is over limit. It is for other sources of images sent to the
// model (MCP tool results).
func FitImage(b []byte, media string, limit int) ([]byte, string, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	wide := err == nil && max(cfg.Width, cfg.Height) > MaxImageSide
	if len(b) <= limit && !wide {
		return b, media, nil
	}
	small, smallMedia, _, _, err := shrink(b, media, limit)
	if err != nil {
		return nil, "", err
	}
	return small, smallMedia, nil
}
