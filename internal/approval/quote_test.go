package approval

import "github.com/askuser/askuser/internal/approval/shellread"

// quoted shows a value as one word, as bash reads it: the command-line
// reader's own quoting (shellread.Quote), for building test lines.
func quoted(v string) string { return shellread.Quote(v) }
