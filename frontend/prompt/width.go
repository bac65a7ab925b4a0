package prompt

import "unicode/utf8"

// textWidth is how many terminal cells s takes. askuser measures text as
// survey/v2 does, East Asian wide characters included; survey is
// unmaintained upstream, so its one import stays in frontend/survey.go,
// which hands the measure over (UseWidth) before any prompt is drawn.
// Until then a rune is a cell.
var textWidth = utf8.RuneCountInString

// UseWidth makes measure the engine's measure of text in cells. It is
// called once, at start, by frontend/survey.go.
func UseWidth(measure func(string) int) { textWidth = measure }
