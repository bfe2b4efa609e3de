package e2e

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas"
	"github.com/mcpgen/mcpgen/replicas/internal/replicaserver"
	"github.com/redis/go-redis/v9"
)

// The test binary, run again with REPLICA_NAME set, is one replica: a
// replicaserver on REPLICA_ADDR with its tasks and bus in the Redis at
// REPLICA_REDIS. Real processes, so that kill -9 kills one.
func TestMain(m *testing.M) {
	if name := os.Getenv("REPLICA_NAME"); name != "" {
		if err := runReplica(name, os.Getenv("REPLICA_ADDR"), os.Getenv("REPLICA_REDIS")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lease is the replicas' TaskStoreOptions.Lease in these tests.
const lease = time.Second

func runReplica(name, addr, redisAddr string) error {
	logger := log.New(os.Stderr, name+": ", log.Lmicroseconds)
	rdb := redis.NewClient(replicas.ClientOptions(redisAddr))
	defer rdb.Close()
	bus := replicas.NewBus(rdb, replicas.Options{})
	defer bus.Close()
	r, err := replicaserver.New(replicaserver.Config{Name: name, Tasks: replicas.NewTasks(rdb, replicas.Options{}), Bus: bus, Lease: lease, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)).With("replica", name)})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	mux := http.NewServeMux()
	mux.Handle("/mcp", r.Handler)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		r.Close(sctx)
		srv.Shutdown(sctx)
	}()
	// A replica outlives no test run: the test binary's deadline is at
	// most ten minutes.
	go func() {
		time.Sleep(10 * time.Minute)
		stop()
	}()
	logger.Printf("listening on http://%s/mcp", addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
