//go:build js

// The browser's entry point: the Ebiten game and the window.d3dsim bridge.

package main

import (
	"image"
	"image/color"
	"math"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"d3dsim/core/scenario"
)

func main() {
	actualFPS = ebiten.ActualFPS
	newGCFloor(gcFloorBytes).watch() // (gcfloor.go)
	a := &app{playWake: make(chan struct{}, 1)}
	g := newGame(a)
	stageDraws = g.draws.Load
	gate := newStageGate()
	g.gate = gate
	wakeStage = func() {
		ebiten.ScheduleFrame()
		gate.release()
	}
	b := installBridge(a) // loads the scenario the URL asks for and resolves d3dsim.ready
	go pump(a, b)

	ebiten.SetRunnableOnUnfocused(true)
	// The stage is drawn only when it changes (game.Draw): with the screen
	// kept between frames, Ebiten then skips its final copy and the swap, so
	// an idle page costs the browser no compositing every animation frame
	// (about half a core in headless Chromium's software WebGL before).
	ebiten.SetScreenClearedEveryFrame(false)
	// Update and Draw run only when something asks for a frame: the game
	// itself while a run plays or a frame waits (game.Update), the bridge
	// when a call or a slice changed the run (bridge.changed), Ebiten on
	// input and on a resize. An idle page then runs neither, 60 times a
	// second, for nothing; Ebiten's loop would still ask the browser for
	// every animation frame to find that out, so boot.js's gate holds it
	// while idle (stageGate). Deprecated in Ebiten v2.5 in
	// favour of SetScreenClearedEveryFrame(false), which skips the drawing
	// but still runs both; the mode is still honoured.
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	ebiten.SetWindowTitle("d3dsim")
	if err := ebiten.RunGame(g); err != nil {
		// No canvas (no WebGL, say): the simulator, the bridge and the panel
		// still work; say why there is no picture.
		b.notify("The frame view could not start (" + err.Error() + "); the trace and the test hook still work.")
	}
	select {} // keep serving the bridge's callbacks
}

// pump advances a playing run when Ebiten does not tick (no canvas, a
// hidden tab), so a scenario always finishes. While Ebiten ticks it does
// nothing.
// It also shows the notice a run that ended while playing left (a limit
// that stopped it, a crash). While nothing plays it sleeps until a run
// starts (app.playWake): a timer every 100 ms would wake the idle page's
// event loop and the Go scheduler ten times a second.
func pump(a *app, b *bridge) {
	last := a.tickCount()
	for {
		if !a.isPlaying() {
			<-a.playWake
		}
		time.Sleep(100 * time.Millisecond)
		last = a.pumpIfStalled(last)
		b.notifyPending()
	}
}

// Colours of the stage around the frame.
var (
	stageBG  = color.RGBA{0x0b, 0x0e, 0x14, 0xff}
	frameRim = color.RGBA{0x2a, 0x31, 0x3d, 0xff}
)

// game is the Ebiten side: Update advances the run, Draw shows the last
// presented frame.
type game struct {
	a     *app
	gen   uint64        // app generation the frame image reflects
	img   *ebiten.Image // last presented frame; nil before the first Present
	rim   *ebiten.Image // 1x1, stretched into the frame's border
	label *ebiten.Image // "no frame yet", drawn once and scaled
	ticks *ticker       // the playing run's slices, one an animation frame

	// What the stage last showed: Draw redraws only when one of them moved.
	dirty  bool   // a new frame (or none) since the last Draw
	shown  []byte // the pixels img holds (a presented frame's never change)
	sw, sh int    // the screen's size at the last Draw

	draws atomic.Uint64 // Draws that drew the stage (d3dsim.stageDraws())
	gate  *stageGate    // boot.js's hold on Ebiten's frames while idle
}

func newGame(a *app) *game {
	g := &game{a: a, rim: ebiten.NewImage(1, 1), dirty: true, ticks: newTicker(a)}
	g.rim.Fill(frameRim)
	return g
}

