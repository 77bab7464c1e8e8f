package pyscan

/*
#cgo CFLAGS: -std=c11 -O2
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// The few declarations of tree_sitter/api.h (v0.25 layout) this shim needs.
// The definitions are linked in from github.com/tree-sitter/go-tree-sitter,
// which compiles the core (blank import in flat_link.go); the Python grammar
// comes from tree-sitter-python's Go binding.
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSPoint { uint32_t row; uint32_t column; } TSPoint;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern void ts_parser_reset(TSParser *);
extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern TSPoint ts_node_start_point(TSNode);
extern TSPoint ts_node_end_point(TSNode);
extern TSSymbol ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern bool ts_node_is_missing(TSNode);
extern bool ts_node_is_extra(TSNode);
extern bool ts_node_is_error(TSNode);
extern bool ts_node_has_error(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern uint32_t ts_language_symbol_count(const TSLanguage *);
extern const char *ts_language_symbol_name(const TSLanguage *, TSSymbol);
extern TSSymbol ts_language_symbol_for_name(const TSLanguage *, const char *, uint32_t, bool);
extern TSFieldId ts_language_field_id_for_name(const TSLanguage *, const char *, uint32_t);

enum { FLAG_NAMED = 1, FLAG_ERROR = 2, FLAG_MISSING = 4, FLAG_EXTRA = 8 };

// FNode is one node of the flattened pre-order tree. The first child of
// node i is i+1 (when size > 1); its next sibling is i+size.
typedef struct {
	uint32_t start_byte, end_byte, row, col, end_row, end_col, size;
	uint16_t sym, field;
	uint8_t flags, pad[3];
} FNode;

// --- one arena per parse ---------------------------------------------------
//
// tree-sitter allocates every subtree, stack node and buffer of a parse
// with malloc and frees them one by one: on small modules ~10% of the
// parse is malloc and free, and deleting the tree is a walk over all of it.
// While flat_parse runs with an arena, the allocator below serves the
// parse from the arena's blocks (a pointer bump) and frees nothing; when
// the tree is flattened, the arena is rewound in one step: the parser and
// the tree are dropped with it, so the tree is still disposed of exactly
// once (by the rewind), and never freed piecewise. The arena belongs to
// one flatParser (one worker); the current arena is thread-local, set and
// cleared inside the one cgo call, so other threads (and parses without an
// arena) get libc's malloc unchanged.

// A block's data follows its 32-byte header, so it keeps malloc's 16-byte
// alignment.
typedef struct ABlock {
	struct ABlock *next;
	size_t cap, used, pad;
} ABlock;

#define BDATA(b) ((char *)((b) + 1))

typedef struct Arena {
	ABlock *first, *cur;
} Arena;

static _Thread_local Arena *cur_arena;

enum { AHDR = 16, AFIRST = 256 << 10, AMAX = 8 << 20, AKEEP = 8 << 20 };

static Arena *arena_new(void) {
	Arena *a = malloc(sizeof *a);
	ABlock *b = malloc(sizeof(ABlock) + AFIRST);
	if (a == NULL || b == NULL) { free(a); free(b); return NULL; }
	b->next = NULL; b->cap = AFIRST; b->used = 0;
	a->first = a->cur = b;
	return a;
}

static void arena_free(Arena *a) {
	if (a == NULL) return;
	for (ABlock *b = a->first; b != NULL;) { ABlock *n = b->next; free(b); b = n; }
	free(a);
}

// arena_rewind makes the whole arena free again, keeping at most AKEEP
// bytes of blocks for the next parse.
static void arena_rewind(Arena *a) {
	size_t kept = 0;
	ABlock *prev = NULL;
	for (ABlock *b = a->first; b != NULL;) {
		ABlock *n = b->next;
		kept += b->cap;
		if (prev != NULL && kept > AKEEP) { prev->next = NULL; for (; b != NULL; b = n) { n = b->next; free(b); } break; }
		prev = b;
		b = n;
	}
	a->cur = a->first;
	a->first->used = 0;
}

static void *arena_take(Arena *a, size_t n) {
	size_t need = AHDR + ((n + 15) & ~(size_t)15);
	ABlock *b = a->cur;
	while (b->used + need > b->cap) {
		if (b->next == NULL) {
			size_t cap = b->cap * 2;
			if (cap > AMAX) cap = AMAX;
			if (cap < need) cap = need;
			ABlock *nb = malloc(sizeof(ABlock) + cap);
			if (nb == NULL) return NULL;
			nb->next = NULL; nb->cap = cap; nb->used = 0;
			b->next = nb;
		}
		b = b->next;
		b->used = 0;
		a->cur = b;
	}
	char *p = BDATA(b) + b->used;
	b->used += need;
	*(size_t *)p = n;
	return p + AHDR;
}

// arena_owns reports whether p was handed out by a's blocks in this parse.
static bool arena_owns(Arena *a, const void *p) {
	for (ABlock *b = a->first;; b = b->next) {
		const char *d = BDATA(b);
		if ((const char *)p >= d && (const char *)p < d + b->used) return true;
		if (b == a->cur) return false;
	}
}

// arena_last reports whether p is the latest allocation of the current
// block (it can then grow or shrink in place).
static bool arena_last(Arena *a, const void *p) {
	ABlock *b = a->cur;
	size_t n = *(const size_t *)((const char *)p - AHDR);
	return (const char *)p + ((n + 15) & ~(size_t)15) == BDATA(b) + b->used;
}

static void *ts_arena_malloc(size_t n) {
	Arena *a = cur_arena;
	return a != NULL ? arena_take(a, n) : malloc(n);
}

static void *ts_arena_calloc(size_t count, size_t size) {
	Arena *a = cur_arena;
	if (a == NULL) return calloc(count, size);
	if (size != 0 && count > SIZE_MAX / size) return NULL;
	void *p = arena_take(a, count * size);
	if (p != NULL) memset(p, 0, count * size);
	return p;
}

static void *ts_arena_realloc(void *p, size_t n) {
	Arena *a = cur_arena;
	if (a == NULL || (p != NULL && !arena_owns(a, p))) return realloc(p, n);
	if (p == NULL) return arena_take(a, n);
	size_t old = *(size_t *)((char *)p - AHDR);
	if (arena_last(a, p)) {
		ABlock *b = a->cur;
		size_t start = (size_t)((char *)p - AHDR - BDATA(b));
		size_t need = AHDR + ((n + 15) & ~(size_t)15);
		if (start + need <= b->cap) {
			b->used = start + need;
			*(size_t *)((char *)p - AHDR) = n;
			return p;
		}
	}
	void *q = arena_take(a, n);
	if (q != NULL) memcpy(q, p, old < n ? old : n);
	return q;
}

static void ts_arena_free(void *p) {
	Arena *a = cur_arena;
	if (p == NULL) return;
	if (a == NULL || !arena_owns(a, p)) { free(p); return; }
	if (arena_last(a, p)) a->cur->used = (size_t)((char *)p - AHDR - BDATA(a->cur));
}

static void flat_install_allocator(void) {
	ts_set_allocator(ts_arena_malloc, ts_arena_calloc, ts_arena_realloc, ts_arena_free);
}

static uint16_t flat_symbol(const TSLanguage *lang, _GoString_ name, int named) {
	return ts_language_symbol_for_name(lang, _GoStringPtr(name), (uint32_t)_GoStringLen(name), named != 0);
}

// Two functions of the core that api.h does not declare (lib/src/language.h),
// so the symbol table is read in one pass instead of one
// ts_language_symbol_for_name scan per name.
typedef struct { bool visible; bool named; bool supertype; } FSymbolMetadata;
extern FSymbolMetadata ts_language_symbol_metadata(const TSLanguage *, TSSymbol);
extern TSSymbol ts_language_public_symbol(const TSLanguage *, TSSymbol);

// FSymbol is what ts_language_symbol_for_name looks at of one symbol.
typedef struct {
	const char *name;
	uint32_t len;
	uint16_t public;
	uint8_t findable; // visible or a supertype
	uint8_t named;
} FSymbol;

// flat_symbols fills out[0..count) (count = ts_language_symbol_count).
static void flat_symbols(const TSLanguage *lang, FSymbol *out, uint32_t count) {
	for (uint32_t i = 0; i < count; i++) {
		FSymbolMetadata m = ts_language_symbol_metadata(lang, (TSSymbol)i);
		const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
		out[i].name = name;
		out[i].len = name ? (uint32_t)strlen(name) : 0;
		out[i].public = ts_language_public_symbol(lang, (TSSymbol)i);
		out[i].findable = m.visible || m.supertype;
		out[i].named = m.named;
	}
}

static uint16_t flat_field(const TSLanguage *lang, _GoString_ name) {
	return ts_language_field_id_for_name(lang, _GoStringPtr(name), (uint32_t)_GoStringLen(name));
}

// FScan is what flatten learns of the tree while it copies it, so that the
// model builder need not walk the whole flat tree once more before
// building (see builder.scan). The inputs are set once per parser, the
// outputs by every parse.
typedef struct {
	const uint8_t *expr;          // in: expr[sym] != 0 for an expression symbol (sym < nexpr)
	uint32_t nexpr;
	uint16_t ident, comment;      // in: the identifier and comment symbols
	uint32_t expr_nodes, idents;  // out: expression nodes, identifiers
	uint32_t flagged;             // out: an ERROR or MISSING node, or a short identifier spelled like a keyword (or no memory for the comments)
	uint32_t *comments;           // out: the indices of the comment nodes, in order (grown as needed)
	uint32_t ncomments, ccap;
} FScan;

// flat_reserved is the builder's reserved(): the keywords tree-sitter's
// grammar lets through as names.
static bool flat_reserved(const char *s, uint32_t n) {
	switch (n) {
	case 4: return memcmp(s, "None", 4) == 0 || memcmp(s, "True", 4) == 0;
	case 5: return memcmp(s, "False", 5) == 0 || memcmp(s, "async", 5) == 0 || memcmp(s, "await", 5) == 0;
	}
	return false;
}

// scan_node counts node f (index i) into sc.
static inline void scan_node(FScan *sc, const FNode *f, uint32_t i, const char *src) {
	uint16_t sym = f->sym;
	if (sym < sc->nexpr && sc->expr[sym]) {
		sc->expr_nodes++;
		if (sym == sc->ident) {
			sc->idents++;
			uint32_t len = f->end_byte - f->start_byte;
			if (len <= 5 && flat_reserved(src + f->start_byte, len)) sc->flagged = 1;
		}
	}
	if (f->flags & (FLAG_ERROR | FLAG_MISSING)) sc->flagged = 1;
	if (sym == sc->comment && !sc->flagged) {
		if (sc->ncomments == sc->ccap) {
			uint32_t ncap = sc->ccap ? sc->ccap * 2 : 256;
			uint32_t *nb = realloc(sc->comments, ncap * sizeof *nb);
			if (nb == NULL) { sc->flagged = 1; return; } // the builder scans the nodes itself
			sc->comments = nb;
			sc->ccap = ncap;
		}
		sc->comments[sc->ncomments++] = i;
	}
}

// flatten copies tree t into *buf (grown as needed) in pre-order and
// returns the node count, or 0 when memory runs out. It fills sc's outputs
// (when sc is not NULL) from the nodes as it writes them.
static uint32_t flatten(TSTree *t, FNode **buf, uint32_t *cap, FScan *sc, const char *src) {
	if (sc != NULL) { sc->expr_nodes = 0; sc->idents = 0; sc->flagged = 0; sc->ncomments = 0; }
	TSNode root = ts_tree_root_node(t);
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t n = 0, sp = 0, scap = 256;
	uint32_t *stack = malloc(scap * sizeof *stack);
	if (stack == NULL) goto fail;
	for (;;) {
		if (n == *cap) {
			uint32_t ncap = *cap ? *cap * 2 : 4096;
			FNode *nb = realloc(*buf, ncap * sizeof(FNode));
			if (nb == NULL) goto fail;
			*buf = nb;
			*cap = ncap;
		}
		if (sp == scap) {
			uint32_t *ns = realloc(stack, scap * 2 * sizeof *stack);
			if (ns == NULL) goto fail;
			stack = ns;
			scap *= 2;
		}
		TSNode node = ts_tree_cursor_current_node(&c);
		FNode *f = &(*buf)[n];
		TSPoint s = ts_node_start_point(node), e = ts_node_end_point(node);
		f->start_byte = ts_node_start_byte(node);
		f->end_byte = ts_node_end_byte(node);
		f->row = s.row; f->col = s.column; f->end_row = e.row; f->end_col = e.column;
		f->sym = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(node) ? FLAG_NAMED : 0) |
			(ts_node_is_error(node) ? FLAG_ERROR : 0) |
			(ts_node_is_missing(node) ? FLAG_MISSING : 0) |
			(ts_node_is_extra(node) ? FLAG_EXTRA : 0);
		f->size = 0;
		if (sc != NULL) scan_node(sc, f, n, src);
		stack[sp++] = n++;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		for (;;) {
			uint32_t idx = stack[--sp];
			(*buf)[idx].size = n - idx;
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
		}
	}
done:
	free(stack);
	ts_tree_cursor_delete(&c);
	return n;
fail:
	free(stack);
	ts_tree_cursor_delete(&c);
	return 0;
}

// flat_parse parses src with a parser made for this parse and flattens
// the tree into *buf, so no parser or tree ever outlives this call. With
// an arena (a != NULL) everything the parse allocates comes from it: the
// parser is deleted (its external scanner holds libc memory), the tree is
// not, and the arena is rewound instead, which disposes of the tree and
// the parser's buffers at once. Without an arena (files too large to keep
// in one) the tree is deleted as usual. It returns the node count, or 0
// when tree-sitter produced no tree or memory ran out (the caller treats
// that as an internal failure).
static uint32_t flat_parse(Arena *a, const TSLanguage *lang, const char *src, uint32_t len, FNode **buf, uint32_t *cap, FScan *sc) {
	cur_arena = a;
	uint32_t n = 0;
	TSParser *p = ts_parser_new();
	if (p == NULL) goto out;
	if (!ts_parser_set_language(p, lang)) { ts_parser_delete(p); goto out; }
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (t != NULL) {
		n = flatten(t, buf, cap, sc, src);
		if (a == NULL) ts_tree_delete(t);
	}
	ts_parser_delete(p);
out:
	cur_arena = NULL;
	if (a != NULL) arena_rewind(a);
	return n;
}

// flat_check_language reports whether the grammar's ABI is one this
// tree-sitter accepts.
static bool flat_check_language(const TSLanguage *lang) {
	TSParser *p = ts_parser_new();
	if (p == NULL) return false;
	bool ok = ts_parser_set_language(p, lang);
	ts_parser_delete(p);
	return ok;
}
*/
import "C"

