package emit

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// Raw checks validate JSON text against its schema: the values kept as
// bytes (json.RawMessage and the opaque types), and the typed values whose
// schema uses keywords a Go value cannot be checked by directly, through
// their encoding. Each schema node gets one function,
// rawCheckN(d *decoder, s *vstate), that reads one value from d and records
// its violations; $ref calls the target's function, so recursive schemas
// such as JSONValue work. The keywords that apply to the value itself
// (allOf, anyOf, not, if, ...) read it again with sub decoders.
//
// unevaluatedProperties and unevaluatedItems need to know which members or
// elements the other keywords evaluated (2020-12 annotations). A node that
// can be reached from one of them through the keywords that apply to the
// same value gets a second function, rawEvalN(d, s, ev *Eval), which also
// records in ev what it evaluated; the caller keeps that only when the
// subschema passed.

type rawFunc struct {
	check *ir.Check
	eval  bool
	name  string
}

type rawChecks struct {
	names map[*ir.Check]string
	evals map[*ir.Check]string
	queue []rawFunc
	done  int
	// nameLists holds the member names a dependencies check looks up.
	nameLists [][]string
}

func newRawChecks() *rawChecks {
	return &rawChecks{names: map[*ir.Check]string{}, evals: map[*ir.Check]string{}}
}

// need returns the function name that checks s, queueing it.
func (r *rawChecks) need(s *ir.Check) string {
	if n, ok := r.names[s]; ok {
		return n
	}
	n := "rawCheck" + strconv.Itoa(len(r.names)+1)
	r.names[s] = n
	r.queue = append(r.queue, rawFunc{check: s, name: n})
	return n
}

// needEval returns the function name that checks s and records what it
// evaluated, queueing it.
func (r *rawChecks) needEval(s *ir.Check) string {
	if n, ok := r.evals[s]; ok {
		return n
	}
	n := "rawEval" + strconv.Itoa(len(r.evals)+1)
	r.evals[s] = n
	r.queue = append(r.queue, rawFunc{check: s, eval: true, name: n})
	return n
}

func (e *emitter) emitRawChecks() {
	for e.raw.done < len(e.raw.queue) {
		f := e.raw.queue[e.raw.done]
		e.raw.done++
		e.emitRawCheck(f)
	}
	for i, names := range e.raw.nameLists {
		var lits []jen.Code
		for _, n := range names {
			lits = append(lits, jen.Lit(n))
		}
		e.validate.Var().Id("rawNames" + strconv.Itoa(i+1)).Op("=").Index().String().Values(lits...)
	}
}

func (e *emitter) emitRawCheck(f rawFunc) {
	where := "#" + f.check.Pointer
	if f.check.Pointer == "" {
		where = "the schema"
	}
	params := []jen.Code{jen.Id("d").Op("*").Qual(codecPkg, "Decoder"), jen.Id("s").Op("*").Qual(codecPkg, "Validator")}
	doc := fmt.Sprintf("%s checks one JSON value against %s.", f.name, where)
	if f.eval {
		params = append(params, jen.Id("ev").Op("*").Qual(codecPkg, "Eval"))
		doc = fmt.Sprintf("%s checks one JSON value against %s and records in ev the members or items it evaluated.", f.name, where)
	}
	e.validate.Comment(commentText(doc))
	g := &rawGen{e: e, sc: f.check, eval: f.eval}
	e.validate.Func().Id(f.name).Params(params...).Block(g.body()...)
}

// rawGen writes the body of one raw check function.
type rawGen struct {
	e     *emitter
	sc    *ir.Check
	eval  bool // the function records annotations in its ev parameter
	track bool // ev is in scope (eval, or the node has unevaluated*)
	needC bool // the body uses c, the value's first byte
}

// call calls the check of c on decoder dec, recording violations in st;
// with ev it calls the evaluating variant.
func (g *rawGen) call(c *ir.Check, dec, st, ev jen.Code) jen.Code {
	if ev != nil {
		return jen.Id(g.e.raw.needEval(c)).Call(dec, st, ev)
	}
	return jen.Id(g.e.raw.need(c)).Call(dec, st)
}

// evArg is the ev argument for a subschema that applies to the value
// itself, nil when nothing records annotations.
func (g *rawGen) evArg() jen.Code {
	if g.track {
		return jen.Id("ev")
	}
	return nil
}

