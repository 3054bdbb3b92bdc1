export { compileTrust, createLinks, parseBase, requestBase } from './links.ts';
export type { PublicBase, TrustFunction } from './links.ts';
export { headerUrl } from './header-url.ts';
