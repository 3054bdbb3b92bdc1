export { createLinks, parseBase } from './links.ts';
