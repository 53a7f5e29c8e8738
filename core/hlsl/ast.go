package hlsl

// pos is a source position.
type pos struct{ line, col int }

// Expr is an expression node.
type Expr interface{ at() pos }

type (
	identExpr struct {
		pos
		name string
	}
	intLit struct {
		pos
		v    uint64
		uns  bool
		text string
	}
	floatLit struct {
		pos
		v     float64
		typed bool // a suffix (1.0f, 1.0h) gives it its type; 1.0 is a literal of no fixed precision
		dbl   bool // 1.0l, 1.0lf: a double
	}
	boolLit struct {
		pos
		v bool
	}
	unaryExpr struct {
		pos
		op      string
		x       Expr
		postfix bool
	}
	binaryExpr struct {
		pos
		op   string
		x, y Expr
	}
	assignExpr struct {
		pos
		op   string // "=", "+=", ...
		l, r Expr
	}
	condExpr struct {
		pos
		c, a, b Expr
	}
	callExpr struct {
		pos
		recv Expr // method calls: tex.Sample(...)
		name string
		args []Expr
	}
	ctorExpr struct {
		pos
		typ  *typeSpec
		args []Expr
	}
	castExpr struct {
		pos
		typ  *typeSpec
		dims []Expr // (float[4])x
		x    Expr
	}
	memberExpr struct {
		pos
		x    Expr
		name string
	}
	indexExpr struct {
		pos
		x, i Expr
	}
	// stateExpr is `sampler_state { ... }`: a sampler's initial value in
	// the effects framework.
	stateExpr struct {
		pos
		sb *stateBlock
	}
	// compileExpr is `compile ps_4_0 f(args)`: an effect's shader.
	compileExpr struct {
		pos
		profile string
		call    Expr
	}
	// stringLit is a string: only an effect's states and
	// ConstructGSWithSO take one.
	stringLit struct {
		pos
		s string
	}
	// implicitDim is the size left out of `float a[] = {...}`.
	implicitDim struct{ pos }
	initList    struct {
		pos
		elems []Expr
	}
)

func (p pos) at() pos { return p }

// typeSpec is a type as written: a name, template arguments, modifiers.
type typeSpec struct {
	pos
	name     string
	args     []int  // vector<float,3>, matrix<float,4,4>
	argExprs []Expr // args written as constant expressions (nil for a literal, or none at all)
	argType  string
	rowMajor bool
	colMajor bool
	unsigned bool        // `unsigned int`: the int type made uint
	latent   uint8       // the packing #pragma pack_matrix has set where it is written (latentNone before any)
	def      *structDecl // struct S { ... } written in place (S may be empty: an unnamed struct)
}

// caseGroup is `case 1: case 2: default: body...`.
type caseGroup struct {
	labels []caseLabel
	body   []Stmt
}

type caseLabel struct {
	pos
	x Expr // nil for default
}

// typedefDecl is `typedef TYPE NAME[dims], ...;`.
type typedefDecl struct {
	pos
	typ   *typeSpec
	names []*varDecl // each name with its array sizes
}

// Stmt is a statement node.
type Stmt interface{ at() pos }

type (
	blockStmt struct {
		pos
		list []Stmt
	}
	declStmt struct {
		pos
		vars []*varDecl
		def  *structDecl // struct S { ... } x;: the struct it declares first
	}
	exprStmt struct {
		pos
		x Expr
	}
	ifStmt struct {
		pos
		cond       Expr
		then, els_ Stmt
	}
	forStmt struct {
		pos
		init   Stmt
		cond   Expr
		post   Expr
		body   Stmt
		unroll int  // [unroll(N)]: fxc runs at most N trips
		hint   int8 // loopHint: [unroll] 1, [loop] -1
		// unrollAll: [unroll] without a count, which fxc refuses for a
		// loop of 1,024 trips or more (unroll.go)
		unrollAll bool
	}
	whileStmt struct {
		pos
		cond   Expr
		body   Stmt
		do     bool
		unroll int
		hint   int8
	}
	returnStmt struct {
		pos
		x Expr
	}
	jumpStmt struct {
		pos
		kind string // break, continue, discard
	}
	emptyStmt struct{ pos }
	// switchStmt: the case groups in order; labels that share a body are
	// one group.
	switchStmt struct {
		pos
		sel    Expr
		groups []*caseGroup
	}
	// typeStmt declares a struct or a typedef inside a function.
	typeStmt struct {
		pos
		decl any // *structDecl or *typedefDecl
	}
)

// varDecl is a variable, parameter, global or cbuffer member.
type varDecl struct {
	pos
	typ       *typeSpec
	name      string
	arrayLen  []Expr
	init      Expr
	semantic  string
	register  string    // t0, s0, b0, c0 (a global's register, as regs resolve for the target)
	regs      []regSpec // the register(...) annotations as written
	classRegs []string  // the registers that apply to the target, of every class (a struct's t1 and s1: objstruct.go)
	packoff   string    // c1.y
	static    bool
	constQ    bool
	uniform   bool
	inout     string // in, out, inout
	interp    string // nointerpolation, noperspective, linear, centroid
	prim      string // a geometry shader's input primitive: point, line, triangle, lineadj, triangleadj (gs.go)
	groupshrd bool
	states    *stateBlock // an effects state block, checked and ignored
}

// stateBlock is an effects-framework state block after a declaration.
type stateBlock struct {
	pos
	list   bool           // a list of blocks, one per component
	blocks [][]stateEntry // the blocks
}

// stateEntry is `name[index] = value;` in a state block.
type stateEntry struct {
	pos
	name   string
	index  int    // -1: none
	call   bool   // SetPixelShader(...): values are the arguments
	values []Expr // the value's expressions (a braced list's, flattened)
}

type structDecl struct {
	pos
	name   string
	fields []*varDecl
	base   token // struct b : a
}

type cbufferDecl struct {
	pos
	name     string
	register string    // b0, as registers resolve for the target
	regs     []regSpec // the register(...) annotations as written
	vars     []*varDecl
}

type funcDecl struct {
	order int // its place among the file's declarations
	attrs []attr
	pos
	ret      *typeSpec
	name     string
	params   []*varDecl
	semantic string
	body     *blockStmt
}

type file struct {
	structs  []*structDecl
	cbuffers []*cbufferDecl
	globals  []*varDecl
	funcs    []*funcDecl
	order    []any // declarations in source order
	// techniques: the passes' state blocks of the effect's techniques,
	// checked and otherwise ignored.
	techniques []*stateBlock
}
