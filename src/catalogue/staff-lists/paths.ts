// The staff lists' readable paths (ADR 0092), from the registry; their own file so the layout's
// staff navigation and the desk can link them without importing the resources.
import { routeOf } from '../registry/index.ts';

export const PATRONS_PATH = routeOf('Patrons');
export const HOLD_SHELF_PATH = routeOf('HoldShelf');
export const OVERDUE_PATH = routeOf('OverdueLoans');