// Update starts the ticks of a playing run (ticker: a slice of the scenario
// an animation frame, app.sliceLocked: the speed's API calls at most, and
// the slice's statement and clock bounds) and picks up a new frame if one
// was presented.
//
// Ebiten's game goroutine never waits for the app's lock: the slice runs on
// a goroutine of its own (tickAsync), which may suspend inside a long draw
// holding the lock until a timer task wakes it (yield.go), and the frame is
// picked up only when the lock is free. Ebiten's own JS callbacks (resize,
// input) wait for locks its game goroutine holds; had that goroutine waited
// in turn for the suspended slice, a callback would block the event loop
// the slice's wake-up needs, and the page spun for good (seen on page loads
// and reloads, where the canvas resizes while the first slices run).
func (g *game) Update() error {
	if g.a.mayTick() {
		g.ticks.start()
	}
	g.gen = g.a.frameIfFree(g.gen, func(f scenario.Frame, ok bool) {
		if !ok {
			if g.img != nil {
				g.img.Deallocate()
				g.img = nil
			}
			g.shown, g.dirty = nil, true
			return
		}
		w, h, pix := shownFrame(f) // (a frame past maxShown shrunk: shown.go)
		// The stage shows these pixels already: nothing to upload or draw.
		if g.img != nil && sameShown(g.img.Bounds().Dx(), g.img.Bounds().Dy(), g.shown, w, h, pix) {
			return
		}
		if g.img == nil || g.img.Bounds().Dx() != w || g.img.Bounds().Dy() != h {
			if g.img != nil {
				g.img.Deallocate()
			}
			g.img = ebiten.NewImage(w, h)
		}
		g.img.WritePixels(pix)
		g.shown, g.dirty = pix, true
	})
	if g.a.stageBusy(g.gen) {
		ebiten.ScheduleFrame()
		if g.gate != nil {
			g.gate.release() // an Update of input or a resize, while held
		}
	} else if g.gate != nil {
		g.gate.hold()
	}
	return nil
}

// Draw letterboxes the frame: the largest scale that fits (a whole number
// when the frame is smaller than the stage, so pixels stay square), nearest
// filtering, centred on a dark stage. It draws nothing when neither the
// frame nor the screen's size changed since the last Draw: the screen keeps
// what it shows (SetScreenClearedEveryFrame(false)), and Ebiten presents
// nothing new for a frame that drew nothing.
func (g *game) Draw(screen *ebiten.Image) {
	sw, sh := screen.Bounds().Dx(), screen.Bounds().Dy()
	if !g.dirty && sw == g.sw && sh == g.sh {
		return
	}
	g.dirty, g.sw, g.sh = false, sw, sh
	g.draws.Add(1)
	screen.Fill(stageBG)
	if g.img == nil {
		g.drawLabel(screen, sw, sh)
		return
	}
	fw, fh := g.img.Bounds().Dx(), g.img.Bounds().Dy()
	margin := 16.0 // web/app.js pixelAt repeats this placement
	s := math.Min((float64(sw)-2*margin)/float64(fw), (float64(sh)-2*margin)/float64(fh))
	if s >= 1 {
		s = math.Floor(s)
	}
	if s <= 0 {
		return
	}
	w, h := float64(fw)*s, float64(fh)*s
	x, y := math.Round((float64(sw)-w)/2), math.Round((float64(sh)-h)/2)

	rim := &ebiten.DrawImageOptions{}
	rim.GeoM.Scale(w+2, h+2)
	rim.GeoM.Translate(x-1, y-1)
	screen.DrawImage(g.rim, rim)

	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterNearest}
	op.GeoM.Scale(s, s)
	op.GeoM.Translate(x, y)
	screen.DrawImage(g.img, op)
}