// add records a violation whose message is built at run time: only when
// s records violations (a quiet vstate counts the failure, and nothing is
// allocated).
func add(keyword string, msg jen.Code) jen.Code {
	return jen.If(jen.Id("s").Dot("Loud").Call()).Block(jen.Id("s").Dot("Add").Call(jen.Lit(keyword), msg))
}

// addConst records a violation with a constant message.
func addConst(keyword, msg string) jen.Code {
	return jen.Id("s").Dot("Add").Call(jen.Lit(keyword), jen.Lit(msg))
}

func (g *rawGen) body() []jen.Code {
	sc := g.sc
	skip := jen.Id("d").Dot("Skip").Call()
	if sc.IsBool {
		if sc.Accept {
			return []jen.Code{skip}
		}
		return []jen.Code{addConst("false", "no value is allowed here"), skip}
	}
	g.track = g.eval || sc.UnevaluatedProperties != nil || sc.UnevaluatedItems != nil
	var out []jen.Code
	if g.track && !g.eval {
		out = append(out, jen.Var().Id("evs").Qual(codecPkg, "Eval"), jen.Id("ev").Op(":=").Op("&").Id("evs"))
	}
	if sc.UnevaluatedProperties != nil || sc.UnevaluatedItems != nil {
		out = append(out, jen.Id("sv").Op(":=").Id("d").Dot("Sub").Call())
	}
	out = append(out, g.inPlace()...)
	if sc.Types != nil {
		out = append(out, g.typeCheck())
	}
	if sc.Const != nil {
		out = append(out, jen.If(jen.Op("!").Qual(codecPkg, "EqualsConst").Call(jen.Id("d").Dot("PeekRaw").Call(), jen.Lit(sc.Const.JSON))).Block(
			add("const", jen.String().Call(jen.Id("d").Dot("PeekRaw").Call()).Op("+").Lit(" is not "+sc.Const.JSON)),
		))
	}
	if sc.Enum != nil {
		out = append(out, g.enumCheck())
	}
	var cases []jen.Code
	if obj := g.object(); obj != nil {
		cases = append(cases, jen.Case(kindTest(ir.KObject)).Block(obj...))
	}
	if arr := g.array(); arr != nil {
		cases = append(cases, jen.Case(kindTest(ir.KArray)).Block(arr...))
	}
	if str := g.e.rawString(sc); str != nil {
		cases = append(cases, jen.Case(kindTest(ir.KString)).Block(str...))
	}
	if num := rawNumber(sc); num != nil {
		cases = append(cases, jen.Case(kindTest(ir.KFloat)).Block(num...))
	}
	if len(cases) > 0 {
		g.needC = true
	}
	if g.needC {
		out = append([]jen.Code{jen.Id("c").Op(":=").Id("d").Dot("Peek").Call()}, out...)
	}
	if len(cases) == 0 {
		return append(out, skip)
	}
	cases = append(cases, jen.Default().Block(skip))
	return append(out, jen.Switch().Block(cases...))
}

// inPlace checks the subschemas that apply to the value itself, each on a
// sub decoder: $ref, allOf, anyOf, oneOf, not, if/then/else, dependencies.
func (g *rawGen) inPlace() []jen.Code {
	sc := g.sc
	var out []jen.Code
	sub := func(c *ir.Check, st string, ev jen.Code) jen.Code {
		return jen.Block(
			jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(),
			g.call(c, jen.Op("&").Id("sd"), jen.Id(st), ev),
		)
	}
	if sc.Ref != nil {
		out = append(out, sub(sc.Ref, "s", g.evArg()))
	}
	for _, p := range sc.AllOf {
		out = append(out, sub(p, "s", g.evArg()))
	}
	if len(sc.AnyOf) > 0 {
		out = append(out, g.alternatives("anyOf", sc.AnyOf))
	}
	if len(sc.OneOf) > 0 {
		out = append(out, g.alternatives("oneOf", sc.OneOf))
	}
	if sc.Not != nil && !sc.Not.Inexact {
		// A not whose subschema cannot be decided exactly is not enforced
		// (the builder warns): a pass might be a failure.
		out = append(out, jen.Block(
			jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(),
			jen.Id("vs").Op(":=").Qual(codecPkg, "NewQuietValidator").Call(),
			g.call(sc.Not, jen.Op("&").Id("sd"), jen.Id("vs"), nil),
			jen.If(jen.Id("vs").Dot("Release").Call()).Block(
				add("not", jen.Lit("must not be valid against "+pointerText(sc.Not.Pointer))),
			),
		))
	}
	if sc.If != nil && (sc.Then != nil || sc.Else != nil || g.track) {
		out = append(out, g.ifThenElse())
	}
	if len(sc.Dependencies) > 0 {
		out = append(out, g.dependencies()...)
	}
	return out
}

