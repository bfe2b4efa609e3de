package doc

// data is a JSON document the fragments decode.
var data []byte
