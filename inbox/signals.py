"""What the inbox announces, once the transaction that made it true has committed.

- ``notices_changed(user_id, notice, counts, db)``: a member's inbox changed: ``notice`` is
  the new notice as the stream sends it (inbox.services.message), or None when notices were
  only read or closed; ``counts`` a function giving the member's counts now
  (inbox.services.counts: a query, made only by a receiver that has someone to tell). The live
  streams (games.live.notices) pass it on to /api/me/stream/.
- ``notice_created(notice)``: a new notice, for whoever delivers it further (inbox.delivery).
"""

from django.dispatch import Signal

notices_changed = Signal()
notice_created = Signal()