func pointerText(ptr string) string {
	if ptr == "" {
		return "the schema"
	}
	return "#" + ptr
}

// alternatives checks anyOf or oneOf: each branch on its own sub decoder
// and vstate, counting the ones that pass.
func (g *rawGen) alternatives(kw string, list []*ir.Check) jen.Code {
	block := []jen.Code{jen.Id("n").Op(":=").Lit(0)}
	inexact := false
	for _, p := range list {
		counter := "n"
		if kw == "oneOf" && p.Inexact {
			// A branch that may pass where the schema says it fails does
			// not count as a second match.
			counter, inexact = "maybe", true
		}
		var ev jen.Code
		try := []jen.Code{jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(), jen.Id("vs").Op(":=").Qual(codecPkg, "NewQuietValidator").Call()}
		passed := []jen.Code{jen.Id(counter).Op("++")}
		if g.track {
			try = append(try, jen.Var().Id("be").Qual(codecPkg, "Eval"))
			ev = jen.Op("&").Id("be")
			passed = append(passed, jen.Id("ev").Dot("Merge").Call(jen.Op("&").Id("be")))
		}
		try = append(try,
			g.call(p, jen.Op("&").Id("sd"), jen.Id("vs"), ev),
			jen.If(jen.Id("vs").Dot("Release").Call()).Block(passed...),
		)
		// A branch whose type rules out the value's kind fails without
		// being run (and without building messages).
		if cond := kindGuard(p); cond != nil {
			g.needC = true
			block = append(block, jen.If(cond).Block(try...))
		} else {
			block = append(block, jen.Block(try...))
		}
	}
	if inexact {
		block = append([]jen.Code{jen.Id("maybe").Op(":=").Lit(0)}, block...)
	}
	switch {
	case kw == "anyOf":
		block = append(block, jen.If(jen.Id("n").Op("==").Lit(0)).Block(
			addConst("anyOf", "matches none of the alternatives"),
		))
	case inexact:
		block = append(block, jen.If(jen.Id("n").Op(">").Lit(1).Op("||").Id("n").Op("+").Id("maybe").Op("==").Lit(0)).Block(
			add("oneOf", jen.Lit("must match exactly one alternative, matches ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n"))),
		))
	default:
		block = append(block, jen.If(jen.Id("n").Op("!=").Lit(1)).Block(
			add("oneOf", jen.Lit("must match exactly one alternative, matches ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n"))),
		))
	}
	return jen.Block(block...)
}

// ifThenElse checks if, then and else. The annotations of if count when it
// passes. When if cannot be decided exactly, a pass may be a failure: the
// value must then be valid against then or else.
func (g *rawGen) ifThenElse() jen.Code {
	sc := g.sc
	block := []jen.Code{
		jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(),
		jen.Id("vs").Op(":=").Qual(codecPkg, "NewQuietValidator").Call(),
	}
	var ifEv jen.Code
	if g.track {
		block = append(block, jen.Var().Id("ie").Qual(codecPkg, "Eval"))
		ifEv = jen.Op("&").Id("ie")
	}
	block = append(block, g.call(sc.If, jen.Op("&").Id("sd"), jen.Id("vs"), ifEv))
	branch := func(c *ir.Check, st string) []jen.Code {
		if c == nil {
			return nil
		}
		return []jen.Code{jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(), g.call(c, jen.Op("&").Id("sd"), jen.Id(st), g.evArg())}
	}
	var then []jen.Code
	if g.track {
		then = append(then, jen.Id("ev").Dot("Merge").Call(jen.Op("&").Id("ie")))
	}
	switch {
	case sc.If.Inexact && sc.Then != nil && sc.Else != nil:
		then = append(then, jen.Id("tv").Op(":=").Qual(codecPkg, "NewQuietValidator").Call())
		then = append(then, branch(sc.Then, "tv")...)
		elseTry := []jen.Code{jen.Id("ev2").Op(":=").Qual(codecPkg, "NewQuietValidator").Call()}
		elseTry = append(elseTry, jen.Block(branch(sc.Else, "ev2")...))
		elseTry = append(elseTry, jen.If(jen.Op("!").Id("ev2").Dot("Release").Call()).Block(
			addConst("if", "is valid against neither then nor else"),
		))
		then = append(then, jen.If(jen.Op("!").Id("tv").Dot("Release").Call()).Block(elseTry...))
	case sc.If.Inexact:
		// then alone, or else alone: the other side accepts everything.
	default:
		then = append(then, branch(sc.Then, "s")...)
	}
	els := branch(sc.Else, "s")
	cond := jen.If(jen.Id("vs").Dot("Release").Call()).Block(then...)
	if len(els) > 0 {
		cond.Else().Block(els...)
	}
	block = append(block, cond)
	return jen.Block(block...)
}

