"""A real SMTP server for the email tests: aiosmtpd on a free loopback port. Prints {"port": N} once listening,
then one JSON line per message received (envelope, subject, and the decoded plain-text and HTML parts, parsed
by Python's email package), before answering 250, so a sender that got its 250 finds the line already written."""
import asyncio
import email
import email.policy
import json
import sys

from aiosmtpd.smtp import SMTP


class Sink:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        part = lambda kind: (message.get_body((kind,)) or message).get_content() if message.is_multipart() else ""
        print(json.dumps({
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "headerFrom": str(message["from"]),
            "subject": str(message["subject"]),
            "contentType": message.get_content_type(),
            "text": part("plain"),
            "html": part("html"),
            "raw": envelope.content.decode("utf-8", "replace"),
        }), flush=True)
        return "250 OK"


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Sink()), "127.0.0.1", 0)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    # Ends with the test: its stdin closes when the test process drops the child.
    await loop.run_in_executor(None, sys.stdin.read)


asyncio.run(main())
