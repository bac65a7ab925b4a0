//go:build !unix

package session

import "os"

func syncDir(string) {}

func lock(*os.File) (func(), error) { return func() {}, nil }

func inUse(string) bool { return false }
