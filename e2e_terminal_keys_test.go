//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/termtest"
)

// The sizes and colour settings every key is driven at through the binary.
var (
	termSizes = []termSize{{80, 24}, {40, 24}, {40, 12}}
	sgr       = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
)

// askAt runs `askuser ask auth.json > out.txt` on a terminal of size sz,
// with colour or NO_COLOR, and returns the process and the output file.
func askAt(t *testing.T, sz termSize, color bool, env ...string) (*termProc, string) {
	t.Helper()
	out, outPath := outFile(t)
	if color {
		env = append(env, "NO_COLOR=")
	}
	p := startProc(t, sz, repoRoot(t), out, env, askuserBin(), "ask", "testdata/questions/auth.json")
	return p, outPath
}

// submit waits for the review of a set's answers and submits it.
func (p *termProc) submit() {
	p.t.Helper()
	p.prompt("Review your answers")
	p.send(keyEnter)
}

// TestTerminalKeys drives the prompt's keys through the binary at 80 and
// 40 columns and at 12 rows, with and without NO_COLOR, and checks what
// reaches stdout, the exit code and the terminal left behind.
func TestTerminalKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		keys func(p *termProc) // at the first question
		code int
		out  string // in stdout
		says string // on the screen at the end
	}{
		{"digits pick and toggle", func(p *termProc) {
			p.send("2")
			p.prompt("Which OAuth providers")
			p.send("1", "2", keyEnter)
			p.submit()
		}, 0, wantAuthJWT, "✔ Providers: Google, GitHub"},
		{"typed text that matches nothing is Other", func(p *termProc) {
			p.send("p", "a", "s", "e", "t", "o")
			p.prompt(`No option matches "paseto"`)
			p.send(keyEnter)
			p.prompt("Which OAuth providers")
			p.send("4", keyEnter)
			p.submit()
		}, 0, "   Other: paseto", "✔ Auth Method: paseto (typed)"},
		{"back to the first question to change it", func(p *termProc) {
			p.send("3")
			p.prompt("Which OAuth providers")
			p.send(keyLeft)
			p.prompt("Which authentication")
			p.send("2")
			p.prompt("Which OAuth providers")
			p.send("1", "2", keyEnter)
			p.prompt("1. Auth Method: JWT")
			p.submit()
		}, 0, wantAuthJWT, "✔ Auth Method: JWT"},
		{"esc clears the filter, then cancels", func(p *termProc) {
			p.send("x")
			p.prompt(`No option matches "x"`)
			p.send(keyEsc)
			p.prompt("esc cancel")
			p.send(keyEsc)
		}, 130, "", "cancelled at the terminal (esc)"},
		{"esc cancels the set", func(p *termProc) {
			p.send("2")
			p.prompt("Which OAuth providers")
			p.send(keyEsc)
		}, 130, "", "cancelled at the terminal (esc)"},
		{"ctrl+d cancels, never answers", func(p *termProc) {
			p.send(keyCtrlD)
		}, 130, "", "cancelled at the terminal (ctrl+d)"},
		{"esc in the Other field goes back", func(p *termProc) {
			p.send("4")
			p.prompt("Please specify:")
			p.send(keyEsc)
			p.prompt("4. Other")
			p.send("3")
			p.prompt("Which OAuth providers")
			p.send(keyEnter)
			p.prompt("Submit with nothing selected? y/N")
			p.send("y")
			p.submit()
		}, 0, "   Selected: Session-based", "✔ Auth Method: Session-based"},
	} {
		for _, sz := range termSizes {
			for _, color := range []bool{false, true} {
				name := tc.name + "/" + sizeName(sz) + map[bool]string{false: "/NO_COLOR", true: "/color"}[color]
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					p, outPath := askAt(t, sz, color)
					p.prompt("Which authentication")
					for _, l := range p.screen.Lines() {
						if len([]rune(l)) >= sz.cols {
							t.Errorf("line %q fills the %d-column terminal", l, sz.cols)
						}
					}
					tc.keys(p)
					code, restored := p.exit()
					if code != tc.code {
						t.Fatalf("exit code %d, want %d\nscreen:\n%s", code, tc.code, p.screen.Dump())
					}
					if !restored || !p.screen.CursorVisible() {
						t.Errorf("terminal not restored (mode restored %v, cursor shown %v)", restored, p.screen.CursorVisible())
					}
					got, _ := os.ReadFile(outPath)
					if tc.out == "" && len(got) != 0 || !strings.Contains(string(got), tc.out) {
						t.Errorf("stdout = %q, want it to hold %q", got, tc.out)
					}
					// (An error line is wrapped at word boundaries.)
					if !strings.Contains(strings.Join(strings.Fields(p.screen.String()), " "), tc.says) {
						t.Errorf("the screen does not say %q:\n%s", tc.says, p.screen.Dump())
					}
					if strings.Contains(p.screen.String(), "esc cancel") {
						t.Errorf("the prompt was left on the screen:\n%s", p.screen.Dump())
					}
					raw := p.screen.Raw()
					if colored := sgr.MatchString(raw); colored != color {
						t.Errorf("colour sequences written: %v, want %v", colored, color)
					}
					if color && !strings.Contains(raw, "\x1b[32m(Recommended)\x1b[0m") {
						t.Error("(Recommended) was not in the success colour")
					}
				})
			}
		}
	}
}

