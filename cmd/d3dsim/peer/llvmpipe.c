/*
 * The speed peer of `d3dsim bench --peer`: Mesa's llvmpipe (through
 * OSMesa, Debian's libosmesa6) draws one of the bench's scenes with the
 * same vertices and the same pixel shader written in GLSL, and says how
 * long its frames took. d3dsim bench builds it with cc when cc and the
 * library are present. LP_NUM_THREADS chooses llvmpipe's rasterizer
 * threads.
 *
 * stdin: a line "WIDTH HEIGHT DRAWS COUNT TEXTURE SHADER NFLOATS", SHADER
 * being vertexcolor, texcolor, phong or loop (the GLSL twins of the HLSL
 * shaders of gpu/benchscene.go), then NFLOATS little-endian float32s: the
 * vertices, 9 floats each (x y z in clip space, r g b a, u v), a triangle
 * list. argv[1]: the least time to draw for, in milliseconds; argv[2], if
 * given: a file to write the first frame's pixels to (RGBA8, top row
 * first, as d3dsim's target), for the tests that compare the pictures.
 * stdout: "frames=N seconds=S samples=P renderer=NAME", P the pixels a
 * frame shades (an occlusion query over the first frame).
 */
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static PFNGLCREATESHADERPROC CreateShader;
static PFNGLSHADERSOURCEPROC ShaderSource;
static PFNGLCOMPILESHADERPROC CompileShader;
static PFNGLGETSHADERIVPROC GetShaderiv;
static PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog;
static PFNGLCREATEPROGRAMPROC CreateProgram;
static PFNGLATTACHSHADERPROC AttachShader;
static PFNGLBINDATTRIBLOCATIONPROC BindAttribLocation;
static PFNGLLINKPROGRAMPROC LinkProgram;
static PFNGLGETPROGRAMIVPROC GetProgramiv;
static PFNGLUSEPROGRAMPROC UseProgram;
static PFNGLGETUNIFORMLOCATIONPROC GetUniformLocation;
static PFNGLUNIFORM1IPROC Uniform1i;
static PFNGLGENBUFFERSPROC GenBuffers;
static PFNGLBINDBUFFERPROC BindBuffer;
static PFNGLBUFFERDATAPROC BufferData;
static PFNGLVERTEXATTRIBPOINTERPROC VertexAttribPointer;
static PFNGLENABLEVERTEXATTRIBARRAYPROC EnableVertexAttribArray;
static PFNGLGENQUERIESPROC GenQueries;
static PFNGLBEGINQUERYPROC BeginQuery;
static PFNGLENDQUERYPROC EndQuery;
static PFNGLGETQUERYOBJECTUIVPROC GetQueryObjectuiv;

static void *need(const char *name) {
	void *p = (void *)OSMesaGetProcAddress(name);
	if (!p) {
		fprintf(stderr, "llvmpipe peer: OSMesa has no %s\n", name);
		exit(1);
	}
	return p;
}

static GLuint shader(GLenum kind, const char *src) {
	GLuint s = CreateShader(kind);
	GLint ok = 0;
	ShaderSource(s, 1, &src, NULL);
	CompileShader(s);
	GetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[2048];
		GetShaderInfoLog(s, sizeof log, NULL, log);
		fprintf(stderr, "llvmpipe peer: GLSL: %s\n", log);
		exit(1);
	}
	return s;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *vs =
	"#version 120\n"
	"attribute vec3 pos; attribute vec4 color; attribute vec2 uv;\n"
	"varying vec4 c; varying vec2 t;\n"
	"void main() { gl_Position = vec4(pos, 1.0); c = color; t = uv; }\n";
static const char *psColor =
	"#version 120\n"
	"varying vec4 c; varying vec2 t;\n"
	"void main() { gl_FragColor = c; }\n";
static const char *psTexColor =
	"#version 120\n"
	"uniform sampler2D tex; varying vec4 c; varying vec2 t;\n"
	"void main() { gl_FragColor = texture2D(tex, t) * c; }\n";

