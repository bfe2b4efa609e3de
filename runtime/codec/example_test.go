package codec_test

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// An object written with an Encoder and read back with a Decoder.
func Example() {
	var e codec.Encoder
	e.Buf = append(e.Buf, '{')
	e.Name(`"name":`)
	e.Str("adder")
	e.Key("sum")
	e.Int(3)
	e.Buf = append(e.Buf, '}')
	out, err := e.Result(nil)
	if err != nil {
		fmt.Println(err)
		return
	}

	var d codec.Decoder
	d.Init(out)
	var name string
	var sum int64
	if d.Object() {
		for first := true; d.NextMember(&first); {
			switch d.Key {
			case "name":
				name = d.Str()
			case "sum":
				sum = d.Int()
			default:
				d.Skip()
			}
		}
	}
	if err := d.Finish(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out), name, sum)
	// Output: {"name":"adder","sum":3} adder 3
}
