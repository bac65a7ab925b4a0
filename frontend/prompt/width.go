package prompt

import "github.com/AlecAivazis/survey/v2/terminal"

// textWidth is how many terminal cells s takes: what survey/v2 still does
// well, East Asian wide characters included. This is askuser's one import
// of survey, unmaintained upstream: replacing it touches this file alone.
func textWidth(s string) int { return terminal.StringWidth(s) }