/* gpu.PhongHLSL: a sphere's normal from the uv, one light, Phong. */
static const char *psPhong =
	"#version 120\n"
	"varying vec4 c; varying vec2 t;\n"
	"void main() {\n"
	"  vec3 n = normalize(vec3(t * 2.0 - 1.0, 1.0));\n"
	"  vec3 l = vec3(0.3904, 0.4880, 0.7807);\n"
	"  vec3 r = reflect(-l, n);\n"
	"  float diff = clamp(dot(n, l), 0.0, 1.0);\n"
	"  float spec = pow(clamp(r.z, 0.0, 1.0), 16.0);\n"
	"  gl_FragColor = vec4(c.rgb * (0.1 + 0.8 * diff) + 0.5 * spec, c.a);\n"
	"}\n";
/* gpu.LoopHLSL: eight rounds of an iterated map of the uv. */
static const char *psLoop =
	"#version 120\n"
	"varying vec4 c; varying vec2 t;\n"
	"void main() {\n"
	"  vec3 col = vec3(0.0);\n"
	"  vec2 p = t;\n"
	"  for (int i = 0; i < 8; i++) {\n"
	"    p = fract(p * 1.9 + 0.13);\n"
	"    col += c.rgb * (p.x * p.y);\n"
	"  }\n"
	"  gl_FragColor = vec4(col * 0.5, 1.0);\n"
	"}\n";

