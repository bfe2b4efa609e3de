// Package e2e tests replicas of examples/everything-server end to end:
// the test binary, run again with REPLICA_NAME set, is one replica, and
// the tests start redis-server, the replicas and nginx on 127.0.0.1 and
// talk to them through nginx (docs/replicas.md). It has tests only, no API.
package e2e
