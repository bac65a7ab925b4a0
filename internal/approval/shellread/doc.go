// Package shellread reads a command line as bash reads it, with a real
// shell parser (mvdan.cc/sh), and never runs it: the approval rules
// (package approval) see a Bash call as the simple commands it would run
// (Read, a Line of Cmds), and whether any of it runs code no rule can see.
//
// What the rules then see:
//   - an allow rule covers a line only when every simple command in it is
//     allowed, and nothing in it runs code no rule can see (a command or
//     process substitution, eval, sh -c, a function, a variable set for a
//     command, arithmetic) or writes where no rule looks (a redirection to
//     a file, a background job); a line that does not parse is never
//     covered;
//   - a deny or ask rule matches when any command the line would run
//     matches it, wherever it is: after && or |, inside $(…), inside
//     bash -c '…' or eval when the code is written out, in a here-document
//     or here-string a shell reads (given to it, or to a block, loop,
//     function or wrapper around it), behind sudo, xargs, env, nice,
//     timeout, find -exec, chrt and the other runners (wrap.go), in
//     a variable or git configuration that is run (vars.go,
//     git.go), or named by a path (/bin/rm);
//   - code the reader cannot see (from a pipe or a value: code.go;
//     arithmetic on a value: arith.go; another language:
//     interp.go; a script the line writes: script.go) leaves
//     the line not read in full (partial), and the words of a command it
//     does not know are guesses (guess.go): a deny or ask rule then
//     asks, under every mode.
//
// Either way a line that cannot be read does not get through: at worst a
// person is asked.
//
// Invariants: reading a hostile line costs bounded work (MaxCmds, the
// depth and a byte budget a few times the line: read.go) and never panics;
// this package imports only the standard library, mvdan.cc/sh and ask.
package shellread
