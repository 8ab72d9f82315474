package subprocess

// wnohang is WNOHANG of <sys/wait.h>, which package syscall lacks on AIX.
const wnohang = 0x1
