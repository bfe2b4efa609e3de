package e2e

import (
	"testing"
)

// BenchmarkToolsCallNginx: a tools/call (whoami) through nginx, to one
// replica and to three sharing Redis (run by hand: go test -run '^$'
// -bench . ./e2e).
func BenchmarkToolsCallNginx(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(map[int]string{1: "replicas=1", 3: "replicas=3"}[n], func(b *testing.B) {
			c := startClusterN(b, n)
			b.ResetTimer()
			for range b.N {
				r := toolCall(b, c.url, "whoami", `{}`)
				if r.status != 200 || r.msg.Error != nil {
					b.Fatalf("%d %+v", r.status, r.msg.Error)
				}
			}
		})
	}
}
