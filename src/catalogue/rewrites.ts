// The catalogue's rewrite table (docs/urls.md): readable paths → script handlers, like mod_rewrite.
// Collections (`/personen`, `/werke`) and the home page `/` are routes of their own.
import type { RewriteRule } from '../http/resource/types.ts';

export const catalogueRewrites: readonly RewriteRule[] = [
  { pattern: /^\/personen\/([^/.]+)$/, target: '/person?slug=$1' },
  // A person's life dates, their own resource (src/catalogue/life-dates, ADR 0026).
  { pattern: /^\/personen\/([^/.]+)\/lebensdaten$/, target: '/lebensdaten?slug=$1' },
  // A member's holds, one hold, and a work's queue for staff (src/catalogue/holds, ADR 0059).
  { pattern: /^\/personen\/([^/.]+)\/vormerkungen$/, target: '/vormerkungen?slug=$1' },
  { pattern: /^\/personen\/([^/.]+)\/vormerkungen\/(\d+)$/, target: '/vormerkung?slug=$1&id=$2' },
  { pattern: /^\/werke\/([^/.]+)\/vormerkungen$/, target: '/warteschlange?slug=$1' },
  // A person's account and its password (src/catalogue/accounts, ADR 0063): self and staff only.
  { pattern: /^\/personen\/([^/.]+)\/konto$/, target: '/konto?slug=$1' },
  { pattern: /^\/personen\/([^/.]+)\/konto\/passwort$/, target: '/konto/passwort?slug=$1' },
  // The patron's settings: e-mail address, language, notices (ADR 0093).
  { pattern: /^\/personen\/([^/.]+)\/konto\/einstellungen$/, target: '/konto/einstellungen?slug=$1' },
  // An item type and a closed day, staff's circulation rules (src/catalogue/rules, ADR 0093).
  { pattern: /^\/ausleihregeln\/medientypen\/([a-z0-9-]+)$/, target: '/medientyp?code=$1' },
  { pattern: /^\/ausleihregeln\/schliesstage\/(\d{4}-\d{2}-\d{2})$/, target: '/schliesstag?tag=$1' },
  // A password reset link (src/catalogue/password-reset, ADR 0093): the token is the secret.
  { pattern: /^\/passwort-neu\/([A-Za-z0-9_-]+)$/, target: '/passwort-neu?token=$1' },
  { pattern: /^\/werke\/([^/.]+)$/, target: '/werk?slug=$1' },
  // A work's copies and one copy by its number (src/catalogue/copies, ADR 0058).
  { pattern: /^\/werke\/([^/.]+)\/exemplare$/, target: '/exemplare?werk=$1' },
  { pattern: /^\/werke\/([^/.]+)\/exemplare\/(\d+)$/, target: '/exemplar?werk=$1&slug=$2' },
  // A user's loans and one loan of theirs (src/catalogue/loans). `/ausleihen` itself, the staff
  // list of loans due, is a route of its own.
  { pattern: /^\/ausleihen\/(\d+)$/, target: '/ausleihen?benutzer=$1' },
  { pattern: /^\/ausleihen\/(\d+)\/(\d+)$/, target: '/ausleihe?benutzer=$1&id=$2' },
  // A loan's renewal: POST renews it (ADR 0060).
  { pattern: /^\/ausleihen\/(\d+)\/(\d+)\/verlaengerung$/, target: '/verlaengerung?benutzer=$1&id=$2' },
];