// dependencies checks dependentRequired, dependentSchemas and
// dependencies on an object: which of the names involved are present is
// read once.
func (g *rawGen) dependencies() []jen.Code {
	sc := g.sc
	var names []string
	index := func(n string) int {
		if i := slices.Index(names, n); i >= 0 {
			return i
		}
		names = append(names, n)
		return len(names) - 1
	}
	for _, dep := range sc.Dependencies {
		if dep.Check == nil && len(dep.Required) == 0 {
			continue // an empty list of dependents requires nothing
		}
		index(dep.Name)
		for _, r := range dep.Required {
			index(r)
		}
	}
	if len(names) == 0 {
		return nil
	}
	present := func(n string) *jen.Statement {
		i := index(n)
		return jen.Id("p" + strconv.Itoa(i/64)).Op("&").Parens(jen.Lit(1).Op("<<").Lit(i % 64)).Op("!=").Lit(0)
	}
	var body []jen.Code
	for w := 0; w*64 < len(names); w++ {
		chunk := names[w*64 : min(len(names), (w+1)*64)]
		g.e.raw.nameLists = append(g.e.raw.nameLists, slices.Clone(chunk))
		body = append(body, jen.Id("p"+strconv.Itoa(w)).Op(":=").Id("d").Dot("PeekKeys").Call(jen.Id("rawNames"+strconv.Itoa(len(g.e.raw.nameLists)))))
	}
	for _, dep := range sc.Dependencies {
		var then []jen.Code
		if dep.Check != nil {
			then = append(then, jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(), g.call(dep.Check, jen.Op("&").Id("sd"), jen.Id("s"), g.evArg()))
		}
		for _, r := range dep.Required {
			then = append(then, jen.If(jen.Op("!").Parens(present(r))).Block(
				add(dep.Keyword, jen.Lit(fmt.Sprintf("missing member %s, which member %s requires", encoderString(r), encoderString(dep.Name)))),
			))
		}
		if len(then) > 0 {
			body = append(body, jen.If(present(dep.Name)).Block(then...))
		}
	}
	g.needC = true
	return []jen.Code{jen.If(jen.Id("c").Op("==").LitRune('{')).Block(body...)}
}

func (g *rawGen) typeCheck() jen.Code {
	sc := g.sc
	g.needC = true
	var conds []jen.Code
	var words []string
	intOnly := slices.Contains(sc.Types, ir.KInt) && !slices.Contains(sc.Types, ir.KFloat)
	for _, k := range sc.Types {
		words = append(words, k.String())
		switch {
		case k == ir.KInt && !intOnly:
			continue // number holds every integer
		case k == ir.KInt:
			conds = append(conds, kindTest(ir.KFloat).Op("&&").Id("d").Dot("PeekInteger").Call())
		default:
			conds = append(conds, kindTest(k))
		}
	}
	ok := jen.Null()
	for i, c := range conds {
		if i > 0 {
			ok.Op("||")
		}
		ok.Parens(c)
	}
	return jen.If(jen.Op("!").Parens(ok)).Block(
		add("type", jen.Lit("expected "+strings.Join(words, " or ")+", got ").Op("+").Id("d").Dot("Describe").Call()),
		jen.Id("d").Dot("Skip").Call(),
		jen.Return(),
	)
}

