"""Live play: what a browser hears while it watches.

push (the fan-out of each write to its game's and its people's channels, through Redis or in
process), streams (the server-sent event feeds), leases (how many streams one member or
address may hold), notices (your turn, an invitation, a round paired). It listens to the
store's write hook and to games.signals; it may import play's reads, the store and the models,
never api, pages or games.tasks.
"""
