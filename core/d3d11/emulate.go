package d3d11

import (
	"fmt"

	"d3dsim/core/trace"
)

// Command-list emulation. A driver that does not report command-list support
// (option driver.commandlists=false) gets none of the deferred-context DDIs:
// the runtime records the API calls made on a deferred context and replays
// them on the immediate context at ExecuteCommandList, as the D3D11 runtime
// does for such drivers. The pixels are the same.

// recordedOp is one API call recorded on an emulated deferred context.
type recordedOp struct {
	name string
	do   func(ic *DeviceContext) error
}

type pinner interface {
	pin()
	unpin()
}

// record stores an API call of an emulated deferred context. The objects it
// names are held until the command list dies, as a command list's
// references are.
func (c *DeviceContext) record(name string, do func(ic *DeviceContext) error, objs ...any) error {
	cfg := c.dev.rt.cfg
	cfg.Sim.Charge(cfg.Costs.APICall)
	cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: name, Ctx: c.name, Args: trace.TextArgs("recorded")})
	for _, o := range objs {
		if p, ok := o.(pinner); ok && !isNil(p) {
			if alive, ok := o.(interface{ Alive() bool }); ok && !alive.Alive() {
				err := fmt.Errorf("%s uses a released object (rule LIFE-DANGLING)", name)
				cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: name, Ctx: c.name, HR: "E_INVALIDARG", Msg: err.Error()})
				return err
			}
			p.pin()
			c.held = append(c.held, p)
		}
	}
	c.ops = append(c.ops, recordedOp{name, do})
	cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: name, Ctx: c.name, HR: "S_OK", Args: trace.TextArgs("recorded")})
	return nil
}

// finishEmulated turns the recording into a command list the runtime owns.
func (c *DeviceContext) finishEmulated(name string, restore bool) (*CommandList, error) {
	l := &CommandList{dc: c, ops: c.ops, held: c.held}
	c.ops, c.held = nil, nil
	saved := c.bindings()
	hold := c.hold()
	c.unbindAll()
	if restore {
		c.restore(saved) // recorded again: the next list starts from this state
	}
	hold()
	c.dev.initChild(&l.object, name, func() {
		for _, p := range l.held {
			p.unpin()
		}
		l.held = nil
		l.setState("freed")
	})
	l.setState("valid")
	return l, nil
}

// executeEmulated replays a recorded command list on the immediate context,
// starting from and leaving the cleared state.
func (c *DeviceContext) executeEmulated(l *CommandList) error {
	if err := c.ClearState(); err != nil {
		return err
	}
	for _, op := range l.ops {
		if err := op.do(c); err != nil {
			return fmt.Errorf("replaying %s of %s: %w", op.name, l.name, err)
		}
	}
	return c.ClearState()
}