// drawLabel shows "no frame yet" in the middle of the stage.
func (g *game) drawLabel(screen *ebiten.Image, sw, sh int) {
	const text = "no frame yet"
	if g.label == nil {
		g.label = ebiten.NewImageFromImage(labelImage(text))
	}
	s := math.Max(2, math.Floor(ebiten.Monitor().DeviceScaleFactor()*2))
	lw, lh := float64(g.label.Bounds().Dx())*s, float64(g.label.Bounds().Dy())*s
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterNearest}
	op.GeoM.Scale(s, s)
	op.GeoM.Translate(math.Round((float64(sw)-lw)/2), math.Round((float64(sh)-lh)/2))
	op.ColorScale.Scale(0.55, 0.6, 0.7, 1)
	screen.DrawImage(g.label, op)
}

// Layout renders at device pixels, so the frame's pixels stay sharp on
// high-DPI screens.
func (g *game) Layout(outsideWidth, outsideHeight int) (int, int) {
	d := ebiten.Monitor().DeviceScaleFactor()
	return max(1, int(float64(outsideWidth)*d)), max(1, int(float64(outsideHeight)*d))
}

// labelFont is a 5x7 bitmap of the letters the stage's label uses, row by
// row from the top ('#' lit). Ebiten's debug font would cost the download
// about 450 KB (gzip) for these nine letters.
var labelFont = map[rune][7]string{
	'n': {".....", ".....", "####.", "#...#", "#...#", "#...#", "#...#"},
	'o': {".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."},
	'f': {"..##.", ".#...", "####.", ".#...", ".#...", ".#...", ".#..."},
	'r': {".....", ".....", "#.##.", "##...", "#....", "#....", "#...."},
	'a': {".....", ".....", ".###.", "....#", ".####", "#...#", ".####"},
	'm': {".....", ".....", "##.#.", "#.#.#", "#.#.#", "#.#.#", "#.#.#"},
	'e': {".....", ".....", ".###.", "#...#", "#####", "#....", ".###."},
	'y': {".....", ".....", "#...#", "#...#", ".####", "....#", ".###."},
	't': {".#...", ".#...", "####.", ".#...", ".#...", ".#...", "..##."},
}

// labelImage draws text in labelFont, white on transparent, 6 pixels a
// character with a 1-pixel margin (an unknown rune is a blank).
func labelImage(text string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 6*len(text)+1, 9))
	for i, r := range text {
		g := labelFont[r]
		for y, row := range g {
			for x, c := range row {
				if c == '#' {
					img.Set(1+6*i+x, 1+y, color.White)
				}
			}
		}
	}
	return img
}

// ticker runs the playing run's ticks (app.tick: a slice each), one an
// animation frame, in animation frames of its own. They rode Ebitengine's
// Update once (one slice per drawn frame), but Ebitengine sleeps through
// a frame that draws nothing, to a 60th of a second after the last, before
// it asks for its next animation frame: the slice ran in that sleep and the
// next frame was asked for only after it, so a played scene whose picture
// did not change (the stage then draws nothing: sameShown) got a tick
// every other frame (the draws figure played presented 16-22 frames a
// second against 43). Ebitengine's Update only starts the ticker (a run
// played from the page, a link, a script all wake the stage) and picks up
// the frames. One tick a frame, as before: a late frame gets one slice,
// not several to catch up.
type ticker struct {
	a       *app
	running atomic.Bool // an animation frame is asked for
	cb      js.Func
}

func newTicker(a *app) *ticker {
	t := &ticker{a: a}
	t.cb = js.FuncOf(func(js.Value, []js.Value) any {
		if !t.a.mayTick() { // paused, or the run ended
			t.running.Store(false)
			return nil
		}
		t.a.tickAsync() // (nothing while the last tick is suspended in a long draw)
		t.request()
		return nil
	})
	return t
}

// start asks for the ticks' animation frames unless they are asked for.
func (t *ticker) start() {
	if t.running.CompareAndSwap(false, true) {
		t.request()
	}
}

// request asks for the next animation frame: the browser's
// requestAnimationFrame, looked up each time (boot.js lends Ebitengine a
// gated one while the module starts, and the ticks must not wait on the
// stage's gate).
func (t *ticker) request() {
	js.Global().Call("requestAnimationFrame", t.cb)
}
