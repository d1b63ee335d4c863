package targets

import (
	"sync"

	tclog "github.com/testcontainers/testcontainers-go/log"
)

// testcontainersLogger is testcontainers-go's own default logger, as the
// package starts with it: standard error.
var testcontainersLogger = tclog.Default()

// quietTestcontainers keeps testcontainers-go's package-wide log out of
// the harness's standard error: the "Connected to docker" banner (the
// engine, the resolved Docker host and socket, a session ID) that its
// first Docker client prints once per process, and Ryuk's lines. Each
// container's own log is already silenced by an option of its request
// (tc.WithLogger); the banner goes to the package's default logger, which
// no option reaches. It replaces that logger once, before the first
// client is made, and only while it is still testcontainers' own: a
// program that set another (tclog.SetDefault) keeps it.
var quietTestcontainers = sync.OnceFunc(func() {
	if tclog.Default() == testcontainersLogger {
		tclog.SetDefault(tclog.NewNoopLogger())
	}
})
