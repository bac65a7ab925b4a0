package main

import (
	"strings"
	"testing"
)

func TestPackageOf(t *testing.T) {
	for sym, want := range map[string]string{
		"net/http.(*Client).Do":      "net/http",
		"fmt.Println":                "fmt",
		"type:.eq.net/http.Header":   "net/http",
		"go:itab.*os.File,io.Reader": "os",
		"github.com/openai/openai-go.shadow.79.github.com/openai/openai-go/packages/param.null": "github.com/openai/openai-go",
		"github.com/anthropics/anthropic-sdk-go.(*shadow.79).ExtraFields":                       "github.com/anthropics/anthropic-sdk-go",
		"slices.SortFunc[go.shape.struct { Name string }]":                                      "slices",
		"go.yaml.in/yaml/v4.(*parser).parse":                                                    "go.yaml.in/yaml/v4",
		"go:func.*":                                                                             "(unattributed)",
		"type:.eq.struct { A int; B github.com/x/y.T }":                                         "(anonymous types)",
	} {
		if got := packageOf(sym); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", sym, got, want)
		}
	}
}

func TestModuleOf(t *testing.T) {
	for pkg, want := range map[string]string{
		"net/http":                                      "std",
		"vendor/golang.org/x/net/http2/hpack":           "std",
		"github.com/anthropics/anthropic-sdk-go/option": "github.com/anthropics/anthropic-sdk-go",
		"golang.org/x/sys/unix":                         "golang.org/x",
		"go.yaml.in/yaml/v4":                            "go.yaml.in/yaml",
		"(unattributed)":                                "(unattributed)",
	} {
		if got := moduleOf(pkg); got != want {
			t.Errorf("moduleOf(%q) = %q, want %q", pkg, got, want)
		}
	}
}

func TestAddSymbolsSkipsBSS(t *testing.T) {
	b := &binary{byPackage: map[string]int64{}, byModule: map[string]int64{}, nobits: [][2]uint64{{0x2000, 0x3000}}}
	nm := "  1000  100 T net/http.(*Client).Do\n  2800  4096 D crypto/internal/fips140/drbg.memory\n  1100   20 T net/http.init\n"
	if err := b.addSymbols(strings.NewReader(nm)); err != nil {
		t.Fatal(err)
	}
	if b.byPackage["net/http"] != 120 || b.byPackage["crypto/internal/fips140/drbg"] != 0 || b.byModule["std"] != 120 {
		t.Errorf("by package %v, by module %v: want 120 bytes of net/http and nothing of .bss", b.byPackage, b.byModule)
	}
}
