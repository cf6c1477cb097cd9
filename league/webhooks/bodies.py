"""A message as its webhook's format wants it, and the Standard Webhooks headers that sign it.

- plain: ``{"type", "timestamp", "data"}``, the fact's data with its sentence as ``text``;
- Discord: ``{"content": sentence}`` (Discord's limit is 2,000 characters);
- Slack: ``{"text": sentence}``.

Every format is signed alike (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``);
``webhook-id`` is the message's own, the same at every try, so a receiver can tell a repeat.
"""

from __future__ import annotations

import json
from datetime import datetime

from standardwebhooks.webhooks import Webhook as Signer

from league.models import OutboxMessage, Webhook

DISCORD_MOST = 2000


def body(webhook: Webhook, message: OutboxMessage) -> bytes:
    if webhook.format == Webhook.Format.DISCORD:
        content: dict = {"content": message.text[:DISCORD_MOST]}
    elif webhook.format == Webhook.Format.SLACK:
        content = {"text": message.text}
    else:
        content = {
            "type": message.type,
            "timestamp": message.created_at.isoformat(),
            "data": {**message.data, "text": message.text},
        }
    return json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode()


def message_id(message: OutboxMessage) -> str:
    return f"msg_{message.pk}"


def signed_headers(webhook: Webhook, message: OutboxMessage, payload: bytes, at: datetime) -> dict:
    """The headers of one try at ``at`` (the present: a receiver refuses a timestamp more than
    five minutes off its clock)."""
    msg_id = message_id(message)
    return {
        "Content-Type": "application/json",
        "User-Agent": "Hadal-Webhooks/1",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Signer(webhook.secret).sign(msg_id, at, payload),
    }
