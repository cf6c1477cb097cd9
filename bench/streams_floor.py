"""The floor bench_stack.py measures streams against: an ASGI app that answers every request
with an open server-sent events response and nothing more, until the client goes."""


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")],
        }
    )
    await send({"type": "http.response.body", "body": b"retry: 3000\n\n", "more_body": True})
    while (await receive())["type"] != "http.disconnect":
        pass
