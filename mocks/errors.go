package mocks

import "errors"

// ErrNotLoopback is returned by NewUpstream when the listen address is not
// on loopback.
var ErrNotLoopback = errors.New("address is not loopback")

// ErrInvalidResponse is wrapped by Response.Validate, Program and Fallback
// when a Response cannot be served as written.
var ErrInvalidResponse = errors.New("invalid response")

// ErrInvalidRoute is wrapped by Program when the method or path cannot
// match a request.
var ErrInvalidRoute = errors.New("invalid route")
