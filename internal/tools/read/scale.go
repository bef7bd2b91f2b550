package read

// ShrinkImage scales a PNG, JPEG or GIF image down and re-encodes it as
// JPEG until it fits limit bytes, as Read does for large image files. It
// is for other sources of images sent to the model (MCP tool results).
func ShrinkImage(b []byte, limit int) ([]byte, error) {
	small, _, _, _, err := shrink(b, "", limit)
	return small, err
}
