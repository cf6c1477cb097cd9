"""What accounts announces to the apps above it, inside the transaction that makes it true.

- ``away_started(user_id, vacation)``: a member's vacation (accounts.Vacation) has begun:
  now (``"I am away"``), at its scheduled start, or taken for them instead of a timeout
  (``vacation.auto``). games stops the clocks of their correspondence games.
- ``away_ended(user_id, vacation)``: it is over (they are back, or its end has come). games
  starts those clocks again with the time each had left.
"""

from django.dispatch import Signal

away_started = Signal()
away_ended = Signal()