func (g *rawGen) enumCheck() jen.Code {
	sc := g.sc
	if len(sc.Enum) == 0 {
		return addConst("enum", "no value is allowed (the enum is empty)")
	}
	all := jen.Null()
	for i, v := range sc.Enum {
		if i > 0 {
			all.Op("&&")
		}
		all.Op("!").Qual(codecPkg, "EqualsConst").Call(jen.Id("raw"), jen.Lit(v.JSON))
	}
	return jen.If(jen.Id("raw").Op(":=").Id("d").Dot("PeekRaw").Call(), all).Block(
		add("enum", jen.Qual(codecPkg, "Quote").Call(jen.String().Call(jen.Id("raw"))).Op("+").Lit(" is not one of "+enumList(sc.Enum))),
	)
}

// kindGuard is the condition on the first byte c under which a branch can
// match, from its (and its $ref target's) "type"; nil when any kind can.
func kindGuard(br *ir.Check) *jen.Statement {
	for i := 0; i < 10 && br.Ref != nil && br.Types == nil && !br.IsBool; i++ {
		br = br.Ref
	}
	if br.IsBool || br.Types == nil {
		return nil
	}
	cond := jen.Null()
	seen := map[ir.Kind]bool{}
	for _, k := range br.Types {
		if k == ir.KInt {
			k = ir.KFloat // the first byte tells a number, not an integer
		}
		if seen[k] {
			continue
		}
		if len(seen) > 0 {
			cond.Op("||")
		}
		seen[k] = true
		cond.Parens(kindTest(k))
	}
	return cond
}

// object reads an object's members: properties, patternProperties,
// additionalProperties, propertyNames, required, the member counts, the
// annotations, and unevaluatedProperties last. It returns nil when the
// node says nothing about objects.
func (g *rawGen) object() []jen.Code {
	sc := g.sc
	mark := g.track && (len(sc.Properties) > 0 || len(sc.PatternProperties) > 0)
	loop := sc.Properties != nil || sc.Required != nil || sc.AdditionalProperties != nil ||
		len(sc.PatternProperties) > 0 || sc.PropertyNames != nil || sc.MinProperties != nil || sc.MaxProperties != nil || mark
	evalAll := g.track && (sc.AdditionalProperties != nil || sc.UnknownPatterns)
	if !loop && !evalAll && sc.UnevaluatedProperties == nil {
		return nil
	}
	var out []jen.Code
	if !loop {
		out = append(out, jen.Id("d").Dot("Skip").Call())
	} else {
		out = append(out, g.members()...)
	}
	if evalAll {
		out = append(out, jen.Id("ev").Dot("All").Op("=").True())
	}
	if u := sc.UnevaluatedProperties; u != nil {
		var each []jen.Code
		if u.IsBool && !u.Accept {
			each = []jen.Code{addConst("unevaluatedProperties", "member is not allowed"), jen.Id("sv").Dot("Skip").Call()}
		} else {
			each = []jen.Code{g.call(u, jen.Op("&").Id("sv"), jen.Id("s"), nil)}
		}
		loopBody := []jen.Code{
			jen.If(jen.Id("ev").Dot("Has").Call(jen.Id("i"))).Block(jen.Id("sv").Dot("Skip").Call(), jen.Continue()),
			jen.Id("m").Op(":=").Id("s").Dot("Mark").Call(),
		}
		loopBody = append(loopBody, each...)
		loopBody = append(loopBody, jen.Id("s").Dot("At").Call(jen.Id("m"), jen.Id("sv").Dot("Key")))
		out = append(out,
			jen.Id("sv").Dot("Object").Call(),
			jen.For(jen.List(jen.Id("i"), jen.Id("first")).Op(":=").List(jen.Lit(0), jen.True()), jen.Id("sv").Dot("NextMember").Call(jen.Op("&").Id("first")), jen.Id("i").Op("++")).Block(loopBody...),
			jen.Id("ev").Dot("All").Op("=").True(),
		)
	}
	return out
}

