package serve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/statefile"
)

// serveTokenFile is where askuser serve keeps its page's token, in the
// state directory it serves, unless --token-file says otherwise: the same
// token after a restart keeps the printed URL, a bookmark of it, and the
// cookie a browser got from it working.
const serveTokenFile = "serve.token"

// maxTokenFileBytes bounds what is read of a token file: a token is 33.
const maxTokenFileBytes = 1 << 10

// serveToken returns the token kept in path: the one there, or a new one
// written there when there is none, or when fresh (--new-token) a new one
// that replaces it. The file is created 0600, never through a symbolic
// link, and is used only when it is a regular file of the user's own that
// no one else may read or write: the token in it answers for the person.
func serveToken(path string, fresh bool) (string, error) {
	if fresh {
		return replaceToken(path)
	}
	for range 2 { // a second try if another serve created it meanwhile
		tok, err := readToken(path)
		if !errors.Is(err, fs.ErrNotExist) {
			return tok, err
		}
		tok, err = createToken(path)
		if !errors.Is(err, fs.ErrExist) {
			return tok, err
		}
	}
	return "", fmt.Errorf("%s keeps appearing and vanishing; give --token-file FILE", path)
}

// readToken reads the token kept in path, refusing a file that is not the
// user's own regular file, readable by them alone, holding one token.
func readToken(path string) (string, error) {
	f, err := statefile.Open(path) // never through a link, never waiting on a FIFO
	var nr *statefile.NotRegularError
	switch {
	case errors.As(err, &nr) && nr.Kind == statefile.KindSymlink:
		return "", fmt.Errorf("%s is a symbolic link: askuser keeps its token only in a regular file of its own; remove the link (a new token is made) or give --token-file FILE", path)
	case errors.As(err, &nr):
		return "", fmt.Errorf("%s is not a regular file: askuser keeps its token only in a regular file of its own; remove it, or give --token-file FILE", path)
	case err != nil:
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	// statefile.Open opened a regular file: what is left is whose it is.
	switch {
	case ownedByOther(fi):
		return "", fmt.Errorf("%s belongs to another user, who could answer your agents' questions with the token in it; remove it (a new token is made), or give --token-file FILE", path)
	case fi.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("%s has mode %04o: others may read or change the token that answers your agents' questions; make it yours alone (chmod 600 %s), or run askuser serve --new-token", path, fi.Mode().Perm(), path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes))
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if !inbox.ValidToken(tok) {
		// Not quoted: it may be most of a secret.
		return "", fmt.Errorf("%s does not hold a token (32 hexadecimal digits, as askuser writes it) but %d other bytes; remove it, or run askuser serve --new-token", path, len(b))
	}
	return tok, nil
}

// createToken writes a new token to path, which must not exist.
func createToken(path string) (string, error) {
	tok := inbox.NewToken()
	if err := createOwn(path, tok+"\n"); err != nil {
		return "", err
	}
	return tok, nil
}

// replaceToken puts a new token in path, whatever was there.
func replaceToken(path string) (string, error) {
	tok := inbox.NewToken()
	if err := replaceOwn(path, tok+"\n"); err != nil {
		return "", err
	}
	return tok, nil
}

// createOwn creates path, which must not exist, readable by the user
// alone, holding content; never through a symbolic link.
func createOwn(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// replaceOwn writes content to a new file beside path and renames it over
// path: whatever was there (a file of the wrong mode, a link) is replaced,
// never written through, and a reader sees the old content or the new.
func replaceOwn(path, content string) error {
	next := path + ".new-" + inbox.NewToken()[:8]
	if err := createOwn(next, content); err != nil {
		return err
	}
	if err := os.Rename(next, path); err != nil {
		os.Remove(next)
		return err
	}
	return nil
}
