//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/termtest"
	"github.com/hinshun/vt10x"
)

// The terminal's own colours: those of the web card's dark mode, so the
// manual's pictures look of a piece.
const (
	termFG = "#e6e8ee"
	termBG = "#15171c"
)

// ansiColors are xterm's default sixteen colours; the rest of the 256 are
// computed from its colour cube and grey ramp (xtermColor).
var ansiColors = [16]string{
	"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
	"#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
}

// xtermColor is the CSS colour of a cell's colour as xterm-256color draws
// it. The default colours are mapped wherever they stand: vt10x swaps FG
// and BG for reverse video, so DefaultBG can be a foreground.
func xtermColor(c vt10x.Color) string {
	switch {
	case c == vt10x.DefaultFG:
		return termFG
	case c == vt10x.DefaultBG:
		return termBG
	case c < 16:
		return ansiColors[c]
	case c < 232:
		i := int(c) - 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return fmt.Sprintf("#%02x%02x%02x", level(i/36), level(i/6%6), level(i%6))
	case c < 256:
		g := 8 + 10*(int(c)-232)
		return fmt.Sprintf("#%02x%02x%02x", g, g, g)
	default: // 24-bit, as vt10x stores SGR 38;2;r;g;b
		return fmt.Sprintf("#%06x", uint32(c)&0xffffff)
	}
}

// cellStyle is a cell's CSS, empty for the terminal's plain text. Reverse
// video needs nothing here: vt10x has already swapped the colours.
func cellStyle(c termtest.Cell) string {
	var b strings.Builder
	if c.FG != vt10x.DefaultFG {
		b.WriteString("color:" + xtermColor(c.FG) + ";")
	}
	if c.BG != vt10x.DefaultBG {
		b.WriteString("background:" + xtermColor(c.BG) + ";")
	}
	if c.Bold {
		b.WriteString("font-weight:bold;")
	}
	if c.Italic {
		b.WriteString("font-style:italic;")
	}
	if c.Underline {
		b.WriteString("text-decoration:underline;")
	}
	return b.String()
}

// screenHTML draws rows of cells as spans, a span per run of one style.
func screenHTML(rows [][]termtest.Cell) string {
	var b strings.Builder
	for _, row := range rows {
		for i := 0; i < len(row); {
			style, j := cellStyle(row[i]), i
			var run strings.Builder
			for ; j < len(row) && cellStyle(row[j]) == style; j++ {
				run.WriteRune(row[j].Char)
			}
			text := html.EscapeString(run.String())
			if style == "" {
				b.WriteString(text)
			} else {
				fmt.Fprintf(&b, `<span style="%s">%s</span>`, style, text)
			}
			i = j
		}
		b.WriteString("\n")
	}
	return b.String()
}

// usedRows is how many rows, from the top, any of the shots draws on: the
// blank rows below the tallest prompt are left out of every panel.
func usedRows(shots []termShot) int {
	n := 0
	for _, s := range shots {
		for y, row := range s.cells {
			for _, c := range row {
				if c.Char != ' ' || c.BG != vt10x.DefaultBG {
					n = max(n, y+1)
				}
			}
		}
	}
	return n
}

const shotsCSS = `body{margin:0;background:#0b0c10;font-family:"DejaVu Sans",sans-serif}
#shots{display:inline-grid;grid-template-columns:auto auto;gap:18px;padding:20px}
figure{margin:0}
figcaption{color:#aeb4c2;font-size:14px;margin:0 0 8px 2px}
kbd{font-family:"DejaVu Sans Mono",monospace;font-size:12px;color:#e6e8ee;background:#2a2e38;
 border:1px solid #3c414e;border-radius:4px;padding:1px 5px;margin-right:3px}
pre{margin:0;padding:12px 14px;border-radius:8px;border:1px solid #2a2e38;
 font:13px/1.35 "DejaVu Sans Mono",monospace;color:` + termFG + `;background:` + termBG + `}`

// shotsPage is the page of the panels, two to a row, each labelled with
// the keys that led to it.
func shotsPage(shots []termShot) string {
	rows := usedRows(shots)
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>` + shotsCSS + `</style><div id="shots">`)
	for i, s := range shots {
		var keys strings.Builder
		for _, k := range s.keys {
			keys.WriteString("<kbd>" + html.EscapeString(k) + "</kbd>")
		}
		fmt.Fprintf(&b, "<figure><figcaption>%d. %s %s</figcaption><pre>%s</pre></figure>",
			i+1, keys.String(), html.EscapeString(s.says), screenHTML(s.cells[:rows]))
	}
	b.WriteString("</div>")
	return b.String()
}

// TestTerminalShotColors checks the picture's colours against xterm's
// 256-colour palette at its corners, and that a reverse-video cell of the
// default colours is drawn light on dark's opposite.
func TestTerminalShotColors(t *testing.T) {
	for c, want := range map[vt10x.Color]string{
		vt10x.Green: "#00cd00", vt10x.LightCyan: "#00ffff", 16: "#000000", 105: "#8787ff",
		196: "#ff0000", 231: "#ffffff", 232: "#080808", 255: "#eeeeee", 0x123456: "#123456",
		vt10x.DefaultFG: termFG, vt10x.DefaultBG: termBG,
	} {
		if got := xtermColor(c); got != want {
			t.Errorf("colour %d is drawn %s, want %s", c, got, want)
		}
	}
	rev := termtest.Cell{Char: '<', FG: vt10x.DefaultBG, BG: vt10x.DefaultFG, Reverse: true}
	want := `<span style="color:` + termBG + `;background:` + termFG + `;">&lt;</span>` + "\n"
	if got := screenHTML([][]termtest.Cell{{rev}}); got != want {
		t.Errorf("a reverse-video cell is drawn %s, want %s", got, want)
	}
}
