// The desk's check-in page (ADR 0061); its own file so the layout's staff navigation can link it.
import { routeOf } from '../registry/index.ts';
export const CHECK_IN_PATH = routeOf('CheckIn');
