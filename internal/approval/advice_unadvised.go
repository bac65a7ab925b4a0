package approval

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A denial's advice is read by the model, which may relay it to the
// person, or act on it: add the rule to a file it can write, or reshape
// the command until some rule takes it. So advice never names a rule a
// person would not write with their eyes open. A command rule allows the
// command's first words with any further arguments, and a few commands
// are harmless with any: git status, npm test. Others do harm through
// the very arguments the rule leaves open (rm -rf x allows rm -rf x ~),
// run other commands or code (sudo, env, xargs, find), reach the network
// (curl, ssh), or change the system (kill, systemctl, chmod); for those no
// rule is advised, and the denial says a person must approve each call.
// Likewise a tool whose subcommands range from reading to destroying
// (git, docker, kubectl) is advised a rule only for a subcommand that is
// not among the destroying ones, named right after the tool (git -C dir
// names none). A path outside the session's folder, or inside a .git
// folder (its hooks and config run code), is advised no rule either.

// unadvisedCommands are the commands no rule is advised for, whatever
// follows them.
var unadvisedCommands = wordSet(
	// delete, overwrite, change who may do what
	"rm", "rmdir", "unlink", "shred", "srm", "truncate", "dd", "mv", "cp", "install", "ln", "tee", "rsync",
	"mkfs", "mke2fs", "mkswap", "fdisk", "sfdisk", "parted", "wipefs", "chmod", "chown", "chgrp", "chattr", "setfacl",
	// run other commands or code from their arguments
	"sudo", "su", "doas", "pkexec", "runuser", "setpriv", "chroot", "nsenter", "unshare", "chrt", "taskset", "ionice",
	"env", "xargs", "nohup", "nice", "timeout", "time", "watch", "exec", "eval", "command", "builtin", "source", ".",
	"find", "npx", "parallel", "flock", "script", "sh", "bash", "zsh", "dash", "ksh", "fish", "busybox", "awk", "gawk", "sed", "perl",
	// the network
	"curl", "wget", "ssh", "scp", "sftp", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "aws", "gcloud", "gsutil", "az",
	// the system
	"kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff", "systemctl", "service", "launchctl",
	"crontab", "at", "mount", "umount", "swapoff", "iptables", "nft", "ufw", "useradd", "userdel", "usermod", "passwd", "chpasswd",
)

// riskySubcommands are, per tool, the subcommands that rewrite, delete or
// publish: a tool listed here is advised a rule only for a subcommand it
// names that is not listed.
var riskySubcommands = map[string]map[string]bool{
	"git": wordSet("push", "reset", "clean", "checkout", "switch", "restore", "rebase", "filter-branch", "filter-repo",
		"gc", "prune", "reflog", "branch", "tag", "stash", "rm", "mv", "config", "remote", "update-ref", "replace",
		"submodule", "worktree", "am", "apply", "merge", "pull", "fetch", "clone", "send-email", "daemon", "archive"),
	"npm":       wordSet("publish", "unpublish", "deprecate", "owner", "access", "token", "adduser", "login", "exec", "x", "explore"),
	"pnpm":      wordSet("publish", "exec", "dlx"),
	"yarn":      wordSet("publish", "npm", "exec", "dlx"),
	"cargo":     wordSet("publish", "yank", "owner", "login", "install", "uninstall"),
	"go":        wordSet("run", "install", "generate", "get", "env"),
	"pip":       wordSet("install", "uninstall"),
	"pip3":      wordSet("install", "uninstall"),
	"gem":       wordSet("push", "yank", "owner", "install", "uninstall"),
	"twine":     wordSet("upload"),
	"docker":    wordSet("rm", "rmi", "run", "exec", "system", "volume", "network", "image", "container", "push", "kill", "stop", "login", "compose", "buildx", "builder", "prune", "cp"),
	"podman":    wordSet("rm", "rmi", "run", "exec", "system", "volume", "network", "image", "container", "push", "kill", "stop", "login", "compose", "prune", "cp"),
	"kubectl":   wordSet("delete", "apply", "replace", "patch", "edit", "drain", "cordon", "scale", "rollout", "exec", "cp", "create", "run", "set", "label", "annotate", "taint"),
	"helm":      wordSet("install", "upgrade", "uninstall", "delete", "rollback", "push"),
	"terraform": wordSet("apply", "destroy", "import", "state", "taint", "untaint", "force-unlock", "console"),
	"tofu":      wordSet("apply", "destroy", "import", "state", "taint", "untaint", "force-unlock", "console"),
	"gh":        wordSet("api", "repo", "release", "secret", "workflow", "pr", "issue", "gist", "auth", "ssh-key", "gpg-key", "variable", "extension", "codespace"),
}

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// unadvised says why no rule is advised for a command whose first words
// are prefix ("rm -rf x": "a rule for rm would allow it on any target"),
// or "" when one may be.
func unadvised(prefix string) string {
	words := strings.Fields(prefix)
	if len(words) == 0 {
		return "it names no command"
	}
	name := path.Base(strings.Trim(words[0], `'"\`))
	if unadvisedCommands[name] || strings.HasPrefix(name, "mkfs.") {
		return "a rule for " + clip(name) + " would allow it with any further arguments, unseen"
	}
	risky, ok := riskySubcommands[name]
	if !ok {
		return ""
	}
	// The subcommand right after the name: with options before it (git
	// -C dir), the rule would not name one.
	if len(words) < 2 || strings.HasPrefix(words[1], "-") {
		return "a rule for " + clip(prefix) + " would allow every subcommand of " + clip(name) + ", the ones that delete or publish too"
	}
	if sub := strings.Trim(words[1], `'"\`); risky[sub] {
		return clip(name+" "+sub) + " changes, deletes, runs or publishes what its arguments name"
	}
	return ""
}

// unadvisedPath says why no rule is advised for a path: it is outside
// the session's folder dir, or in a .git folder; "" when one may be.
func unadvisedPath(p, dir string) string {
	clean := filepath.Clean(p)
	if dir != "" && !filepath.IsAbs(clean) {
		clean = filepath.Join(dir, clean)
	}
	if slices.Contains(strings.Split(filepath.ToSlash(clean), "/"), ".git") {
		return "it is inside a .git folder, whose hooks and config run code"
	}
	if dir == "" {
		return ""
	}
	if rel, err := filepath.Rel(filepath.Clean(dir), clean); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "it is outside the session's folder"
	}
	return ""
}
