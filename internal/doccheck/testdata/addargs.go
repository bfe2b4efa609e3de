package doc

// AddArgs are the arguments of the "add" tool of the page's first example.
type AddArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}
