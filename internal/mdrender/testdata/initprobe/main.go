// Command initprobe links mdrender and renders nothing; run with
// GODEBUG=inittrace=1 it shows what the package costs at start-up.
package main

import "reins/internal/mdrender"

func main() {
	if len(mdrender.Render("", mdrender.Options{})) != 0 {
		panic("empty input rendered text")
	}
}