int main(int argc, char **argv) {
	int w, h, draws, count, texture, n;
	char kind[32];
	if (argc < 2 || scanf("%d %d %d %d %d %31s %d", &w, &h, &draws, &count, &texture, kind, &n) != 7 || getchar() != '\n') {
		fprintf(stderr, "llvmpipe peer: usage: peer MILLISECONDS < scene\n");
		return 2;
	}
	if (w <= 0 || h <= 0 || w > 8192 || h > 8192 || n <= 0 || n > (1 << 26) || count <= 0 || draws <= 0 || texture < 0 || texture > 4096) {
		fprintf(stderr, "llvmpipe peer: a scene out of range\n");
		return 2;
	}
	double least = atof(argv[1]) / 1000;
	float *v = malloc(sizeof(float) * (size_t)n);
	if (!v || fread(v, sizeof(float), (size_t)n, stdin) != (size_t)n) {
		fprintf(stderr, "llvmpipe peer: the scene's vertices are short\n");
		return 2;
	}
	OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
	void *fb = malloc((size_t)w * h * 4);
	if (!ctx || !fb || !OSMesaMakeCurrent(ctx, fb, GL_UNSIGNED_BYTE, w, h)) {
		fprintf(stderr, "llvmpipe peer: no OSMesa context\n");
		return 1;
	}
	CreateShader = need("glCreateShader");
	ShaderSource = need("glShaderSource");
	CompileShader = need("glCompileShader");
	GetShaderiv = need("glGetShaderiv");
	GetShaderInfoLog = need("glGetShaderInfoLog");
	CreateProgram = need("glCreateProgram");
	AttachShader = need("glAttachShader");
	BindAttribLocation = need("glBindAttribLocation");
	LinkProgram = need("glLinkProgram");
	GetProgramiv = need("glGetProgramiv");
	UseProgram = need("glUseProgram");
	GetUniformLocation = need("glGetUniformLocation");
	Uniform1i = need("glUniform1i");
	GenBuffers = need("glGenBuffers");
	BindBuffer = need("glBindBuffer");
	BufferData = need("glBufferData");
	VertexAttribPointer = need("glVertexAttribPointer");
	EnableVertexAttribArray = need("glEnableVertexAttribArray");
	GenQueries = need("glGenQueries");
	BeginQuery = need("glBeginQuery");
	EndQuery = need("glEndQuery");
	GetQueryObjectuiv = need("glGetQueryObjectuiv");

	GLuint p = CreateProgram();
	AttachShader(p, shader(GL_VERTEX_SHADER, vs));
	const char *ps = psColor;
	if (strcmp(kind, "texcolor") == 0)
		ps = psTexColor;
	else if (strcmp(kind, "phong") == 0)
		ps = psPhong;
	else if (strcmp(kind, "loop") == 0)
		ps = psLoop;
	else if (strcmp(kind, "vertexcolor") != 0) {
		fprintf(stderr, "llvmpipe peer: no shader %s\n", kind);
		return 2;
	}
	AttachShader(p, shader(GL_FRAGMENT_SHADER, ps));
	BindAttribLocation(p, 0, "pos");
	BindAttribLocation(p, 1, "color");
	BindAttribLocation(p, 2, "uv");
	LinkProgram(p);
	GLint ok = 0;
	GetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "llvmpipe peer: the program does not link\n");
		return 1;
	}
	UseProgram(p);
	GLuint vb;
	GenBuffers(1, &vb);
	BindBuffer(GL_ARRAY_BUFFER, vb);
	BufferData(GL_ARRAY_BUFFER, sizeof(float) * (GLsizeiptr)n, v, GL_STATIC_DRAW);
	VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 36, (void *)0);
	VertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 36, (void *)12);
	VertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 36, (void *)28);
	EnableVertexAttribArray(0);
	EnableVertexAttribArray(1);
	EnableVertexAttribArray(2);
	if (texture > 0) {
		/* The bench's texture (gpu/benchscene.go NewBenchRig). */
		unsigned char *t = malloc((size_t)texture * texture * 4);
		for (int i = 0; i < texture * texture; i++) {
			int x = i % texture, y = i / texture;
			t[4 * i] = x * 255 / texture;
			t[4 * i + 1] = y * 255 / texture;
			t[4 * i + 2] = (unsigned char)((x ^ y) * 4);
			t[4 * i + 3] = 255;
		}
		GLuint tex;
		glGenTextures(1, &tex);
		glBindTexture(GL_TEXTURE_2D, tex);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, texture, texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, t);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
		Uniform1i(GetUniformLocation(p, "tex"), 0);
	}
	/* D3D11's defaults: back faces (clockwise is front) culled, no depth
	 * test, no blending. */
	glViewport(0, 0, w, h);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_BLEND);
	glEnable(GL_CULL_FACE);
	glFrontFace(GL_CW);
	glCullFace(GL_BACK);

	/* The first frame warms up and counts the pixels it shades. */
	GLuint q, samples = 0;
	GenQueries(1, &q);
	BeginQuery(GL_SAMPLES_PASSED, q);
	for (int d = 0; d < draws; d++) glDrawArrays(GL_TRIANGLES, 0, count);
	EndQuery(GL_SAMPLES_PASSED);
	glFinish();
	GetQueryObjectuiv(q, GL_QUERY_RESULT, &samples);
	if (argc > 2) {
		/* OSMesa's rows go bottom up: the file's top down. */
		FILE *f = fopen(argv[2], "wb");
		int bad = !f;
		for (int y = h - 1; !bad && y >= 0; y--)
			bad = fwrite((unsigned char *)fb + (size_t)y * w * 4, 4, (size_t)w, f) != (size_t)w;
		if (f && fclose(f) != 0)
			bad = 1;
		if (bad) {
			fprintf(stderr, "llvmpipe peer: cannot write %s\n", argv[2]);
			return 1;
		}
	}
	int frames = 0;
	double start = now(), took = 0;
	while (frames < 2 || took < least) {
		for (int d = 0; d < draws; d++) glDrawArrays(GL_TRIANGLES, 0, count);
		glFinish();
		frames++;
		took = now() - start;
	}
	GLenum err = glGetError();
	if (err != GL_NO_ERROR) {
		fprintf(stderr, "llvmpipe peer: GL error 0x%x\n", err);
		return 1;
	}
	printf("frames=%d seconds=%.6f samples=%u renderer=%s\n", frames, took, samples, (const char *)glGetString(GL_RENDERER));
	return 0;
}
