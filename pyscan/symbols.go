package pyscan

import "github.com/nullius-dev/nullius/internal/lazy"

// symtab holds the grammar's symbol and field ids: generated into
// symbols_gen.go (grammarIDs) from the grammar's own lookups, which
// TestSymbolTableIsCurrent repeats on every test run.
// (The official binding's IdForNodeKind/FieldIdForName leak a C string per
// call; the lookups here pass Go strings to C without allocating.)
type symtab struct {
	count uint16 // symbols in the grammar
	expr  []bool // symbol ids that are expressions (made from the ids)

	module, comment, identifier, keywordIdentifier                                                     uint16
	importStatement, importFrom, futureImport                                                          uint16
	dottedName, aliasedImport, relativeImport, importPrefix, wildcard                                  uint16
	exprStatement, assignment, augAssignment, namedExpr                                                uint16
	funcDef, classDef, decorated, decorator, parameters, lambdaParams                                  uint16
	defaultParam, typedParam, typedDefaultParam                                                        uint16
	listSplatPattern, dictSplatPattern, tuplePattern, listPattern                                      uint16
	patternList, exprList, lambda, call, argumentList, keywordArgument                                 uint16
	listSplat, dictSplat, attribute, subscript, str, concatStr                                         uint16
	interpolation, integer, float, true, false, none, ellipsis                                         uint16
	list, tuple, set, dictionary, pair, parenExpr                                                      uint16
	listComp, setComp, dictComp, genExpr, forInClause, ifClause                                        uint16
	unaryOp, notOp, binaryOp, boolOp, compareOp, conditional                                           uint16
	forStatement, withStatement, withClause, withItem, asPattern                                       uint16
	asPatternTarget, tryStatement, exceptClause, exceptGroupClause                                     uint16
	globalStatement, nonlocalStatement, deleteStatement                                                uint16
	matchStatement, caseClause, casePattern, classPattern, splatPattern                                uint16
	keywordPattern, dictPattern, typeAlias, printStatement, execStmt                                   uint16
	block, typeNode, await, yield, chevron, keywordSeparator, genericType, strContent, strStart, comma uint16
	slice                                                                                              uint16

	fName, fAlias, fValue, fLeft, fRight, fFunction, fArguments, fObject uint16
	fAttribute, fBody, fParameters, fModuleName, fKey, fType, fOperator  uint16
	fArgument, fDefinition, fSuperclasses, fReturnType, fTypeParameters  uint16
	fSubject, fGuard, fConsequence, fAlternative, fCondition, fOperators uint16
}

// symbols returns the symbol table of the Python grammar, made on first
// use (not at process start: a command that parses nothing pays nothing)
// and never written afterwards. The ids are constants (grammarIDs): the
// grammar's own lookups (lookupIDs) cost a one-file lint ~0.1 ms.
var symbols = lazy.New(buildSymbols)

// buildSymbols builds symbols on first use.
func buildSymbols() *symtab {
	s := grammarIDs
	s.expr = exprSymbols(&s)
	return &s
}

