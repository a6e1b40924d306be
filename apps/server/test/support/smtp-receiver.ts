import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as it reached the receiver's DATA command. */
export interface SmtpArrival {
  messageId: string;
  to: string[];
  at: number;
  /** Whether the receiver answered 250 (accepted) to it. */
  accepted: boolean;
}

/**
 * A local SMTP server for tests of the result e-mail over the wire (smtp-server, nodemailer's own receiver): it
 * records each message's Message-ID, accepts it, or, after `holdNext()`, keeps the next one's DATA unanswered so
 * the sender can be killed mid-send (a message never answered 250 is not delivered).
 */
export function startSmtpReceiver() {
  const arrivals: SmtpArrival[] = [];
  let holdNext: ((messageId: string) => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '';
        const arrival: SmtpArrival = { messageId, to: session.envelope.rcptTo.map((r) => r.address), at: Date.now(), accepted: false };
        arrivals.push(arrival);
        if (holdNext) {
          const notify = holdNext;
          holdNext = undefined;
          notify(messageId);
          return;
        }
        arrival.accepted = true;
        callback();
      });
    },
  });
  return {
    arrivals,
    /** Accepted messages with this Message-ID. */
    acceptedCount: (messageId: string) => arrivals.filter((a) => a.messageId === messageId && a.accepted).length,
    /** Resolves with the Message-ID of the next message, whose DATA is never answered. */
    holdNext: () => new Promise<string>((resolve) => (holdNext = resolve)),
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
