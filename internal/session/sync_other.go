//go:build !unix

package session

import "os"

func syncData(f *os.File) error { return f.Sync() }

func syncDir(string) {}

func lock(*os.File) (func(), error) { return func() {}, nil }

func inUse(string) bool { return false }
