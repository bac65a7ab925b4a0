package archtest

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/askuser/askuser"

// pkg is what go list says of one package of the module.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == module || strings.HasPrefix(p.ImportPath, module+"/") {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found %d packages of %s; the test is looking in the wrong place", len(pkgs), module)
	}
	return pkgs
}

// fileImports maps each non-test Go file of the module (relative path) to
// its imports.
func fileImports(t *testing.T, pkgs []pkg) map[string][]string {
	t.Helper()
	root := ""
	for _, p := range pkgs {
		if p.ImportPath == module {
			root = p.Dir
		}
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			path := filepath.Join(p.Dir, f)
			af, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, path)
			for _, im := range af.Imports {
				s, _ := strconv.Unquote(im.Path.Value)
				out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], s)
			}
		}
	}
	return out
}

// only checks that the files importing a path with prefix are exactly the
// allowed ones.
func only(t *testing.T, files map[string][]string, prefix string, allowed ...string) {
	t.Helper()
	for file, imports := range files {
		for _, im := range imports {
			if (im == prefix || strings.HasPrefix(im, prefix+"/")) && !slices.Contains(allowed, file) && !slices.Contains(allowed, filepath.Dir(file)+"/") {
				t.Errorf("%s imports %s; only %v may", file, im, allowed)
			}
		}
	}
}

