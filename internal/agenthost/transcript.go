package agenthost

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// readTree returns the files of root/name (a file, or a folder read
// recursively) as transcript files named relative to root.
func readTree(root, name string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(filepath.Join(root, name), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files = append(files, File{Path: filepath.ToSlash(rel), Data: data})
		return nil
	})
	return files, err
}

// writeFiles puts files under root. A path that would leave root is
// refused; a file already there is kept (the host's own copy is at least
// as new), unless it is a prefix of the stored one (the host appended
// nothing since), when it is brought up to date.
func writeFiles(root string, files []File) error {
	for _, f := range files {
		clean := path.Clean(f.Path)
		if clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || path.IsAbs(clean) {
			return fmt.Errorf("transcript file %q would be written outside %s", f.Path, root)
		}
		dst := filepath.Join(root, filepath.FromSlash(clean))
		old, err := os.ReadFile(dst)
		switch {
		case err == nil && (len(old) >= len(f.Data) || !bytes.HasPrefix(f.Data, old)):
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		tmp := dst + ".askuser-import"
		if err := os.WriteFile(tmp, f.Data, 0o600); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}
