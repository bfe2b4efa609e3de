// Package deploy holds the configuration files docs/replicas.md describes
// and the tests in replicas/ run with: nginx.conf, in front of three
// replicas.
package deploy

import _ "embed"

// NginxConf is nginx.conf: replicas at 10.0.0.1-3:3001 with session
// prefixes r1., r2., r3., nginx at 127.0.0.1:8080, paths relative to
// nginx's prefix.
//
//go:embed nginx.conf
var NginxConf string