func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	files := fileImports(t, pkgs)
	// scripts/floor imports the mandated dependencies on purpose, and
	// nothing of askuser's: it is the benchmarks' floor, not part of the
	// binary.
	if _, ok := files["scripts/floor/main.go"]; !ok {
		t.Fatal("scripts/floor/main.go is gone: drop its exemption here")
	}
	delete(files, "scripts/floor/main.go")

	// survey is unmaintained upstream: one file holds it, so replacing it
	// touches one file. What askuser still takes from it is measuring
	// text in terminal cells, in the terminal prompt's engine.
	only(t, files, "github.com/AlecAivazis/survey/v2", "frontend/survey.go")
	// The terminal prompt's engine is the survey frontend's: askuser sees
	// only ask.Frontend.
	only(t, files, module+"/frontend/prompt", "frontend/survey.go")
	// One place decides what a terminal is.
	only(t, files, "github.com/mattn/go-isatty", "internal/iostreams/")
	// The MCP SDK lives in one room: SDK types never leak.
	only(t, files, "github.com/modelcontextprotocol/go-sdk", "internal/mcp/", "internal/mcp/client/")
	// No Go SDK exists for WhatsApp's Cloud API: its client is the
	// channel's own, and the channels' wiring alone links the channel in.
	only(t, files, module+"/internal/channel/whatsapp", "internal/channelwire/linked.go")
	// The web side is wired in by the command line alone: the web card by
	// the frontend chooser and the bridge, the inbox by askuser serve.
	only(t, files, module+"/internal/inbox", "internal/chooser/", "internal/bridge/", "internal/cmd/serve/",
		"internal/inbox/") // the inbox writes its pages with internal/inbox/page
	// Each chat platform's SDK is its channel's business.
	only(t, files, "github.com/go-telegram/bot", "internal/channel/telegram/")
	// chromedp drives the browser tests only: no file of the binary imports
	// it, so it is never linked into askuser.
	only(t, files, "github.com/chromedp")
	// Both providers speak their APIs themselves: the official SDKs link
	// far more than the one endpoint askuser calls (anthropic-sdk-go:
	// OpenTelemetry, gjson, a schema reflector, YAML; openai-go: its whole
	// API, 21 MB of the binary) and run it all at every start (README
	// "Development").
	only(t, files, "github.com/anthropics/anthropic-sdk-go")
	only(t, files, "github.com/openai/openai-go")
	// Each chat platform's SDK has one room: Slack's is the Slack
	// channel's (its fake speaks the wire format without it), and the
	// websocket library it brings serves that channel and the fake only.
	only(t, files, "github.com/slack-go/slack", "internal/channel/slack/")
	only(t, files, "github.com/gorilla/websocket", "internal/channel/slack/", "internal/channel/slack/slackfake/")
	// The shell parser reads approval rules' command lines, in the rules'
	// own room's reader.
	only(t, files, "mvdan.cc/sh", "internal/approval/shellread/")
	// One package speaks to PostgreSQL, so pgx's types never leak; the
	// team store is reached only through the session store's interface,
	// and only the wiring constructs it.
	only(t, files, "github.com/jackc/pgx", "internal/store/postgres/")
	only(t, files, module+"/internal/store/postgres", "internal/cmdutil/", "scripts/storebench/") // the store's benchmark seeds it
	// The throwaway test server is for tests and the store's benchmark.
	only(t, files, module+"/internal/store/pgtest", "scripts/storebench/")

	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		deps := p.Deps
		switch {
		case rel == "ask" || strings.HasPrefix(rel, "ask/"):
			// The question core is the floor: the standard library and ask.
			for _, d := range deps {
				if strings.Contains(strings.SplitN(d, "/", 2)[0], ".") && d != module+"/ask" {
					t.Errorf("%s depends on %s; ask and its subpackages use the standard library and ask only", p.ImportPath, d)
				}
			}
		case rel == "agentloop" || strings.HasPrefix(rel, "agentloop/"):
			notOn(t, p, "frontend", "internal/session", "internal/mcp", "internal/mcp/client")
			notOnWiring(t, p)
		case rel == "frontend" || strings.HasPrefix(rel, "frontend/"):
			notOn(t, p, "agentloop", "internal/session")
			notOnWiring(t, p)
		case rel == "internal/store/postgres":
			// A store knows nothing of who asks or answers.
			notOn(t, p, "frontend", "internal/inbox", "internal/mcp", "internal/hook", "internal/relay")
			notOnWiring(t, p)
		case rel == "internal/channel" || strings.HasPrefix(rel, "internal/channel/"):
			// A channel knows nothing of sessions: it turns a set into a
			// message and a tap into answers. The standard library, ask
			// and channel only (a platform's package adds its own SDK).
			// A platform's fake is test support: it may share
			// channeltest's kit, which no channel itself imports.
			fake := strings.HasSuffix(rel, "fake")
			for _, d := range p.Imports {
				kit := fake && d == module+"/internal/channel/channeltest"
				if strings.HasPrefix(d, module) && d != module+"/ask" && d != module+"/internal/channel" && !kit {
					t.Errorf("%s imports %s; a channel imports ask and internal/channel only", rel, d)
				}
			}
			notOn(t, p, "internal/session", "internal/relay")
		case rel == "internal/relay":
			// The relay uses the stores through its own interfaces and is
			// wired in by the command line.
			notOn(t, p, "frontend", "internal/inbox", "internal/mcp", "internal/hook")
			notOnWiring(t, p)
		case rel == "internal/session":
			notOn(t, p, "internal/relay")
		case rel == "internal/inbox/page":
			// The pages know nothing of HTTP's state, stores or sessions:
			// the standard library and ask.
			for _, d := range p.Imports {
				if strings.Contains(strings.SplitN(d, "/", 2)[0], ".") && d != module+"/ask" {
					t.Errorf("%s imports %s; the pages import only the standard library and ask", rel, d)
				}
			}
		case rel == "internal/approval" || rel == "internal/approval/shellread" || rel == "internal/elicit":
			// Leaves: the standard library and ask; approval also its own
			// command-line reader, which alone reads shell command lines
			// with mvdan.cc/sh.
			for _, d := range p.Imports {
				std := !strings.Contains(strings.SplitN(d, "/", 2)[0], ".")
				shell := rel == "internal/approval/shellread" && strings.HasPrefix(d, "mvdan.cc/sh/v3/")
				reader := rel == "internal/approval" && d == module+"/internal/approval/shellread"
				if !std && !shell && !reader && d != module+"/ask" {
					t.Errorf("%s imports %s; it is a leaf that imports only ask (approval its shellread, shellread mvdan.cc/sh)", rel, d)
				}
			}
		}
		// The rooms the wiring puts together are imported by the wiring
		// alone: the commands and the rooms they share (wiring).
		if !isWiring(rel) {
			for _, room := range []string{"frontend", "internal/mcp", "internal/mcp/client", "internal/hook", "internal/inbox"} {
				if rel != room && slices.Contains(p.Imports, module+"/"+room) {
					t.Errorf("%s imports %s; only the command line (%s) wires it in", p.ImportPath, room, strings.Join(wiring, ", "))
				}
			}
		}
	}
}

// notOnWiring fails when p depends on the command line: the commands or
// the rooms they share (wiring).
func notOnWiring(t *testing.T, p pkg) {
	t.Helper()
	for _, d := range p.Deps {
		if rel, ok := strings.CutPrefix(d, module+"/"); ok && isWiring(rel) {
			t.Errorf("%s depends on %s, the command line, which it must not", p.ImportPath, d)
		}
	}
}

// notOn fails when p depends on any of the module's packages named.
func notOn(t *testing.T, p pkg, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		if slices.Contains(p.Deps, module+"/"+rel) {
			t.Errorf("%s depends on %s/%s, which it must not", p.ImportPath, module, rel)
		}
	}
}