// lookupIDs asks the grammar for every id of the table (what
// symbols_gen.go holds).
func lookupIDs() symtab {
	names, find := grammarSymbols()
	s := symtab{count: uint16(len(names))}
	n := func(name string) uint16 { return lookupSymbol(find, name, true) }
	s.module, s.comment, s.identifier, s.keywordIdentifier = n("module"), n("comment"), n("identifier"), n("keyword_identifier")
	if s.keywordIdentifier == 0 {
		// keyword_identifier is always aliased to identifier in this
		// grammar version: no node carries its own symbol.
		s.keywordIdentifier = s.identifier
	}
	s.importStatement, s.importFrom, s.futureImport = n("import_statement"), n("import_from_statement"), n("future_import_statement")
	s.dottedName, s.aliasedImport, s.relativeImport, s.importPrefix, s.wildcard = n("dotted_name"), n("aliased_import"), n("relative_import"), n("import_prefix"), n("wildcard_import")
	s.exprStatement, s.assignment, s.augAssignment, s.namedExpr = n("expression_statement"), n("assignment"), n("augmented_assignment"), n("named_expression")
	s.funcDef, s.classDef, s.decorated, s.decorator = n("function_definition"), n("class_definition"), n("decorated_definition"), n("decorator")
	s.parameters, s.lambdaParams = n("parameters"), n("lambda_parameters")
	s.defaultParam, s.typedParam, s.typedDefaultParam = n("default_parameter"), n("typed_parameter"), n("typed_default_parameter")
	s.listSplatPattern, s.dictSplatPattern, s.tuplePattern, s.listPattern = n("list_splat_pattern"), n("dictionary_splat_pattern"), n("tuple_pattern"), n("list_pattern")
	s.patternList, s.exprList, s.lambda, s.call = n("pattern_list"), n("expression_list"), n("lambda"), n("call")
	s.argumentList, s.keywordArgument, s.listSplat, s.dictSplat = n("argument_list"), n("keyword_argument"), n("list_splat"), n("dictionary_splat")
	s.attribute, s.subscript, s.str, s.concatStr, s.interpolation = n("attribute"), n("subscript"), n("string"), n("concatenated_string"), n("interpolation")
	s.integer, s.float, s.true, s.false, s.none, s.ellipsis = n("integer"), n("float"), n("true"), n("false"), n("none"), n("ellipsis")
	s.list, s.tuple, s.set, s.dictionary, s.pair, s.parenExpr = n("list"), n("tuple"), n("set"), n("dictionary"), n("pair"), n("parenthesized_expression")
	s.listComp, s.setComp, s.dictComp, s.genExpr = n("list_comprehension"), n("set_comprehension"), n("dictionary_comprehension"), n("generator_expression")
	s.forInClause, s.ifClause = n("for_in_clause"), n("if_clause")
	s.unaryOp, s.notOp, s.binaryOp, s.boolOp, s.compareOp, s.conditional = n("unary_operator"), n("not_operator"), n("binary_operator"), n("boolean_operator"), n("comparison_operator"), n("conditional_expression")
	s.forStatement, s.withStatement, s.withClause, s.withItem = n("for_statement"), n("with_statement"), n("with_clause"), n("with_item")
	s.asPattern, s.asPatternTarget = n("as_pattern"), n("as_pattern_target")
	s.tryStatement, s.exceptClause, s.exceptGroupClause = n("try_statement"), n("except_clause"), n("except_group_clause")
	s.globalStatement, s.nonlocalStatement, s.deleteStatement = n("global_statement"), n("nonlocal_statement"), n("delete_statement")
	s.matchStatement, s.caseClause, s.casePattern, s.classPattern, s.splatPattern = n("match_statement"), n("case_clause"), n("case_pattern"), n("class_pattern"), n("splat_pattern")
	s.keywordPattern, s.dictPattern, s.typeAlias = n("keyword_pattern"), n("dict_pattern"), n("type_alias_statement")
	s.printStatement, s.execStmt = n("print_statement"), n("exec_statement")
	s.block, s.typeNode, s.await, s.yield = n("block"), n("type"), n("await"), n("yield")
	s.chevron, s.keywordSeparator, s.genericType = n("chevron"), n("keyword_separator"), n("generic_type")
	s.strContent, s.strStart = n("string_content"), n("string_start")
	s.comma = lookupSymbol(find, ",", false)
	s.slice = n("slice")

	s.fName, s.fAlias, s.fValue, s.fLeft, s.fRight = fieldID("name"), fieldID("alias"), fieldID("value"), fieldID("left"), fieldID("right")
	s.fFunction, s.fArguments, s.fObject, s.fAttribute = fieldID("function"), fieldID("arguments"), fieldID("object"), fieldID("attribute")
	s.fBody, s.fParameters, s.fModuleName, s.fKey, s.fType = fieldID("body"), fieldID("parameters"), fieldID("module_name"), fieldID("key"), fieldID("type")
	s.fOperator, s.fArgument, s.fDefinition, s.fSuperclasses = fieldID("operator"), fieldID("argument"), fieldID("definition"), fieldID("superclasses")
	s.fReturnType, s.fTypeParameters, s.fSubject, s.fGuard = fieldID("return_type"), fieldID("type_parameters"), fieldID("subject"), fieldID("guard")
	s.fConsequence, s.fAlternative, s.fCondition, s.fOperators = fieldID("consequence"), fieldID("alternative"), fieldID("condition"), fieldID("operators")

	return s
}

// exprSymbols marks the symbols of s that are expressions.
func exprSymbols(s *symtab) []bool {
	expr := make([]bool, int(s.count)+1)
	for _, id := range []uint16{
		s.identifier, s.keywordIdentifier, s.str, s.concatStr, s.integer, s.float,
		s.true, s.false, s.none, s.ellipsis, s.attribute, s.subscript, s.call,
		s.list, s.tuple, s.set, s.dictionary, s.listComp, s.setComp, s.dictComp,
		s.genExpr, s.parenExpr, s.unaryOp, s.notOp, s.binaryOp, s.boolOp,
		s.compareOp, s.lambda, s.conditional, s.namedExpr, s.await, s.listSplat,
		s.dictSplat, s.exprList, s.yield, s.asPattern, s.patternList,
		s.tuplePattern, s.listPattern, s.listSplatPattern, s.slice,
	} {
		if int(id) < len(expr) {
			expr[id] = true
		}
	}
	return expr
}

// isExpr reports whether symbol id is an expression node.
func (s *symtab) isExpr(id uint16) bool { return int(id) < len(s.expr) && s.expr[id] }

// name returns the grammar name of a symbol (read from the grammar on
// first use: only messages need names).
func (s *symtab) name(id uint16) string {
	if names := symbolNames.Get(); int(id) < len(names) {
		return names[id]
	}
	return "?"
}

var symbolNames = lazy.New(buildSymbolNames)

// buildSymbolNames builds symbolNames on first use.
func buildSymbolNames() []string {
	names, _ := grammarSymbols()
	return names
}
