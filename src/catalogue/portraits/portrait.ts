// Deterministic generated portraits: the person's initials on a colour derived from the slug,
// so every person has a picture without anyone uploading one. Pure functions, no I/O.
import { escapeXmlText } from '../../http/representation/markup.ts';

/** FNV-1a, 32 bit: small, stable across runs and platforms. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** `Johann Wolfgang` + `von Goethe` → `JG`: first given name, last word of the family name. */
export function initialsOfName(vorname: string, nachname: string): string {
  const first = vorname.trim().charAt(0);
  const last = nachname.trim().split(/\s+/).pop()?.charAt(0) ?? '';
  return (first + last).toUpperCase() || '?';
}

/** `thomas-mann` → `TM`, used when no name is at hand. */
export function initialsOfSlug(slug: string): string {
  const parts = slug.split('-').filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return (
    letters
      .map((p) => p?.charAt(0) ?? '')
      .join('')
      .toUpperCase() || '?'
  );
}

export function portraitSvg(slug: string, initials: string): string {
  const h = hash(slug);
  const hue = h % 360;
  const accent = (hue + 40 + ((h >>> 9) % 60)) % 360;
  // Dark, fairly saturated backgrounds keep white initials above 4.5:1 contrast.
  const bg = `hsl(${hue} 45% 32%)`;
  const ring = `hsl(${accent} 50% 45%)`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" role="img" aria-label="${escapeXmlText(initials)}">
<rect width="160" height="160" fill="${bg}"/>
<circle cx="80" cy="80" r="64" fill="none" stroke="${ring}" stroke-width="6"/>
<text x="80" y="80" dy="0.35em" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-size="56" fill="#fff">${escapeXmlText(initials)}</text>
</svg>
`;
}

/** The default image: a neutral silhouette. */
export function silhouetteSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" role="img" aria-label="Portrait">
<rect width="160" height="160" fill="#dfe3e8"/>
<circle cx="80" cy="62" r="30" fill="#8a94a3"/>
<path d="M24 160c0-34 25-56 56-56s56 22 56 56z" fill="#8a94a3"/>
</svg>
`;
}
