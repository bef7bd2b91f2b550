package mdrender

// Keyword sets are switch statements: the compiler turns them into a
// search over constant strings, so no table is built at start-up or on
// first use.

func goWord(w string) tokKind {
	switch w {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else",
		"fallthrough", "for", "func", "go", "goto", "if", "import", "interface",
		"map", "package", "range", "return", "select", "struct", "switch", "type", "var":
		return tKeyword
	case "bool", "byte", "complex64", "complex128", "error", "float32", "float64",
		"int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8",
		"uint16", "uint32", "uint64", "uintptr", "any", "comparable":
		return tType
	case "true", "false", "nil", "iota":
		return tConstant
	case "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len",
		"make", "max", "min", "new", "panic", "print", "println", "real", "recover":
		return tFunc
	}
	return tPlain
}

func pythonWord(w string) tokKind {
	switch w {
	case "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
		"del", "elif", "else", "except", "finally", "for", "from", "global", "if",
		"import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
		"return", "try", "while", "with", "yield", "match", "case":
		return tKeyword
	case "True", "False", "None", "self", "cls":
		return tConstant
	case "int", "str", "float", "bool", "list", "dict", "set", "tuple", "bytes",
		"object", "type", "frozenset", "complex", "bytearray", "Exception":
		return tType
	case "print", "len", "range", "open", "isinstance", "enumerate", "zip", "map",
		"filter", "sorted", "sum", "min", "max", "abs", "any", "all", "super", "repr",
		"getattr", "setattr", "hasattr", "iter", "next", "input", "format", "round":
		return tFunc
	}
	return tPlain
}

func jsWord(w string) tokKind {
	switch w {
	case "break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "export", "extends", "finally", "for", "function", "if",
		"import", "in", "instanceof", "let", "new", "return", "super", "switch", "this",
		"throw", "try", "typeof", "var", "void", "while", "with", "yield", "async",
		"await", "of", "static", "get", "set", "from", "as":
		return tKeyword
	case "true", "false", "null", "undefined", "NaN", "Infinity":
		return tConstant
	}
	return tPlain
}

func tsWord(w string) tokKind {
	switch w {
	case "interface", "type", "enum", "implements", "namespace", "declare", "readonly",
		"abstract", "private", "protected", "public", "keyof", "infer", "is",
		"satisfies", "module", "override":
		return tKeyword
	case "string", "number", "boolean", "any", "unknown", "never", "object", "symbol",
		"bigint":
		return tType
	}
	return jsWord(w)
}

func jsonWord(w string) tokKind {
	switch w {
	case "true", "false", "null":
		return tConstant
	}
	return tPlain
}

func bashWord(w string) tokKind {
	switch w {
	case "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
		"case", "esac", "in", "function", "select", "time", "return", "exit", "local",
		"export", "readonly", "declare", "unset", "shift", "break", "continue",
		"source", "alias", "set", "trap", "eval", "exec":
		return tKeyword
	case "echo", "printf", "cd", "read", "test", "sudo":
		return tFunc
	case "true", "false":
		return tConstant
	}
	return tPlain
}

func rustWord(w string) tokKind {
	switch w {
	case "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else",
		"enum", "extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
		"move", "mut", "pub", "ref", "return", "static", "struct", "super", "trait",
		"type", "unsafe", "use", "where", "while", "self", "Self":
		return tKeyword
	case "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
		"usize", "f32", "f64", "bool", "char", "str":
		return tType
	case "true", "false", "None", "Some", "Ok", "Err":
		return tConstant
	}
	return tPlain
}

func javaWord(w string) tokKind {
	switch w {
	case "abstract", "assert", "break", "case", "catch", "class", "continue", "default",
		"do", "else", "enum", "extends", "final", "finally", "for", "if", "implements",
		"import", "instanceof", "interface", "native", "new", "package", "private",
		"protected", "public", "return", "static", "strictfp", "super", "switch",
		"synchronized", "this", "throw", "throws", "transient", "try", "volatile",
		"while", "var", "record", "yield", "sealed", "permits":
		return tKeyword
	case "boolean", "byte", "char", "double", "float", "int", "long", "short", "void":
		return tType
	case "true", "false", "null":
		return tConstant
	}
	return tPlain
}

func cWord(w string) tokKind {
	switch w {
	case "auto", "break", "case", "const", "continue", "default", "do", "else", "enum",
		"extern", "for", "goto", "if", "inline", "register", "restrict", "return",
		"sizeof", "static", "struct", "switch", "typedef", "union", "volatile", "while":
		return tKeyword
	case "bool", "char", "double", "float", "int", "long", "short", "signed", "unsigned",
		"void", "size_t", "ssize_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
		"uint16_t", "uint32_t", "uint64_t", "uintptr_t", "FILE":
		return tType
	case "true", "false", "NULL":
		return tConstant
	}
	return tPlain
}

func cppWord(w string) tokKind {
	switch w {
	case "alignas", "alignof", "asm", "catch", "class", "constexpr", "consteval",
		"constinit", "co_await", "co_return", "co_yield", "decltype", "delete",
		"explicit", "export", "friend", "mutable", "namespace", "new", "noexcept",
		"operator", "override", "final", "private", "protected", "public",
		"reinterpret_cast", "static_assert", "static_cast", "dynamic_cast",
		"const_cast", "template", "this", "thread_local", "throw", "try", "typeid",
		"typename", "using", "virtual":
		return tKeyword
	case "wchar_t", "char8_t", "char16_t", "char32_t", "std", "string", "vector", "map",
		"unique_ptr", "shared_ptr":
		return tType
	case "nullptr":
		return tConstant
	}
	return cWord(w)
}

// sqlWord takes the word in lower case.
func sqlWord(w string) tokKind {
	switch w {
	case "select", "from", "where", "and", "or", "not", "insert", "into", "values",
		"update", "set", "delete", "create", "table", "drop", "alter", "add", "column",
		"index", "primary", "key", "foreign", "references", "join", "inner", "left",
		"right", "outer", "full", "cross", "on", "as", "group", "by", "order", "having",
		"limit", "offset", "union", "all", "distinct", "case", "when", "then", "else",
		"end", "is", "like", "in", "between", "exists", "default", "constraint",
		"unique", "check", "view", "begin", "commit", "rollback", "transaction", "with",
		"returning", "if", "replace", "asc", "desc", "cascade", "grant", "revoke",
		"trigger", "function", "procedure", "declare", "using", "over", "partition":
		return tKeyword
	case "int", "integer", "bigint", "smallint", "varchar", "char", "text", "boolean",
		"date", "time", "timestamp", "timestamptz", "float", "real", "double",
		"numeric", "decimal", "serial", "bigserial", "uuid", "json", "jsonb", "blob":
		return tType
	case "true", "false", "null":
		return tConstant
	case "count", "sum", "avg", "min", "max", "coalesce", "now", "lower", "upper":
		return tFunc
	}
	return tPlain
}
