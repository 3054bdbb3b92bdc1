// The staff lists' readable paths (ADR 0092); their own file so the layout's staff navigation
// and the desk can link them without importing the resources.
export const PATRONS_PATH = '/leser';
export const HOLD_SHELF_PATH = '/abholregal';
export const OVERDUE_PATH = '/ausleihen/ueberfaellig';
