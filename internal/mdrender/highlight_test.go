package mdrender

import (
	"strings"
	"testing"
)

var tokNames = map[tokKind]string{
	tKeyword: "kw", tType: "type", tString: "str", tComment: "com", tNumber: "num",
	tConstant: "const", tFunc: "fn", tTag: "tag", tAttr: "attr", tMeta: "meta",
	tVariable: "var", tAdded: "add", tRemoved: "del", tHunk: "hunk",
}

// marked lists the highlighted (non-plain) tokens as "kind:text".
func marked(l lang, src string) string {
	var out []string
	highlight(l, src, func(text string, k tokKind) {
		if k != tPlain {
			out = append(out, tokNames[k]+":"+text)
		}
	})
	return strings.Join(out, " ")
}

func TestHighlightMarksTokens(t *testing.T) {
	tests := []struct {
		info, src, want string
	}{
		{"go", `func f(s string) error { return nil } // c`, "kw:func fn:f type:string type:error kw:return const:nil com:// c"},
		{"golang", "x := `a\nb` + \"c\\\"\" + 'r' + 0x1F + 1.5e-3", "str:`a\nb` str:\"c\\\"\" str:'r' num:0x1F num:1.5e-3"},
		{"go", "/* a\nb */ len(x) fmt.Println()", "com:/* a\nb */ fn:len fn:Println"},
		{"python", "def f(x):\n    \"\"\"doc\n    more\"\"\"\n    return None  # c", "kw:def fn:f str:\"\"\"doc\n    more\"\"\" kw:return const:None com:# c"},
		{"py", `@app.route print(r'\d', f"{x}")`, `meta:@app.route fn:print str:r'\d' str:f"{x}"`},
		{"js", "const a = `t ${x}`; // c\nlet b = null", "kw:const str:`t ${x}` com:// c kw:let const:null"},
		{"ts", "interface A { b: string }\nnew Map<K, V>()", "kw:interface type:A type:string kw:new type:Map type:K type:V"},
		{"tsx", "function f(): void {}", "kw:function fn:f kw:void"},
		{"json", `{"k": "v", "n": -1.5, "b": true, "z": null}`, `attr:"k" str:"v" attr:"n" num:1.5 attr:"b" const:true attr:"z" const:null`},
		{"yaml", "# c\nkey: value\nn: 3\nb: true\nq: \"s\" # t\n- item\nref: *a\n---", "com:# c attr:key str:value attr:n num:3 attr:b const:true attr:q str:\"s\" com:# t str:item attr:ref var:*a meta:---"},
		{"bash", "if [ -n \"$X\" ]; then echo ${Y} 'raw $Z'; fi # done", "kw:if str:\"$X\" kw:then fn:echo var:${Y} str:'raw $Z' kw:fi com:# done"},
		{"sh", "a#b $1 $@", "var:$1 var:$@"},
		{"rust", "fn main<'a>() { let s = r#\"x\"#; println!(\"{}\", 'c'); }", "kw:fn type:'a kw:let str:r#\"x\"# fn:println! str:\"{}\" str:'c'"},
		{"rs", "impl Foo for Bar { fn x(&self) -> Option<u8> { Some(1) } }", "kw:impl type:Foo kw:for type:Bar kw:fn fn:x kw:self type:Option type:u8 const:Some num:1"},
		{"java", "@Override public void run() { String s = \"x\"; }", "meta:@Override kw:public type:void fn:run type:String str:\"x\""},
		{"c", "#include <stdio.h>\nint main(void) { return '\\n'; }", "meta:#include <stdio.h> type:int fn:main type:void kw:return str:'\\n'"},
		{"cpp", "template <typename T> auto p = nullptr;", "kw:template kw:typename kw:auto const:nullptr"},
		{"sql", "SELECT id FROM t WHERE name = 'a''b' -- c", "kw:SELECT kw:FROM kw:WHERE str:'a' str:'b' com:-- c"},
		{"diff", "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n z", "meta:--- a\n meta:+++ b\n hunk:@@ -1 +1 @@\n del:-x\n add:+y\n"},
		{"html", "<!-- c --><a href=\"/x\" hidden>t &amp; u</a>", "com:<!-- c --> tag:a attr:href str:\"/x\" attr:hidden const:&amp; tag:a"},
		{"xml", "<?xml version=\"1.0\"?><r/>", "meta:<?xml version=\"1.0\"?> tag:r"},
		{"md", "# T\n- item `c`\n> q", "kw:# T\n kw:- str:`c` com:> q"},
		{"{.python}", "pass", "kw:pass"},
		{"python:main.py", "pass", "kw:pass"},
		{"unknown", "func x", ""},
	}
	for _, tt := range tests {
		got := marked(langOf(tt.info), tt.src)
		if got != tt.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tt.info, tt.src, got, tt.want)
		}
	}
}

func allLangs() []lang {
	var ls []lang
	for l := langNone; l <= langMarkdown; l++ {
		ls = append(ls, l)
	}
	return ls
}

// FuzzHighlight checks that the tokens of every language cover the input
// exactly, in order, whatever the input.
func FuzzHighlight(f *testing.F) {
	f.Add("func f() { return `x` }")
	f.Add("'\\")
	f.Add("r#\"")
	f.Add("\"\"\"")
	f.Add("<a b='")
	f.Add("key: \"v")
	f.Add("${")
	f.Fuzz(func(t *testing.T, src string) {
		for _, l := range allLangs() {
			var b strings.Builder
			highlight(l, src, func(text string, _ tokKind) { b.WriteString(text) })
			if b.String() != src {
				t.Fatalf("lang %d: tokens %q do not cover %q", l, b.String(), src)
			}
		}
	})
}
