//go:build interop_legacy

package interop

// legacyServing: see legacy_pending_test.go.
const legacyServing = true
