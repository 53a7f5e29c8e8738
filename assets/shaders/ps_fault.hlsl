// builtin:ps_fault, the built-in pixel shader that faults on the GPU: a
// loop that never ends. The GPU stops the program at its step limit and
// reports the fault; the draw's covered pixels get the warning colour and
// the device goes on (a tolerated shader error, as in the article on why
// Draw is asynchronous).
// The return below is never reached; it gives the shader its output.

float4 main(float4 pos : SV_Position) : SV_Target
{
    [loop]
    for (;;)
    {
    }
    return pos;
}
