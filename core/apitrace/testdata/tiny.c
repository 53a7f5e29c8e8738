/* A small OpenGL program whose calls the reader tests record with Debian's
 * apitrace under Xvfb: a vertex buffer from glBufferData (a blob), three
 * glMapBufferRange/memcpy/glUnmapBuffer rounds (the tracer's fake memcpy
 * calls), a GLSL program (strings), three glXSwapBuffers (frames), a float
 * uniform, a second thread with its own context (thread @1) and a clean
 * exit. */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char *vs =
	"#version 120\n"
	"attribute vec3 pos;\n"
	"void main() { gl_Position = vec4(pos, 1.0); }\n";
static const char *fs =
	"#version 120\n"
	"uniform vec4 colour;\n"
	"void main() { gl_FragColor = colour; }\n";

static Display *dpy;
static Window win;
static XVisualInfo *vi;

/* worker clears with a context of its own on a second thread. */
static void *worker(void *arg)
{
	(void)arg;
	GLXContext c = glXCreateContext(dpy, vi, NULL, True);
	glXMakeCurrent(dpy, win, c);
	glClearColor(0, 1, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	glXMakeCurrent(dpy, None, NULL);
	glXDestroyContext(dpy, c);
	return NULL;
}

int main(void)
{
	XInitThreads();
	dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "tiny: no display\n");
		return 1;
	}
	int attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, None};
	vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
	if (!vi) {
		fprintf(stderr, "tiny: no visual\n");
		return 1;
	}
	XSetWindowAttributes swa = {0};
	swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
	win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 64, 64, 0, vi->depth, InputOutput,
		vi->visual, CWColormap, &swa);
	GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
	glXMakeCurrent(dpy, win, ctx);

	GLuint prog = glCreateProgram();
	GLuint s[2] = {glCreateShader(GL_VERTEX_SHADER), glCreateShader(GL_FRAGMENT_SHADER)};
	glShaderSource(s[0], 1, &vs, NULL);
	glShaderSource(s[1], 1, &fs, NULL);
	for (int i = 0; i < 2; i++) {
		glCompileShader(s[i]);
		glAttachShader(prog, s[i]);
	}
	glBindAttribLocation(prog, 0, "pos");
	glLinkProgram(prog);
	glUseProgram(prog);
	glUniform4f(glGetUniformLocation(prog, "colour"), 1.0f, 0.5f, -0.25f, 1.0f);

	float tri[9] = {0, 0.5f, 0, 0.5f, -0.5f, 0, -0.5f, -0.5f, 0};
	GLuint vbo;
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_DYNAMIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, 0);
	for (int frame = 0; frame < 3; frame++) {
		tri[1] = 0.5f - 0.125f * frame;
		void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, sizeof tri, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
		memcpy(p, tri, sizeof tri);
		glUnmapBuffer(GL_ARRAY_BUFFER);
		glClearColor(0.1f, 0.1f, 0.2f, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		glDrawArrays(GL_TRIANGLES, 0, 3);
		glXSwapBuffers(dpy, win);
	}
	glFinish();
	pthread_t th;
	pthread_create(&th, NULL, worker, NULL);
	pthread_join(th, NULL);
	glDeleteBuffers(1, &vbo);
	glXMakeCurrent(dpy, None, NULL);
	glXDestroyContext(dpy, ctx);
	XDestroyWindow(dpy, win);
	XCloseDisplay(dpy);
	return 0;
}
