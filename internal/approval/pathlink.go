package approval

import (
	"os"
	"path/filepath"
	"strings"
)

// Limits on following a path's links: the kernel's own (Linux follows 40
// links in one path), and the names looked up on the file system, which a
// path of a folder and .. repeated would otherwise make as many as its
// length allows.
const (
	maxLinks   = 40
	maxLookups = 4096
)

// resolveLinks returns where the absolute path p leads, as the kernel
// resolves it: one name at a time from the root, each link replaced by
// what it names (relative to the link's folder) before the next name, ..
// included, is read. So src/lib/.. is the folder src/lib leads into, not
// src. A link is followed whether or not what it names exists (writing
// through a link to a missing file creates that file), through chains of
// links and to a target whose folder is missing too. From the first name
// that does not exist on, the rest is read as written: folders a tool
// would make, where .. is their parent.
//
// ok is false when the links loop or are more than the kernel follows, or
// the path makes more lookups than maxLookups: the kernel refuses the
// first, and the rules cannot say where either leads. A relative p is
// returned as it is.
func resolveLinks(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		return p, true
	}
	if filepath.Separator != '/' {
		// Not a Unix path: follow what exists, as the library does.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real, true
		}
		return filepath.Clean(p), true
	}
	var r linkWalk
	if !r.walk(p) {
		return "", false
	}
	return r.path(), true
}

// linkWalk is the state of resolveLinks: names is the path resolved so
// far (free of links), from the root; made counts the names at its end
// that do not exist yet, which a tool would make as folders (.. out of
// them is back where names are looked up again).
type linkWalk struct {
	names                []string
	made, links, lookups int
}

func (r *linkWalk) path() string { return "/" + strings.Join(r.names, "/") }

// walk resolves the names of rest onto names.
func (r *linkWalk) walk(rest string) bool {
	for rest != "" {
		var name string
		name, rest, _ = strings.Cut(rest, "/")
		switch name {
		case "", ".":
			continue
		case "..":
			// names hold no link: their parent is where .. leads.
			r.names = r.names[:max(len(r.names)-1, 0)]
			r.made = max(r.made-1, 0)
			continue
		}
		r.names = append(r.names, name)
		if r.made > 0 {
			r.made++
			continue
		}
		if r.lookups++; r.lookups > maxLookups {
			return false
		}
		next := r.path()
		fi, err := os.Lstat(next)
		if err != nil {
			r.made = 1 // not there (or not to be read): a tool would make it
			continue
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		if r.links++; r.links > maxLinks {
			return false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return false
		}
		r.names = r.names[:len(r.names)-1]
		if filepath.IsAbs(target) {
			r.names = r.names[:0]
		}
		// The target's names come first, then what followed the link.
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	return true
}
