// The rules' URLs (docs/urls.md, ADR 0093).
export const ITEM_TYPES_PATH = '/ausleihregeln/medientypen';
export const CLOSED_DAYS_PATH = '/ausleihregeln/schliesstage';
export const itemTypePath = (code: string): string => `${ITEM_TYPES_PATH}/${encodeURIComponent(code)}`;
export const closedDayPath = (day: string): string => `${CLOSED_DAYS_PATH}/${day}`;
