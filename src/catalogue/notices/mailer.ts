// The SMTP side of notices (ADR 0085): one nodemailer transport to the configured server. `tls`
// is `off` (plain SMTP, STARTTLS ignored, e.g. a local MTA), `starttls` (must upgrade) or `on`
// (TLS from the first byte, port 465). Timeouts stay well inside a sender's lease.
import nodemailer from 'nodemailer';

export type SmtpTls = 'off' | 'starttls' | 'on';

export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  readonly from: string;
  readonly tls: SmtpTls;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
}

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** `<…@…>`: the same notice always carries the same Message-ID. */
  readonly messageId: string;
  readonly language: 'de' | 'en';
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Whether an SMTP error is the server's final "no" (5xx): retrying would be refused again. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export function smtpMailer(settings: SmtpSettings): Mailer {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls === 'on',
    requireTLS: settings.tls === 'starttls',
    ignoreTLS: settings.tls === 'off',
    ...(settings.user !== undefined && { auth: { user: settings.user, pass: settings.password ?? '' } }),
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
        headers: { 'Content-Language': message.language, 'Auto-Submitted': 'auto-generated' },
      });
    },
    close: () => transport.close(),
  };
}
