// Package doccheck holds the test that compiles the Go blocks of README.md,
// ARCHITECTURE.md and docs/*.md (doccheck_test.go), so that the
// documentation cannot drift from the code. It has no API.
//
// Every ```go block is type-checked against this repository's packages:
//
//   - A block that starts with a package clause is a Go file of its own,
//     with the imports it writes.
//   - Any other block is a fragment, in package doc: top-level declarations
//     if it parses as such, else statements, which the test wraps in a
//     function that returns an error (so they may return err; the wrapper
//     ends with return nil). Leading import lines are kept; every other
//     import comes from a fixed table (mcp is github.com/mcpgen/mcpgen/generated/mcp20260728,
//     the standard library by its last path element), added for the names
//     the fragment leaves undefined. In statements, a variable declared and
//     not used is no error (the reader's code goes on from there).
//   - An HTML comment on the line just before the fence gives a block its
//     context:
//     <!-- go: context NAME --> compiles the fragment beside
//     testdata/NAME.go, which declares what it uses and does not show (a
//     dispatcher d, a context ctx, a handler type, ...);
//     <!-- go: excerpt PATH --> says the block is a verbatim part of the
//     repository file PATH, which is built where it lives (another module's
//     program, such as go-sdk's half of a side-by-side); the test checks
//     that the file holds the block as it is (or indented by a few tabs
//     more), and does not compile it.
//
// Every block must also be gofmt'ed. A failure names the Markdown file, the
// line and the compiler's message.
//
// A document whose blocks need what this module does not require (another
// module of the repository, its dependencies) is listed in the test's
// elsewhere table with the test file that builds its blocks, which must
// name it: docs/authorization.md is built by auth/interop's TestDocsBuild.
//
// TestDocsLinks checks the relative links of the same documents: each
// names a file that exists, and a #fragment names a heading of the
// Markdown file it points into. TestHarness checks that the compile test
// reports what it should.
package doccheck
