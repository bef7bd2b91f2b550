package mdrender

import "strings"

// minColumn is the narrowest column a boxed table uses; a table whose
// columns would be narrower is shown as records ("Header: value").
const minColumn = 8

// cell is a table cell's styled text with its widths on one line and of
// its longest word.
type cell struct {
	ps        []piece
	nat, word int
}

func (r *renderer) table(b *block) {
	ncol := len(b.aligns)
	rows := make([][]cell, len(b.rows))
	nat := make([]int, ncol)
	word := make([]int, ncol)
	for i, row := range b.rows {
		rows[i] = make([]cell, ncol)
		sgr := r.base
		if i == 0 {
			sgr = join(sgr, r.th.TableHeader)
		}
		for j := 0; j < ncol; j++ {
			if j >= len(row) {
				continue
			}
			c := &rows[i][j]
			// GFM unescapes pipes before inline parsing, code spans included.
			c.ps = r.inlinePieces(strings.ReplaceAll(row[j], `\|`, "|"), sgr, nil)
			c.nat, c.word = r.measure(c.ps)
			nat[j] = max(nat[j], c.nat, 1)
			word[j] = max(word[j], c.word)
		}
	}
	widths := columnWidths(nat, word, r.avail-(3*ncol+1))
	if widths == nil {
		r.records(rows)
		return
	}
	r.boxed(rows, widths, b.aligns)
}

// measure returns the width of pieces laid on one line and the width of
// their longest unbreakable word.
func (r *renderer) measure(ps []piece) (int, int) {
	w := &r.wr
	w.reset(1<<30, nil)
	for _, p := range ps {
		w.add(p)
	}
	w.finish()
	return w.maxLineW, w.maxWordW
}

// columnWidths shares avail columns among the table's columns: natural
// widths when they fit; otherwise the widest columns are capped at the
// largest width that fits, though no column goes below its longest word;
// if even that does not fit, words are broken. It returns nil when
// columns would be narrower than minColumn.
func columnWidths(nat, word []int, avail int) []int {
	hi := 0
	for _, n := range nat {
		hi = max(hi, n)
	}
	fits := func(c int, keepWords bool) bool {
		sum := 0
		for j, n := range nat {
			w := min(n, c)
			if keepWords {
				w = max(w, min(word[j], n))
			}
			sum += w
		}
		return sum <= avail
	}
	keepWords := fits(0, true)
	if !keepWords && !fits(minColumn, false) {
		return nil
	}
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid, keepWords) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if !keepWords && lo < minColumn {
		return nil
	}
	w := make([]int, len(nat))
	given := 0
	for j, n := range nat {
		w[j] = min(n, lo)
		if keepWords {
			w[j] = max(w[j], min(word[j], n))
		}
		given += w[j]
	}
	// Hand out what the cap left over, one column each.
	for j := range w {
		if given < avail && w[j] < nat[j] {
			w[j]++
			given++
		}
	}
	return w
}

func (r *renderer) rule(left, mid, right string, widths []int) {
	var b strings.Builder
	b.WriteString(left)
	for j, w := range widths {
		if j > 0 {
			b.WriteString(mid)
		}
		b.WriteString(strings.Repeat("─", w+2))
	}
	b.WriteString(right)
	r.emit([]piece{{text: b.String(), sgr: string(r.th.TableBorder)}})
}

// wrapCell lays a cell's pieces into lines of at most width cells.
func (r *renderer) wrapCell(ps []piece, width int) [][]piece {
	w := &r.wr
	w.reset(width, nil)
	w.collect = true
	for _, p := range ps {
		w.add(p)
	}
	w.finish()
	lines := w.lines
	w.lines, w.arena = nil, nil // the lines live on in the caller
	return lines
}

func (r *renderer) boxed(rows [][]cell, widths []int, aligns []align) {
	border := string(r.th.TableBorder)
	laid := make([][][][]piece, len(rows)) // row, column, line
	multi := false
	for i, row := range rows {
		laid[i] = make([][][]piece, len(row))
		for j := range row {
			laid[i][j] = r.wrapCell(row[j].ps, widths[j])
			if i > 0 && len(laid[i][j]) > 1 {
				multi = true
			}
		}
	}
	r.rule("┌", "┬", "┐", widths)
	var line []piece
	for i, row := range laid {
		if i == 1 || (i > 1 && multi) {
			r.rule("├", "┼", "┤", widths)
		}
		height := 1
		for _, c := range row {
			height = max(height, len(c))
		}
		for k := 0; k < height; k++ {
			line = append(line[:0], piece{text: "│ ", sgr: border})
			for j, c := range row {
				if j > 0 {
					line = append(line, piece{text: " │ ", sgr: border})
				}
				var ps []piece
				if k < len(c) {
					ps = c[k]
				}
				pad := widths[j] - piecesWidth(ps)
				left := 0
				switch aligns[j] {
				case alignRight:
					left = pad
				case alignCenter:
					left = pad / 2
				}
				if left > 0 {
					line = append(line, piece{text: strings.Repeat(" ", left)})
				}
				line = append(line, ps...)
				if pad-left > 0 {
					line = append(line, piece{text: strings.Repeat(" ", pad-left)})
				}
			}
			line = append(line, piece{text: " │", sgr: border})
			r.emit(line)
		}
	}
	r.rule("└", "┴", "┘", widths)
}

// records shows a table too wide for the width as one block per row,
// each cell on its own line after its column's header.
func (r *renderer) records(rows [][]cell) {
	header := rows[0]
	body := rows[1:]
	if len(body) == 0 {
		body = [][]cell{make([]cell, len(header))}
	}
	for i, row := range body {
		if i > 0 {
			r.sep()
		}
		for j, c := range row {
			ps := append([]piece(nil), header[j].ps...)
			ps = append(ps, piece{text: ":", sgr: join(r.base, r.th.TableHeader)})
			if len(c.ps) > 0 {
				ps = append(ps, piece{text: " "})
				ps = append(ps, c.ps...)
			}
			w := &r.wr
			w.reset(r.avail, r.emitFn)
			for _, p := range ps {
				w.add(p)
			}
			w.finish()
		}
	}
}
