package protocol

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// TestMemoryBus: activation, order, and a Gap for a slow subscriber.
func TestMemoryBus(t *testing.T) {
	b := NewMemoryBus(8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Activation: what is published after Subscribe returns arrives, in
	// the order published, at every subscriber.
	x, _ := b.Subscribe(ctx)
	y, _ := b.Subscribe(ctx)
	for i := range 5 {
		if err := b.Publish(ctx, BusMessage{Method: "m", Params: []byte(`{"i":` + strconv.Itoa(i) + `}`)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, ch := range []<-chan BusMessage{x, y} {
		for i := range 5 {
			m := recv(t, ch)
			if m.Gap || m.Method != "m" || string(m.Params) != `{"i":`+strconv.Itoa(i)+`}` {
				t.Fatalf("message %d: %+v", i, m)
			}
		}
	}
	// A subscriber that does not read loses what overflows its buffer:
	// it gets one Gap, then what comes after; the other keeps up.
	for i := range 20 {
		b.Publish(ctx, BusMessage{Method: "n", Params: []byte(strconv.Itoa(i))})
		recv(t, y)
	}
	b.Publish(ctx, BusMessage{Method: "after"})
	if m := recv(t, y); m.Method != "after" {
		t.Fatalf("the reader got %+v", m)
	}
	var got []BusMessage
	for m := recv(t, x); ; m = recv(t, x) {
		got = append(got, m)
		if m.Method == "after" {
			break
		}
	}
	gaps := 0
	for _, m := range got {
		if m.Gap {
			gaps++
		}
	}
	if gaps != 1 || len(got) > 8+2 {
		t.Errorf("the slow subscriber got %d messages, %d gaps: %+v", len(got), gaps, got)
	}
	// Ending the context closes the channel.
	cancel()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-x:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the channel stays open after its context ended")
		}
	}
}

func recv(t *testing.T, ch <-chan BusMessage) BusMessage {
	t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			t.Fatal("the channel closed")
		}
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no message")
	}
	return BusMessage{}
}