// TestTerminalPlain: TERM=dumb, --plain and ASKUSER_PLAIN=1 ask with
// numbered lines and a typed answer, and write no escape sequence at all.
func TestTerminalPlain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"TERM=dumb", []string{"TERM=dumb", "NO_COLOR="}, nil},
		{"--plain", []string{"NO_COLOR="}, []string{"--plain"}},
		{"ASKUSER_PLAIN=1", []string{"ASKUSER_PLAIN=1", "NO_COLOR="}, nil},
	} {
		for _, sz := range termSizes {
			t.Run(tc.name+"/"+sizeName(sz), func(t *testing.T) {
				t.Parallel()
				out, outPath := outFile(t)
				args := append([]string{"ask"}, append(tc.args, "testdata/questions/auth.json")...)
				p := startProc(t, sz, repoRoot(t), out, tc.env, askuserBin(), args...)
				p.tm.WaitText("  2. JWT")
				p.plainPrompt("the first prompt")
				p.send("2\r")
				// At 12 rows the plain prompt scrolls, as line output does.
				p.expect("  4. Apple")
				p.plainPrompt("the second prompt")
				p.send("1 2\r")
				p.exitedWith(outPath, wantAuthJWT)
				p.plainConfirmed("✔ Auth Method: JWT", "✔ Providers: Google, GitHub")
				if raw := p.screen.Raw(); strings.Contains(raw, "\x1b") {
					t.Errorf("plain mode wrote escape sequences: %q", raw)
				}
			})
		}
	}
}

// TestTerminalPlainDefault (issue 23 §3): with TERM=dumb an empty line
// takes the recommended option, which the prompt names, and "<" goes
// back to the question before.
func TestTerminalPlainDefault(t *testing.T) {
	t.Parallel()
	out, outPath := outFile(t)
	p := startProc(t, termSize{80, 24}, repoRoot(t), out, []string{"TERM=dumb"}, askuserBin(), "ask", "testdata/questions/auth.json")
	p.plainPrompt("the first prompt")
	if !strings.Contains(p.screen.String(), "Enter for 1, OAuth 2.0 (Recommended):") {
		t.Fatalf("the prompt does not name what Enter takes:\n%s", p.screen.Dump())
	}
	p.send("\r")
	p.expect("[Providers]")
	p.plainPrompt("the second prompt")
	p.send("<\r")
	p.expect("< goes back")
	p.plainPrompt("the first prompt, again")
	p.send("2\r")
	p.plainPrompt("the second prompt, again")
	p.send("1 2\r")
	p.exitedWith(outPath, wantAuthJWT)
	// The answer changed after "<" never showed as given.
	p.plainConfirmed("✔ Auth Method: JWT", "✔ Providers: Google, GitHub")
}

// plainConfirmed requires the plain prompt's ✔ lines to be want, once
// each, at the end of everything it wrote: printed once the set was
// answered, none for an answer changed or not used.
func (p *termProc) plainConfirmed(want ...string) {
	p.t.Helper()
	var lines []string
	for _, l := range append(p.screen.Scrollback(), p.screen.Lines()...) {
		if strings.HasPrefix(l, "✔") {
			lines = append(lines, l)
		}
	}
	all := strings.TrimRight(strings.Join(append(p.screen.Scrollback(), p.screen.Lines()...), "\n"), "\n")
	if strings.Join(lines, "\n") != strings.Join(want, "\n") || !strings.HasSuffix(all, strings.Join(want, "\n")) {
		p.t.Errorf("the ✔ lines are %q, want %q at the end:\n%s", lines, want, p.screen.Dump())
	}
}

// plainPrompt waits for the plain prompt's ">" on the last line, with
// nothing typed after it.
func (p *termProc) plainPrompt(what string) {
	p.t.Helper()
	p.tm.Wait(what, func(s *termtest.Screen) bool { return strings.HasSuffix(s.String(), "\n>") })
}

// exitedWith requires askuser to exit 0 with the terminal restored, having
// written want to the file at outPath (its standard output).
func (p *termProc) exitedWith(outPath, want string) {
	p.t.Helper()
	code, restored := p.exit()
	if code != 0 || !restored {
		p.t.Fatalf("exit code %d (restored %v), want 0\nscreen:\n%s", code, restored, p.screen.Dump())
	}
	if got, _ := os.ReadFile(outPath); string(got) != want {
		p.t.Errorf("stdout =\n%s\nwant\n%s", got, want)
	}
}

// TestHookPlain: askuser hook takes --plain as ask does, asking with
// numbered lines on the terminal and writing no escape sequence (it
// ignored the flag once, and drew the full prompt).
func TestHookPlain(t *testing.T) {
	t.Parallel()
	input, err := os.ReadFile("testdata/questions/auth.json")
	if err != nil {
		t.Fatal(err)
	}
	event := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":` + string(input) + "}"
	out, outPath := outFile(t)
	p := startTTYIn(t, repoRoot(t), strings.NewReader(event), out, []string{"NO_COLOR="}, "hook", "--plain")
	p.expect("  2. JWT")
	p.expect(">")
	p.send("2\r")
	p.expect("  4. Apple")
	p.expect(">")
	p.send("1 2\r")
	if code, _ := p.exit(); code != 0 {
		t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
	}
	got, _ := os.ReadFile(outPath)
	if !strings.Contains(string(got), `"permissionDecision":"allow"`) || !strings.Contains(string(got), `"JWT"`) {
		t.Errorf("hook output %s: want an allow carrying the answer JWT", got)
	}
	if raw := p.raw.String(); strings.Contains(raw, "\x1b") {
		t.Errorf("plain mode wrote escape sequences: %q", raw)
	}
}
