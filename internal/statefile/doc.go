// Package statefile opens the files askuser keeps in its state directory
// (session journals, the logs beside them, the inbox's address, the demo's
// script) so that whatever else is found there cannot be turned against
// their owner.
//
// Invariants:
//   - A symbolic link is never followed: opening, creating or appending to
//     a path that is a link fails with a *NotRegularError naming it, so a
//     planted link never makes askuser read, truncate or append to the file
//     it points to.
//   - Only a regular file is read or written. A FIFO, a device, a socket or
//     a directory is refused with a *NotRegularError, and opening it never
//     blocks: the open is non-blocking, and the file's type is checked on
//     the open descriptor (fstat) before anything is read, so there is no
//     window between checking and using. A regular file is then put back
//     into blocking mode.
//   - A read is bounded: ReadAll and ReadFile refuse a file larger than the
//     caller's limit before reading it, and never read more than the limit
//     if it grows meanwhile (*TooLargeError).
//   - MkdirAll leaves a real directory, never a link to one, as the last
//     element, so files created in it stay in the state directory.
//
// The directories above the state directory are the user's business (a
// state directory reached through a link is fine); the checks are on the
// files askuser opens and the directories it makes there.
package statefile
