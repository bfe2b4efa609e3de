package wire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// The test binary is also a scripted stdio server: with the first
// argument "wire-script", it answers each request it reads with the
// lines of the script (one argument each) whose turn it is: argument i+2
// answers request i ("|" separates lines written at once); responses
// (to its own requests) are read and ignored.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "wire-script" {
		sc := bufio.NewScanner(os.Stdin)
		for i := 2; i < len(os.Args) && sc.Scan(); i++ {
			if strings.Contains(sc.Text(), `"result"`) {
				i--
				continue
			}
			for _, l := range strings.Split(os.Args[i], "|") {
				if l != "" {
					fmt.Println(l)
				}
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var testLimits = Limits{Timeout: 2 * time.Second, MaxBytes: 1 << 10, MaxMessages: 5, Linger: 200 * time.Millisecond, ExitWait: 2 * time.Second}

func TestIDKey(t *testing.T) {
	for _, c := range []struct{ a, b string }{{`7`, `7.0`}, {`"7"`, `"7"`}, {`null`, ``}, {` 7 `, `7`}} {
		if IDKey([]byte(c.a)) != IDKey([]byte(c.b)) {
			t.Errorf("%s and %s are different keys", c.a, c.b)
		}
	}
	if IDKey([]byte(`7`)) == IDKey([]byte(`"7"`)) {
		t.Error(`7 and "7" are one key`)
	}
}

func TestStdioRouting(t *testing.T) {
	s, err := StartStdio([]string{os.Args[0], "wire-script",
		`not json|{"jsonrpc":"2.0","method":"notifications/message","params":{}}|{"jsonrpc":"2.0","id":99,"result":{}}|{"jsonrpc":"2.0","id":1,"result":{}}|{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":"s1","method":"ping"}|{"jsonrpc":"2.0","id":"a","result":{}}`,
		strings.Repeat("x", 2000),
	}, testLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x := &Exchange{Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), ID: `1`}
	if err := s.Do(context.Background(), x); err != nil {
		t.Fatal(err)
	}
	if string(x.Response) != `{"jsonrpc":"2.0","id":1,"result":{}}` || len(x.Messages) != 2 {
		t.Errorf("response %s, %d messages", x.Response, len(x.Messages))
	}
	time.Sleep(100 * time.Millisecond) // the duplicate
	var kinds []EventKind
	for _, e := range s.Events() {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != fmt.Sprint([]EventKind{NotMessage, UnknownID, Duplicate}) {
		t.Errorf("events %v", kinds)
	}
	y := &Exchange{Body: []byte(`{"jsonrpc":"2.0","id":"a","method":"x"}`), ID: `"a"`}
	if err := s.Do(context.Background(), y); err != nil || len(y.Messages) != 2 {
		t.Errorf("second exchange: %v, %d messages (the server request and the response)", err, len(y.Messages))
	}
	z := &Exchange{Body: []byte(`{"jsonrpc":"2.0","id":3,"method":"x"}`), ID: `3`}
	var le *LimitError
	if err := s.Do(context.Background(), z); !errors.As(err, &le) {
		t.Errorf("a long line: %v, want a LimitError", err)
	}
	res := s.Close()
	if !res.ExitedOnEOF || res.Exit == nil {
		t.Errorf("close: %+v", res)
	}
}

func TestStdioExitAndTimeout(t *testing.T) {
	s, err := StartStdio([]string{os.Args[0], "wire-script", ""}, testLimits)
	if err != nil {
		t.Fatal(err)
	}
	x := &Exchange{Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`), ID: `1`}
	var ee *ExitError
	if err := s.Do(context.Background(), x); !errors.As(err, &ee) || ee.Status != "exit status 0" {
		t.Errorf("%v, want the exit", err)
	}
	s.Close()
}

func TestHTTPStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		fmt.Fprint(w, "id: 0\r\ndata:\r\n\r\n")
		fmt.Fprint(w, ": a comment\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"method\":\"notifications/progress\",\"params\":{}}\n\n")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		f.Flush()
		if r.URL.Path == "/linger" {
			time.Sleep(time.Second)
		}
	}))
	defer srv.Close()
	for _, path := range []string{"/", "/linger"} {
		h := NewHTTP(srv.URL+path, testLimits)
		x := &Exchange{Body: []byte(`{}`), ID: `1`}
		if err := h.Do(context.Background(), x); err != nil {
			t.Fatal(err)
		}
		if !x.SSE || !x.Priming || len(x.Messages) != 2 || string(x.Response) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
			t.Errorf("%s: %+v", path, x)
		}
		if x.StreamEnded != (path == "/") {
			t.Errorf("%s: StreamEnded %v", path, x.StreamEnded)
		}
	}
}

func TestHTTPLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, strings.Repeat(" ", 4<<10))
		case "/events":
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < 100; i++ {
				fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n")
			}
		case "/slow":
			time.Sleep(3 * time.Second)
		}
	}))
	defer srv.Close()
	var le *LimitError
	var te *TimeoutError
	for path, want := range map[string]any{"/big": &le, "/events": &le, "/slow": &te} {
		x := &Exchange{Body: []byte(`{}`), ID: `1`}
		err := NewHTTP(srv.URL+path, testLimits).Do(context.Background(), x)
		if !errors.As(err, want) {
			t.Errorf("%s: %v", path, err)
		}
	}
}
