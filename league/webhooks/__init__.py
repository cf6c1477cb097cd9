"""League webhooks: the club's news (results, pairings, standings, disputes) sent to addresses
its organisers give, each message exactly once and in order (docs/webhooks.md).

- ``addresses``: which URLs may receive (http or https to a public host), checked when one is
  added and again at every send.
- ``facts``: each fact in players' words and as data, one constructor per fact.
- ``outbox``: a fact's messages, written in the transaction that makes it true.
- ``bodies``: a message as its webhook's format wants it (plain JSON, Discord, Slack), signed.
- ``sending``: a webhook's queue drained in order under a lock, retried with backoff.
- ``services``: adding, removing, testing and resuming a webhook; its delivery log.
"""