import (
	"errors"
	"strings"
	"sync"
	"unsafe"

	_ "github.com/tree-sitter/go-tree-sitter" // links the tree-sitter core the declarations above refer to
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// node mirrors C.FNode; init checks that the layouts agree.
type node struct {
	start, end     uint32
	row, col       uint32
	endRow, endCol uint32
	size           uint32
	sym, field     uint16
	flags          uint8
	_              [3]uint8
}

const (
	flagNamed   = 1
	flagError   = 2
	flagMissing = 4
	flagExtra   = 8
)

func (n *node) named() bool   { return n.flags&flagNamed != 0 }
func (n *node) isError() bool { return n.flags&flagError != 0 }
func (n *node) missing() bool { return n.flags&flagMissing != 0 }

func init() {
	if unsafe.Sizeof(node{}) != C.sizeof_FNode {
		panic("pyscan: node layout does not match C FNode")
	}
}

// installAllocator replaces tree-sitter's allocator once, before the
// first parser exists (not at process start): the official binding routes
// every malloc through a Go trampoline, which costs ~50% of parse time,
// and flat_parse serves parses from an arena. Outside an arena the
// functions are libc's, so frees by either side stay compatible. Nothing
// here may call ts.SetAllocator again. (A zero sync.Once, not a
// package-level sync.OnceFunc, which would allocate at process start.)
func installAllocator() { allocatorInstalled.Do(installAllocatorOnce) }

var allocatorInstalled sync.Once

func installAllocatorOnce() { C.flat_install_allocator() }

func language() *C.TSLanguage { return (*C.TSLanguage)(tspython.Language()) }

// flatParser owns one worker's arena and node buffer; a tree-sitter
// parser is made and dropped inside each parse (see flat_parse).
type flatParser struct {
	arena  *C.Arena
	buf    *C.FNode
	cap    C.uint32_t
	scan   C.FScan // what the flattening counted of the latest tree (see treeScan)
	closed bool
}

// treeScan is what flat_parse counted of a tree while flattening it: the
// counts the builder sizes its slabs from and the comment nodes, so the
// builder need not walk every node once more before building. When
// flagged, the tree holds an ERROR or MISSING node or a short identifier
// spelled like a keyword, and the builder scans the nodes itself.
type treeScan struct {
	exprNodes, idents int
	flagged           bool
	comments          []uint32 // node indices; aliases C memory, valid until the next parse
}

// exprTable is symtab.expr in C memory, which flatten reads for every
// node; made once per process and never freed.
var exprTable = lazy.New(buildExprTable)

// buildExprTable builds exprTable on first use.
func buildExprTable() *C.uint8_t {
	expr := symbols.Get().expr
	t := (*C.uint8_t)(C.malloc(C.size_t(len(expr))))
	tab := unsafe.Slice(t, len(expr))
	for i, e := range expr {
		tab[i] = 0
		if e {
			tab[i] = 1
		}
	}
	return t
}

// maxSource bounds the sources parsed: positions are int32 (see Pos).
const maxSource = 1<<31 - 1

var errTooLarge = errors.New("pyscan: file too large (2 GiB limit)")

// arenaMax is the largest source parsed in an arena. An arena holds
// everything the parse allocated until the end of the parse (tree-sitter
// frees as it goes without one), tens of bytes per source byte; Gaia
// modules are kilobytes, and a rare large file is parsed with malloc.
const arenaMax = 1 << 20

func newFlatParser() (*flatParser, error) {
	installAllocator()
	if !C.flat_check_language(language()) {
		return nil, errors.New("pyscan: tree-sitter rejected the Python grammar (ABI mismatch)")
	}
	a := C.arena_new()
	if a == nil {
		return nil, errors.New("pyscan: out of memory for the parse arena")
	}
	t := symbols.Get()
	f := &flatParser{arena: a}
	f.scan.expr, f.scan.nexpr = exprTable.Get(), C.uint32_t(len(t.expr))
	f.scan.ident, f.scan.comment = C.uint16_t(t.identifier), C.uint16_t(t.comment)
	return f, nil
}

// scanned returns what the latest parse counted of its tree.
func (f *flatParser) scanned() treeScan {
	sc := &f.scan
	ts := treeScan{exprNodes: int(sc.expr_nodes), idents: int(sc.idents), flagged: sc.flagged != 0}
	if sc.ncomments > 0 {
		ts.comments = unsafe.Slice((*uint32)(unsafe.Pointer(sc.comments)), int(sc.ncomments))
	}
	return ts
}

// parse returns the flattened tree of src. The slice aliases C memory and is
// valid until the next parse or close.
func (f *flatParser) parse(src []byte) ([]node, error) {
	if f.closed {
		return nil, errors.New("pyscan: parser is closed")
	}
	if len(src) >= maxSource {
		return nil, errTooLarge
	}
	// tree-sitter reads the bytes during the call only and they hold no Go
	// pointers, so the Go slice is passed directly (no copy).
	var ptr *C.char
	if len(src) > 0 {
		ptr = (*C.char)(unsafe.Pointer(&src[0]))
	} else {
		ptr = C.CString("")
		defer C.free(unsafe.Pointer(ptr))
	}
	a := f.arena
	if len(src) > arenaMax {
		a = nil
	}
	n := C.flat_parse(a, language(), ptr, C.uint32_t(len(src)), &f.buf, &f.cap, &f.scan)
	if n == 0 {
		return nil, errors.New("pyscan: tree-sitter returned no tree")
	}
	return unsafe.Slice((*node)(unsafe.Pointer(f.buf)), int(n)), nil
}

func (f *flatParser) close() {
	if f.closed {
		return
	}
	f.closed = true
	C.arena_free(f.arena)
	f.arena = nil
	if f.buf != nil {
		C.free(unsafe.Pointer(f.buf))
		f.buf = nil
		f.cap = 0
	}
	if f.scan.comments != nil {
		C.free(unsafe.Pointer(f.scan.comments))
		f.scan.comments = nil
		f.scan.ccap, f.scan.ncomments = 0, 0
	}
}

// symbolID returns the id of a grammar symbol. Called once per name at init:
// the C strings come from Go strings directly, nothing is allocated.
func symbolID(name string, named bool) uint16 {
	nm := C.int(0)
	if named {
		nm = 1
	}
	return uint16(C.flat_symbol(language(), name, nm))
}

func fieldID(name string) uint16 { return uint16(C.flat_field(language(), name)) }

// grammarSymbols reads every grammar symbol's name (static C strings,
// viewed, not copied) and what ts_language_symbol_for_name matches on, in
// one cgo call.
func grammarSymbols() (names []string, find map[symbolKey]uint16) {
	lang := language()
	n := int(C.ts_language_symbol_count(lang))
	syms := make([]C.FSymbol, n)
	if n > 0 {
		C.flat_symbols(lang, &syms[0], C.uint32_t(n))
	}
	names = make([]string, n)
	find = make(map[symbolKey]uint16, n)
	for i, sy := range syms {
		if sy.name == nil {
			continue
		}
		names[i] = unsafe.String((*byte)(unsafe.Pointer(sy.name)), int(sy.len))
		k := symbolKey{names[i], sy.named != 0}
		if _, seen := find[k]; !seen && sy.findable != 0 {
			find[k] = uint16(sy.public)
		}
	}
	return names, find
}

// symbolKey is a symbol's name and whether it is named.
type symbolKey struct {
	name  string
	named bool
}

// lookupSymbol is ts_language_symbol_for_name over the table grammarSymbols
// read: the public symbol of the first visible (or supertype) symbol of
// that name and namedness, 0 for none; a prefix of "ERROR" (the C
// function's strncmp) is the error symbol.
func lookupSymbol(find map[symbolKey]uint16, name string, named bool) uint16 {
	if strings.HasPrefix("ERROR", name) {
		return 0xFFFF // ts_builtin_sym_error
	}
	return find[symbolKey{name, named}]
}