// members is the loop over an object's members.
func (g *rawGen) members() []jen.Code {
	sc := g.sc
	e := g.e
	mark := g.track && (len(sc.Properties) > 0 || len(sc.PatternProperties) > 0)
	count := sc.MinProperties != nil || sc.MaxProperties != nil || mark
	var names []string
	for _, p := range sc.Properties {
		names = append(names, p.Name)
	}
	for _, r := range sc.Required {
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	setEv := func() []jen.Code {
		if !mark {
			return nil
		}
		return []jen.Code{jen.Id("ev").Dot("Set").Call(jen.Id("i"))}
	}
	// additionalProperties, for a member no property or pattern takes.
	addl := func() []jen.Code {
		ap := sc.AdditionalProperties
		switch {
		case ap == nil || (ap.IsBool && ap.Accept) || sc.UnknownPatterns:
			return []jen.Code{jen.Id("d").Dot("Skip").Call()}
		case ap.IsBool && !ap.Accept:
			return []jen.Code{
				addConst("additionalProperties", "member is not allowed"),
				jen.Id("d").Dot("Skip").Call(),
			}
		}
		return []jen.Code{g.call(ap, jen.Id("d"), jen.Id("s"), nil)}
	}
	patternSub := func(p *ir.CheckPattern) jen.Code {
		return jen.Block(jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(), g.call(p.Check, jen.Op("&").Id("sd"), jen.Id("s"), nil))
	}
	// The body for a member properties does not name.
	other := func() []jen.Code {
		if len(sc.PatternProperties) == 0 {
			return addl()
		}
		body := []jen.Code{jen.Id("matched").Op(":=").False()}
		for _, p := range sc.PatternProperties {
			body = append(body, jen.If(jen.Id(e.pattern(p.Pattern)).Dot("MatchString").Call(jen.Id("k"))).Block(
				jen.Id("matched").Op("=").True(),
				patternSub(p),
			))
		}
		matched := append(setEv(), jen.Id("d").Dot("Skip").Call())
		body = append(body, jen.If(jen.Id("matched")).Block(matched...).Else().Block(addl()...))
		return body
	}
	var cases []jen.Code
	for i, n := range names {
		w, mask := bit(i)
		body := []jen.Code{jen.Id("seen").Index(jen.Lit(w)).Op("|=").Add(mask)}
		if p := sc.Prop(n); p != nil {
			// The patterns that match a declared name apply too; which
			// ones is known now.
			for _, pp := range sc.PatternProperties {
				if regexp.MustCompile(pp.Pattern).MatchString(n) {
					body = append(body, patternSub(pp))
				}
			}
			body = append(body, setEv()...)
			body = append(body, g.call(p, jen.Id("d"), jen.Id("s"), nil))
		} else {
			body = append(body, other()...)
		}
		cases = append(cases, jen.Case(jen.Lit(n)).Block(body...))
	}
	var loopBody []jen.Code
	loopBody = append(loopBody, jen.Id("k").Op(":=").Id("d").Dot("Key"), jen.Id("m").Op(":=").Id("s").Dot("Mark").Call())
	if sc.PropertyNames != nil {
		loopBody = append(loopBody, jen.Block(
			jen.Id("kd").Op(":=").Id("d").Dot("Sub").Call(),
			jen.Id("kd").Dot("Pos").Op("=").Id("d").Dot("KeyPos"),
			g.call(sc.PropertyNames, jen.Op("&").Id("kd"), jen.Id("s"), nil),
		))
	}
	if len(cases) > 0 {
		cases = append(cases, jen.Default().Block(other()...))
		loopBody = append(loopBody, jen.Switch(jen.Id("k")).Block(cases...))
	} else {
		loopBody = append(loopBody, other()...)
	}
	loopBody = append(loopBody, jen.Id("s").Dot("At").Call(jen.Id("m"), jen.Id("k")))
	var out []jen.Code
	out = append(out, jen.Id("d").Dot("Object").Call())
	if len(names) > 0 {
		out = append(out, jen.Var().Id("seen").Index(jen.Lit(max((len(names)+63)/64, 1))).Uint64())
	}
	post := jen.Empty()
	if count {
		out = append(out, jen.Id("i").Op(":=").Lit(0))
		post = jen.Id("i").Op("++")
	}
	out = append(out, jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextMember").Call(jen.Op("&").Id("first")), post).Block(loopBody...))
	for i, n := range names {
		if !slices.Contains(sc.Required, n) {
			continue
		}
		w, mask := bit(i)
		out = append(out, jen.If(jen.Id("seen").Index(jen.Lit(w)).Op("&").Add(mask).Op("==").Lit(0)).Block(requiredViolation(n)))
	}
	if sc.MinProperties != nil && *sc.MinProperties > 0 {
		out = append(out, jen.If(jen.Id("i").Op("<").Lit(int(*sc.MinProperties))).Block(
			add("minProperties", jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")).Op("+").Lit(fmt.Sprintf(" members, want at least %d", *sc.MinProperties))),
		))
	}
	if sc.MaxProperties != nil {
		out = append(out, jen.If(jen.Id("i").Op(">").Lit(int(*sc.MaxProperties))).Block(
			add("maxProperties", jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")).Op("+").Lit(fmt.Sprintf(" members, want at most %d", *sc.MaxProperties))),
		))
	}
	return out
}

// array reads an array's elements: uniqueItems, prefixItems, items,
// contains, the item counts, the annotations, and unevaluatedItems last.
// It returns nil when the node says nothing about arrays.
func (g *rawGen) array() []jen.Code {
	sc := g.sc
	loop := sc.PrefixItems != nil || sc.Items != nil || sc.MinItems != nil || sc.MaxItems != nil || sc.Contains != nil
	if !loop && !sc.UniqueItems && sc.UnevaluatedItems == nil {
		return nil
	}
	var out []jen.Code
	if sc.UniqueItems {
		out = append(out, jen.If(jen.List(jen.Id("i"), jen.Id("j"), jen.Id("dup")).Op(":=").Qual(codecPkg, "UniqueItems").Call(jen.Id("d")), jen.Id("dup")).Block(
			add("uniqueItems", jen.Lit("items ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")).Op("+").Lit(" and ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("j")).Op("+").Lit(" are equal")),
		))
	}
	if !loop {
		out = append(out, jen.Id("d").Dot("Skip").Call())
	} else {
		out = append(out, g.elements()...)
	}
	if g.track && len(sc.PrefixItems) > 0 {
		out = append(out, jen.Id("ev").Dot("Prefix").Call(jen.Lit(len(sc.PrefixItems))))
	}
	if g.track && sc.Items != nil {
		out = append(out, jen.Id("ev").Dot("All").Op("=").True())
	}
	if u := sc.UnevaluatedItems; u != nil {
		var each []jen.Code
		if u.IsBool && !u.Accept {
			each = []jen.Code{addConst("unevaluatedItems", "item is not allowed"), jen.Id("sv").Dot("Skip").Call()}
		} else {
			each = []jen.Code{g.call(u, jen.Op("&").Id("sv"), jen.Id("s"), nil)}
		}
		loopBody := []jen.Code{
			jen.If(jen.Id("ev").Dot("Has").Call(jen.Id("i"))).Block(jen.Id("sv").Dot("Skip").Call(), jen.Continue()),
			jen.Id("m").Op(":=").Id("s").Dot("Mark").Call(),
		}
		loopBody = append(loopBody, each...)
		loopBody = append(loopBody, jen.Id("s").Dot("AtIndex").Call(jen.Id("m"), jen.Id("i")))
		out = append(out,
			jen.Id("sv").Dot("Array").Call(),
			jen.For(jen.List(jen.Id("i"), jen.Id("first")).Op(":=").List(jen.Lit(0), jen.True()), jen.Id("sv").Dot("NextElem").Call(jen.Op("&").Id("first")), jen.Id("i").Op("++")).Block(loopBody...),
			jen.Id("ev").Dot("All").Op("=").True(),
		)
	}
	return out
}

// elements is the loop over an array's elements.
func (g *rawGen) elements() []jen.Code {
	sc := g.sc
	item := func() jen.Code {
		if sc.Items == nil {
			return jen.Id("d").Dot("Skip").Call()
		}
		return g.call(sc.Items, jen.Id("d"), jen.Id("s"), nil)
	}
	var each []jen.Code
	each = append(each, jen.Id("m").Op(":=").Id("s").Dot("Mark").Call())
	if sc.Contains != nil {
		passed := []jen.Code{jen.Id("matched").Op("++")}
		if g.track {
			passed = append(passed, jen.Id("ev").Dot("Set").Call(jen.Id("n")))
		}
		each = append(each, jen.Block(
			jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call(),
			jen.Id("vs").Op(":=").Qual(codecPkg, "NewQuietValidator").Call(),
			g.call(sc.Contains, jen.Op("&").Id("sd"), jen.Id("vs"), nil),
			jen.If(jen.Id("vs").Dot("Release").Call()).Block(passed...),
		))
	}
	if len(sc.PrefixItems) > 0 {
		var cases []jen.Code
		for i, p := range sc.PrefixItems {
			cases = append(cases, jen.Case(jen.Lit(i)).Block(g.call(p, jen.Id("d"), jen.Id("s"), nil)))
		}
		cases = append(cases, jen.Default().Block(item()))
		each = append(each, jen.Switch(jen.Id("n")).Block(cases...))
	} else {
		each = append(each, item())
	}
	each = append(each, jen.Id("s").Dot("AtIndex").Call(jen.Id("m"), jen.Id("n")))
	out := []jen.Code{jen.Id("d").Dot("Array").Call(), jen.Id("n").Op(":=").Lit(0)}
	if sc.Contains != nil {
		out = append(out, jen.Id("matched").Op(":=").Lit(0))
	}
	out = append(out, jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextElem").Call(jen.Op("&").Id("first")), jen.Id("n").Op("++")).Block(each...))
	if sc.MinItems != nil && *sc.MinItems > 0 {
		out = append(out, jen.If(jen.Id("n").Op("<").Lit(int(*sc.MinItems))).Block(
			add("minItems", jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at least %d", *sc.MinItems))),
		))
	}
	if sc.MaxItems != nil {
		out = append(out, jen.If(jen.Id("n").Op(">").Lit(int(*sc.MaxItems))).Block(
			add("maxItems", jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at most %d", *sc.MaxItems))),
		))
	}
	if sc.Contains != nil {
		minC := int64(1)
		kw := "contains"
		if sc.MinContains != nil {
			minC, kw = *sc.MinContains, "minContains"
		}
		if minC > 0 {
			msg := jen.Lit("no item is valid against contains")
			if kw == "minContains" {
				msg = jen.Qual("strconv", "Itoa").Call(jen.Id("matched")).Op("+").Lit(fmt.Sprintf(" items are valid against contains, want at least %d", minC))
			}
			out = append(out, jen.If(jen.Id("matched").Op("<").Lit(int(minC))).Block(add(kw, msg)))
		}
		if sc.MaxContains != nil && !sc.Contains.Inexact {
			out = append(out, jen.If(jen.Id("matched").Op(">").Lit(int(*sc.MaxContains))).Block(
				add("maxContains", jen.Qual("strconv", "Itoa").Call(jen.Id("matched")).Op("+").Lit(fmt.Sprintf(" items are valid against contains, want at most %d", *sc.MaxContains))),
			))
		}
	}
	return out
}

func (e *emitter) rawString(sc *ir.Check) []jen.Code {
	t := &ir.Type{Kind: ir.TString, C: ir.Constraints{Format: sc.Format, MinLength: sc.MinLength, MaxLength: sc.MaxLength, Pattern: sc.Pattern, PatternText: sc.PatternText}}
	checks := e.scalarChecks(t, jen.Id("x"), true)
	if len(checks) == 0 {
		return nil
	}
	return append([]jen.Code{jen.Id("x").Op(":=").Id("d").Dot("Str").Call()}, checks...)
}

// rawNumber compares a number's text with the bounds and multipleOf
// exactly.
func rawNumber(sc *ir.Check) []jen.Code {
	var checks []jen.Code
	for _, b := range []struct {
		bound   *string
		keyword string
		bad     string // violating comparison of CmpNumber's result with 0
		text    string
	}{
		{sc.Minimum, "minimum", "<", ">="},
		{sc.ExclusiveMinimum, "exclusiveMinimum", "<=", ">"},
		{sc.Maximum, "maximum", ">", "<="},
		{sc.ExclusiveMaximum, "exclusiveMaximum", ">=", "<"},
	} {
		if b.bound == nil {
			continue
		}
		checks = append(checks, jen.If(jen.Qual(codecPkg, "CmpNumber").Call(jen.Id("x"), jen.Lit(*b.bound)).Op(b.bad).Lit(0)).Block(
			add(b.keyword, jen.Lit("must be "+b.text+" "+*b.bound+", got ").Op("+").String().Call(jen.Id("x"))),
		))
	}
	if sc.MultipleOf != nil {
		checks = append(checks, jen.If(jen.Op("!").Qual(codecPkg, "MultipleOf").Call(jen.Id("x"), jen.Lit(*sc.MultipleOf))).Block(
			add("multipleOf", jen.Lit("must be a multiple of "+*sc.MultipleOf+", got ").Op("+").String().Call(jen.Id("x"))),
		))
	}
	if len(checks) == 0 {
		return nil
	}
	return append([]jen.Code{jen.List(jen.Id("x"), jen.Id("_")).Op(":=").Id("d").Dot("Number").Call()}, checks...)
}
