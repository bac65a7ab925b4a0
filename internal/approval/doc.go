// Package approval decides whether a tool call may run: by rules a person
// wrote (Claude Code's syntax: mcp__fs__read_file, mcp__fs, Bash(git
// status:*), Write(src/**)), by grants given earlier in the session, by a
// permission mode, or by asking. An approval is asked as an ordinary
// question set (Request.Question), so every frontend can answer it;
// FromAnswers turns the answers into a Decision that says who made it.
//
// It imports only ask and its own shellread, which reads command lines with
// mvdan.cc/sh (nothing is ever run): askuser run's tool adapter, askuser mcp's
// approve tool and askuser hook all call the same code and only translate
// the Decision into their own shapes.
//
// Rules mean what Claude Code's mean, and are at least as strict:
//   - A command line is read as bash reads it (package shellread). An allow rule
//     covers it only when every simple command in it is allowed and
//     nothing in it runs code no rule can see (substitutions, eval, sh -c,
//     functions, variables set for a command, arithmetic) or writes where
//     no rule looks (redirections to files, background jobs); a line that
//     does not parse is never covered. A deny or ask rule matches any
//     command the line would run, wherever it is written; where the line
//     runs code the reader cannot see (piped into a shell, arithmetic on
//     a value, another language) or gives a command it does not know
//     words the rule matches, the rule asks.
//   - A path is cleaned against the session's folder before it is
//     matched (pathrule.go): a path that leaves a rule's folder never
//     matches it, and an allow rule must cover where links lead too, as
//     the kernel follows them (pathlink.go). A search (Grep, Glob, LS)
//     reads what is under its folder (pathsearch.go).
//
// Invariants:
//   - Deny unless something allows: a deny rule wins over everything, an
//     ask rule over allow rules and grants, and a call no rule, grant or
//     mode allows must be asked. Where the rules stop reading a command
//     line (nested too deep, too many commands, a line that does not
//     parse, code it cannot see) or cannot read a path (no home folder
//     for ~, links that loop), or a search's folder may hold what a deny
//     or ask rule matches, a deny or ask rule for its tool makes the call
//     asked: the mode or a grant never allows what a deny rule might have
//     caught.
//   - Only a person (or a rule or answer a person wrote) approves. Answers
//     from the recommended-option policy (--frontend auto, unanswered:
//     auto, --on-timeout auto) never approve a call, whatever option they
//     picked: the policy falls back to the first option, and "Allow" may be
//     first. Such a call is denied, and the denial says why.
//   - Every Decision records who made it, and says so in one sentence
//     written once (messages.go), so the result a model or a host gets
//     names who decided and what to do, and no caller adds to it.
//   - A denial for want of a rule advises the narrowest rule that allows
//     the call (advice.go), read back and matched against the call before
//     it is said; never a bare Bash, which would allow every command, nor
//     a rule the file has already, nor one that would allow a command
//     blindly (rm, sudo, curl, git push: advice_unadvised.go). It is
//     addressed to the person: the model is told not to change the file.
//   - Reading a hostile command line or path costs bounded work and never
//     panics.
package approval
