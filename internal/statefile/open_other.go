//go:build !unix

package statefile

import "os"

// openNoFollow checks path is not a link (this system has no O_NOFOLLOW,
// and no FIFOs to block on) and that what it opened is a regular file.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	return f, nil
}
