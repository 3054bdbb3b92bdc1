// Staff's circulation rules' readable paths (ADR 0093), from the registry.
import { pathBuilder, routeOf } from '../registry/index.ts';

export const ITEM_TYPES_PATH = routeOf('ItemTypes');
export const CLOSED_DAYS_PATH = routeOf('ClosedDays');
export const itemTypePath: (code: string) => string = pathBuilder('ItemType');
export const closedDayPath: (day: string) => string = pathBuilder('ClosedDay');
