package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/inbox"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the inbox: every session waiting on a question or an approval, answered from a browser",
		Description: `Serves a page, on 127.0.0.1 and a free port unless --listen says otherwise, listing
every session in the state directory that waits on a question or an approval (newest
first, with its prompt, how long it has waited and who waits), and the other sessions with
their transcripts. The URL, with its token, is printed on standard error; nobody without
the token can see or answer anything.

The token is kept in serve.token in the state directory (--token-file FILE to keep it
elsewhere), created readable by you alone, so the URL, and a bookmark of it, works again
after a restart; give --listen a fixed port too, since a free port changes. A token file
that others may read, that is not a regular file of yours, or that is a symbolic link is
refused. --new-token replaces the token: every URL and page opened before stops working.

Answering a set on the page records it as a person's answer, given later, and resumes the
session in the background, as askuser resume would: askuser resume ID -p --frontend stdio
--on-unanswered suspend --output-format stream-json, its output kept in
sessions/ID.d/serve.log beside the session and told on the session's page. Sets not
answered yet stay pending. Each answer, and each resume started and ended (with its exit
code), is logged on standard error. Ctrl+C stops serving; a resume under way goes on by
itself.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Usage: "serve on `ADDR` (default 127.0.0.1 and a free port; another host is reachable by others, who still need the token)"},
			&cli.StringFlag{Name: "token-file", Usage: "keep the page's token in `FILE` (default serve.token in the state directory), so its URL works after a restart"},
			&cli.BoolFlag{Name: "new-token", Usage: "make a new token, replacing the kept one: URLs and pages opened before stop working"},
			stateDirFlag(),
		},
		Action: func(c *cli.Context) error { return runServe(c, e) },
	}
}

func runServe(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usageErrorf("serve takes no arguments, got %q; the state directory is --state-dir DIR", c.Args().First())
	}
	store := sessionStore(c, e)
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("serve: find askuser's own binary to resume sessions with: %w", err)
	}
	tokenFile := c.String("token-file")
	if tokenFile == "" {
		tokenFile = filepath.Join(store.Dir, serveTokenFile)
	}
	token, err := serveToken(tokenFile, c.Bool("new-token"))
	if err != nil {
		return fmt.Errorf("serve: the page's token: %w", err)
	}
	in, err := inbox.NewInbox(inbox.InboxConfig{Store: store, Resume: resumeCommandFor(exe, store.Dir), DescribeExit: describeExit,
		Log: e.ios.ErrOut}, inbox.Options{Listen: c.String("listen"), Warn: e.ios.ErrOut, Token: token})
	if errors.Is(err, inbox.ErrListenAddress) {
		return withCode(ExitUsage, fmt.Errorf("--listen: %w", err))
	} else if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(e.ios.ErrOut, "askuser: inbox of %s at %s\n", store.Dir, in.URL())
	forget := leaveAddress(store.Dir, in.URL(), e.ios.ErrOut)
	defer forget()
	<-c.Context.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = in.Close(ctx)
	if ids := in.Resuming(); len(ids) > 0 {
		fmt.Fprintf(e.ios.ErrOut, "askuser: stopped serving; still resuming in the background: %s (see sessions/ID.d/serve.log)\n", strings.Join(ids, ", "))
	} else {
		fmt.Fprintln(e.ios.ErrOut, "askuser: stopped serving")
	}
	return nil
}

// resumeCommandFor is how the inbox resumes a session: this binary's
// askuser resume, reading the person's answers as JSON lines and keeping
// the sets it gets no answer for. It writes stream-json, so the page can
// tell each step in words (an answer taken, a tool call, how the run went
// on) rather than show a log meant for a terminal, which would tell the
// person to run askuser resume. The environment's frontend settings are
// dropped, since the flags say how to ask, and so is ASKUSER_NOTIFY_CMD:
// the JSON-lines frontend would notify about every set it is given, the
// ones just answered on the page too, and the page shows new questions as
// they come.
func resumeCommandFor(exe, stateDir string) func(id string) *exec.Cmd {
	return func(id string) *exec.Cmd {
		cmd := exec.Command(exe, "resume", id, "--print", "--frontend", feStdio, "--on-unanswered", "suspend",
			"--output-format", outStreamJSON, "--state-dir", stateDir)
		for _, kv := range os.Environ() {
			switch name, _, _ := strings.Cut(kv, "="); name {
			case "ASKUSER_NOTIFY_CMD", "ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED":
			default:
				cmd.Env = append(cmd.Env, kv)
			}
		}
		return cmd
	}
}

// describeExit words a resume's exit code from the table, for the inbox's
// page and serve's log. A resume that stopped to wait is said as such:
// the table's "answer it with askuser resume" is not for a person whose
// page takes the answer.
func describeExit(code int) string {
	for _, x := range exitTable {
		if x.code == code {
			text := x.text
			if code == ExitWaiting {
				text = "the session stopped to wait for an answer"
			}
			return fmt.Sprintf("exit %d, %s: %s", code, x.name, text)
		}
	}
	return fmt.Sprintf("exit %d", code)
}

// serveURLFile is where askuser serve leaves its address, token included,
// in the state directory it serves: a run's --notify-cmd then links to the
// session's page (ASKUSER_INBOX_URL). It is the user's own (0600), like
// the sessions beside it, which the token guards no more than the file.
const serveURLFile = "serve.url"

// leaveAddress writes the inbox's URL for runs to find, and returns what
// takes it away again: only while it is still this inbox's. It holds the
// token, so it is written as the token file is (replaceOwn): 0600, never
// through a link planted in its place.
func leaveAddress(stateDir, address string, errOut io.Writer) func() {
	path := filepath.Join(stateDir, serveURLFile)
	if err := replaceOwn(path, address+"\n"); err != nil {
		fmt.Fprintf(errOut, "askuser: could not leave the inbox's address for notifications (%v); they will not link to it\n", err)
		return func() {}
	}
	return func() {
		if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) == address {
			os.Remove(path)
		}
	}
}

// inboxURL is the page of session id in the askuser serve that serves
// stateDir, token included, or "" when none does.
func inboxURL(stateDir, id string) string {
	if stateDir == "" || id == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(stateDir, serveURLFile))
	if err != nil {
		return ""
	}
	u, err := url.Parse(strings.TrimSpace(string(b)))
	if err != nil || u.Scheme != "http" || u.Query().Get("token") == "" {
		return ""
	}
	u.Path = "/s/" + id
	return u.String()
}
