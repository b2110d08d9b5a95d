package capture

// sysSendmmsg is sendmmsg's number on linux/amd64, which package
// syscall does not list.
const sysSendmmsg = 307
