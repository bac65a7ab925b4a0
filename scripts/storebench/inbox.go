package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// inbox is a browser on askuser serve's pages.
type inbox struct {
	base, token string
	c           *http.Client
}

var urlPattern = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}`)

func startServe(bin string, env []string) (*proc, *inbox, error) {
	p := &proc{cmd: exec.Command(bin, "serve"), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	errOut, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, nil, err
	}
	sc := bufio.NewScanner(errOut)
	for sc.Scan() {
		if u := urlPattern.FindString(sc.Text()); u != "" {
			go func() {
				_, _ = io.Copy(io.Discard, errOut)
				_ = p.cmd.Wait()
				close(p.done)
			}()
			jar, _ := cookiejar.New(nil)
			base, token, _ := strings.Cut(u, "?")
			return p, &inbox{base: base, token: token, c: &http.Client{Jar: jar, Timeout: time.Minute}}, nil
		}
	}
	_ = p.cmd.Wait()
	return nil, nil, fmt.Errorf("askuser serve printed no address")
}

// errNoPage: serve has no such page (a set that is not waiting).
var errNoPage = errors.New("no such page")

func (in *inbox) get(path string) (string, error) {
	res, err := in.c.Get(in.base + path + "?" + in.token)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if res.StatusCode == http.StatusNotFound {
		return "", fmt.Errorf("GET /%s: %w", path, errNoPage)
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /%s: status %d: %.200s", path, res.StatusCode, body)
	}
	return string(body), err
}

var (
	formAction = regexp.MustCompile(`action="([^"]+)"`)
	formCSRF   = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)
)

// form waits for session id's page to offer its form, and returns what
// posts the answer "SQLite".
func (in *inbox) form(id string) (func() error, error) { return in.formAt("s/" + id) }

// formAt waits for the page at path (s/ID, q/KEY) to offer its form, and
// returns what posts the answer "SQLite".
func (in *inbox) formAt(path string) (func() error, error) {
	id := path
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		body, err := in.get(path)
		if err != nil {
			return nil, err
		}
		action, csrf := formAction.FindStringSubmatch(body), formCSRF.FindStringSubmatch(body)
		if action != nil && csrf != nil {
			u, _ := url.Parse(in.base)
			return func() error {
				form := url.Values{"q0": {"1"}, "csrf": {csrf[1]}}
				req, _ := http.NewRequest("POST", u.Scheme+"://"+u.Host+action[1], strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				req.Header.Set("X-Askuser-Fetch", "1")
				res, err := in.c.Do(req)
				if err != nil {
					return err
				}
				res.Body.Close()
				switch res.StatusCode {
				case http.StatusOK:
				case http.StatusNotFound, http.StatusConflict:
					return fmt.Errorf("answer %s: status %d: %w", id, res.StatusCode, errNoPage)
				default:
					return fmt.Errorf("answer %s: status %d", id, res.StatusCode)
				}
				return nil
			}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the page /%s offers no form: %w", id, errNoPage)
		}
	}
}
