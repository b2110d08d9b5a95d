//go:build linux && !386 && !amd64

package capture

import "syscall"

// sysSendmmsg is sendmmsg's number.
const sysSendmmsg = syscall.SYS_SENDMMSG
