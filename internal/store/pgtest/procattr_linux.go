package pgtest

import "syscall"

// dieWithParent kills the server when this process dies, however it dies:
// no server is left running on a shared machine by a killed test.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
