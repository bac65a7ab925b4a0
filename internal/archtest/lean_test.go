package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// No template engine is linked into askuser. text/template (and
// html/template, which runs on it) calls methods by name, through
// reflection, so the linker keeps every exported method of every type the
// program can reach: 6.6 MB of the binary and 2 MiB of every process's
// memory, a hook's included (README "Development"). urfave/cli's help is
// printed without it (third_party/urfave-cli-v2, FORK.md) and the inbox's
// pages are written by Go code (internal/inbox/render.go). Tests may use
// the engines: only what the binary links counts.
func TestNoTemplateEngineLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs", module).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list found %d dependencies of %s; the test is looking in the wrong place", len(deps), module)
	}
	for _, engine := range []string{"text/template", "html/template"} {
		for _, d := range deps {
			if d == engine {
				t.Errorf("askuser links %s (find who imports it: go list -deps -f '{{.ImportPath}}: {{.Imports}}' -tags urfave_cli_no_docs . | grep %s)", engine, engine)
			}
		}
	}
}
