// Command mcpgen-proxy is mcpgen proxy (docs/proxy.md) with a result cache
// that several proxy instances share through Redis: --redis ADDR keeps
// the cache in the Redis at ADDR (replicas.ProxyCache) instead of in the
// process's memory. Its flags are mcpgen proxy's, and --redis and
// --redis-prefix.
//
//	mcpgen-proxy --listen 127.0.0.1:8931 --redis 127.0.0.1:6379 https://example.com/mcp
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/cli/proxycmd"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"github.com/mcpgen/mcpgen/replicas"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/pflag"
)

func main() {
	proxycmd.AddPlugin(redisPlugin)
	os.Exit(cli.Main(append([]string{"proxy"}, os.Args[1:]...)))
}

// redisPlugin adds --redis and --redis-prefix: with --redis, the proxy's
// cache is a replicas.ProxyCache on that Redis, which must answer a PING
// at start.
func redisPlugin(fs *pflag.FlagSet) func(context.Context, *proxy.Options) (func(), error) {
	addr := fs.String("redis", "", "keep the result cache in the Redis at `HOST:PORT`, shared with the proxies that use it with the same --redis-prefix")
	prefix := fs.String("redis-prefix", "mcp:proxy:", "prefix of the cache's keys in Redis")
	return func(ctx context.Context, opts *proxy.Options) (func(), error) {
		if *addr == "" {
			return nil, nil
		}
		if opts.Cache == nil {
			return nil, fmt.Errorf("--redis with --cache-bytes 0: no cache to share")
		}
		rc := redis.NewClient(replicas.ClientOptions(*addr))
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := rc.Ping(pctx).Err(); err != nil {
			rc.Close()
			return nil, fmt.Errorf("--redis %s: %w", *addr, err)
		}
		opts.Cache = replicas.NewProxyCache(rc, replicas.ProxyCacheOptions{Prefix: *prefix, Logger: opts.Logger})
		return func() { rc.Close() }, nil
	}
}
