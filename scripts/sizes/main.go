// Command sizes says where the bytes of a Go binary go: the size of each
// ELF section, then the code and data of each module and each package,
// largest first, from the binary's own symbol table (`go tool nm -size`).
// Given two binaries it prints both and the difference, for a before and
// after.
//
// Usage:
//
//	go run ./scripts/sizes [-n N] [-pkg PREFIX] BINARY [BINARY2]
//
// The binary needs its symbol table: build it with the release flags but
// -ldflags "-w" instead of "-s -w" (the layout is the same; -s only drops
// the table):
//
//	CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -ldflags -w -o /tmp/askuser.sym .
//	go run ./scripts/sizes /tmp/askuser.sym
//
// What it cannot split by package: type descriptors (one symbol, type:*,
// in .rodata), the function tables (.gopclntab, about as large as the
// code it describes) and the strings (go:string.*). Those appear once, in
// the section table and as "(unattributed)".
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"debug/elf"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	top := flag.Int("n", 25, "packages to list")
	prefix := flag.String("pkg", "", "list only packages whose path starts with `PREFIX`")
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		fmt.Fprintln(os.Stderr, "usage: sizes [-n N] [-pkg PREFIX] BINARY [BINARY2]")
		os.Exit(2)
	}
	var bins []*binary
	for _, path := range flag.Args() {
		b, err := load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sizes:", err)
			os.Exit(1)
		}
		bins = append(bins, b)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	printSections(w, bins)
	fmt.Fprintln(w)
	printGroups(w, "MODULES (code+data)", bins, func(b *binary) map[string]int64 { return b.byModule }, *top, "")
	fmt.Fprintln(w)
	printGroups(w, "PACKAGES (code+data)", bins, func(b *binary) map[string]int64 { return b.byPackage }, *top, *prefix)
	w.Flush()
}

// binary is one binary's sizes.
type binary struct {
	path      string
	file      int64
	sections  map[string]uint64
	byPackage map[string]int64 // code and data symbols, by package path
	byModule  map[string]int64
	nobits    [][2]uint64 // address ranges of the sections without file contents
}

// sectionNames are the sections worth a line, in file order.
var sectionNames = []string{".text", ".rodata", ".gopclntab", ".typelink", ".itablink", ".noptrdata", ".data", ".bss", ".noptrbss"}

func load(path string) (*binary, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (sizes reads ELF binaries)", path, err)
	}
	defer f.Close()
	b := &binary{path: path, file: st.Size(), sections: map[string]uint64{}, byPackage: map[string]int64{}, byModule: map[string]int64{}}
	for _, s := range f.Sections {
		b.sections[s.Name] = s.Size
		if s.Type == elf.SHT_NOBITS { // .bss: no room in the file, nor in memory until written
			b.nobits = append(b.nobits, [2]uint64{s.Addr, s.Addr + s.Size})
		}
	}
	out, err := exec.Command("go", "tool", "nm", "-size", path).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && bytes.Contains(ee.Stderr, []byte("no symbol")) {
			return nil, fmt.Errorf("%s has no symbol table: build it with -ldflags -w, not -s -w", path)
		}
		return nil, fmt.Errorf("go tool nm %s: %w", path, err)
	}
	if err := b.addSymbols(bytes.NewReader(out)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// addSymbols reads `go tool nm -size` lines: address, size, kind, name.
func (b *binary) addSymbols(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[2] == "U" {
			continue
		}
		addr, err1 := strconv.ParseUint(f[0], 16, 64)
		size, err2 := strconv.ParseInt(f[1], 10, 64)
		if err := cmp.Or(err1, err2); err != nil {
			return fmt.Errorf("nm line %q: %w", sc.Text(), err)
		}
		if b.inNobits(addr) {
			continue
		}
		pkg := packageOf(strings.Join(f[3:], " "))
		b.byPackage[pkg] += size
		b.byModule[moduleOf(pkg)] += size
	}
	return sc.Err()
}

func (b *binary) inNobits(addr uint64) bool {
	for _, r := range b.nobits {
		if addr >= r[0] && addr < r[1] {
			return true
		}
	}
	return false
}

