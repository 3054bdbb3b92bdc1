// The desk's lending page (ADR 0082); its own file so the layout's staff navigation can link it.
import { routeOf } from '../registry/index.ts';
export const DESK_PATH = routeOf('Desk');

/** The desk serving one patron, optionally saying which loan was just made. */
export const deskPath = (card: string, lentLoanId?: number): string =>
  `${DESK_PATH}?ausweis=${encodeURIComponent(card)}${lentLoanId === undefined ? '' : `&ausgeliehen=${lentLoanId}`}`;