// packageOf is the import path a symbol belongs to: "net/http" for
// net/http.(*Client).Do, type:.eq.net/http.Header, go:itab.*net/http.T,...
// Symbols shared by every package come out as "(unattributed)".
func packageOf(sym string) string {
	for _, p := range []string{"type:.eq.", "type:.hash.", "type:", "go:itab.", "go:info.", "go.shape.", "*"} {
		sym = strings.TrimPrefix(sym, p)
	}
	if strings.HasPrefix(sym, "go:") || strings.HasPrefix(sym, "$") || strings.HasPrefix(sym, "gclocals") || sym == "" {
		return "(unattributed)"
	}
	for _, p := range []string{"struct ", "struct{", "[", "map[", "func(", "interface ", "chan "} {
		if strings.HasPrefix(sym, p) {
			return "(anonymous types)"
		}
	}
	// The path ends at the first dot after its first slash (a host name
	// has dots before it); a generic instantiation's brackets, a method's
	// receiver and an itab's interface come after that, and so may other
	// paths (in the names of unexported methods).
	end := len(sym)
	if i := strings.IndexAny(sym, "[(,"); i >= 0 {
		end = i
	}
	head := sym[:end]
	slash := max(strings.IndexByte(head, '/'), 0)
	if dot := strings.IndexByte(head[slash:], '.'); dot >= 0 {
		return head[:slash+dot]
	}
	return head
}

// moduleOf groups a package under its module, by the usual path shapes:
// the standard library (no dot in the first element), host/owner/repo,
// golang.org/x/repo and the like.
func moduleOf(pkg string) string {
	parts := strings.Split(pkg, "/")
	switch {
	case strings.HasPrefix(pkg, "("):
		return pkg
	case parts[0] == "vendor" || !strings.Contains(parts[0], "."):
		return "std"
	case parts[0] == "github.com" && len(parts) >= 3:
		return strings.Join(parts[:3], "/")
	case len(parts) >= 2:
		return strings.Join(parts[:2], "/")
	}
	return pkg
}

func printSections(w io.Writer, bins []*binary) {
	fmt.Fprint(w, "SECTION\t")
	for i := range bins {
		fmt.Fprintf(w, "%s\t", label(bins, i))
	}
	if len(bins) == 2 {
		fmt.Fprint(w, " change\t")
	}
	fmt.Fprintln(w)
	row := func(name string, v func(b *binary) int64) {
		fmt.Fprintf(w, "%s\t", name)
		for _, b := range bins {
			fmt.Fprintf(w, "%s\t", kb(v(b)))
		}
		if len(bins) == 2 {
			fmt.Fprintf(w, "%s\t", delta(v(bins[0]), v(bins[1])))
		}
		fmt.Fprintln(w)
	}
	row("file", func(b *binary) int64 { return b.file })
	for _, s := range sectionNames {
		row(s, func(b *binary) int64 { return int64(b.sections[s]) })
	}
}

func printGroups(w io.Writer, title string, bins []*binary, of func(*binary) map[string]int64, top int, prefix string) {
	last := of(bins[len(bins)-1])
	names := map[string]bool{}
	for _, b := range bins {
		for k := range of(b) {
			if strings.HasPrefix(k, prefix) {
				names[k] = true
			}
		}
	}
	// Largest in the last binary first; for a before and after, what
	// went away comes next by its old size.
	sorted := slices.Collect(func(yield func(string) bool) {
		for k := range names {
			if !yield(k) {
				return
			}
		}
	})
	first := of(bins[0])
	slices.SortFunc(sorted, func(a, b string) int {
		return cmp.Or(cmp.Compare(max(last[b], first[b]), max(last[a], first[a])), cmp.Compare(a, b))
	})
	fmt.Fprintf(w, "%s\t", title)
	for i := range bins {
		fmt.Fprintf(w, "%s\t", label(bins, i))
	}
	if len(bins) == 2 {
		fmt.Fprint(w, " change\t")
	}
	fmt.Fprintln(w)
	for i, name := range sorted {
		if i == top {
			fmt.Fprintf(w, "(%d more)\t\n", len(sorted)-top)
			break
		}
		fmt.Fprintf(w, "%s\t", name)
		for _, b := range bins {
			fmt.Fprintf(w, "%s\t", kb(of(b)[name]))
		}
		if len(bins) == 2 {
			fmt.Fprintf(w, "%s\t", delta(first[name], last[name]))
		}
		fmt.Fprintln(w)
	}
}

func label(bins []*binary, i int) string {
	if len(bins) == 1 {
		return "      KiB"
	}
	return []string{"   before", "    after"}[i]
}

// kb is n in KiB, right-aligned for the columns.
func kb(n int64) string { return fmt.Sprintf("%9d", (n+512)/1024) }

func delta(a, b int64) string {
	if a == 0 {
		return fmt.Sprintf("%7s", "new")
	}
	return fmt.Sprintf("%+6.0f%%", float64(b-a)/float64(a)*100)
}
